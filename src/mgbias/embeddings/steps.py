"""File-to-file steps of the static-embedding experiments, shared by scripts and the CLI.

Each step reads its inputs, calls the library and writes its outputs atomically, so a
workflow job (``scripts/*.py``) and the ``mgbias`` command give the same numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mgbias.embeddings.dictionaries import check_test_coverage, read_dictionary
from mgbias.embeddings.duplicates import DEFAULT_DUPLICATES
from mgbias.embeddings.mibs import read_occupation_pairs, read_seed_pairs
from mgbias.embeddings.rcsls_config import RCSLSConfig
from mgbias.embeddings.vectors import read_vectors, write_vec
from mgbias.errors import InputError
from mgbias.files.atomic import atomic_path, write_json
from mgbias.measures.inbias import (
    STRONG_PAIRS_EN,
    InBiasResult,
    inbias,
    inbias_ttest,
    strong_weak_means,
    vocabulary_filter,
)
from mgbias.workflow.schema import key_default as _setting

if TYPE_CHECKING:
    import pandas as pd

    from mgbias.embeddings.bli import BLIResult
    from mgbias.embeddings.debias import DebiasResult
    from mgbias.embeddings.rcsls import AlignmentResult

# The steps import torch (alignment, BLI), scikit-learn (debiasing), pandas and scipy
# (inBias's table and t-test) where they run: each step needs only its own, and each
# costs a job or a command seconds to import (`mgbias align` needs neither pandas nor
# scipy.stats).

__all__ = [
    "InBiasReport",
    "align_files",
    "bli_files",
    "debias_file",
    "dictionary_path",
    "inbias_files",
    "read_inbias_scores",
    "write_matrix",
]

logger = logging.getLogger(__name__)


def dictionary_path(inputs: Mapping[str, Any], params: Any, key: str) -> str:
    """A job's dictionary file: the input named ``key``, or ``params.<key>`` in ``dictionaries``.

    A job gets a MUSE dictionary either as its own input (``dico_train=...``) or as a
    file name (``params.dico_train``) inside its ``dictionaries`` input directory.

    >>> dictionary_path({"dictionaries": "muse"}, type("P", (), {"dico_test": "de-en.txt"}),
    ...                 "dico_test")
    'muse/de-en.txt'
    >>> dictionary_path({"dico_test": "own.txt"}, None, "dico_test")
    'own.txt'
    """
    if key in inputs:
        return str(inputs[key])
    return str(Path(inputs["dictionaries"]) / getattr(params, key))


def write_matrix(path: str | Path, matrix: np.ndarray) -> None:
    """Save a matrix as ``.npy``, atomically."""
    with atomic_path(path, suffix=".npy") as tmp, open(tmp, "wb") as stream:
        np.save(stream, np.asarray(matrix))


def align_files(
    src_emb: str | Path,
    tgt_emb: str | Path,
    dico_train: str | Path,
    output: str | Path,
    config: RCSLSConfig,
    matrix: str | Path | None = None,
    summary: str | Path | None = None,
    precision: int = 6,
    duplicates: str = DEFAULT_DUPLICATES,
    dico_test: str | Path | None = None,
) -> AlignmentResult:
    """RCSLS from ``src_emb`` to ``tgt_emb`` (fastText's ``align.py``), written to ``output``.

    Training reads the first ``config.maxload`` words of each file; the output holds the
    full source vocabulary mapped by ``R`` and L2-normalised. ``matrix`` receives ``R``
    (``.npy``) and ``summary`` a JSON of losses, pair counts and settings. ``duplicates``:
    how a ``.vec`` file's repeated word is read (:func:`~mgbias.embeddings.vectors.read_vec`).
    ``dico_test``: a test dictionary to be evaluated afterwards, checked first (at least
    :data:`~mgbias.embeddings.dictionaries.MIN_COVERAGE` of its source words in the
    vectors), so that one that does not fit stops the command before any work.
    """
    from mgbias.embeddings.rcsls import align, map_vectors

    src = read_vectors(src_emb, config.maxload, duplicates=duplicates)
    tgt = read_vectors(tgt_emb, config.maxload, duplicates=duplicates)
    if dico_test is not None:
        where = f"{dico_test} on {src_emb} -> {tgt_emb}"
        check_test_coverage(read_dictionary(dico_test), src.index, tgt.index, where, config.maxload)
    result = align(src, tgt, read_dictionary(dico_train), config, str(dico_train))
    whole = 0 < len(src) < config.maxload or config.maxload <= 0
    full = src if whole else read_vectors(src_emb, duplicates=duplicates)
    write_vec(output, map_vectors(full, result.R, center=config.center), precision=precision)
    if matrix is not None:
        write_matrix(matrix, result.R)
    if summary is not None:
        write_json(summary, result.summary())
    return result


def bli_files(
    src_emb: str | Path,
    tgt_emb: str | Path,
    dico_test: str | Path,
    retrievals: Sequence[str] = tuple(_setting("zhao2020.bli.retrievals")),
    k: int = _setting("zhao2020.bli.k"),
    maxload: int = _setting("zhao2020.bli.maxload"),
    center: bool = _setting("zhao2020.bli.center"),
    device: str = _setting("zhao2020.bli.device"),
    output: str | Path | None = None,
    duplicates: str = DEFAULT_DUPLICATES,
) -> list[BLIResult]:
    """BLI accuracy of ``src_emb`` (already in the target space) against ``tgt_emb``
    (fastText's ``eval.py``), one result per retrieval; ``output`` gets them as JSON.
    ``duplicates``: how a ``.vec`` file's repeated word is read."""
    from mgbias.embeddings.bli import bli_accuracy

    src = read_vectors(src_emb, maxload, duplicates=duplicates)
    tgt = read_vectors(tgt_emb, maxload, duplicates=duplicates)
    pairs = read_dictionary(dico_test)
    if not pairs:
        raise InputError(f"{dico_test}: the test dictionary has no pairs ('source target' lines)")
    # an accuracy over the few shared strings of other languages' words says nothing
    check_test_coverage(
        pairs, src.index, tgt.index, f"{dico_test} on {src_emb} -> {tgt_emb}", maxload
    )
    results = [
        bli_accuracy(src, tgt, pairs, retrieval, k, maxload, center, device)
        for retrieval in retrievals
    ]
    if output is not None:
        write_json(output, {r.retrieval: r.to_dict() for r in results})
    return results


def debias_file(
    emb: str | Path,
    output: str | Path,
    definitional: str | Path | None = None,
    gender_specific: str | Path | None = None,
    equalize: str | Path | None = None,
    summary: str | Path | None = None,
    precision: int = 6,
    duplicates: str = DEFAULT_DUPLICATES,
) -> DebiasResult:
    """Hard-debias every word of ``emb`` into ``output`` (with its ``n d`` header).

    ``None`` list paths take the shipped debiaswe lists; ``summary`` gets the gender
    direction, skipped definitional pairs and equalised pairs as JSON; ``duplicates``: how
    a ``.vec`` file's repeated word is read.
    """
    from mgbias.embeddings.debias import hard_debias, load_debias_lists

    lists = load_debias_lists(definitional, gender_specific, equalize)
    result = hard_debias(read_vectors(emb, duplicates=duplicates), lists)
    write_vec(output, result.vectors, precision=precision)
    if summary is not None:
        write_json(summary, result.summary())
    return result


@dataclass(frozen=True)
class InBiasReport:
    """inBias of one space, its strong/weak split and, with a reference, the t-test."""

    result: InBiasResult
    strong: float
    weak: float
    n_listed: int
    t_statistic: float | None = None
    p_value: float | None = None
    paired: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (per-occupation scores are in the CSV)."""
        return {
            "inbias": self.result.value,
            "se": _json_float(self.result.se),
            "variant": self.result.variant,
            "n": self.result.n,
            "n_listed": self.n_listed,
            "strong": _json_float(self.strong),
            "weak": _json_float(self.weak),
            "t_statistic": self.t_statistic,
            "p_value": self.p_value,
            "paired": self.paired,
            "seeds": [list(pair) for pair in self.result.seeds],
        }

    def scores_frame(self) -> pd.DataFrame:
        """One row per scored pair: position in the list, both forms, ``b_i``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "index": list(self.result.indices),
                "masculine": [m for m, _ in self.result.pairs],
                "feminine": [f for _, f in self.result.pairs],
                "score": self.result.scores,
            }
        )


def _json_float(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def read_inbias_scores(path: str | Path) -> pd.DataFrame:
    """Per-occupation scores written by :func:`inbias_files` (columns index, masculine,
    feminine, score)."""
    import pandas as pd

    frame = pd.read_csv(path, keep_default_na=False)
    missing = {"index", "masculine", "feminine", "score"} - set(frame.columns)
    if missing:
        raise ValueError(f"{path}: missing column(s) {sorted(missing)}")
    return frame


def inbias_files(
    emb: str | Path,
    male_occupations: str | Path,
    female_occupations: str | Path,
    seeds: str | Path,
    original: str | Path | None = None,
    variant: str = _setting("zhao2020.inbias.variant"),
    authors_split: bool = _setting("zhao2020.inbias.authors_split"),
    n_strong: int = STRONG_PAIRS_EN,
    reference_scores: str | Path | None = None,
    paired: bool = _setting("zhao2020.inbias.paired"),
    output: str | Path | None = None,
    scores: str | Path | None = None,
    duplicates: str = DEFAULT_DUPLICATES,
) -> InBiasReport:
    """inBias of the space ``emb`` on MIBs-style lists.

    Parameters
    ----------
    emb
        The space scored (original, aligned or debiased).
    male_occupations, female_occupations, seeds
        MIBs files (:mod:`mgbias.embeddings.mibs`).
    original
        The language's original space, whose vocabulary filters the pairs (default:
        ``emb`` itself; an aligned or debiased space keeps its source's vocabulary).
    variant
        ``"averaged"`` (Eq. 1 as printed) or ``"pairwise"`` (the authors' code).
    authors_split
        Read the occupation files as the authors' notebook does.
    n_strong
        Pairs at list positions below this are strong-gendered.
    reference_scores
        Per-occupation CSV of the space to test against (the original); adds the t-test.
    paired
        ``ttest_rel`` instead of the authors' ``ttest_ind``.
    output, scores
        JSON summary and per-occupation CSV to write.
    duplicates
        How a ``.vec`` file's repeated word is read (:mod:`mgbias.embeddings.duplicates`).
    """
    pairs = read_occupation_pairs(male_occupations, female_occupations, authors_split)
    seed_pairs = read_seed_pairs(seeds)
    space = read_vectors(emb, duplicates=duplicates)
    vocabulary = space if original is None else read_vectors(original, duplicates=duplicates)
    keep = vocabulary_filter(pairs, vocabulary)
    logger.info("%s: %d of %d pairs in the vocabulary", emb, len(keep), len(pairs))
    result = inbias(space, pairs, seed_pairs, variant, keep)
    strong, weak = strong_weak_means(result, n_strong)
    t_statistic = p_value = None
    if reference_scores is not None:
        reference = read_inbias_scores(reference_scores)
        if reference["index"].tolist() != list(result.indices):
            raise ValueError(
                f"{reference_scores} scores other pairs than {emb}; both must use the "
                "vocabulary filter of the same original space"
            )
        if np.array_equal(reference["score"].to_numpy(dtype=float), result.scores):
            raise InputError(
                f"{reference_scores} holds the very scores of {emb}: the t-test would "
                "compare a space with itself (t = 0, p = 1, or no value when paired); give "
                "the scores of the other space"
            )
        t_statistic, p_value = inbias_ttest(reference["score"], result.scores, paired)
    report = InBiasReport(result, strong, weak, len(pairs), t_statistic, p_value, paired)
    if output is not None:
        write_json(output, report.to_dict())
    if scores is not None:
        with atomic_path(scores, suffix=".csv") as tmp:
            report.scores_frame().to_csv(tmp, index=False, float_format="%.17g")
    return report
