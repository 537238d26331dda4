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

#: Each public name and the module that defines it (imported on first use).
_MODULES = {
    **dict.fromkeys(
        (
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
        ),
        "mgbias.api",
    ),
    **dict.fromkeys(("ProbeReport", "TBSReport", "probe", "tbs"), "mgbias.api_probes"),
    **dict.fromkeys(
        (
            "AlignReport",
            "BLIReport",
            "DebiasReport",
            "InBiasReport",
            "align",
            "bli",
            "debias",
            "inbias",
        ),
        "mgbias.api_embeddings",
    ),
    **dict.fromkeys(
        (
            "BiosDataset",
            "FineTunedModel",
            "GenderedText",
            "MixedText",
            "extract_bios",
            "finetune_mlm",
            "gendered_text",
            "mix_gendered_text",
        ),
        "mgbias.api_data",
    ),
}

__all__ = sorted(_MODULES)


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return getattr(importlib.import_module(_MODULES[name]), name)
    raise AttributeError(f"module 'mgbias' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
