"""The public API: one function per capability, the workflow's numbers for one model.

``import mgbias`` gives these names (``mgbias.score_pairs``, ``mgbias.mbe``, ...);
the ``mgbias`` command line is a thin layer over them, and the workflow's rules
compute the same numbers from the same library functions:

- :func:`load_model`: a masked LM and its tokenizer (:class:`MaskedLM`);
- :func:`score_pairs`: the pair measures (AUL, AULA, CPS, SSS, S_JSD and
  binarized S_JSD) of a model on a pair benchmark (CrowS-Pairs, multilingual
  CrowS-Pairs, StereoSet), per bias type, with a verdict in words
  (:class:`PairsReport`);
- :func:`mbe`: the MBE score (Kaneko et al. 2022, Eq. 2) of a model on its male
  and female sentences, its permutation test and the Shf baseline
  (:class:`MBEReport`);
- :func:`mine`: MBE's Step 1 (Kaneko et al. 2022, §3): the gendered target-side
  sentences of a parallel corpus (:class:`MinedSentences`);
- :func:`read_sentences`, :func:`load_pair_data`: the inputs as those functions
  read them.

Nothing heavy is imported until a function runs: ``import mgbias`` does not load
torch.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mgbias.measures import pair
from mgbias.measures.mbe_length import LENGTH_COLUMNS
from mgbias.measures.measure import MBE_RESULT_COLUMNS, PAIR_SCORE_COLUMNS
from mgbias.measures.registry import LengthLean, verdict
from mgbias.workflow.schema import key_default as _setting

if TYPE_CHECKING:
    import pandas as pd

    from mgbias.kaneko2022.mining import MiningCounts
    from mgbias.measures.mbe import MBEResult
    from mgbias.measures.mbe_length import SetLengths

__all__ = [
    "DEFAULT_FEMALE_WORDS",
    "DEFAULT_MALE_WORDS",
    "MBE_SUMMARY_COLUMNS",
    "PAIRS_SUMMARY_COLUMNS",
    "MBEReport",
    "MaskedLM",
    "MinedSentences",
    "PairsReport",
    "load_model",
    "load_pair_data",
    "mbe",
    "mine",
    "pair_verdicts",
    "read_sentences",
    "score_pairs",
]

#: English gender word lists of MBE's Step 1, the workflow's default (``wordlists``).
DEFAULT_FEMALE_WORDS = ("en_female", "en_female_names")
DEFAULT_MALE_WORDS = ("en_male", "en_male_names")

#: Columns of :attr:`PairsReport.summary`.
PAIRS_SUMMARY_COLUMNS = ("bias_type", *PAIR_SCORE_COLUMNS, "verdict")

#: Columns of :meth:`MBEReport.summary` (the workflow's MBE table names, where it has them).
MBE_SUMMARY_COLUMNS = (
    "model_id",
    "revision",
    *MBE_RESULT_COLUMNS,
    "n_clusters",
    "seed",
    "alpha",
    *LENGTH_COLUMNS,
    "verdict",
)


# ----------------------------------------------------------------------------- models


@dataclass(frozen=True)
class MaskedLM:
    """A masked language model ready for scoring.

    Attributes
    ----------
    model : transformers.PreTrainedModel
        In eval mode, eager attention (AULA and MBE read the attention weights).
    tokenizer : transformers.PreTrainedTokenizerBase
        Its (fast) tokenizer.
    name : str
        The hub id or local directory it was loaded from.
    revision : str or None
        The hub commit it resolved to (or the revision asked for); None for a
        local directory.
    device : str
        Where it runs (``"cpu"``, ``"cuda:0"``).
    """

    model: Any
    tokenizer: Any
    name: str
    revision: str | None = None
    device: str = "cpu"


def load_model(
    model: str | os.PathLike,
    *,
    revision: str | None = None,
    device: str = "auto",
    allow_untrained_head: bool = False,
    tokenizer: str | os.PathLike | None = None,
) -> MaskedLM:
    """Load a masked LM and its tokenizer from a local directory or the Hugging Face hub.

    The model gate runs first (:mod:`mgbias.mlm.gate`): a name that is no directory
    must be a hub id in the local cache or reachable now (it fails in seconds
    otherwise), and the tokenizer must come from tokenizer files and fit the model's
    input embedding matrix.

    Parameters
    ----------
    model : str or path
        A directory written by ``save_pretrained`` or a hub id
        (``"bert-base-multilingual-cased"``).
    revision : str, optional
        Hub branch, tag or commit (ignored for a directory).
    device : str
        ``"auto"`` (CUDA when available, else CPU), ``"cpu"``, ``"cuda"``, ``"cuda:1"``.
    allow_untrained_head : bool
        Load a checkpoint that lacks MLM-head weights anyway (they are then random
        and every score is noise); by default it is refused.
    tokenizer : str or path, optional
        A directory or hub id of the tokenizer, for a model saved without its own
        (default: the model's directory or hub id).

    Raises
    ------
    FileNotFoundError, OSError, ValueError
        A path that is not a model directory, a directory without tokenizer files, a
        tokenizer that does not fit the model, a hub id that cannot be loaded, a
        checkpoint without its MLM head (:mod:`mgbias.mlm.load`, :mod:`mgbias.mlm.gate`).
    """
    from mgbias.mlm.load import load_mlm, model_revision

    loaded, loaded_tokenizer = load_mlm(
        str(model),
        revision=revision,
        device=device,
        allow_untrained_head=allow_untrained_head,
        tokenizer=None if tokenizer is None else str(tokenizer),
    )
    return MaskedLM(
        model=loaded,
        tokenizer=loaded_tokenizer,
        name=str(model),
        revision=revision or model_revision(loaded),
        device=str(next(loaded.parameters()).device),
    )


def _as_model(model, *, revision, device, allow_untrained_head, tokenizer=None) -> MaskedLM:
    """A :class:`MaskedLM` handle (its vocabulary checked), or the model loaded by name."""
    if isinstance(model, MaskedLM):
        from mgbias.mlm.gate import check_vocabulary

        if tokenizer is not None:
            raise ValueError(
                "tokenizer= is for a model loaded by name; a MaskedLM handle has its own"
            )
        check_vocabulary(model.name, model.tokenizer, model.model)
        return model
    return load_model(
        model,
        revision=revision,
        device=device,
        allow_untrained_head=allow_untrained_head,
        tokenizer=tokenizer,
    )


def _check_unknown(handle: MaskedLM, sentences: Sequence[str], allow_unk: bool, what: str):
    """The model gate's last check, on the data (:func:`mgbias.mlm.gate.check_unknown_tokens`)."""
    from mgbias.mlm.gate import check_unknown_tokens

    return check_unknown_tokens(handle.tokenizer, sentences, allow_unk=allow_unk, what=what)


def _check_precision(precision: Any, model: Any, device: str) -> None:
    """Refuse an unknown precision, or fp16 where the model does not run on CUDA, before
    a model loads (:func:`mgbias.mlm.precision.check_precision`)."""
    from mgbias.mlm.precision import check_precision

    check_precision(precision, model.device if isinstance(model, MaskedLM) else device)


def _check_passes(batch_size: Any, max_length: Any) -> None:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    if max_length is not None and (
        isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 3
    ):
        raise ValueError(
            f"max_length must be an integer of at least 3 (two special tokens and one "
            f"word) or None for the model's limit, got {max_length!r}"
        )


# ----------------------------------------------------------------------------- pairs


def load_pair_data(
    data: str | os.PathLike | pd.DataFrame,
    *,
    lang: str | None = None,
    bias_type: str = "gender",
    config: str | os.PathLike | None = None,
    cache_dir: str | os.PathLike | None = None,
    mirror: str | None = None,
    force_lang: bool = False,
) -> pd.DataFrame:
    """The pairs of a benchmark, one bias type (or ``"all"``), as :func:`score_pairs` scores them.

    Parameters
    ----------
    data : path, name or DataFrame
        A CrowS-Pairs or multilingual CrowS-Pairs CSV, a StereoSet JSON or a
        translated CrowS-Pairs JSON (:func:`mgbias.pairs.data.load_pairs`); the
        name of a shipped benchmark (``crows_pairs``, ``multilingual_crows_pairs``,
        ``stereoset``) or of a ``pair_datasets`` key of ``config``, downloaded once
        into ``cache_dir`` (:func:`mgbias.pairs.named.resolve_pair_data`); or a
        DataFrame with ``sent_more`` and ``sent_less`` columns (``pair_id``,
        ``stereo_antistereo`` and ``bias_type`` are filled in when absent: the row
        number, ``""``, and ``bias_type``).
    lang : str, optional
        Language of a multilingual file or named dataset.
    bias_type : str
        The benchmark's name of one bias type, or ``"all"``.
    force_lang : bool
        Score a multilingual CrowS-Pairs file whose name says another language
        than ``lang`` (refused otherwise).

    Returns
    -------
    pandas.DataFrame
        :data:`mgbias.datasets.frame.PAIR_COLUMNS` first, one row per pair.

    Raises
    ------
    FileNotFoundError, ValueError
        A missing file or unknown name (the names are listed), a file of no known
        layout, an unknown bias type (the available ones are listed), a ``lang`` that
        is not an ISO 639-1 code.
    """
    import pandas as pd

    from mgbias.datasets.frame import ALL_BIAS_TYPES, filter_bias_type
    from mgbias.languages import is_language
    from mgbias.pairs.data import load_pairs

    if lang is not None and not is_language(lang):
        raise ValueError(
            f"language {lang!r} is not an ISO 639-1 code (two letters, e.g. en, de, fr); "
            "give the language of the pairs' sentences"
        )

    if isinstance(data, pd.DataFrame):
        missing = [column for column in ("sent_more", "sent_less") if column not in data.columns]
        if missing:
            raise ValueError(
                f"pair data: the DataFrame has no column {' or '.join(map(repr, missing))}; "
                f"expected sent_more and sent_less, found {list(data.columns)}"
            )
        frame = data.reset_index(drop=True).copy()
        if "bias_type" not in frame.columns:
            if bias_type == ALL_BIAS_TYPES:
                raise ValueError(
                    "pair data: the DataFrame has no bias_type column, so bias_type='all' "
                    "cannot group its pairs; give the bias type its pairs belong to"
                )
            frame["bias_type"] = bias_type
        if "pair_id" not in frame.columns:
            frame.insert(0, "pair_id", [str(index) for index in range(len(frame))])
        if "stereo_antistereo" not in frame.columns:
            frame["stereo_antistereo"] = ""
        frame = filter_bias_type(frame, bias_type)
    else:
        from mgbias.pairs.named import DEFAULT_CACHE, resolve_pair_data

        path = resolve_pair_data(
            str(data),
            lang=lang,
            config_path=config,
            cache_dir=DEFAULT_CACHE if cache_dir is None else cache_dir,
            mirror=mirror,
        )
        frame = load_pairs(str(path), lang=lang, bias_type=bias_type, force_lang=force_lang)
    if frame.empty:
        raise ValueError(f"{_data_name(data)}: no {bias_type} pairs")
    return frame


def _data_name(data) -> str:
    return "pair data (a DataFrame)" if hasattr(data, "columns") else str(data)


@dataclass(frozen=True, eq=False)
class PairsReport:
    """The pair measures of one model on one benchmark (:func:`score_pairs`).

    Attributes
    ----------
    summary : pandas.DataFrame
        One row per bias type and measure (:data:`PAIRS_SUMMARY_COLUMNS`):
        ``bias_type``; ``measure``; ``score`` (% of pairs in which the model
        prefers the stereotypical sentence, ``sent_more``; the raw mean for
        ``sjsd``, negative = the stereotypical sentence preferred); ``se`` (its
        bootstrap standard error); ``p_value`` (exact sign test against 50 on
        the untied pairs; t-test against 0 for ``sjsd``); ``significant``
        (``p_value < alpha``); ``n`` (pairs in the score's denominator);
        ``n_edge`` (the measure's edge-case pairs, :mod:`mgbias.measures.edges`);
        ``n_ties`` (the pairs of ``n`` whose two sentences score the same: not a
        win, so many ties pull a percentage below 50; ``sjsd``: pair scores of 0);
        ``n_clusters`` (the clusters the test took as units with ``cluster``; 0:
        the pairs); the measure's length structure
        (:data:`~mgbias.measures.registry.PAIR_LENGTH_COLUMNS`,
        :func:`mgbias.pairs.structure.length_structure`: ``matched_score``,
        ``matched_se``, ``matched_p_value``, ``matched_n`` on the length-matched pairs;
        ``n_unequal``, ``length_share``, ``length_p_value``, ``length_lean`` for the pairs
        of unequal length); ``verdict`` (the row in words,
        :func:`mgbias.measures.registry.verdict`).
        With ``bias_type="all"`` the rows of each bias type come first, then
        the rows over every pair (``bias_type`` ``"all"``).
    per_pair : pandas.DataFrame
        One row per pair: both sentences, every measure's sentence scores,
        ``bias_type`` and the edge flags (:func:`mgbias.pairs.scoring.per_pair_table`).
    model, revision : str, str or None
        The model scored.
    data : str
        The data scored (a path, a name, or ``"DataFrame"``).
    lang, bias_type, measures, seed, tie_rule, alpha, perturb, batch_size, max_length
        The settings of :func:`score_pairs`.
    device, cluster
        The device the model ran on; the column the pairs were clustered by (or None).
    precision
        The forward passes' precision (``fp32``, ``bf16``, ``fp16``).
    baseline : PairsReport or None
        With ``structural_baseline``: the same report of a randomly initialised copy
        of the model (:func:`mgbias.mlm.baseline.random_copy`; its ``model`` is the
        model's name + ``~random``, its ``seed`` the bootstrap's), what each measure
        gives with no learned knowledge; printed after the verdicts.
    baseline_seed : int or None
        The seed of the random copy's weights.
    """

    summary: pd.DataFrame
    per_pair: pd.DataFrame
    model: str
    revision: str | None
    data: str
    lang: str | None
    bias_type: str
    measures: tuple[str, ...]
    seed: int
    tie_rule: str
    alpha: float
    perturb: bool
    batch_size: int
    max_length: int | None
    device: str = ""
    cluster: str | None = None
    precision: str = "fp32"
    baseline: PairsReport | None = None
    baseline_seed: int | None = None

    @property
    def verdicts(self) -> list[str]:
        """The summary's rows in words; prefixed with their bias type under ``"all"``."""
        if self.bias_type != "all":
            return list(self.summary["verdict"])
        return [
            f"{bias}: {text}"
            for bias, text in zip(self.summary["bias_type"], self.summary["verdict"], strict=True)
        ]

    def table(self) -> str:
        """The summary as the command line prints it: Markdown, without the verdicts
        (and without ``bias_type`` unless several bias types were scored)."""
        shown = self.summary.drop(columns=["verdict"])
        if self.bias_type != "all":
            shown = shown.drop(columns=["bias_type"])
        return shown.to_markdown(index=False, floatfmt=".4g")

    def __str__(self) -> str:
        """The table and the verdicts, as ``mgbias score`` prints them; then the
        structural baseline beside each score (:func:`mgbias.pairs.baseline.baseline_lines`)."""
        text = self.table() + "\n\n" + "\n".join(self.verdicts)
        if self.baseline is None:
            return text
        from mgbias.pairs.baseline import baseline_lines

        lines = baseline_lines(
            self.summary,
            self.baseline.summary,
            self.baseline_seed,
            by_bias_type=self.bias_type == "all",
        )
        return text + "\n\n" + "\n".join(lines)


def pair_verdicts(
    summary: pd.DataFrame, alpha: float, tie_rule: str = "neutral", subject: str = "the model"
) -> list[str]:
    """The ``verdict`` of each row of a pair-measure table (``measure``, ``score``,
    ``p_value``, ``n``, ``n_ties``, ``n_clusters``, and where present the length columns):
    :func:`mgbias.measures.registry.verdict` with ``"<n> pairs"``, ``" in <k> clusters"``
    when the test took clusters as units and ``", <t> tied"`` when pairs tied (in ``n``
    and not a win, or left out of ``n`` with ``tie_rule="exclude"``; the sign test leaves
    them out). The verdict says the measure could not decide when ties dominate, and
    names the length artifact where ``length_lean`` is true. ``subject``: whose scores
    (``"the random copy"`` for a structural baseline's)."""
    from mgbias.stats import smallest_sign_p

    rows = summary.to_dict("records")
    verdicts = []
    for row in rows:
        n, t, k = int(row["n"]), int(row["n_ties"]), int(row["n_clusters"])
        # a share measure drops its ties from n under "exclude"; S_JSD's zeros stay in n
        share = pair.pair_measure(row["measure"]).share
        compared = n + t if tie_rule == "exclude" and share else n
        # the sign test's units are the untied pairs, the sign-flip test's the clusters
        # (S_JSD's t-test has no floor)
        m = k if k else (max(compared - t, 0) if share else 0)
        units = f"{m} cluster{'s' if m != 1 else ''}" if k else f"{m} untied pairs"
        verdicts.append(
            verdict(
                row["measure"],
                row["score"],
                row["p_value"],
                alpha=alpha,
                sample=f"{n} pair{'s' if n != 1 else ''}"
                + (f" in {k} cluster{'s' if k != 1 else ''}" if k else "")
                + (f", {t} tied" if t else ""),
                n_ties=t,
                n_compared=compared,
                lean=LengthLean.of(row),
                subject=subject,
                units=units,
                smallest_p=smallest_sign_p(m) if m else None,
            )
        )
    return verdicts


def score_pairs(
    model: MaskedLM | str | os.PathLike,
    data: str | os.PathLike | pd.DataFrame,
    *,
    measures: Sequence[str] | str | None = None,
    lang: str | None = None,
    bias_type: str = "gender",
    seed: int = 0,
    tie_rule: str = _setting("pair_tie_rule"),
    alpha: float = _setting("pair_alpha"),
    batch_size: int = _setting("scoring.batch_size"),
    max_length: int | None = _setting("scoring.max_length"),
    perturb: bool = False,
    revision: str | None = None,
    device: str = _setting("scoring.device"),
    allow_untrained_head: bool = False,
    config: str | os.PathLike | None = None,
    cache_dir: str | os.PathLike | None = None,
    mirror: str | None = None,
    force_lang: bool = False,
    progress: bool = True,
    cluster: str | None = _setting("pair_datasets.*.cluster"),
    precision: str = _setting("scoring.precision"),
    tokenizer: str | os.PathLike | None = None,
    allow_unk: bool = _setting("scoring.allow_unk"),
    structural_baseline: bool | int = False,
) -> PairsReport:
    """Every pair measure of a model on a pair benchmark: what ``mgbias score`` prints.

    The model runs once unmasked over all sentences (AUL, AULA: Kaneko &
    Bollegala 2022, §2; AULA weights each token by the attention it receives,
    Kaneko et al. 2022, Eq. 1) and once over the masked copies (CPS: Nangia et
    al. 2020, §3, the sum of ``log P(u_i | U \\ u_i, M)`` over shared tokens;
    SSS: Kaneko et al. 2022, App. A; S_JSD: Steinborn et al. 2022, Eqs. 1-3),
    exactly as the workflow's ``score_pairs`` and ``pair_measures`` rules do
    (:func:`mgbias.pairs.passes.score_pair_passes`,
    :func:`mgbias.pairs.scoring.pair_measures`), so the numbers are the
    workflow's for the same data and seed.

    Parameters
    ----------
    model : MaskedLM, str or path
        A :func:`load_model` handle, or a directory or hub id to load
        (after the data are read and checked).
    data : path, name or DataFrame
        See :func:`load_pair_data`.
    measures : sequence of str, or a comma-separated str
        Names of pair measures (:func:`mgbias.measures.pair.names`; default: all).
    lang : str, optional
        Language of a multilingual CrowS-Pairs file or named dataset.
    bias_type : str
        One bias type (the benchmark's name, default ``"gender"``) or ``"all"``:
        a row per bias type and measure, then the rows over every pair.
    seed : int
        Seed of the bootstrap standard errors.
    tie_rule : {"neutral", "half", "exclude"}
        A tie counts as no win, half a win, or is dropped with the measure's
        edge pairs.
    alpha : float
        Significance level of ``significant`` and of the verdicts.
    batch_size, max_length : int, int or None
        Sentences per forward pass; token limit (default: the model's).
    perturb : bool
        Remove the final character of every sentence (Steinborn et al. 2022, Table 3).
    revision, device, allow_untrained_head
        For loading ``model`` by name (:func:`load_model`).
    config, cache_dir, mirror
        For a named dataset (:func:`load_pair_data`).
    progress : bool
        Progress bars (shown only on a terminal).
    cluster : str or None
        A column of the data shared by pairs with a common cause (e.g. ``target``,
        the target word): the p-values and standard errors then take the clusters
        as units (:func:`mgbias.stats.cluster_sign_flip_test`); scores are unchanged.
        ``"auto"`` (the default, the workflow's): ``target`` where every pair has a
        target word and some target word holds several pairs, else the pairs
        (:func:`mgbias.pairs.data.cluster_column`); ``None``: the pairs.
    precision : {"fp32", "bf16", "fp16"}
        The forward passes' precision: ``fp32`` (default; every number reproduced
        from the papers), or autocast to bf16 or fp16 (CUDA only) with the
        log-probabilities still computed in float32 (:mod:`mgbias.mlm.precision`).
        fp16 where the model would not run on CUDA is refused before it loads.
    tokenizer : str or path, optional
        For loading ``model`` by name (:func:`load_model`).
    allow_unk : bool
        Score data of which more than :data:`mgbias.mlm.gate.MAX_UNK_SHARE` of the
        word pieces are the tokenizer's unknown token (refused by default, before the
        first forward pass: the tokenizer does not fit the data or language).
    structural_baseline : bool or int
        Also score the same pairs, in the same way, with a randomly initialised copy
        of the model (same configuration and tokenizer;
        :func:`mgbias.mlm.baseline.random_copy`): what each measure gives with no
        learned knowledge (``PairsReport.baseline``). ``True`` draws its weights with
        ``seed``, an integer with that seed; ``False`` (default): no baseline.

    Returns
    -------
    PairsReport

    Examples
    --------
    >>> report = mgbias.score_pairs("tiny-mlm", "pairs.csv", measures=["aula", "cps"])
    ... # doctest: +SKIP
    >>> print(report.table()); print("\\n".join(report.verdicts))  # doctest: +SKIP
    """
    from mgbias.datasets.frame import ALL_BIAS_TYPES
    from mgbias.measures.preference import TIE_RULES
    from mgbias.pairs.data import cluster_column, cluster_labels, pair_sentences
    from mgbias.pairs.scoring import parse_measures, per_pair_table
    from mgbias.seeds import check_seed

    if measures is None:
        measures = pair.names()
    names = parse_measures(measures if isinstance(measures, str) else ",".join(measures))
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie rule {tie_rule!r}; expected one of {TIE_RULES}")
    check_seed(seed)
    baseline_seed = _baseline_seed(structural_baseline, seed)
    _check_passes(batch_size, max_length)
    _check_precision(precision, model, device)
    frame = load_pair_data(
        data,
        lang=lang,
        bias_type=bias_type,
        config=config,
        cache_dir=cache_dir,
        mirror=mirror,
        force_lang=force_lang,
    )
    pairs = pair_sentences(frame, perturb=perturb)
    data_name = "DataFrame" if hasattr(data, "columns") else str(data)
    cluster = cluster_column(frame, cluster)
    clusters = None if cluster is None else cluster_labels(frame, cluster, data_name)
    # torch: loaded once the data are in hand
    from mgbias.pairs.passes import score_pair_passes
    from mgbias.pairs.scoring import pair_measures_by_bias_type
    from mgbias.pairs.structure import pair_measures_with_length

    handle = _as_model(
        model,
        revision=revision,
        device=device,
        allow_untrained_head=allow_untrained_head,
        tokenizer=tokenizer,
    )
    _check_unknown(handle, [text for pair in pairs for text in pair], allow_unk, data_name)
    unmasked, masked = score_pair_passes(
        handle.model,
        handle.tokenizer,
        pairs,
        batch_size=batch_size,
        max_length=max_length,
        progress=progress,
        pair_ids=frame["pair_id"].tolist(),
        precision=precision,
    )
    summary = pair_measures_by_bias_type(
        frame["bias_type"].tolist(),
        unmasked,
        masked,
        names,
        seed=seed,
        tie_rule=tie_rule,
        alpha=alpha,
        overall=bias_type == ALL_BIAS_TYPES,
        clusters=clusters,
        compute=pair_measures_with_length,
    )
    summary["verdict"] = pair_verdicts(summary, alpha, tie_rule)
    per_pair = per_pair_table(frame, unmasked, masked, perturb=perturb)
    baseline = None
    if baseline_seed is not None:  # the same pairs and settings, scored by a random copy
        baseline = _structural_baseline(
            handle,
            baseline_seed,
            frame,
            data_name,
            measures=names,
            lang=lang,
            bias_type=bias_type,
            seed=seed,
            tie_rule=tie_rule,
            alpha=alpha,
            batch_size=batch_size,
            max_length=max_length,
            perturb=perturb,
            progress=progress,
            cluster=cluster,
            precision=precision,
            allow_unk=allow_unk,
        )
    return PairsReport(
        summary=summary[list(PAIRS_SUMMARY_COLUMNS)],
        per_pair=per_pair,
        model=handle.name,
        revision=handle.revision,
        data=data_name,
        lang=lang,
        bias_type=bias_type,
        measures=tuple(names),
        seed=seed,
        tie_rule=tie_rule,
        alpha=alpha,
        perturb=perturb,
        batch_size=batch_size,
        max_length=max_length,
        device=handle.device,
        cluster=cluster,
        precision=precision,
        baseline=baseline,
        baseline_seed=baseline_seed,
    )


def _structural_baseline(
    handle: MaskedLM, baseline_seed: int, frame: pd.DataFrame, data_name: str, **settings: Any
) -> PairsReport:
    """:func:`score_pairs` of a randomly initialised copy of ``handle``'s model (weights
    from ``baseline_seed``, the same tokenizer) on the same pairs with the same
    ``settings``: what the measures give with no learned knowledge. Its verdicts speak of
    the random copy, not of the model."""
    from mgbias.mlm.baseline import baseline_name, random_copy
    from mgbias.pairs.baseline import BASELINE_SUBJECT

    copy = MaskedLM(
        model=random_copy(handle.model, baseline_seed),
        tokenizer=handle.tokenizer,
        name=baseline_name(handle.name),
        revision=handle.revision,
        device=handle.device,
    )
    report = score_pairs(copy, frame, **settings)
    verdicts = pair_verdicts(
        report.summary, settings["alpha"], settings["tie_rule"], subject=BASELINE_SUBJECT
    )
    return replace(report, data=data_name, summary=report.summary.assign(verdict=verdicts))


def _baseline_seed(structural_baseline: Any, seed: int) -> int | None:
    """The seed of the structural baseline's weights: ``seed`` for ``True``, the
    integer given, or None for ``False`` (no baseline)."""
    from mgbias.seeds import check_seed

    if structural_baseline is False:
        return None
    if structural_baseline is True:
        return seed
    return check_seed(structural_baseline, "structural_baseline")


# ----------------------------------------------------------------------------- MBE


def read_sentences(path: str | os.PathLike) -> list[str]:
    """The sentences of a text file, one a line (UTF-8, plain or gzip).

    Lines are stripped and blank lines skipped, as every reader of one-sentence
    text in mgbias does (:func:`mgbias.mlm.text_lines.iter_text_lines`).

    Raises
    ------
    FileNotFoundError
        ``"<path>: no such file (expected ...)"``; also for a directory.
    ValueError
        A line that is not UTF-8 (file and line named), or no sentence at all.
    """
    from mgbias.mlm.text_lines import iter_text_lines

    source = Path(path)
    if not source.is_file():
        what = "a directory" if source.is_dir() else "no such file"
        raise FileNotFoundError(
            f"{source}: {what} (expected a UTF-8 text file, one sentence a line)"
        )
    sentences = list(iter_text_lines([source]))
    if not sentences:
        raise ValueError(
            f"{source}: no sentences (expected a UTF-8 text file, one sentence a line)"
        )
    return sentences


def _sentence_list(sentences, gender: str) -> tuple[list[str], str]:
    """``(sentences, where they came from)`` of a path or a list of sentences."""
    if isinstance(sentences, str | os.PathLike):
        return read_sentences(sentences), str(sentences)
    listed = [str(sentence) for sentence in sentences]
    empty = [index for index, sentence in enumerate(listed) if not sentence.strip()]
    if not listed:
        raise ValueError(f"{gender}: no sentences (expected at least one)")
    if empty:
        raise ValueError(f"{gender}[{empty[0]}]: an empty sentence (expected text)")
    return listed, f"{len(listed)} {gender} sentences"


@dataclass(frozen=True, eq=False)
class MBEReport:
    """The MBE of one model on one pair of sentence sets (:func:`mbe`).

    Attributes
    ----------
    result : MBEResult
        Eq. 2's score, its test and counts (:func:`mgbias.measures.mbe.mbe_score`).
    baseline : MBEResult
        The Shf baseline (Kaneko et al. 2022, §5.1): the same sentences split at
        random (:func:`mgbias.measures.mbe.shuffled_baseline`).
    per_sentence : pandas.DataFrame
        ``gender``, ``sentence``, ``aula`` (Eq. 1, higher = more likely), ``tokens``
        (the tokens AULA averages), female sentences first, in input order: the order
        the model scored them; with clusters, ``cluster`` too.
    model, revision : str, str or None
        The model scored.
    seed, alpha, batch_size, max_length, device, precision
        The settings of :func:`mbe`.
    lengths : SetLengths or None
        The two sets' token counts and AULA's relation with them
        (:func:`mgbias.measures.mbe_length.set_lengths`): where they lean the score's
        way, the verdict names the lengths instead of a preference.
    """

    result: MBEResult
    baseline: MBEResult
    per_sentence: pd.DataFrame
    model: str
    revision: str | None
    seed: int
    alpha: float
    batch_size: int
    max_length: int | None
    device: str = ""
    precision: str = "fp32"
    lengths: SetLengths | None = None

    @property
    def score(self) -> float:
        """MBE (Eq. 2): > 50, the model prefers the male sentences."""
        return self.result.score

    @property
    def p_value(self) -> float:
        return self.result.p_value

    @property
    def significant(self) -> bool:
        return self.result.significant

    @property
    def preferred(self) -> str:
        """``"male"`` or ``"female"`` when significant (the side of 50 the score lies on),
        else ``"none"`` (:data:`mgbias.measures.mbe.NO_PREFERENCE`)."""
        return self.result.preferred

    @property
    def shf(self) -> float:
        """The Shf baseline's score (near 50)."""
        return self.baseline.score

    @property
    def shf_p_value(self) -> float:
        return self.baseline.p_value

    @property
    def n_male(self) -> int:
        return self.result.n_male

    @property
    def n_female(self) -> int:
        return self.result.n_female

    @property
    def verdict(self) -> str:
        """``"MBE 61.2 (p = 0.003, 400 male and 400 female sentences): the model prefers
        the male sentences"``, or ``"... no significant preference at alpha = 0.05"``."""
        from mgbias.measures.mbe_permutation import smallest_sentence_p

        sample = sentences = f"{self.n_male} male and {self.n_female} female sentences"
        if self.result.n_clusters is not None:
            sample += f" in {self.result.n_clusters} gender-word groups"
        # the clustered test is refused where it cannot reach alpha; the sentences' floor
        by_sentence = self.result.test == "permutation" and self.result.n_clusters is None
        leans = self.lengths is not None and self.lengths.leans(self.score, self.alpha)
        return verdict(
            "mbe",
            self.score,
            self.p_value,
            alpha=self.alpha,
            sample=sample,
            units=sentences,
            smallest_p=smallest_sentence_p(self.n_male, self.n_female) if by_sentence else None,
            artifact=f"{self.lengths.words()}: the length difference, not the model, may decide"
            if leans
            else "",
        )

    def __str__(self) -> str:
        """The verdict and the Shf baseline, as ``mgbias mbe`` prints them."""
        return (
            f"{self.verdict}\nShf {self.shf:.4g} (p = {self.shf_p_value:.2g}): the same "
            "sentences split at random, the score of no gender information"
        )

    def to_dict(self) -> dict[str, Any]:
        """The workflow's MBE record (``results/mbe/…/{lang}.json``) for these sentences,
        with the seed, alpha and verdict."""
        from mgbias.measures.mbe_length import length_record

        return {
            **self.result.to_dict(),
            "shf": self.shf,
            "shf_p_value": self.shf_p_value,
            "model_id": self.model,
            "revision": self.revision,
            "seed": self.seed,
            "alpha": self.alpha,
            **(
                length_record(self.lengths, self.score, self.alpha)
                if self.lengths is not None
                else {}
            ),
            "verdict": self.verdict,
        }

    def summary(self) -> pd.DataFrame:
        """One row, :data:`MBE_SUMMARY_COLUMNS` (``mbe`` is the score)."""
        import pandas as pd

        record = self.to_dict()
        record["mbe"] = record.pop("score")
        return pd.DataFrame([record]).reindex(columns=list(MBE_SUMMARY_COLUMNS))


def mbe(
    model: MaskedLM | str | os.PathLike,
    male: Sequence[str] | str | os.PathLike,
    female: Sequence[str] | str | os.PathLike,
    *,
    weighting: str = _setting("mbe.weighting"),
    permutations: int = _setting("mbe.permutations"),
    seed: int = 0,
    alpha: float = _setting("mbe.alpha"),
    test: str = _setting("mbe.test"),
    chunk_size: int = _setting("mbe.chunk_size"),
    batch_size: int = _setting("scoring.batch_size"),
    max_length: int | None = _setting("scoring.max_length"),
    revision: str | None = None,
    device: str = _setting("scoring.device"),
    allow_untrained_head: bool = False,
    progress: bool = True,
    male_clusters: Sequence[str] | None = None,
    female_clusters: Sequence[str] | None = None,
    precision: str = _setting("scoring.precision"),
    tokenizer: str | os.PathLike | None = None,
    allow_unk: bool = _setting("scoring.allow_unk"),
) -> MBEReport:
    """MBE (Kaneko et al. 2022, §3, Eq. 2) of a model on male and female sentences.

    .. math::

        \\mathrm{MBE} = 100 \\times
            \\frac{\\sum_{m \\in T_m} \\sum_{f \\in T_f} C(m, f)\\, \\mathbb{I}(A(m) > A(f))}
                 {\\sum_{m \\in T_m} \\sum_{f \\in T_f} C(m, f)}

    with ``A`` the AULA of a sentence (Eq. 1) and ``C`` the cosine similarity of
    the sentence embeddings (mean last-layer hidden state). Above 50 the model
    prefers (gives higher likelihood to) the male sentences, by the formula.
    The workflow's path, step for step: one unmasked pass over the female then
    the male sentences (:func:`mgbias.mlm.unmasked.score_unmasked`, the
    ``score_unmasked`` rule), then AULA, Eq. 2 with its label-permutation test
    and the Shf baseline, both with ``seed``
    (:func:`mgbias.measures.mbe.mbe_of_sentences`, the ``mbe`` rule). Given the
    rule's seed, the numbers are the workflow's.

    Parameters
    ----------
    model : MaskedLM, str or path
        A :func:`load_model` handle, or a directory or hub id to load (after the
        sentences and options are checked).
    male, female : list of str, or path
        The sentences, or a text file of them, one a line (:func:`read_sentences`).
    weighting : {"cosine", "dot"}
        ``C(m, f)``: the paper's cosine, or the published code's dot product.
    permutations : int
        Random relabellings of the permutation test; ``1 / (permutations + 1)``
        must be below ``alpha``.
    seed : int
        Seed of the test's relabellings and of the Shf split.
    alpha : float
        Significance level.
    test : {"permutation", "mcnemar_sentence", "mcnemar_pair"}
        The significance test (:func:`mgbias.measures.mbe.mbe_score`).
    chunk_size : int
        Tile size of the pair matrix (memory only; the numbers do not depend on it).
    batch_size, max_length : int, int or None
        Sentences per forward pass; token limit (default: the model's).
    revision, device, allow_untrained_head
        For loading ``model`` by name (:func:`load_model`).
    progress : bool
        A progress bar (shown only on a terminal).
    male_clusters, female_clusters : list of str, optional
        The test's units: a label per male (female) sentence, e.g. the gender
        words that put it in its set (:attr:`MinedSentences.male_words`).
        Sentences sharing a label are relabelled together, so a model's own
        preference for one gender word ("he" over "she") does not pass for a
        gender preference (:func:`mgbias.measures.mbe.mbe_score`); without
        them every sentence is its own unit. The score does not change.
    precision : {"fp32", "bf16", "fp16"}
        The forward pass's precision, as for :func:`score_pairs` (default fp32).
    tokenizer, allow_unk
        As for :func:`score_pairs`.

    Returns
    -------
    MBEReport

    Raises
    ------
    FileNotFoundError, ValueError
        A missing or empty sentence file, an empty list, a bad option; all
        before the model loads.
    """
    import pandas as pd

    from mgbias.files.output_paths import check_distinct_inputs
    from mgbias.measures.mbe import check_mbe_options
    from mgbias.seeds import check_seed
    from mgbias.wordlists.genders import FEMALE, MALE

    check_distinct_inputs(("female", female), ("male", male))
    male_sentences, _ = _sentence_list(male, MALE)
    female_sentences, _ = _sentence_list(female, FEMALE)
    check_seed(seed)
    options = {
        "weighting": weighting,
        "chunk_size": chunk_size,
        "alpha": alpha,
        "test": test,
        "n_permutations": permutations,
    }
    check_mbe_options(**options)
    _check_passes(batch_size, max_length)
    _check_precision(precision, model, device)
    import numpy as np

    from mgbias.measures.mbe import check_mbe_clusters

    male_clusters = None if male_clusters is None else list(male_clusters)
    female_clusters = None if female_clusters is None else list(female_clusters)
    check_mbe_clusters(
        male_clusters,
        female_clusters,
        len(male_sentences),
        len(female_sentences),
        test=test,
        alpha=alpha,
    )
    # torch: loaded once the inputs are checked
    from mgbias.measures.mbe import mbe_of_sentences
    from mgbias.measures.mbe_length import set_lengths
    from mgbias.mlm.unmasked import score_unmasked

    handle = _as_model(
        model,
        revision=revision,
        device=device,
        allow_untrained_head=allow_untrained_head,
        tokenizer=tokenizer,
    )
    sentences = female_sentences + male_sentences  # the workflow's order (female rows first)
    _check_unknown(handle, sentences, allow_unk, "the male and female sentences")
    genders = np.array([FEMALE] * len(female_sentences) + [MALE] * len(male_sentences))
    scores = score_unmasked(
        handle.model,
        handle.tokenizer,
        sentences,
        batch_size=batch_size,
        max_length=max_length,
        progress=progress,
        precision=precision,
    )
    # in the pass's order, as the sentences: female rows first
    clusters = None if male_clusters is None else np.array(female_clusters + male_clusters)
    result, baseline, likelihood = mbe_of_sentences(
        scores.logprobs,
        scores.attention,
        scores.embeddings,
        genders,
        seed=seed,
        clusters=clusters,
        **options,
    )
    tokens = [len(values) for values in scores.logprobs]
    per_sentence = pd.DataFrame(
        {"gender": genders, "sentence": sentences, "aula": likelihood, "tokens": tokens}
    )
    if clusters is not None:
        per_sentence["cluster"] = clusters
    return MBEReport(
        result=result,
        baseline=baseline,
        per_sentence=per_sentence,
        lengths=set_lengths(tokens, likelihood, genders),
        model=handle.name,
        revision=handle.revision,
        seed=seed,
        alpha=alpha,
        batch_size=batch_size,
        max_length=max_length,
        device=handle.device,
        precision=precision,
    )


# ----------------------------------------------------------------------------- mining


@dataclass(frozen=True)
class MinedSentences:
    """MBE's Step 1 on a parallel corpus (:func:`mine`).

    Attributes
    ----------
    male, female : list of str
        Target-language sentences whose English side holds a male (female) word
        and no word of the other list, downsampled to equal sizes.
    counts : MiningCounts
        Pairs read, neutral, both, empty, per gender, kept per gender.
    lang : str
        The target language.
    male_words, female_words : list of str
        Aligned with ``male`` (``female``): the word-list entries found in each
        sentence's English side, each as its lowercase tokens joined by a space,
        sorted and joined by ``"|"`` (:data:`mgbias.kaneko2022.mining.WORD_SEPARATOR`), e.g.
        ``"ex wife|she"`` (:func:`mgbias.wordlists.gender_words.gender_words_of`).
    """

    male: list[str]
    female: list[str]
    counts: MiningCounts
    lang: str
    male_words: list[str]
    female_words: list[str]


def mine(
    source: str | os.PathLike,
    target: str | os.PathLike,
    lang: str,
    *,
    female_words: Sequence[str | os.PathLike] = DEFAULT_FEMALE_WORDS,
    male_words: Sequence[str | os.PathLike] = DEFAULT_MALE_WORDS,
    seed: int = 0,
    progress: bool = True,
) -> MinedSentences:
    """MBE's Step 1 (Kaneko et al. 2022, §3 and §4): gendered sentences of a parallel corpus.

    English sentences with a word of the female list and none of the male list
    (or the reverse; whole-word, case-insensitive) give their target-language
    side to ``female`` (``male``); the two sets are downsampled to equal sizes
    with ``seed``. The workflow's ``mine_gendered`` rule runs the same code
    (:func:`mgbias.kaneko2022.mining.mine_gendered_sentences`) on an OPUS archive.

    Parameters
    ----------
    source, target : path
        The English side and the target side of the corpus: UTF-8 text, line *i*
        of one the translation of line *i* of the other
        (:func:`mgbias.corpora.opus.iter_parallel_text`).
    lang : str
        The target language's code (recorded).
    female_words, male_words : sequence of names or paths
        English word lists (:func:`mgbias.wordlists.load_gender_words`; default
        the workflow's, :data:`DEFAULT_FEMALE_WORDS` and :data:`DEFAULT_MALE_WORDS`).
    seed : int
        Seed of the downsampling.

    Returns
    -------
    MinedSentences
        The kept sentences of each gender, with each one's gender words
        (``male_words``, ``female_words``: the entries its English side matched,
        joined by ``"|"``), and the counts.

    Raises
    ------
    FileNotFoundError, ValueError
        A missing file, files of different lengths, a line that is not UTF-8, an
        unknown word list; no gendered sentence of one gender.
    """
    from mgbias.corpora.opus import iter_parallel_text
    from mgbias.kaneko2022.mining import mine_gendered_sentences
    from mgbias.seeds import check_seed
    from mgbias.wordlists import load_gender_words

    check_seed(seed)
    if not lang or not str(lang).strip():
        raise ValueError("lang: expected the target language's code, got an empty string")
    for path in (source, target):
        if not Path(path).is_file():
            raise FileNotFoundError(
                f"{path}: no such file (expected a text file, one sentence a line, aligned "
                "line by line with the other side of the corpus)"
            )
    female_set, male_set = load_gender_words(list(female_words), list(male_words))
    with tempfile.TemporaryDirectory(prefix="mgbias-mine-") as scratch:
        out_female, out_male = Path(scratch, "female.txt"), Path(scratch, "male.txt")
        words_female, words_male = Path(scratch, "female.words"), Path(scratch, "male.words")
        counts = mine_gendered_sentences(
            iter_parallel_text(source, target),
            female_set,
            male_set,
            out_female,
            out_male,
            seed=seed,
            workdir=Path(scratch),
            progress=progress,
            words_female=words_female,
            words_male=words_male,
        )
        female = out_female.read_text(encoding="utf-8").splitlines()
        male = out_male.read_text(encoding="utf-8").splitlines()
        female_matched = words_female.read_text(encoding="utf-8").splitlines()
        male_matched = words_male.read_text(encoding="utf-8").splitlines()
    if not male or not female:
        missing = "female" if counts.n_female == 0 else "male"
        raise ValueError(
            f"{source}: no English sentence with only {missing} words among "
            f"{counts.n_pairs} lines ({counts.n_female} female, {counts.n_male} "
            f"male, {counts.n_both} with both, {counts.n_neutral} with neither); MBE needs "
            "sentences of both genders"
        )
    return MinedSentences(
        male=male,
        female=female,
        counts=counts,
        lang=str(lang),
        male_words=male_matched,
        female_words=female_matched,
    )
