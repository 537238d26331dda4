"""What the measures accept as a log-probability."""

from __future__ import annotations

import numpy as np

LOGPROB_TOLERANCE = 1e-6
"""Largest value accepted as a log-probability.

Log-probabilities are <= 0; the scoring engine computes them in float32, whose
rounding can put a log-probability of (almost) 1 a little above zero. A value
above this tolerance is not a log-probability and is rejected by the measures
that read them (:mod:`mgbias.measures.sjsd`, :mod:`mgbias.measures.tbs`).
"""


def check_logprobs_at_most_zero(values: np.ndarray, name: str) -> None:
    """Raise if a value of ``values`` exceeds :data:`LOGPROB_TOLERANCE`.

    Raises
    ------
    ValueError
        ``"<name>[<index>] = <value> is not a log-probability (must be <= 0)"``,
        naming the first offending value (in C order).
    """
    too_high = np.asarray(values) > LOGPROB_TOLERANCE
    if too_high.any():
        index = tuple(int(i) for i in np.argwhere(too_high)[0])
        raise ValueError(
            f"{name}{list(index)} = {values[index]} is not a log-probability (must be <= 0)"
        )
