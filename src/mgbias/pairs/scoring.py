"""Every pair measure of one model on one pair dataset, from its two passes.

The passes (:mod:`mgbias.pairs.passes`: the model once unmasked for AUL and
AULA, once over the masked copies for CPS, SSS and S_JSD) are all this module
needs; it never runs a model. Scores are in the papers' units: percent of pairs in which the
stereotypical sentence (``sent_more``) is preferred for AUL, AULA, CPS, SSS
and binarized S_JSD (``bsjsd``); the raw mean for ``sjsd`` (negative = the
stereotypical sentence preferred, Steinborn et al. 2022, Eq. 2).

Pairs a measure cannot score in the usual way (no shared token, no modified
token on a side, identical sentences) follow the rules of
:mod:`mgbias.measures.edges`; every measure reports how many it met
(``n_edge``), and :func:`per_pair_table` shows them pair by pair.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mgbias.datasets.frame import ALL_BIAS_TYPES
from mgbias.measures import pair
from mgbias.measures.edges import EDGE_FLAGS, PairEdges, identical_sequences, pair_edges
from mgbias.measures.measure import PAIR_RESULT_COLUMNS
from mgbias.measures.preference import TIE_RULES
from mgbias.pairs.data import pair_sentences

log = logging.getLogger(__name__)


def parse_measures(text: str) -> list[str]:
    """``"aul,cps"`` -> ``["aul", "cps"]``; an unknown name is an error naming the known ones."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in pair.names()]
    if unknown or not names:
        raise ValueError(
            f"unknown measure(s) {unknown or text!r}; expected a comma-separated list of "
            f"{', '.join(pair.names())}"
        )
    return list(dict.fromkeys(names))


def check_pair_ids(unmasked, masked) -> list[str] | None:
    """The pair ids both passes carry (None if neither has any); raise if they disagree."""
    from_unmasked = None if unmasked is None else unmasked.pair_ids
    from_masked = None if masked is None else masked.pair_ids
    if from_unmasked is not None:
        if from_unmasked[0::2] != from_unmasked[1::2]:
            raise ValueError(
                "the unmasked pass's pair ids are not in pairs (sent_more, sent_less of one id)"
            )
        from_unmasked = from_unmasked[0::2]
    if from_unmasked is not None and from_masked is not None and from_unmasked != from_masked:
        raise ValueError(
            "the unmasked and masked passes carry different pair ids; they were computed on "
            "different pair data"
        )
    return from_masked if from_masked is not None else from_unmasked


def _check_unmasked(unmasked) -> None:
    if len(unmasked.logprobs) % 2:
        raise ValueError(
            f"the unmasked pass holds {len(unmasked.logprobs)} sentences; expected "
            "sent_more and sent_less of every pair, interleaved"
        )


def unmasked_identical(unmasked) -> np.ndarray:
    """Bool per pair: do ``sent_more`` and ``sent_less`` have the same token ids (unmasked pass)?"""
    return identical_sequences(unmasked.token_ids[0::2], unmasked.token_ids[1::2])


def masked_edges(masked) -> PairEdges:
    """Edge flags of every pair from the masked pass (:func:`mgbias.measures.edges.pair_edges`)."""
    return pair_edges(
        masked.a.shared_logprobs, masked.a.modified_logprobs, masked.b.modified_logprobs
    )


def equalise_identical(unmasked, masked, unmasked_same=None, edges: PairEdges | None = None):
    """Copies of the passes in which the two sentences of an identical pair have equal numbers.

    Two batch positions holding the same input may differ in the last float
    bits; by the formulas identical sentences score the same, so ``sent_less``
    takes ``sent_more``'s numbers (:mod:`mgbias.measures.edges`). Inputs are
    not modified; either pass may be None. ``unmasked_same`` and ``edges``
    (:func:`unmasked_identical`, :func:`masked_edges`) are computed if not
    given; equalising changes neither.
    """
    if unmasked is not None:
        same = unmasked_identical(unmasked) if unmasked_same is None else unmasked_same
        logprobs, attention = list(unmasked.logprobs), list(unmasked.attention)
        for index in np.flatnonzero(same):
            logprobs[2 * index + 1] = logprobs[2 * index]
            attention[2 * index + 1] = attention[2 * index]
        unmasked = dataclasses.replace(unmasked, logprobs=logprobs, attention=attention)
    if masked is not None:
        same = (masked_edges(masked) if edges is None else edges).identical
        shared = list(masked.b.shared_logprobs)
        for index in np.flatnonzero(same):
            shared[index] = masked.a.shared_logprobs[index]
        masked = dataclasses.replace(
            masked, b=dataclasses.replace(masked.b, shared_logprobs=shared)
        )
    return unmasked, masked


def _edges_for(measure: str, unmasked_same, edges: PairEdges | None) -> np.ndarray:
    if measure in pair.by_cache("unmasked"):
        return unmasked_same
    return edges.for_measure(pair.pair_measure(measure))


def pair_measures(
    unmasked,
    masked,
    measures: Sequence[str],
    *,
    seed: int = 0,
    tie_rule: str = "neutral",
    alpha: float = 0.05,
    clusters: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """Every requested pair measure from the cached passes, no model involved.

    Parameters
    ----------
    unmasked : SentenceScores or None
        The unmasked pass over ``sent_more_0, sent_less_0, ...``; needed for
        ``aul`` and ``aula``.
    masked : PairScores or None
        The masked pass with side ``a`` = ``sent_more``; needed for ``cps``,
        ``sss``, ``sjsd`` and ``bsjsd``.
    measures : sequence of str
        Names of pair measures (:func:`mgbias.measures.pair.names`).
    seed : int
        Seed of the bootstrap standard errors.
    tie_rule : str
        How ties count (:data:`~mgbias.measures.preference.TIE_RULES`):
        ``"neutral"`` (default, Nangia et al.), ``"half"``, or ``"exclude"``,
        which also drops each measure's edge pairs (:mod:`mgbias.measures.edges`).
    alpha : float
        Significance level: ``significant = p_value < alpha``.
    clusters : sequence, optional
        One label per pair, shared by pairs with a common cause (e.g. the target
        word of template pairs): the p-values are then cluster sign-flip tests
        and the standard errors cluster bootstraps (:mod:`mgbias.stats`), with the
        clusters as units; the scores do not change.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`~mgbias.measures.registry.PAIR_RESULT_COLUMNS`, one row per
        measure in the order asked: ``score`` in percent of pairs in which ``sent_more`` is
        preferred (AUL, AULA: Kaneko & Bollegala 2022, §2; CPS: Nangia et al.
        2020, §3; SSS: Kaneko et al. 2022, App. A; ``bsjsd``: Steinborn et al.
        2022, Table 2), the raw mean for ``sjsd`` (Steinborn et al. 2022, Eq.
        2); ``se`` its bootstrap standard error; ``p_value`` the exact sign
        test against 50 on the untied pairs (the t-test against 0 for
        ``sjsd``; with ``clusters``, the cluster sign-flip test); ``significant``
        whether ``p_value < alpha``; ``n`` the pairs in the score's denominator;
        ``n_edge`` the measure's edge pairs; ``n_ties`` the pairs of ``n`` whose two
        sentences score the same (in a percentage's denominator but no win: under the
        default tie rule they pull it towards 0, not 50; for ``sjsd`` the pair scores
        of 0); ``n_clusters`` the clusters the test took as units (0: the pairs).
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    unknown = [measure for measure in measures if measure not in pair.names()]
    if unknown:
        raise ValueError(f"unknown measure(s) {unknown}; expected some of {pair.names()}")
    if tie_rule not in TIE_RULES:
        raise ValueError(f"unknown tie rule {tie_rule!r}; expected one of {TIE_RULES}")
    wanted = set(measures)
    needs_unmasked = pair.by_cache("unmasked") & wanted
    needs_masked = pair.by_cache("masked") & wanted
    if needs_unmasked and unmasked is None:
        raise ValueError(f"{sorted(needs_unmasked)} need the unmasked pass")
    if needs_masked and masked is None:
        raise ValueError(f"{sorted(needs_masked)} need the masked pass")
    unmasked = unmasked if needs_unmasked else None
    masked = masked if needs_masked else None
    if unmasked is not None:
        _check_unmasked(unmasked)
    check_pair_ids(unmasked, masked)
    unmasked_same = None if unmasked is None else unmasked_identical(unmasked)
    edges = None if masked is None else masked_edges(masked)
    unmasked, masked = equalise_identical(unmasked, masked, unmasked_same, edges)
    if masked is not None:
        log.info("masked pass: pairs with %s", edges.counts())
    options: dict[str, Any] = {"seed": seed, "tie_rule": tie_rule}
    if clusters is not None:
        n_pairs = len(masked) if masked is not None else len(unmasked.logprobs) // 2
        if len(clusters) != n_pairs:
            raise ValueError(f"{len(clusters)} cluster labels for {n_pairs} pairs")
        options["clusters"] = list(clusters)
    rows = []
    for measure in measures:
        edge = _edges_for(measure, unmasked_same, edges)
        record = pair.pair_measure(measure)
        result = record.compute(unmasked, masked, edge, options)
        if result.n_edge:
            log.info(
                "%s: %d edge pair(s) (%s), tie rule %s",
                measure,
                result.n_edge,
                " or ".join(record.edge_flags),
                tie_rule,
            )
        significant = bool(result.p_value < alpha)
        rows.append(
            (
                measure,
                result.score,
                result.se,
                result.p_value,
                significant,
                result.n,
                result.n_edge,
                result.n_ties,
                result.n_clusters,
            )
        )
    frame = pd.DataFrame(rows, columns=list(PAIR_RESULT_COLUMNS))
    return frame.astype(
        {
            "score": np.float64,
            "se": np.float64,
            "p_value": np.float64,
            "significant": bool,
            "n": np.int64,
            "n_edge": np.int64,
            "n_ties": np.int64,
            "n_clusters": np.int64,
        }
    )


def per_pair_table(frame: pd.DataFrame, unmasked, masked, *, perturb: bool = False) -> pd.DataFrame:
    """One row per pair: what each measure saw, for reading individual pairs.

    Parameters
    ----------
    frame : pandas.DataFrame
        The pair table the passes were computed on (a loader's output, one
        bias type selected), in the same order.
    unmasked, masked : SentenceScores, PairScores
        The two passes (:func:`mgbias.pairs.passes.score_pair_passes`, or the workflow's caches).
    perturb : bool
        Whether the passes scored the perturbed sentences; the table then
        shows those.

    Returns
    -------
    pandas.DataFrame
        ``pair_id``, ``sent_more``, ``sent_less``, ``stereo_antistereo``,
        ``bias_type`` (when the frame has it, as every loader's does);
        ``aul_more``, ``aul_less``, ``aula_more``, ``aula_less`` (sentence
        scores, higher = more likely); ``cps_more``, ``cps_less`` (sums over
        shared tokens), ``sss_more``, ``sss_less`` (sums over modified
        tokens); ``jsd_more``, ``jsd_less`` (summed JS distances, binarized
        S_JSD: lower = closer); ``sjsd`` (the pair's S_JSD, negative =
        ``sent_more`` preferred); ``n_shared``, ``n_modified_more``,
        ``n_modified_less``; and the edge flags
        :data:`~mgbias.measures.edges.EDGE_FLAGS`. Identical pairs are
        equalised as for :func:`pair_measures`.

    Raises
    ------
    ValueError
        If the frame, the passes and their pair ids do not describe the same pairs.
    """
    pairs = pair_sentences(frame, perturb=perturb)
    _check_unmasked(unmasked)
    if len(unmasked.logprobs) != 2 * len(pairs) or len(masked) != len(pairs):
        raise ValueError(
            f"the pair table holds {len(pairs)} pairs but the passes hold "
            f"{len(unmasked.logprobs) // 2} (unmasked) and {len(masked)} (masked)"
        )
    ids = check_pair_ids(unmasked, masked)
    frame_ids = [str(pair_id) for pair_id in frame["pair_id"]]
    if ids is not None and ids != frame_ids:
        first = next(i for i, (a, b) in enumerate(zip(ids, frame_ids, strict=True)) if a != b)
        raise ValueError(
            f"pair {first}: the passes were computed on pair id {ids[first]!r} but the pair "
            f"table has {frame_ids[first]!r} there"
        )
    edges = masked_edges(masked)
    unmasked, masked = equalise_identical(unmasked, masked, edges=edges)
    columns: dict[str, Any] = {}
    for measure in pair.pair_measures():
        columns.update(measure.per_pair_columns(unmasked, masked))
    table = pd.DataFrame(
        {
            "pair_id": frame_ids,
            "sent_more": [more for more, _ in pairs],
            "sent_less": [less for _, less in pairs],
            "stereo_antistereo": frame["stereo_antistereo"].astype(str).to_list(),
            **(
                {"bias_type": frame["bias_type"].astype(str).to_list()}
                if "bias_type" in frame.columns
                else {}
            ),
            **columns,
            "n_shared": [len(values) for values in masked.a.shared_logprobs],
            "n_modified_more": [len(values) for values in masked.a.modified_logprobs],
            "n_modified_less": [len(values) for values in masked.b.modified_logprobs],
        }
    )
    for flag in EDGE_FLAGS:
        table[flag] = np.asarray(getattr(edges, flag), dtype=bool)
    return table


def select_pairs(unmasked, masked, indices: Sequence[int]):
    """The two passes restricted to the pairs at ``indices`` (0-based), in that order.

    Either pass may be None. ``unmasked.n_truncated`` stays the whole pass's
    count (the pass does not record which sentences were cut); nothing in
    :func:`pair_measures` reads it.
    """
    rows = np.asarray(indices, dtype=np.int64)
    if unmasked is not None:
        _check_unmasked(unmasked)
        sentences = np.stack([2 * rows, 2 * rows + 1], axis=1).reshape(-1)
        unmasked = dataclasses.replace(
            unmasked,
            token_ids=[unmasked.token_ids[i] for i in sentences],
            logprobs=[unmasked.logprobs[i] for i in sentences],
            attention=[unmasked.attention[i] for i in sentences],
            embeddings=unmasked.embeddings[sentences],
            pair_ids=None
            if unmasked.pair_ids is None
            else [unmasked.pair_ids[i] for i in sentences],
        )
    if masked is not None:

        def take(side):
            values = {}
            for field in dataclasses.fields(side):
                column = getattr(side, field.name)
                values[field.name] = (
                    column[rows] if isinstance(column, np.ndarray) else [column[i] for i in rows]
                )
            return type(side)(**values)

        masked = dataclasses.replace(
            masked,
            a=take(masked.a),
            b=take(masked.b),
            n_dropped_shared=masked.n_dropped_shared[rows],
            pair_ids=None if masked.pair_ids is None else [masked.pair_ids[i] for i in rows],
        )
    return unmasked, masked


def pair_measures_by_bias_type(
    bias_types: Sequence[str],
    unmasked,
    masked,
    measures: Sequence[str],
    *,
    seed: int = 0,
    tie_rule: str = "neutral",
    alpha: float = 0.05,
    overall: bool = True,
    clusters: Sequence[Any] | None = None,
    compute: Callable[..., pd.DataFrame] | None = None,
) -> pd.DataFrame:
    """:func:`pair_measures` per bias type, then over all pairs.

    Parameters
    ----------
    bias_types : sequence of str
        The ``bias_type`` of every pair, in the passes' order (a loader's
        ``bias_type`` column).
    unmasked, masked, measures, seed, tie_rule, alpha
        As for :func:`pair_measures`; every group is scored with the same seed.
    overall : bool
        Add the rows over every pair, ``bias_type`` = :data:`ALL_BIAS_TYPES`
        (``mgbias score --bias-type all``).
    clusters : sequence, optional
        One label per pair, as for :func:`pair_measures`.
    compute : callable, optional
        What scores each group, called as :func:`pair_measures` is (the default);
        :func:`mgbias.pairs.structure.pair_measures_with_length` adds each measure's
        length structure.

    Returns
    -------
    pandas.DataFrame
        ``bias_type`` followed by the columns of ``compute``
        (:data:`~mgbias.measures.registry.PAIR_RESULT_COLUMNS` by default): the rows of each
        bias type in order of first appearance, then (``overall``) the rows
        over every pair. Each measure's ``n`` over the bias types sums
        to its overall ``n``: every pair is counted, or not, by itself.
    """
    labels = [str(label) for label in bias_types]
    n_pairs = len(masked) if masked is not None else len(unmasked.logprobs) // 2
    if len(labels) != n_pairs:
        raise ValueError(f"{len(labels)} bias types for {n_pairs} pairs")
    groups = list(dict.fromkeys(labels))
    options = {"seed": seed, "tie_rule": tie_rule, "alpha": alpha}
    compute = pair_measures if compute is None else compute
    tables = []
    for group in groups:
        indices = [index for index, label in enumerate(labels) if label == group]
        if len(groups) == 1:
            table = compute(unmasked, masked, measures, clusters=clusters, **options)
        else:
            table = compute(
                *select_pairs(unmasked, masked, indices),
                measures,
                clusters=None if clusters is None else [clusters[index] for index in indices],
                **options,
            )
        tables.append(table.assign(bias_type=group))
    if overall:
        every = compute(unmasked, masked, measures, clusters=clusters, **options)
        tables.append(every.assign(bias_type=ALL_BIAS_TYPES))
    frame = pd.concat(tables, ignore_index=True)
    return frame[["bias_type", *(column for column in tables[0] if column != "bias_type")]]
