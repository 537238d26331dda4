"""Binarized S_JSD as a pair measure (Steinborn et al. 2022, §5): CPS with the log-probability
replaced by the JS distance to the gold token; the smaller summed distance wins (its
per-pair sums are S_JSD's columns, ``jsd_more`` and ``jsd_less``)."""

from __future__ import annotations

from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair.rows import preference_row
from mgbias.measures.pair.texts import SHARE_OF_PAIRS
from mgbias.measures.sjsd import binarized_sjsd, js_distance_sums


def _decided_by(unmasked, masked):
    return (
        -js_distance_sums(masked.a.shared_logprobs),
        -js_distance_sums(masked.b.shared_logprobs),
    )


def _compute(unmasked, masked, edge, options):
    return preference_row(
        binarized_sjsd(masked.a.shared_logprobs, masked.b.shared_logprobs, edge=edge, **options)
    )


MEASURE = PairMeasure(
    name="bsjsd",
    title="B. S_JSD, binarized S_JSD",
    paper="Steinborn et al. 2022",
    equation="§5: CPS with log P replaced by the JS distance to the gold token",
    module="mgbias.measures.sjsd",
    function="binarized_sjsd",
    cache="masked",
    **SHARE_OF_PAIRS,
    published="Steinborn et al. 2022, Table 2 (mBERT En 50 ± 3, mBERT Th 60 ± 3)",
    compute=_compute,
    decided_by=_decided_by,
    edge_flags=("identical", "no_shared"),
)
