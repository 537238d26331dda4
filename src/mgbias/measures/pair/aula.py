"""AULA as a pair measure (Kaneko et al. 2022, Eq. 1): AUL weighted by attention."""

from __future__ import annotations

from mgbias.measures.aula import aula
from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import preference_row
from mgbias.measures.pair.texts import PAIR_OUTPUT, PAIR_SIDES, PAIR_UNITS, SHARE_DIRECTION
from mgbias.measures.preference import compare_pairs


def _scores(unmasked, masked):
    values = aula(unmasked.logprobs, unmasked.attention)
    return values[0::2], values[1::2]


def _compute(unmasked, masked, edge, options):
    return preference_row(compare_pairs(*_scores(unmasked, masked), edge=edge, **options))


MEASURE = PairMeasure(
    name="aula",
    title="AULA, AUL weighted by attention",
    paper="Kaneko & Bollegala 2022; Kaneko et al. 2022",
    equation="Kaneko et al. 2022, Eq. 1",
    module="mgbias.measures.aula",
    function="aula",
    cache="unmasked",
    rule="pair_measures",
    output=PAIR_OUTPUT,
    units=PAIR_UNITS,
    direction=SHARE_DIRECTION,
    **PAIR_SIDES,
    published="CrowS-Pairs and StereoSet per model: Kaneko & Bollegala 2022, Table 1",
    table_rank=4,
    compute=_compute,
    sentence_scores=_scores,
    edge_flags=("identical",),
)
