"""D_r: training sets with a male rate r (Kaneko et al. 2023, §2).

.. math::

    \\mathcal{D}_r = \\mathcal{S}_r(\\mathcal{D}_m) \\cup \\mathcal{S}_{1-r}(\\mathcal{D}_f),
    \\qquad |\\mathcal{S}_r(\\mathcal{D}_m)| = \\operatorname{round}(N r), \\quad
    |\\mathcal{S}_{1-r}(\\mathcal{D}_f)| = N - \\operatorname{round}(N r).

So :math:`|\\mathcal{D}_r| = N`, ``r = 0`` gives only female sentences and ``r = 1``
only male ones. The paper's prose says the opposite ("a subset S_r(D_m) of Nr sentences
from D_f and a subset S_{1-r}(D_f) of N(1-r) sentences from D_m"); its subscripts and its
endpoints ("when r = 0, D_r consists of only female sentences") agree with the formula
above, which is what is implemented.

Rounding
--------
The paper's sizes (N = 2M, r in steps of 0.1) are integers; for other N the male count
is N·r rounded **half up** by default (``rounding="half_up"``: 2.5 -> 3), computed in
decimal arithmetic from r's shortest representation, so ``r = 0.3`` means exactly 3/10
and binary floating point never moves a tie (``N·r`` for ``N = 5, r = 0.3`` is 1.5, which
gives 2). ``rounding="half_even"`` is Python's :func:`round` (2.5 -> 2, 3.5 -> 4).

Sampling
--------
- ``nested`` (default): each of D_f and D_m is shuffled once (the stream depends on the
  seed and the repeat, not on r) and prefixes are taken, so D_r and D_r' differ only in
  the male/female split: every sentence of the smaller male part is in the larger one.
- ``independent``: each r draws its own subsets (the stream also depends on r).

The paper (a single run per r) does not say which; nested sets remove sampling noise
between neighbouring r. The union is then shuffled (a stream of seed, repeat and r), so
the male and female sentences are interleaved when the fine-tuning groups consecutive
lines into blocks. Several repeats per r use ``repeat = 0, 1, ...``: each repeat is a
different seed for every draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Literal

import numpy as np

from mgbias.files.atomic import atomic_path
from mgbias.seeds import check_seed, derive_seed
from mgbias.wordlists.genders import FEMALE, MALE
from mgbias.workflow.schema import key_default as _setting

__all__ = ["ROUNDING", "SAMPLING", "Mixture", "mixture_indices", "mixture_sizes", "write_mixture"]

SAMPLING = ("nested", "independent")
ROUNDING = {"half_up": ROUND_HALF_UP, "half_even": ROUND_HALF_EVEN}


def _check_rate(r: float) -> float:
    if isinstance(r, bool) or not isinstance(r, int | float) or not 0.0 <= float(r) <= 1.0:
        raise ValueError(f"the male rate r must be a number in [0, 1], got {r!r}")
    return float(r)


def mixture_sizes(
    n: int, r: float, rounding: Literal["half_up", "half_even"] = _setting("kaneko2023.rounding")
) -> tuple[int, int]:
    """Sizes of the male and female parts of D_r (Kaneko et al. 2023, §2).

    Parameters
    ----------
    n
        N, the size of D_r.
    r
        The male rate, in [0, 1].
    rounding
        ``"half_up"`` (default) or ``"half_even"`` (Python's :func:`round`) for N·r,
        computed exactly from r's shortest decimal representation.

    Returns
    -------
    (int, int)
        ``(round(N·r), N - round(N·r))``: male, female.

    Examples
    --------
    >>> mixture_sizes(1000, 0.25)
    (250, 750)
    >>> mixture_sizes(5, 0.5), mixture_sizes(5, 0.5, rounding="half_even")
    ((3, 2), (2, 3))
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"N must be a non-negative integer, got {n!r}")
    if rounding not in ROUNDING:
        raise ValueError(f"rounding must be one of {sorted(ROUNDING)}, got {rounding!r}")
    exact = Decimal(repr(_check_rate(r))) * n
    n_male = int(exact.quantize(Decimal(1), rounding=ROUNDING[rounding]))
    return n_male, n - n_male


@dataclass(frozen=True)
class Mixture:
    """What one D_r holds: its parameters and the line indices drawn from D_f and D_m.

    ``male`` and ``female`` index the lines of the D_m and D_f files; ``order`` lists
    the lines of D_r as ``(gender, index)`` pairs in output order.
    """

    r: float
    n: int
    seed: int
    repeat: int
    sampling: str
    rounding: str
    male: np.ndarray
    female: np.ndarray
    order: list[tuple[str, int]]

    def summary(self) -> dict[str, object]:
        """JSON-ready parameters and sizes (no indices)."""
        return {
            "r": self.r,
            "n": self.n,
            "n_male": len(self.male),
            "n_female": len(self.female),
            "seed": self.seed,
            "repeat": self.repeat,
            "sampling": self.sampling,
            "rounding": self.rounding,
        }


def _gender_stream(seed: int, repeat: int, gender: str, r: float | None) -> np.random.Generator:
    keys: list[object] = ["mixture", repeat, gender]
    if r is not None:
        keys.append(repr(r))
    return np.random.default_rng(derive_seed(seed, *keys))


def mixture_indices(
    n_female_lines: int,
    n_male_lines: int,
    r: float,
    *,
    seed: int,
    n: int | None = None,
    repeat: int = 0,
    sampling: Literal["nested", "independent"] = _setting("kaneko2023.sampling"),
    rounding: Literal["half_up", "half_even"] = _setting("kaneko2023.rounding"),
) -> Mixture:
    """Choose the lines of D_r out of D_f (``n_female_lines``) and D_m (``n_male_lines``).

    Parameters
    ----------
    n_female_lines, n_male_lines
        Sizes of the D_f and D_m files.
    r
        Male rate in [0, 1].
    seed
        Seed of every draw (with ``repeat``; see the module docstring).
    n
        N; by default the size of D_f and D_m, which must then be equal.
    repeat
        Index of the repeat (0, 1, ...): a different sample per repeat.
    sampling
        ``"nested"`` (default) or ``"independent"``.
    rounding
        See :func:`mixture_sizes`.

    Returns
    -------
    Mixture

    Raises
    ------
    ValueError
        On an unknown ``sampling``, an ``r`` outside [0, 1], or an N larger than D_f or
        D_m (or, with ``n=None``, D_f and D_m of different sizes).
    """
    check_seed(seed)
    check_seed(repeat)
    r = _check_rate(r)
    if sampling not in SAMPLING:
        raise ValueError(f"sampling must be one of {SAMPLING}, got {sampling!r}")
    if n is None:
        if n_female_lines != n_male_lines:
            raise ValueError(
                f"D_f has {n_female_lines} lines and D_m {n_male_lines}; give N explicitly "
                "or downsample both to the same size"
            )
        n = n_female_lines
    if n > min(n_female_lines, n_male_lines):
        raise ValueError(
            f"N = {n} is larger than D_f ({n_female_lines} lines) or D_m ({n_male_lines} lines)"
        )
    n_male, n_female = mixture_sizes(n, r, rounding)
    rate_key = None if sampling == "nested" else r
    male = _gender_stream(seed, repeat, MALE, rate_key).permutation(n_male_lines)[:n_male]
    female = _gender_stream(seed, repeat, FEMALE, rate_key).permutation(n_female_lines)[:n_female]
    pooled = [(MALE, int(i)) for i in male] + [(FEMALE, int(i)) for i in female]
    shuffle = np.random.default_rng(derive_seed(seed, "mixture", repeat, "order", repr(r)))
    order = [pooled[i] for i in shuffle.permutation(len(pooled))]
    return Mixture(r, n, seed, repeat, sampling, rounding, male, female, order)


class _Lines:
    """A text file's bytes and line offsets: line ``i`` is ``data[starts[i]:ends[i]]``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            data += b"\n"
        ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == ord("\n")) + 1
        self.data = data
        self.starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
        self.ends = ends.astype(np.int64)

    def __len__(self) -> int:
        return len(self.ends)

    def line(self, index: int) -> bytes:
        return self.data[self.starts[index] : self.ends[index]]


def write_mixture(
    female_file: Path,
    male_file: Path,
    r: float,
    out_path: Path,
    *,
    seed: int,
    n: int | None = None,
    repeat: int = 0,
    sampling: Literal["nested", "independent"] = _setting("kaneko2023.sampling"),
    rounding: Literal["half_up", "half_even"] = _setting("kaneko2023.rounding"),
) -> Mixture:
    """Write D_r, one sentence per line, from the D_f and D_m files (atomically).

    Lines are copied byte for byte (each ends in ``\\n``), in the shuffled order of
    :func:`mixture_indices`, whose parameters this takes. The same inputs and parameters
    give the same bytes.

    Returns
    -------
    Mixture
        What was written; :meth:`Mixture.summary` is a JSON-ready record.
    """
    female_lines, male_lines = _Lines(Path(female_file)), _Lines(Path(male_file))
    mixture = mixture_indices(
        len(female_lines),
        len(male_lines),
        r,
        seed=seed,
        n=n,
        repeat=repeat,
        sampling=sampling,
        rounding=rounding,
    )
    sources = {FEMALE: female_lines, MALE: male_lines}
    with atomic_path(out_path) as tmp, open(tmp, "wb") as handle:
        for gender, index in mixture.order:
            handle.write(sources[gender].line(index))
    return mixture
