"""CPS as a pair measure (Nangia et al. 2020, §3): pseudo log-likelihoods over the shared
tokens, rounded to Nangia et al.'s 3 decimals before they are compared."""

from __future__ import annotations

from mgbias.measures.cps import NANGIA_ROUND_TO, cps, cps_sentence_scores
from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import compared
from mgbias.measures.pair.texts import SHARE_OF_PAIRS


def _scores(unmasked, masked):
    return (
        cps_sentence_scores(masked.a.shared_logprobs),
        cps_sentence_scores(masked.b.shared_logprobs),
    )


MEASURE = PairMeasure(
    name="cps",
    title="CPS, CrowS-Pairs score",
    paper="Nangia et al. 2020",
    equation="§3 'Metric': sum of log P(u_i | U minus u_i, M) over shared tokens",
    module="mgbias.measures.cps",
    function="cps",
    cache="masked",
    **SHARE_OF_PAIRS,
    published=(
        "Steinborn et al. 2022, Table 2 (mBERT En 57 ± 3, xlmR En 62 ± 3) and Table 3 "
        "(BERT 60.5 ± 1.3, RoBERTa 65.5 ± 1.2, ALBERT 67.0 ± 1.2 on all of CrowS-Pairs)"
    ),
    table_rank=2,
    compute=compared(_scores, cps),
    sentence_scores=_scores,
    edge_flags=("identical", "no_shared"),
    round_to=NANGIA_ROUND_TO,
)
