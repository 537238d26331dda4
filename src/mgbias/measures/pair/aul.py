"""AUL as a pair measure (Kaneko & Bollegala 2022, §2): the unmasked pass's sentence scores."""

from __future__ import annotations

from mgbias.measures.aul import aul
from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import compared
from mgbias.measures.pair.texts import KANEKO_BOLLEGALA_TABLE1, SHARE_OF_PAIRS


def _scores(unmasked, masked):
    values = aul(unmasked.logprobs)
    return values[0::2], values[1::2]


MEASURE = PairMeasure(
    name="aul",
    title="AUL, all unmasked likelihood",
    paper="Kaneko & Bollegala 2022",
    equation="§2, mean of log P(w_i | S) over the sentence's tokens",
    module="mgbias.measures.aul",
    function="aul",
    cache="unmasked",
    **SHARE_OF_PAIRS,
    published=KANEKO_BOLLEGALA_TABLE1,
    table_rank=3,
    compute=compared(_scores),
    sentence_scores=_scores,
    edge_flags=("identical",),
)
