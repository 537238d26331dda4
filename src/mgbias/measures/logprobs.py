"""What the measures accept as a log-probability."""

from __future__ import annotations

LOGPROB_TOLERANCE = 1e-6
"""Largest value accepted as a log-probability.

Log-probabilities are <= 0; the scoring engine computes them in float32, whose
rounding can put a log-probability of (almost) 1 a little above zero. A value
above this tolerance is not a log-probability and is rejected by the measures
that read them (:mod:`mgbias.measures.sjsd`, :mod:`mgbias.measures.tbs`).
"""
