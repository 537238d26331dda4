"""mgbias: gender bias of masked language models and word embeddings, by the papers' measures.

The public API (:mod:`mgbias.api`, ``docs/api.md``)::

    import mgbias

    model = mgbias.load_model("tiny-mlm")
    report = mgbias.score_pairs(model, "pairs.csv", measures=["aula", "cps"])
    result = mgbias.mbe(model, "male.txt", "female.txt")

Names are imported on first use, so ``import mgbias`` (and ``mgbias --help``)
does not load torch.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "MBEReport",
    "MaskedLM",
    "MinedSentences",
    "PairsReport",
    "load_model",
    "load_pair_data",
    "mbe",
    "mine",
    "read_sentences",
    "score_pairs",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("mgbias.api"), name)
    raise AttributeError(f"module 'mgbias' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
