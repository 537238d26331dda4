"""Bias measures computed from the cached model outputs (one measure per module).

Nothing is imported here at start-up: a workflow job that uses one measure
loads (and reruns on a change of) that measure's module only
(:mod:`mgbias.workflow.code_inputs`). The names below resolve lazily, on first use.

A measure whose function has its module's name (``aul``, ``aula``, ``cps``,
``sss``, ``sjsd``) is imported from its module: ``from mgbias.measures.cps import
cps``. Which measures exist, and where each is implemented:
:mod:`mgbias.measures.registry`.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Public names and the module that defines each (resolved on first use).
_LAZY = {
    "CPSResult": "cps",
    "cps_sentence_scores": "cps",
    "MBEResult": "mbe",
    "mbe_score": "mbe",
    "shuffled_baseline": "mbe",
    "PairPreferenceResult": "preference",
    "compare_pairs": "preference",
    "pair_preference": "preference",
    "SJSDResult": "sjsd",
    "binarized_sjsd": "sjsd",
    "js_distance_sums": "sjsd",
    "sjsd_pair_scores": "sjsd",
    "sss_sentence_scores": "sss",
    "tbs_association": "tbs",
    "tbs_bias": "tbs",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
