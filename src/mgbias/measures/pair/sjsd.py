"""S_JSD as a pair measure (Steinborn et al. 2022, Eqs. 1-3): the mean over shared tokens
of the Jensen-Shannon distance difference; a negative pair score prefers ``sent_more``."""

from __future__ import annotations

import numpy as np

from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import result_row
from mgbias.measures.pair.texts import ANTI, PAIR_OUTPUT, STEREO
from mgbias.measures.sjsd import TABLE_SCALE, js_distance_sums, sjsd, sjsd_pair_scores


def _pair_scores(masked):
    return sjsd_pair_scores(masked.a.shared_logprobs, masked.b.shared_logprobs)


def _decided_by(unmasked, masked):
    scores = np.asarray(_pair_scores(masked), dtype=np.float64)
    return -scores, np.zeros_like(scores)


def _per_pair(unmasked, masked):
    return {
        "jsd_more": js_distance_sums(masked.a.shared_logprobs),
        "jsd_less": js_distance_sums(masked.b.shared_logprobs),
        "sjsd": _pair_scores(masked),
    }


def _compute(unmasked, masked, edge, options):
    result = sjsd(_pair_scores(masked), edge=edge, **options)
    return result_row(result, result.n)


MEASURE = PairMeasure(
    name="sjsd",
    title="S_JSD, Jensen-Shannon pair score",
    paper="Steinborn et al. 2022",
    equation="Eqs. 1-3, mean over shared tokens of the JS distance difference",
    module="mgbias.measures.sjsd",
    function="sjsd",
    cache="masked",
    rule="pair_measures",
    output=PAIR_OUTPUT,
    units="mean pair score (tables: × 10⁻³)",
    direction="< 0: the stereotypical sentence is preferred; 0: none",
    neutral=0.0,
    above=ANTI,
    below=STEREO,
    published=(
        "Steinborn et al. 2022, Table 2 (× 10⁻³: mBERT En -0.05 ± 1, xlmR De -2 ± 2) and "
        "Table 3 (BERT -6 ± 1, RoBERTa -10 ± 1, ALBERT -13 ± 1)"
    ),
    compute=_compute,
    decided_by=_decided_by,
    per_pair=_per_pair,
    edge_flags=("identical", "no_shared"),
    table_scale=TABLE_SCALE,
    decimals=6,
)
