"""AUL as a pair measure (Kaneko & Bollegala 2022, §2): the unmasked pass's sentence scores."""

from __future__ import annotations

from mgbias.measures.aul import aul
from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import preference_row
from mgbias.measures.pair.texts import PAIR_OUTPUT, PAIR_SIDES, PAIR_UNITS, SHARE_DIRECTION
from mgbias.measures.preference import compare_pairs


def _scores(unmasked, masked):
    values = aul(unmasked.logprobs)
    return values[0::2], values[1::2]


def _compute(unmasked, masked, edge, options):
    return preference_row(compare_pairs(*_scores(unmasked, masked), edge=edge, **options))


MEASURE = PairMeasure(
    name="aul",
    title="AUL, all unmasked likelihood",
    paper="Kaneko & Bollegala 2022",
    equation="§2, mean of log P(w_i | S) over the sentence's tokens",
    module="mgbias.measures.aul",
    function="aul",
    cache="unmasked",
    rule="pair_measures",
    output=PAIR_OUTPUT,
    units=PAIR_UNITS,
    direction=SHARE_DIRECTION,
    **PAIR_SIDES,
    published="CrowS-Pairs and StereoSet per model: Kaneko & Bollegala 2022, Table 1",
    table_rank=3,
    compute=_compute,
    sentence_scores=_scores,
    edge_flags=("identical",),
)
