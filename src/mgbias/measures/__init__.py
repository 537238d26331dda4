"""Bias measures computed from the cached model outputs (one measure per module).

``MEASURES`` maps a measure name to its per-sentence scoring function
(sequences of per-token arrays in, one float per sentence out).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mgbias.measures.aul import aul
from mgbias.measures.aula import aula
from mgbias.measures.mbe import MBEResult, mbe_score, shuffled_baseline

__all__ = ["MEASURES", "MBEResult", "aul", "aula", "mbe_score", "shuffled_baseline"]

#: Per-sentence scoring functions by name.
MEASURES: dict[str, Callable[..., np.ndarray]] = {"aul": aul, "aula": aula}
