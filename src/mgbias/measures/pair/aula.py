"""AULA as a pair measure (Kaneko et al. 2022, Eq. 1): AUL weighted by attention."""

from __future__ import annotations

from mgbias.measures.aula import aula
from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import compared
from mgbias.measures.pair.texts import KANEKO_BOLLEGALA_TABLE1, SHARE_OF_PAIRS


def _scores(unmasked, masked):
    values = aula(unmasked.logprobs, unmasked.attention)
    return values[0::2], values[1::2]


MEASURE = PairMeasure(
    name="aula",
    title="AULA, AUL weighted by attention",
    paper="Kaneko & Bollegala 2022; Kaneko et al. 2022",
    equation="Kaneko et al. 2022, Eq. 1",
    module="mgbias.measures.aula",
    function="aula",
    cache="unmasked",
    **SHARE_OF_PAIRS,
    published=KANEKO_BOLLEGALA_TABLE1,
    table_rank=4,
    compute=compared(_scores),
    sentence_scores=_scores,
    edge_flags=("identical",),
)
