"""SSS as a pair measure (Kaneko et al. 2022, App. A): log-likelihoods of the modified tokens."""

from __future__ import annotations

from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import preference_row
from mgbias.measures.pair.texts import PAIR_OUTPUT, PAIR_SIDES, PAIR_UNITS, SHARE_DIRECTION
from mgbias.measures.sss import sss, sss_sentence_scores


def _scores(unmasked, masked):
    return (
        sss_sentence_scores(masked.a.modified_logprobs),
        sss_sentence_scores(masked.b.modified_logprobs),
    )


def _compute(unmasked, masked, edge, options):
    return preference_row(sss(*_scores(unmasked, masked), edge=edge, **options))


MEASURE = PairMeasure(
    name="sss",
    title="SSS, StereoSet-style score",
    paper="Nadeem et al. 2021, as used by Kaneko et al. 2022",
    equation="Kaneko et al. 2022, App. A: sum of log P(w_i | U) over modified tokens",
    module="mgbias.measures.sss",
    function="sss",
    cache="masked",
    rule="pair_measures",
    output=PAIR_OUTPUT,
    units=PAIR_UNITS,
    direction=SHARE_DIRECTION,
    **PAIR_SIDES,
    published="Kaneko et al. 2022, Table 3 (meta-evaluation on CrowS-Pairs and StereoSet)",
    table_rank=1,
    compute=_compute,
    sentence_scores=_scores,
    edge_flags=("no_modified_more", "no_modified_less"),
)
