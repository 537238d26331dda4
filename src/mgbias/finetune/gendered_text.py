"""D_f and D_m: gendered sentences of a monolingual corpus (Kaneko et al. 2023, §2).

Given an unannotated corpus :math:`\\mathcal{D}` and word lists :math:`\\mathcal{V}_f`,
:math:`\\mathcal{V}_m`, let :math:`\\Phi(w)` be the sentences containing the word ``w``;

.. math::

    \\mathcal{D}_f = \\bigcup_{w \\in \\mathcal{V}_f} \\Phi(w), \\qquad
    \\mathcal{D}_m = \\bigcup_{w \\in \\mathcal{V}_m} \\Phi(w),

where a sentence with words of both lists is excluded from both (§2). Both sets are then
downsampled to the same size ``N`` (§2: :math:`|\\mathcal{D}_f| = |\\mathcal{D}_m| = N`;
2M in §3.1), and "a separate 100K sentences" are kept as development data (§3.1), used
only for the evaluation loss. The paper does not say how the development set is split by
gender; here it holds ``n_dev`` sentences of each gender, drawn from the same mined sets
as, and disjoint from, the training sentences.

Reading and matching
--------------------
The corpus is one sentence per line (plain or gzip UTF-8, :mod:`mgbias.mlm.text_lines`;
blank lines are skipped, surrounding whitespace stripped, as distributed: no
re-splitting, no de-duplication). A sentence's gender is
:func:`mgbias.wordlists.gender_words.gender_of`: whole-word, case-insensitive matching on
Unicode word
tokens, so the same code serves English and the German, Spanish and French lists
(``kaneko2023_{lang}_{female,male}``). Disjointness of the outputs is by corpus line: a
sentence repeated in the corpus can be drawn once for training and once for development.

Sampling
--------
For each gender, ``N + n_dev`` of its mined lines are drawn uniformly without
replacement (:meth:`numpy.random.Generator.choice`); the first ``n_dev`` draws are the
development set, the rest the training set. Each output keeps the corpus order. The
female and male draws use the two streams spawned from
``numpy.random.SeedSequence(seed)`` (female first), as
:func:`mgbias.kaneko2022.mining.downsample_to_equal`, so the same seed gives the same bytes.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from mgbias.files.atomic import atomic_paths
from mgbias.kaneko2022.mining import one_line, split_lines
from mgbias.mlm.text_lines import iter_text_lines
from mgbias.seeds import check_seed
from mgbias.wordlists.gender_words import BOTH, gender_of
from mgbias.wordlists.genders import FEMALE, MALE

__all__ = [
    "COUNT_COLUMNS",
    "GenderedTextCounts",
    "counts_frame",
    "mine_gendered_text",
    "split_train_dev",
]


@dataclass(frozen=True)
class GenderedTextCounts:
    """Sentence counts of one corpus and language (the table "mined, both, kept").

    ``n_sentences = n_female + n_male + n_both + n_neutral``. ``n_female`` and ``n_male``
    are the mined sets before downsampling, ``n_both`` the excluded sentences with words
    of both lists; ``n_kept`` (= N) training and ``n_dev`` development sentences are
    kept per gender.
    """

    n_sentences: int
    n_female: int
    n_male: int
    n_both: int
    n_neutral: int
    n_kept: int
    n_dev: int

    def to_dict(self) -> dict[str, int]:
        """The counts as a JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GenderedTextCounts:
        """Counts from :meth:`to_dict` output; extra keys (e.g. wildcards) are ignored.

        Raises
        ------
        ValueError
            On a missing key or a value that is not a non-negative integer.
        """
        values = {}
        for field in fields(cls):
            value = data.get(field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(
                    f"gendered text counts: key {field.name!r} must be a non-negative "
                    f"integer, got {value!r}"
                )
            values[field.name] = value
        return cls(**values)


#: Columns of :func:`counts_frame` after the caller's keys.
COUNT_COLUMNS = [field.name for field in fields(GenderedTextCounts)]


def counts_frame(records: Iterable[Mapping[str, Any]], keys: Sequence[str]) -> pd.DataFrame:
    """One row per record: its ``keys`` (e.g. corpus, lang) then the counts, sorted by keys.

    Parameters
    ----------
    records
        Mappings holding ``keys`` and the fields of :class:`GenderedTextCounts` (the
        counts JSON written next to D_f and D_m, with the wildcards added).
    keys
        Identifying columns, first in the table and its sort order.
    """
    rows = []
    for record in records:
        missing = [key for key in keys if key not in record]
        if missing:
            raise ValueError(f"gendered text counts record {dict(record)} lacks keys {missing}")
        counts = GenderedTextCounts.from_dict(record).to_dict()
        rows.append({**{key: record[key] for key in keys}, **counts})
    frame = pd.DataFrame(rows, columns=[*keys, *COUNT_COLUMNS])
    return frame.sort_values(list(keys), ignore_index=True) if keys else frame


def split_train_dev(
    n_lines: int, n: int, n_dev: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n`` training and ``n_dev`` development line indices out of ``n_lines``.

    ``n + n_dev`` distinct indices are drawn uniformly without replacement; the first
    ``n_dev`` draws are development, the others training. Both are returned sorted.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Training indices, development indices; disjoint.

    Raises
    ------
    ValueError
        If ``n + n_dev > n_lines``.
    """
    if n + n_dev > n_lines:
        raise ValueError(f"cannot draw {n} + {n_dev} lines out of {n_lines}")
    picked = rng.choice(n_lines, size=n + n_dev, replace=False)
    return np.sort(picked[n_dev:]), np.sort(picked[:n_dev])


def _classify(
    text_files: Sequence[Path],
    female: frozenset[str],
    male: frozenset[str],
    sinks: Mapping[str, Any],
    progress: bool,
) -> dict[str, int]:
    counts = {FEMALE: 0, MALE: 0, BOTH: 0, None: 0}
    lines = tqdm(
        iter_text_lines(text_files),
        unit=" sentences",
        desc="gendered sentences",
        disable=None if progress else True,
    )
    for line in lines:
        sentence = one_line(line)
        gender = gender_of(sentence, female, male)
        counts[gender] += 1
        if gender in sinks:
            sinks[gender].write(sentence + "\n")
    return counts


def mine_gendered_text(
    text_files: Sequence[Path] | Path,
    female: frozenset[str],
    male: frozenset[str],
    *,
    out_female: Path,
    out_male: Path,
    out_dev_female: Path,
    out_dev_male: Path,
    n: int | None,
    n_dev: int,
    seed: int,
    workdir: Path | None = None,
    progress: bool = True,
) -> GenderedTextCounts:
    """Mine D_f and D_m from monolingual text, downsample to N each, hold out dev sets.

    Parameters
    ----------
    text_files
        One or more plain or gzip UTF-8 files, one sentence per line.
    female, male
        Word lists :math:`\\mathcal{V}_f`, :math:`\\mathcal{V}_m` (e.g.
        ``load_gender_words("kaneko2023_en_female", "kaneko2023_en_male")``).
    out_female, out_male
        Training sentences of each gender, ``n`` lines each, in corpus order.
    out_dev_female, out_dev_male
        Development sentences of each gender, ``n_dev`` lines each (may be empty files).
    n
        N, training sentences per gender (paper: 2,000,000); ``None`` takes the most
        both genders allow after the development sets:
        ``min(n_female, n_male) - n_dev``.
    n_dev
        Development sentences per gender (paper: 100K in all, so 50,000).
    seed
        Seed of the draws (see the module docstring).
    workdir
        Directory of the temporary mined sets (default: that of ``out_female``).
    progress
        Show a tqdm counter (only when stderr is a terminal).

    Returns
    -------
    GenderedTextCounts

    Raises
    ------
    ValueError
        If a gender has fewer than ``n + n_dev`` mined sentences (the message names the
        files and the counts), or ``n``/``n_dev`` are not valid sizes.

    The four outputs are written to temporary files and renamed into place together
    (:func:`mgbias.files.atomic.atomic_paths`) once all are complete.
    """
    check_seed(seed)
    files = (
        [Path(text_files)] if isinstance(text_files, str | Path) else list(map(Path, text_files))
    )
    if not files:
        raise ValueError("mine_gendered_text: no text files given")
    if isinstance(n_dev, bool) or not isinstance(n_dev, int) or n_dev < 0:
        raise ValueError(f"n_dev must be a non-negative integer, got {n_dev!r}")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise ValueError(f"n must be a positive integer or None, got {n!r}")
    outputs = [Path(out_female), Path(out_male), Path(out_dev_female), Path(out_dev_male)]
    scratch_parent = Path(workdir) if workdir is not None else outputs[0].parent
    scratch_parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch_parent, prefix=".gendered-text.") as scratch:
        mined = {FEMALE: Path(scratch) / "female.txt", MALE: Path(scratch) / "male.txt"}
        with (
            open(mined[FEMALE], "w", encoding="utf-8", newline="\n") as female_sink,
            open(mined[MALE], "w", encoding="utf-8", newline="\n") as male_sink,
        ):
            counts = _classify(
                files, female, male, {FEMALE: female_sink, MALE: male_sink}, progress
            )
        n_female, n_male = counts[FEMALE], counts[MALE]
        # the rarer gender decides: it needs N (at least one) training sentences and n_dev
        rarer, available = min((FEMALE, n_female), (MALE, n_male), key=lambda item: item[1])
        if available < (n or 1) + n_dev:
            lower = [name for name, given in (("n", n is not None), ("n_dev", n_dev > 0)) if given]
            remedy = f"lower {' or '.join(lower)}, or give" if lower else "give"
            raise ValueError(
                f"{', '.join(map(str, files))}: {n_female} female and {n_male} male "
                f"sentences mined; {rarer} has {available}, fewer than N = {n or 1} "
                f"training + {n_dev} development sentences ({remedy} text with more "
                f"{rarer} sentences)"
            )
        n_kept = available - n_dev if n is None else n
        female_rng, male_rng = (
            np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(2)
        )
        plan = [
            (mined[FEMALE], split_train_dev(n_female, n_kept, n_dev, female_rng)),
            (mined[MALE], split_train_dev(n_male, n_kept, n_dev, male_rng)),
        ]
        with atomic_paths(*outputs) as temps:
            handles = [open(temp, "w", encoding="utf-8", newline="\n") for temp in temps]
            try:
                train_female, train_male, dev_female, dev_male = handles
                for (source, (train, dev)), (train_sink, dev_sink) in zip(
                    plan, ((train_female, dev_female), (train_male, dev_male)), strict=True
                ):
                    split_lines(source, [(train, train_sink), (dev, dev_sink)])
            finally:
                for handle in handles:
                    handle.close()
    return GenderedTextCounts(
        n_sentences=sum(counts.values()),
        n_female=counts[FEMALE],
        n_male=counts[MALE],
        n_both=counts[BOTH],
        n_neutral=counts[None],
        n_kept=n_kept,
        n_dev=n_dev,
    )
