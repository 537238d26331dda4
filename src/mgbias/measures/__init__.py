"""Bias measures computed from the cached model outputs (one measure per module).

``MEASURES`` maps a measure name to its per-sentence scoring function
(sequences of per-token arrays in, one float per sentence out).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mgbias.measures.aul import aul
from mgbias.measures.aula import aula
from mgbias.measures.cps import CPSResult, cps, cps_sentence_scores
from mgbias.measures.mbe import MBEResult, mbe_score, shuffled_baseline
from mgbias.measures.pairs import PairPreferenceResult, compare_pairs, pair_preference
from mgbias.measures.sjsd import (
    SJSDResult,
    binarized_sjsd,
    js_distance_sums,
    sjsd,
    sjsd_pair_scores,
)
from mgbias.measures.sss import sss, sss_sentence_scores
from mgbias.measures.tbs import tbs_association, tbs_bias

__all__ = [
    "MEASURES",
    "CPSResult",
    "MBEResult",
    "PairPreferenceResult",
    "SJSDResult",
    "aul",
    "aula",
    "binarized_sjsd",
    "compare_pairs",
    "cps",
    "cps_sentence_scores",
    "js_distance_sums",
    "mbe_score",
    "pair_preference",
    "shuffled_baseline",
    "sjsd",
    "sjsd_pair_scores",
    "sss",
    "sss_sentence_scores",
    "tbs_association",
    "tbs_bias",
]

#: Per-sentence scoring functions by name.
MEASURES: dict[str, Callable[..., np.ndarray]] = {
    "aul": aul,
    "aula": aula,
    "cps": cps_sentence_scores,
    "sss": sss_sentence_scores,
    "jsd_distance_sum": js_distance_sums,
}
