"""The public API, one module per family (names imported on first use).

- :mod:`mgbias.api.mlm`: masked LMs: :func:`load_model`, :func:`score_pairs` (the pair
  measures), :func:`mbe`, :func:`mine`, :func:`read_sentences`, :func:`load_pair_data`;
- :mod:`mgbias.api.probes`: :func:`tbs` and the contextual probes (:func:`probe`);
- :mod:`mgbias.api.embeddings`: static vectors: :func:`align`, :func:`bli`,
  :func:`debias`, :func:`inbias`;
- :mod:`mgbias.api.data`: the papers' data: :func:`gendered_text`,
  :func:`mix_gendered_text`, :func:`finetune_mlm`, :func:`extract_bios`.

``import mgbias`` gives every name below (``mgbias.score_pairs``); nothing heavy is
imported until one is used.
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
        "mgbias.api.mlm",
    ),
    **dict.fromkeys(("ProbeReport", "TBSReport", "probe", "tbs"), "mgbias.api.probes"),
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
        "mgbias.api.embeddings",
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
        "mgbias.api.data",
    ),
}

__all__ = sorted(_MODULES)


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return getattr(importlib.import_module(_MODULES[name]), name)
    raise AttributeError(f"module 'mgbias.api' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
