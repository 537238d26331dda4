"""mgbias: gender bias of masked language models and word embeddings, by the papers' measures.

The public API (:mod:`mgbias.api`, ``docs/api.md``)::

    import mgbias

    model = mgbias.load_model("tiny-mlm")
    report = mgbias.score_pairs(model, "pairs.csv", measures=["aula", "cps"])
    result = mgbias.mbe(model, "male.txt", "female.txt")
    print(mgbias.tbs(model, targets="demo"))

Every ``mgbias`` command is a thin layer over one of these functions (``mgbias tbs``
over :func:`mgbias.tbs`, ``mgbias align`` over :func:`mgbias.align`, ...).

Names are imported on first use, so ``import mgbias`` (and ``mgbias --help``)
does not load torch.
"""

from __future__ import annotations

import importlib
from typing import Any

from mgbias.api import __all__  # the public names (the API's modules load on first use)


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("mgbias.api"), name)
    raise AttributeError(f"module 'mgbias' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
