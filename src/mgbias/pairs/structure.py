"""What a pair measure's structure, rather than the model, decides: length.

A pair's two sentences often differ in length: CrowS-Pairs swaps "women" for
"men" but also "Jamal" for "John" (more word pieces). A measure can then prefer
one side for its form alone: SSS sums log-probabilities over the modified tokens,
so the side with fewer of them has fewer negative terms and wins, whatever the
model knows; AULA averages over tokens weighted by attention, which spreads
differently over a longer sentence. A randomly initialised model shows it: its
decisions on pairs of unequal length follow the length, not a stereotype
(``docs/pair_measures.md``, "Length and ties").

For each pair measure this module gives (:data:`~mgbias.measures.measure.PAIR_LENGTH_COLUMNS`):

- the **length-matched score**: the measure on the pairs whose two sentences have
  the same length, with the same test, seed, tie rule and clusters
  (:func:`mgbias.pairs.scoring.pair_measures` on :func:`~mgbias.pairs.scoring.select_pairs`);
- the **length lean**: among the pairs of unequal length that the measure decided
  (not tied), the share in which the shorter sentence won (:func:`shorter_share`), its
  exact two-sided binomial test against 50% (:func:`length_p_value`), and whether the
  decisions follow the length difference (:func:`leans_on_length`).

The length of a sentence is what the measure reads (:func:`length_differences`):
its tokens for a measure of the unmasked pass (AUL and AULA, which average over
the whole sentence); its modified tokens for a measure of the masked pass (CPS, SSS,
S_JSD and binarized S_JSD, whose shared tokens are the same on both sides). Under
``tie_rule="exclude"`` a measure's edge pairs are left out of the lean as they are out
of its score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from mgbias.measures import pair
from mgbias.measures.measure import PAIR_LENGTH_COLUMNS, PAIR_SCORE_COLUMNS
from mgbias.measures.preference import pair_indicators
from mgbias.pairs.scoring import (
    masked_edges,
    pair_measures,
    select_pairs,
    unmasked_identical,
)

__all__ = [
    "LENGTH_LEAN_SHARE",
    "leans_on_length",
    "length_differences",
    "length_p_value",
    "length_structure",
    "pair_decisions",
    "pair_measures_with_length",
    "shorter_share",
    "shorter_wins",
]

#: A measure leans on length when its length test rejects 50% at ``alpha`` and the
#: shorter (or the longer) sentence won at least this percent of the decided pairs of
#: unequal length: 60 is 10 points from chance, a lean no model's knowledge of the
#: stereotypes would produce by itself across a benchmark's unrelated length differences,
#: and far below what a random BERT shows on CrowS-Pairs (SSS: the shorter sentence,
#: AULA: the longer, in all 416 unequal pairs; ``docs/pair_measures.md``).
#: With few pairs the binomial test decides; with many (hundreds) this bound does, so that
#: a small, significant but harmless lean (say 54%) is not called an artifact.
LENGTH_LEAN_SHARE = 60.0


def length_differences(unmasked, masked, measure: str) -> np.ndarray:
    """Per pair: the length of ``sent_more`` minus that of ``sent_less``, as ``measure`` reads it.

    A measure of the unmasked pass (AUL, AULA): non-special tokens of the unmasked pass;
    of the masked pass: modified tokens (``n_modified_more - n_modified_less`` of
    :func:`mgbias.pairs.scoring.per_pair_table`). Returns int64, one per pair.
    """
    if pair.pair_measure(measure).cache == "unmasked":
        lengths = np.array([len(ids) for ids in unmasked.token_ids], dtype=np.int64)
        return lengths[0::2] - lengths[1::2]
    more = np.array([len(values) for values in masked.a.modified_logprobs], dtype=np.int64)
    less = np.array([len(values) for values in masked.b.modified_logprobs], dtype=np.int64)
    return more - less


def pair_decisions(unmasked, masked, measure: str) -> np.ndarray:
    """Per pair: +1 if ``measure`` prefers ``sent_more``, -1 if ``sent_less``, 0 if tied.

    The comparison of the measure's formula (its record's
    :meth:`~mgbias.measures.measure.PairMeasure.sides`, rounded to its ``round_to``):
    higher sentence score wins for AUL, AULA, CPS (rounded as
    :func:`mgbias.measures.cps.cps` rounds) and SSS; the smaller summed JS distance
    for binarized S_JSD; a negative pair score prefers ``sent_more`` for S_JSD.
    """
    record = pair.pair_measure(measure)
    more, less = record.sides(unmasked, masked)
    halves = pair_indicators(more, less, tie_rule="half", round_to=record.round_to)
    return np.rint(2 * halves - 1).astype(np.int64)


def shorter_wins(decisions: Any, differences: Any) -> tuple[int, int]:
    """``(shorter, longer)``: decided pairs of unequal length won by the shorter / longer side.

    ``decisions`` as :func:`pair_decisions` (+1 ``sent_more`` preferred, -1
    ``sent_less``, 0 tied), ``differences`` as :func:`length_differences` (length of
    ``sent_more`` minus ``sent_less``). A pair of equal length or a tie counts for neither.
    """
    decision = np.asarray(decisions, dtype=np.int64)
    difference = np.asarray(differences, dtype=np.int64)
    if decision.shape != difference.shape:
        raise ValueError(f"{decision.size} decisions for {difference.size} length differences")
    product = decision * np.sign(difference)
    # sent_more preferred (+1) and shorter (-1), or sent_less preferred and shorter: -1
    return int(np.count_nonzero(product < 0)), int(np.count_nonzero(product > 0))


def shorter_share(shorter: int, longer: int) -> float:
    """Percent of the decided pairs of unequal length won by the shorter sentence.

    ``100 * shorter / (shorter + longer)``; 50 is no lean, above 50 the shorter
    sentence wins, below 50 the longer. NaN without such pairs.
    """
    total = shorter + longer
    return 100.0 * shorter / total if total else math.nan


def length_p_value(shorter: int, longer: int) -> float:
    """Exact two-sided binomial test of "the shorter sentence wins half the unequal pairs".

    :func:`scipy.stats.binomtest` of ``shorter`` successes in ``shorter + longer``
    trials against 0.5: the p-value of a measure whose decisions ignore length. NaN
    without such pairs.
    """
    total = shorter + longer
    if not total:
        return math.nan
    from scipy.stats import binomtest  # here: importing scipy.stats takes seconds on some nodes

    return float(binomtest(shorter, total, 0.5).pvalue)


def leans_on_length(share: float, p_value: float, alpha: float) -> bool:
    """Do a measure's decisions follow the length difference in far more pairs than chance?

    True when the length test rejects 50% (``p_value < alpha``) and the share of
    the shorter sentence's wins lies at least ``LENGTH_LEAN_SHARE - 50`` points from
    50 (``share >= 60`` or ``share <= 40``): then the verdict names the length
    artifact (:func:`mgbias.measures.registry.verdict`). False for a NaN share.
    """
    far = abs(share - 50.0) >= LENGTH_LEAN_SHARE - 50.0
    return bool(p_value < alpha and far)


def _compared(measure: str, unmasked, masked, tie_rule: str) -> np.ndarray:
    """Pairs the measure's score counts: all, or all but its edge pairs with ``exclude``."""
    if tie_rule != "exclude":
        n_pairs = len(masked) if masked is not None else len(unmasked.logprobs) // 2
        return np.ones(n_pairs, dtype=bool)
    record = pair.pair_measure(measure)
    if record.cache == "unmasked":
        return ~np.asarray(unmasked_identical(unmasked), dtype=bool)
    return ~np.asarray(masked_edges(masked).for_measure(record), dtype=bool)


def length_structure(
    unmasked,
    masked,
    measures: Sequence[str],
    *,
    seed: int = 0,
    tie_rule: str = "neutral",
    alpha: float = 0.05,
    clusters: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """The length-matched score and the length lean of each measure.

    Parameters
    ----------
    unmasked, masked, measures, seed, tie_rule, alpha, clusters
        As for :func:`mgbias.pairs.scoring.pair_measures`; the length-matched score is
        that function on the length-matched pairs with the same options (the clusters
        of those pairs).

    Returns
    -------
    pandas.DataFrame
        ``measure`` and :data:`~mgbias.measures.measure.PAIR_LENGTH_COLUMNS`, one row
        per measure in the order asked: ``matched_score``, ``matched_se``,
        ``matched_p_value``, ``matched_n`` (the measure's ``score``, ``se``,
        ``p_value`` and ``n`` on the pairs of equal length; NaN and 0 without any),
        ``n_unequal`` (decided pairs of unequal length), ``length_share``
        (:func:`shorter_share`), ``length_p_value`` (:func:`length_p_value`) and
        ``length_lean`` (:func:`leans_on_length` at ``alpha``).
    """
    rows: dict[str, dict[str, Any]] = {}
    unmasked_measures = pair.by_cache("unmasked")
    for group in (
        [m for m in measures if m in unmasked_measures],
        [m for m in measures if m not in unmasked_measures],
    ):
        if not group:
            continue
        reads_unmasked = group[0] in unmasked_measures
        needed = unmasked if reads_unmasked else masked
        if needed is None:
            which = "unmasked" if reads_unmasked else "masked"
            raise ValueError(f"{group} need the {which} pass")
        differences = length_differences(unmasked, masked, group[0])
        matched = np.flatnonzero(differences == 0)
        scored = None
        if matched.size:
            scored = pair_measures(
                *select_pairs(
                    unmasked if reads_unmasked else None,
                    None if reads_unmasked else masked,
                    matched,
                ),
                group,
                seed=seed,
                tie_rule=tie_rule,
                alpha=alpha,
                clusters=None if clusters is None else [clusters[i] for i in matched],
            ).set_index("measure")
        for measure in group:
            compared = _compared(measure, unmasked, masked, tie_rule)
            decisions = pair_decisions(unmasked, masked, measure)[compared]
            shorter, longer = shorter_wins(decisions, differences[compared])
            share, p_value = shorter_share(shorter, longer), length_p_value(shorter, longer)
            rows[measure] = {
                "matched_score": math.nan if scored is None else scored.at[measure, "score"],
                "matched_se": math.nan if scored is None else scored.at[measure, "se"],
                "matched_p_value": math.nan if scored is None else scored.at[measure, "p_value"],
                "matched_n": 0 if scored is None else int(scored.at[measure, "n"]),
                "n_unequal": shorter + longer,
                "length_share": share,
                "length_p_value": p_value,
                "length_lean": leans_on_length(share, p_value, alpha),
            }
    frame = pd.DataFrame([{"measure": m, **rows[m]} for m in measures])
    frame = frame[["measure", *PAIR_LENGTH_COLUMNS]]
    return frame.astype(
        {
            "matched_score": np.float64,
            "matched_se": np.float64,
            "matched_p_value": np.float64,
            "matched_n": np.int64,
            "n_unequal": np.int64,
            "length_share": np.float64,
            "length_p_value": np.float64,
            "length_lean": bool,
        }
    )


def pair_measures_with_length(unmasked, masked, measures: Sequence[str], **options) -> pd.DataFrame:
    """:func:`mgbias.pairs.scoring.pair_measures` and, beside each row, :func:`length_structure`.

    Takes the options of ``pair_measures`` (``seed``, ``tie_rule``, ``alpha``,
    ``clusters``) and returns :data:`~mgbias.measures.measure.PAIR_SCORE_COLUMNS`:
    what ``mgbias score`` and the workflow's ``pair_measures`` rule report.
    """
    table = pair_measures(unmasked, masked, measures, **options)
    length = length_structure(unmasked, masked, measures, **options)
    return pd.concat([table, length.drop(columns="measure")], axis=1)[list(PAIR_SCORE_COLUMNS)]
