"""inBias: intrinsic gender bias of word vectors from gendered word pairs (Zhao et al. 2020).

For N occupation pairs ``(O_Mi, O_Fi)`` (masculine and feminine form, e.g. doctor /
doctora) and gender seed pairs ``(m_j, f_j)``, with the seed sets ``S_M = {m_j}`` and
``S_F = {f_j}``, Eq. (1) of Zhao et al. (2020) reads::

    inBias = (1/N) Σ_i | dis(O_Mi, S_M) − dis(O_Fi, S_F) |
    dis(O, S) = (1/|S|) Σ_{s∈S} (1 − cos(O, s))

Two readings of the per-occupation score ``b_i`` (inBias is their mean):

- ``"averaged"`` (default): Eq. (1) as printed, the absolute value of the difference of
  the seed-averaged distances, ``b_i = | dis(O_Mi, S_M) − dis(O_Fi, S_F) |``;
- ``"pairwise"``: the authors' code (``intrinsic/inBias.ipynb``, ``cal_bias_paired``),
  which takes the absolute value per seed pair and then averages,
  ``b_i = (1/|P|) Σ_j | (1 − cos(O_Mi, m_j)) − (1 − cos(O_Fi, f_j)) |``. It reproduces
  every published number. By the triangle inequality it is never below ``"averaged"``;
  the two agree when every per-pair difference has the same sign.

All words are looked up in the same space (the language's own, or that space mapped into
another language's), so inBias uses within-space cosines only and is unchanged by any
orthogonal map of the whole space: alignment changes it only through the non-orthogonal
part of the map. Lower is less biased; 0 means every occupation pair sits symmetrically
between the male and the female seeds.

Significance (the paper's ``*``): a t-test of the ``b_i`` before against after alignment.
The authors use the unpaired ``scipy.stats.ttest_ind`` (default); the scores are paired
by occupation, so ``paired=True`` runs ``scipy.stats.ttest_rel`` instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from mgbias.errors import MissingWordsError
from mgbias.measures.linalg import unit_rows
from mgbias.stats import finite_vector, mean_standard_error

__all__ = [
    "STRONG_PAIRS_EN",
    "VARIANTS",
    "InBiasResult",
    "WordSpace",
    "inbias",
    "inbias_scores",
    "inbias_standard_error",
    "inbias_ttest",
    "seed_distance",
    "strong_weak_means",
    "vocabulary_filter",
]

#: ``"averaged"``: Eq. (1) as printed; ``"pairwise"``: the authors' code.
VARIANTS = ("averaged", "pairwise")
#: The first 137 English MIBs pairs have distinct forms (strong-gendered; Tables 12-13).
STRONG_PAIRS_EN = 137


@runtime_checkable
class WordSpace(Protocol):
    """What :func:`inbias` reads of a space: :class:`mgbias.embeddings.vectors.Vectors`,
    or any object with its ``source`` name, ``word in space`` and ``space.rows(words)``
    (the ``(len(words), d)`` vectors, ``KeyError`` for a missing word)."""

    source: str

    def __contains__(self, word: object) -> bool: ...

    def rows(self, words: Iterable[str]) -> np.ndarray: ...


def seed_distance(o: np.ndarray, seeds: np.ndarray) -> float:
    """``dis(O, S) = (1/|S|) Σ_{s∈S} (1 − cos(O, s))`` (Zhao et al. 2020, Eq. 1)."""
    o = np.asarray(o, dtype=np.float64)
    seeds = np.atleast_2d(np.asarray(seeds, dtype=np.float64))
    cosines = unit_rows(seeds) @ (o / np.linalg.norm(o))
    return float(np.mean(1.0 - cosines))


def inbias_scores(
    masculine: np.ndarray,
    feminine: np.ndarray,
    male_seeds: np.ndarray,
    female_seeds: np.ndarray,
    variant: str = "averaged",
) -> np.ndarray:
    """Per-occupation scores ``b_i`` of inBias (Zhao et al. 2020, Eq. 1; module docstring).

    Parameters
    ----------
    masculine, feminine
        ``(N, d)`` vectors of ``O_Mi`` and ``O_Fi``, row ``i`` one occupation.
    male_seeds, female_seeds
        ``(P, d)`` vectors of the seed pairs ``(m_j, f_j)``, row ``j`` one pair.
    variant
        ``"averaged"`` (Eq. 1 as printed) or ``"pairwise"`` (the authors' code).

    Returns
    -------
    numpy.ndarray
        ``(N,)`` float64.
    """
    if variant not in VARIANTS:
        raise ValueError(f"inBias variant must be one of {VARIANTS}, got {variant!r}")
    om, of = (unit_rows(np.asarray(a, dtype=np.float64)) for a in (masculine, feminine))
    sm, sf = (unit_rows(np.asarray(a, dtype=np.float64)) for a in (male_seeds, female_seeds))
    if om.shape != of.shape or sm.shape != sf.shape or om.shape[1] != sm.shape[1]:
        raise ValueError(
            f"shapes do not match: masculine {om.shape}, feminine {of.shape}, male seeds "
            f"{sm.shape}, female seeds {sf.shape}"
        )
    # (1 − cos(O_Mi, m_j)) − (1 − cos(O_Fi, f_j)) for every occupation i and seed pair j
    gaps = (1.0 - om @ sm.T) - (1.0 - of @ sf.T)
    if variant == "averaged":
        return np.abs(gaps.mean(axis=1))
    return np.abs(gaps).mean(axis=1)


@dataclass(frozen=True)
class InBiasResult:
    """inBias of one space on one list of pairs.

    Attributes
    ----------
    value
        inBias, the mean of ``scores``.
    scores
        ``b_i`` per kept pair, in list order.
    pairs
        The kept ``(masculine, feminine)`` pairs.
    indices
        Position of each kept pair in the full list.
    seeds
        The ``(male, female)`` seed pairs used.
    variant
        ``"averaged"`` or ``"pairwise"``.
    """

    value: float
    scores: np.ndarray
    pairs: tuple[tuple[str, str], ...]
    indices: tuple[int, ...]
    seeds: tuple[tuple[str, str], ...]
    variant: str

    @property
    def n(self) -> int:
        """Number of pairs scored (N)."""
        return len(self.pairs)

    @property
    def se(self) -> float:
        """The standard error of inBias over the occupation pairs
        (:func:`inbias_standard_error`)."""
        return inbias_standard_error(self.scores)


def inbias_standard_error(scores) -> float:
    """The standard error of inBias, the mean of the per-occupation scores ``b_i``:
    ``sd(b, ddof=1) / sqrt(N)``, the occupation pairs taken as independent draws from
    the list they stand for; NaN for fewer than two pairs.

    >>> round(inbias_standard_error([0.1, 0.3]), 6)
    0.1
    """
    return mean_standard_error(finite_vector(scores, "inBias scores"))


def vocabulary_filter(
    pairs: Sequence[tuple[str, str]], vocabulary: WordSpace | Iterable[str]
) -> list[int]:
    """Indices of the pairs whose two forms are both in ``vocabulary``.

    Zhao et al. filter with the vocabulary of the language's *original* space and score
    the same kept list in every aligned space of that language.
    """
    words = vocabulary if isinstance(vocabulary, WordSpace) else set(vocabulary)
    return [i for i, (m, f) in enumerate(pairs) if m in words and f in words]


def inbias(
    vectors: WordSpace,
    pairs: Sequence[tuple[str, str]],
    seeds: Sequence[tuple[str, str]],
    variant: str = "averaged",
    keep: Sequence[int] | None = None,
) -> InBiasResult:
    """inBias of ``vectors`` on occupation ``pairs`` with gender ``seeds``.

    Parameters
    ----------
    vectors
        The space (original or aligned): a :class:`~mgbias.embeddings.vectors.Vectors`
        (:class:`WordSpace`).
    pairs
        ``(masculine, feminine)`` occupation pairs, the full list.
    seeds
        ``(male, female)`` seed pairs; each must be in ``vectors``.
    variant
        ``"averaged"`` (Eq. 1 as printed, default) or ``"pairwise"`` (the authors' code).
    keep
        Indices of the pairs to score (from :func:`vocabulary_filter` on the original
        space); default: those whose forms are in ``vectors``.

    Returns
    -------
    InBiasResult
    """
    if not seeds:
        raise ValueError("inBias needs at least one seed pair")
    missing = [w for pair in seeds for w in pair if w not in vectors]
    if missing:
        raise MissingWordsError(
            f"{vectors.source}: seed words {missing} are not in the vocabulary; the seed "
            "pairs do not fit these vectors (of another language?)"
        )
    keep = list(vocabulary_filter(pairs, vectors) if keep is None else keep)
    if not keep:
        raise ValueError(f"{vectors.source}: no occupation pair has both forms in the vocabulary")
    kept = [pairs[i] for i in keep]
    absent = [w for pair in kept for w in pair if w not in vectors]
    if absent:
        raise MissingWordsError(
            f"{vectors.source}: words {absent[:5]} of the kept pairs are not in the vocabulary"
        )
    scores = inbias_scores(
        vectors.rows(m for m, _ in kept),
        vectors.rows(f for _, f in kept),
        vectors.rows(m for m, _ in seeds),
        vectors.rows(f for _, f in seeds),
        variant,
    )
    return InBiasResult(
        value=float(scores.mean()),
        scores=scores,
        pairs=tuple(kept),
        indices=tuple(keep),
        seeds=tuple(seeds),
        variant=variant,
    )


def inbias_ttest(before, after, paired: bool = False) -> tuple[float, float]:
    """t statistic and two-sided p-value of the ``b_i`` before vs after alignment.

    ``paired=False`` (the authors'): Student's two-sample t-test with equal variances,
    ``scipy.stats.ttest_ind``; ``paired=True``: ``scipy.stats.ttest_rel`` over the same
    occupations.
    """
    from scipy import stats  # here: an alignment step imports this module, not the test

    before = finite_vector(before, "before")
    after = finite_vector(after, "after")
    if paired:
        if before.shape != after.shape:
            raise ValueError(
                f"a paired test needs equal lengths, got {before.size} and {after.size}"
            )
        result = stats.ttest_rel(before, after)
    else:
        result = stats.ttest_ind(before, after)
    return float(result.statistic), float(result.pvalue)


def strong_weak_means(result: InBiasResult, n_strong: int = STRONG_PAIRS_EN) -> tuple[float, float]:
    """Mean ``b_i`` of the strong-gendered and of the weak-gendered pairs (Tables 12-13).

    A pair is strong when its position in the *full* list is below ``n_strong`` (the
    first 137 English MIBs pairs, whose forms differ). The authors slice the
    vocabulary-filtered list at 137; the two agree when no English pair is filtered out,
    as in the paper. A group with no pair gives NaN.
    """
    indices = np.asarray(result.indices)
    strong = indices < n_strong
    scores = result.scores
    mean = lambda values: float(values.mean()) if values.size else float("nan")  # noqa: E731
    return mean(scores[strong]), mean(scores[~strong])
