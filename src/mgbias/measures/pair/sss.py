"""SSS as a pair measure (Kaneko et al. 2022, App. A): log-likelihoods of the modified tokens."""

from __future__ import annotations

from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import compared
from mgbias.measures.pair.texts import SHARE_OF_PAIRS
from mgbias.measures.sss import sss, sss_sentence_scores


def _scores(unmasked, masked):
    return (
        sss_sentence_scores(masked.a.modified_logprobs),
        sss_sentence_scores(masked.b.modified_logprobs),
    )


MEASURE = PairMeasure(
    name="sss",
    title="SSS, StereoSet-style score",
    paper="Nadeem et al. 2021, as used by Kaneko et al. 2022",
    equation="Kaneko et al. 2022, App. A: sum of log P(w_i | U) over modified tokens",
    module="mgbias.measures.sss",
    function="sss",
    cache="masked",
    **SHARE_OF_PAIRS,
    published="Kaneko et al. 2022, Table 3 (meta-evaluation on CrowS-Pairs and StereoSet)",
    table_rank=1,
    compute=compared(_scores, sss),
    sentence_scores=_scores,
    edge_flags=("no_modified_more", "no_modified_less"),
)
