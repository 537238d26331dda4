"""The public API of the static-embedding experiments (Zhao et al. 2020): align, BLI,
inBias, hard debiasing.

``mgbias.align``, ``mgbias.bli``, ``mgbias.inbias`` and ``mgbias.debias`` read word
vectors from files (``.vec`` text or fastText ``.bin``) and write theirs to files, as the
workflow's jobs do: each wraps the file step the workflow's script runs
(:mod:`mgbias.embeddings.steps`), so the numbers and the files are the workflow's, and
``mgbias align | bli | inbias | debias`` print what these results print.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mgbias.embeddings.duplicates import DEFAULT_DUPLICATES

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from mgbias.embeddings.bli import BLIResult
    from mgbias.embeddings.debias import DebiasResult
    from mgbias.embeddings.rcsls import AlignmentResult
    from mgbias.measures.inbias import InBiasResult

__all__ = [
    "AlignReport",
    "BLIReport",
    "DebiasReport",
    "InBiasReport",
    "align",
    "bli",
    "debias",
    "inbias",
]

_Path = str | os.PathLike


# ----------------------------------------------------------------------------- BLI


@dataclass(frozen=True, eq=False)
class BLIReport:
    """Bilingual lexicon induction accuracy of an aligned space (:func:`bli`).

    Attributes
    ----------
    results : tuple of BLIResult
        One per retrieval (:class:`mgbias.embeddings.bli.BLIResult`: ``accuracy`` in %,
        ``n_correct``, ``n_source_words``, ``n_covered``, ``retrieval``, ``k``, ``maxload``).
    dico_test : str
        The test dictionary.
    """

    results: tuple[BLIResult, ...]
    dico_test: str

    @property
    def accuracy(self) -> float:
        """Accuracy (%) of the first retrieval."""
        return self.results[0].accuracy

    def to_dict(self) -> dict[str, Any]:
        """``{retrieval: result}``, the JSON of ``mgbias bli --output``."""
        return {result.retrieval: result.to_dict() for result in self.results}

    def __str__(self) -> str:
        """One line per retrieval, as ``mgbias bli`` prints them."""
        return "\n".join(
            f"{result.retrieval.upper()} accuracy on {self.dico_test}: {result.accuracy:.2f}% "
            f"(95% CI {result.interval[0]:.1f}-{result.interval[1]:.1f}; {result.n_correct} "
            f"of {result.n_source_words} source words; {result.n_covered} in both "
            "vocabularies)"
            for result in self.results
        )


def bli(
    source_vectors: _Path,
    target_vectors: _Path,
    dico_test: _Path,
    *,
    retrieval: str | Sequence[str] = "csls",
    k: int = 10,
    maxload: int = 200_000,
    center: bool = False,
    device: str = "auto",
    output: _Path | None = None,
    duplicates: str = DEFAULT_DUPLICATES,
) -> BLIReport:
    """BLI accuracy of an aligned source space against a target space (fastText's ``eval.py``).

    Accuracy is the share of the dictionary's distinct source words whose top-1
    retrieved target word is one of their translations; a word missing from either
    vocabulary counts as an error. CSLS (Conneau et al. 2018, §2.3, Eq. 6) penalises
    hub target words by their mean similarity to their ``k`` nearest source words;
    ``"nn"`` is plain cosine nearest neighbour (:mod:`mgbias.embeddings.bli`). The
    workflow's ``zhao2020_bli`` rule runs the same file step
    (:func:`mgbias.embeddings.steps.bli_files`).

    Parameters
    ----------
    source_vectors : path
        The source space, already mapped into the target space (:func:`align`).
    target_vectors : path
        The target space.
    dico_test : path
        A MUSE dictionary, one ``source target`` pair a line.
    retrieval : {"csls", "nn"} or a sequence of them
        One result per retrieval.
    k : int
        CSLS neighbourhood size.
    maxload : int
        Words read from each vector file.
    center : bool
        Mean-centre the vectors after normalising.
    device : str
        ``"auto"``, ``"cpu"``, ``"cuda"``.
    output : path, optional
        JSON of the results (:meth:`BLIReport.to_dict`), written atomically.
    duplicates : {"error", "first"}
        A word repeated in a ``.vec`` file: refused, or its first row kept (fastText's
        ``idx``; :func:`mgbias.embeddings.vectors.read_vec`).

    Returns
    -------
    BLIReport
    """
    from mgbias.files.output_paths import check_output_paths

    check_output_paths(
        {
            "source_vectors": source_vectors,
            "target_vectors": target_vectors,
            "dico_test": dico_test,
        },
        {"output": output},
    )

    from mgbias.embeddings.steps import bli_files

    retrievals = (retrieval,) if isinstance(retrieval, str) else tuple(retrieval)
    results = bli_files(
        source_vectors,
        target_vectors,
        dico_test,
        retrievals=retrievals,
        k=k,
        maxload=maxload,
        center=center,
        device=device,
        output=output,
        duplicates=duplicates,
    )
    return BLIReport(results=tuple(results), dico_test=str(dico_test))


# ----------------------------------------------------------------------------- align


@dataclass(frozen=True, eq=False)
class AlignReport:
    """An RCSLS alignment and, with a test dictionary, its BLI accuracy (:func:`align`).

    Attributes
    ----------
    alignment : AlignmentResult
        The map ``R`` (``(d_tgt, d_src)``), the loss and learning rate of each step, the
        training pairs used and listed, and the settings
        (:class:`mgbias.embeddings.rcsls.AlignmentResult`).
    output : str
        The aligned ``.vec`` written: the full source vocabulary mapped by ``R``.
    bli : BLIReport or None
        CSLS accuracy of ``output`` on the test dictionary, if one was given.
    """

    alignment: AlignmentResult
    output: str
    bli: BLIReport | None = None

    @property
    def R(self) -> np.ndarray:  # noqa: N802 (the paper's name)
        """The map: a source vector ``x`` maps to ``R @ x``."""
        return self.alignment.R

    @property
    def losses(self) -> tuple[float, ...]:
        """The RCSLS loss before each step."""
        return self.alignment.losses

    def __str__(self) -> str:
        """The training summary and the BLI line, as ``mgbias align`` prints them."""
        result = self.alignment
        text = (
            f"RCSLS: {result.n_pairs} of {result.n_pairs_file} training pairs; loss "
            f"{result.losses[0]:.4f} -> {result.losses[-1]:.4f} in {len(result.losses)} "
            f"steps; wrote {self.output}"
        )
        return text if self.bli is None else f"{text}\n{self.bli}"


def align(
    source_vectors: _Path,
    target_vectors: _Path,
    dico_train: _Path,
    output: _Path,
    *,
    dico_test: _Path | None = None,
    matrix: _Path | None = None,
    summary: _Path | None = None,
    knn: int = 10,
    lr: float = 1.0,
    niter: int = 10,
    maxneg: int = 200_000,
    maxsup: int = 200_000,
    maxload: int = 200_000,
    batch_size: int = 5000,
    sgd: bool = True,
    center: bool = False,
    seed: int = 0,
    device: str = "auto",
    duplicates: str = DEFAULT_DUPLICATES,
) -> AlignReport:
    """Align a source space to a target space with RCSLS (Joulin et al. 2018), as Zhao et
    al. (2020) align each language's embeddings to English.

    RCSLS learns a linear map ``R`` minimising the relaxed CSLS loss of the training
    pairs ``(x_i, y_i)`` (Joulin et al. 2018, Eq. 5)::

        L(R) = (1/n) Σ_i [ -2 x_iᵀRᵀy_i + (1/k) Σ_{y ∈ N_Y(Rx_i)} x_iᵀRᵀy
                                        + (1/k) Σ_{Rx ∈ N_X(y_i)} xᵀRᵀy_i ]

    from the Procrustes solution, with fastText's ``align.py`` settings (in torch:
    :func:`mgbias.embeddings.rcsls.align`); the defaults are Zhao et al.'s. The
    workflow's ``zhao2020_align`` rule runs the same file step
    (:func:`mgbias.embeddings.steps.align_files`).

    Parameters
    ----------
    source_vectors, target_vectors : path
        The two spaces, ``.vec`` or fastText ``.bin``.
    dico_train : path
        A MUSE training dictionary.
    output : path
        The aligned ``.vec`` to write: the full source vocabulary mapped by ``R`` and
        L2-normalised.
    dico_test : path, optional
        A MUSE test dictionary: the result then holds the CSLS accuracy of ``output``
        (:func:`bli` with ``k=knn``).
    matrix, summary : path, optional
        ``R`` as ``.npy``; a JSON of the losses, pair counts and settings.
    knn, lr, niter, maxneg, maxsup, maxload, batch_size, sgd, center, seed, device
        The settings (:class:`mgbias.embeddings.rcsls_config.RCSLSConfig`; ``batch_size``
        is its ``batchsize``): ``niter + 1`` gradient steps; negatives from the first
        ``maxneg`` words; ``maxsup`` training pairs (``<= 0``: all); ``maxload`` words
        read for training; ``sgd``: mini-batches of ``batch_size`` at a constant rate,
        else full batches with learning-rate halving as ``align.py``.
    duplicates : {"error", "first"}
        A word repeated in a ``.vec`` file: refused, or its first row kept (fastText's
        ``idx``; :func:`mgbias.embeddings.vectors.read_vec`).

    Returns
    -------
    AlignReport

    Raises
    ------
    ValueError, OSError, KeyError
        A bad setting, an unreadable vector file or dictionary, no training pair in
        both vocabularies.
    """
    from mgbias.files.output_paths import check_output_paths

    check_output_paths(
        {
            "source_vectors": source_vectors,
            "target_vectors": target_vectors,
            "dico_train": dico_train,
            "dico_test": dico_test,
        },
        {"output": output, "matrix": matrix, "summary": summary},
    )

    from mgbias.embeddings.rcsls_config import RCSLSConfig
    from mgbias.embeddings.steps import align_files

    config = RCSLSConfig(
        knn=knn,
        lr=lr,
        niter=niter,
        maxneg=maxneg,
        maxsup=maxsup,
        maxload=maxload,
        batchsize=batch_size,
        sgd=sgd,
        center=center,
        seed=seed,
        device=device,
    )
    result = align_files(
        source_vectors,
        target_vectors,
        dico_train,
        output,
        config,
        matrix=matrix,
        summary=summary,
        duplicates=duplicates,
        dico_test=dico_test,
    )
    tested = None
    if dico_test is not None:
        tested = bli(
            output,
            target_vectors,
            dico_test,
            retrieval="csls",
            k=knn,
            maxload=maxload,
            center=center,
            device=device,
            duplicates=duplicates,
        )
    return AlignReport(alignment=result, output=str(output), bli=tested)


# ----------------------------------------------------------------------------- debias


@dataclass(frozen=True, eq=False)
class DebiasReport:
    """Hard-debiased vectors (:func:`debias`).

    Attributes
    ----------
    result : DebiasResult
        The debiased vectors, the gender direction, the definitional pairs used and
        skipped, the count of neutralised words, the pairs equalised
        (:class:`mgbias.embeddings.debias.DebiasResult`).
    output : str
        The debiased ``.vec`` written.
    """

    result: DebiasResult
    output: str

    @property
    def direction(self) -> np.ndarray:
        """The gender direction ``g`` (unit)."""
        return self.result.direction

    @property
    def n_neutralized(self) -> int:
        return self.result.n_neutralized

    def __str__(self) -> str:
        """The summary line ``mgbias debias`` prints."""
        result = self.result
        return (
            f"hard debias: {len(result.definitional_used)} definitional pairs "
            f"({len(result.definitional_skipped)} not in the vocabulary: "
            f"{[list(p) for p in result.definitional_skipped]}), {result.n_neutralized} words "
            f"neutralised, {len(result.equalized)} pairs equalised; wrote {self.output}"
        )


def debias(
    vectors: _Path,
    output: _Path,
    *,
    definitional: _Path | None = None,
    gender_specific: _Path | None = None,
    equalize: _Path | None = None,
    summary: _Path | None = None,
    duplicates: str = DEFAULT_DUPLICATES,
) -> DebiasReport:
    """Hard-debias word vectors (Bolukbasi et al. 2016, §5; Zhao et al. 2020's ENDEB).

    The gender direction ``g`` is the first principal component of the definitional
    pairs, each centred on its own mean; every word outside the gender-specific list is
    neutralised, ``v ← v − (v·g) g``, and re-normalised; each equalise pair becomes
    symmetric about the neutral subspace (:func:`mgbias.embeddings.debias.hard_debias`,
    debiaswe's algorithm). The workflow's ``zhao2020_debias`` rule runs the same file step
    (:func:`mgbias.embeddings.steps.debias_file`).

    Parameters
    ----------
    vectors : path
        ``.vec`` or fastText ``.bin``.
    output : path
        The debiased ``.vec`` to write (every word, in order).
    definitional, gender_specific, equalize : path, optional
        JSON lists (default: debiaswe's, shipped); pairs missing from the vocabulary are
        skipped and reported.
    summary : path, optional
        JSON of the direction, the skipped and equalised pairs.
    duplicates : {"error", "first"}
        A word repeated in a ``.vec`` file: refused, or its first row kept (fastText's
        ``idx``; :func:`mgbias.embeddings.vectors.read_vec`).

    Returns
    -------
    DebiasReport
    """
    from mgbias.files.output_paths import check_output_paths

    check_output_paths(
        {
            "vectors": vectors,
            "definitional": definitional,
            "gender_specific": gender_specific,
            "equalize": equalize,
        },
        {"output": output, "summary": summary},
    )

    from mgbias.embeddings.steps import debias_file

    result = debias_file(
        vectors,
        output,
        definitional=definitional,
        gender_specific=gender_specific,
        equalize=equalize,
        summary=summary,
        duplicates=duplicates,
    )
    return DebiasReport(result=result, output=str(output))


# ----------------------------------------------------------------------------- inBias


@dataclass(frozen=True, eq=False)
class InBiasReport:
    """inBias of one space (:func:`inbias`), its strong/weak split and t-test.

    Attributes
    ----------
    result : InBiasResult
        ``value`` (inBias), ``scores`` (``b_i`` per kept pair), ``pairs``, ``indices``,
        ``seeds``, ``variant`` (:class:`mgbias.measures.inbias.InBiasResult`).
    strong, weak : float
        Mean ``b_i`` of the strongly and weakly gendered occupations (NaN if none).
    n_listed : int
        Occupation pairs listed (before the vocabulary filter).
    t_statistic, p_value : float or None
        The t-test against ``reference`` (None without one).
    paired : bool
        ``ttest_rel`` rather than ``ttest_ind``.
    vectors, reference : str, str or None
        The space scored; the per-occupation CSV tested against.
    """

    result: InBiasResult
    strong: float
    weak: float
    n_listed: int
    t_statistic: float | None
    p_value: float | None
    paired: bool
    vectors: str
    reference: str | None = None

    @property
    def value(self) -> float:
        """inBias (Zhao et al. 2020, Eq. 1)."""
        return self.result.value

    @property
    def n(self) -> int:
        """Occupation pairs scored."""
        return self.result.n

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``mgbias inbias --output``."""
        return self._steps_report().to_dict()

    def scores_frame(self) -> pd.DataFrame:
        """One row per scored pair (``index``, ``masculine``, ``feminine``, ``score``):
        the CSV of ``mgbias inbias --scores``."""
        return self._steps_report().scores_frame()

    def _steps_report(self):
        from mgbias.embeddings.steps import InBiasReport as StepsReport

        return StepsReport(
            self.result,
            self.strong,
            self.weak,
            self.n_listed,
            self.t_statistic,
            self.p_value,
            self.paired,
        )

    def __str__(self) -> str:
        """The lines ``mgbias inbias`` prints."""
        result = self.result
        text = (
            f"inBias ({result.variant}) of {self.vectors}: {result.value:.4f} "
            f"(SE {result.se:.4f}) on N = {result.n} of {self.n_listed} pairs; "
            f"strong {_group_mean(self.strong)}, weak {_group_mean(self.weak)}\n"
            f"{seed_sides(result.seeds)}"
        )
        if self.p_value is not None:
            test = "ttest_rel" if self.paired else "ttest_ind"
            text += (
                f"\n{test} against {self.reference}: t = {self.t_statistic:.4f}, "
                f"p = {self.p_value:.4g}"
            )
        return text


def _group_mean(value: float) -> str:
    """inBias over the strong- or weak-gendered pairs, or ``none`` where there are none."""
    return "none" if math.isnan(value) else f"{value:.4f}"


#: Seed pairs :func:`seed_sides` names before it counts the rest.
SHOWN_SEED_PAIRS = 5


def seed_sides(seeds: Sequence[tuple[str, str]]) -> str:
    """The seed pairs as used, male side first: ``seeds (male, female): (he, she), ...``.

    inBias depends on which side of a pair is male, so ``mgbias inbias`` says it.
    """
    shown = ", ".join(f"({male}, {female})" for male, female in seeds[:SHOWN_SEED_PAIRS])
    more = len(seeds) - SHOWN_SEED_PAIRS
    return f"seeds (male, female): {shown}" + (f" and {more} more" if more > 0 else "")


def inbias(
    vectors: _Path,
    male_occupations: _Path,
    female_occupations: _Path,
    seeds: _Path,
    *,
    original: _Path | None = None,
    variant: str = "averaged",
    authors_split: bool = False,
    n_strong: int = 137,
    reference: _Path | None = None,
    paired: bool = False,
    output: _Path | None = None,
    scores: _Path | None = None,
    duplicates: str = DEFAULT_DUPLICATES,
) -> InBiasReport:
    """inBias (Zhao et al. 2020, Eq. 1) of a space on MIBs-style word lists.

    For occupation pairs ``(O_Mi, O_Fi)`` and gender seed sets ``S_M``, ``S_F``::

        inBias = (1/N) Σ_i | dis(O_Mi, S_M) − dis(O_Fi, S_F) |
        dis(O, S) = (1/|S|) Σ_{s∈S} (1 − cos(O, s))

    ``variant="averaged"`` is Eq. 1 as printed; ``"pairwise"`` is the authors' code
    (absolute value per seed pair, then the mean), which reproduces the published
    numbers (:mod:`mgbias.measures.inbias`). Lower is less biased. The workflow's
    ``zhao2020_inbias`` rule runs the same file step (:func:`mgbias.embeddings.steps.inbias_files`).

    Parameters
    ----------
    vectors : path
        The space scored (original, aligned or debiased), ``.vec`` or ``.bin``.
    male_occupations, female_occupations : path
        Masculine and feminine occupation forms, line by line (MIBs'
        ``{lang}_male_def_occ`` / ``{lang}_female_def_occ``).
    seeds : path
        JSON list of ``[female, male]`` seed pairs, female word first as in MIBs'
        ``{lang}_gender_pairs.json`` (``[["she", "he"], ["woman", "man"]]``); a pair whose
        first word is a male word and second a female one (the shipped gender word lists)
        is refused (:func:`mgbias.embeddings.mibs.seed_pair_looks_reversed`).
    original : path, optional
        The original space whose vocabulary filters the occupations (default:
        ``vectors``; an aligned or debiased space keeps its source's vocabulary).
    variant : {"averaged", "pairwise"}
    authors_split : bool
        Read a line's translation as the authors' notebook does.
    n_strong : int
        Pairs at list positions below this are strongly gendered (137 in English).
    reference : path, optional
        Per-occupation CSV (``scores`` of another run, e.g. the original space) to
        t-test against: the authors' ``ttest_ind``, or ``ttest_rel`` with ``paired``.
    output, scores : path, optional
        JSON summary (:meth:`InBiasReport.to_dict`); per-occupation CSV.
    duplicates : {"error", "first"}
        A word repeated in a ``.vec`` file: refused, or its first row kept (fastText's
        ``idx``; :func:`mgbias.embeddings.vectors.read_vec`).

    Returns
    -------
    InBiasReport
    """
    from mgbias.files.output_paths import check_output_paths

    check_output_paths(
        {
            "vectors": vectors,
            "male_occupations": male_occupations,
            "female_occupations": female_occupations,
            "seeds": seeds,
            "original": original,
            "reference": reference,
        },
        {"output": output, "scores": scores},
    )

    from mgbias.embeddings.steps import inbias_files

    report = inbias_files(
        vectors,
        male_occupations,
        female_occupations,
        seeds,
        original=original,
        variant=variant,
        authors_split=authors_split,
        n_strong=n_strong,
        reference_scores=reference,
        paired=paired,
        output=output,
        scores=scores,
        duplicates=duplicates,
    )
    return InBiasReport(
        result=report.result,
        strong=report.strong,
        weak=report.weak,
        n_listed=report.n_listed,
        t_statistic=report.t_statistic,
        p_value=report.p_value,
        paired=report.paired,
        vectors=str(vectors),
        reference=None if reference is None else str(reference),
    )
