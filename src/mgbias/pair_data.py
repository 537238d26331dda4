"""The pairs of a pair benchmark as the scoring passes see them.

:func:`load_pairs` reads any of the benchmark layouts (CrowS-Pairs CSV,
multilingual CrowS-Pairs CSV, StereoSet JSON, translated CrowS-Pairs JSON) and
keeps one bias type;
:func:`pair_sentences` gives the ``(sent_more, sent_less)`` of each row,
perturbed if asked (Steinborn et al. 2022, Table 3). Both the model passes
(:mod:`mgbias.pair_passes`) and the measures (:mod:`mgbias.pair_scoring`)
use them, without depending on each other.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mgbias.atomic import read_json
from mgbias.datasets import (
    filter_bias_type,
    load_crowspairs,
    load_multilingual_crowspairs,
    load_stereoset,
)
from mgbias.datasets.translated_crowspairs import (
    is_translated_crowspairs,
    load_translated_crowspairs,
)
from mgbias.perturb import perturb_final_character

__all__ = ["load_pairs", "pair_sentences"]


def pair_sentences(frame: pd.DataFrame, *, perturb: bool = False) -> list[tuple[str, str]]:
    """``(sent_more, sent_less)`` of every row of a pair table.

    With ``perturb`` both sentences lose their final character
    (:func:`~mgbias.perturb.perturb_final_character`; Steinborn et al.
    2022, Table 3).
    """
    pairs = list(zip(frame["sent_more"], frame["sent_less"], strict=True))
    if perturb:
        pairs = [(perturb_final_character(a), perturb_final_character(b)) for a, b in pairs]
    return pairs


def load_pairs(path: str, *, lang: str | None = None, bias_type: str = "gender") -> pd.DataFrame:
    """Read a pair benchmark by its format: StereoSet JSON, translated CrowS-Pairs
    JSON (an array of ``stereotype`` / ``anti-stereotype`` items), CrowS-Pairs CSV
    (``sent_more``), or multilingual CrowS-Pairs CSV (``A_x`` / ``B_x``, the
    language from ``lang`` or the file name); keep one bias type."""
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(
            f"{path}: no such pair dataset file (expected a CrowS-Pairs or multilingual "
            "CrowS-Pairs CSV, or a StereoSet JSON)"
        )
    if source.suffix == ".json":
        # by content: StereoSet's object with "data", or an array of translated
        # CrowS-Pairs items (Kaneko et al. 2022's human translations)
        if is_translated_crowspairs(read_json(source)):
            frame = load_translated_crowspairs(source)
        else:
            frame = load_stereoset(source)
    else:
        with open(source, encoding="utf-8") as handle:
            header = handle.readline()
        if "sent_more" in header:
            frame = load_crowspairs(source)
        else:
            frame = load_multilingual_crowspairs(source, language=lang)
    return filter_bias_type(frame, bias_type)
