"""Human translations of the CrowS-Pairs gender pairs (Kaneko et al. 2022, §5.2, "HT").

Layout of the authors' released files (``translated_data/japanese.json`` and
``russian.json`` of kanekomasahiro/bias_eval_in_multiple_mlm): a JSON array of
items, one per CrowS-Pairs gender pair in CrowS-Pairs order (262 per language)::

    [{"direction": "antistereo", "bias_type": "gender",
      "stereotype": "...", "anti-stereotype": "...", "bias_score": 4},
     ...]

``stereotype`` is the translation of ``sent_more``, ``anti-stereotype`` of
``sent_less`` and ``direction`` is CrowS-Pairs' ``stereo_antistereo``. A machine
translation of the same pairs in the same layout (the paper's "MT") is read the
same way.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mgbias.datasets.frame import PAIR_COLUMNS, check_direction, is_missing, note_duplicate_pairs
from mgbias.files.atomic import read_json

__all__ = ["is_translated_crowspairs", "load_translated_crowspairs"]

_KEYS = ("direction", "bias_type", "stereotype", "anti-stereotype")


def is_translated_crowspairs(document: object) -> bool:
    """True for a JSON array of objects holding ``stereotype`` and ``anti-stereotype``."""
    return (
        isinstance(document, list)
        and len(document) > 0
        and isinstance(document[0], dict)
        and "stereotype" in document[0]
        and "anti-stereotype" in document[0]
    )


def load_translated_crowspairs(path: str | Path) -> pd.DataFrame:
    """Read translated CrowS-Pairs pairs as a pair table.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`~mgbias.datasets.frame.PAIR_COLUMNS` (``pair_id`` = the item's
        0-based position, which is its CrowS-Pairs gender pair's rank), then
        ``bias_score`` (the annotators' agreement, empty if absent) and
        ``source_index``. ``attrs``: ``{"dataset": "translated_crowspairs",
        "source": str(path), "n_duplicate_pairs": ...}``.

    Raises
    ------
    ValueError
        Naming the file and the item (``[12]``): not a JSON array of objects, a
        missing key, a value that is not a non-empty string or is a missing-value
        marker, or an unknown ``direction``.
    """
    path = Path(path)
    document = read_json(path)
    if not isinstance(document, list):
        raise ValueError(
            f"{path}: expected a JSON array of translated pairs, got {type(document).__name__}"
        )
    rows = []
    for index, item in enumerate(document):
        where = f"[{index}]"
        if not isinstance(item, dict):
            raise ValueError(f"{path}: {where} must be a JSON object, got {type(item).__name__}")
        for key in _KEYS:
            if key not in item:
                raise ValueError(f"{path}: {where} has no key {key!r}; found {sorted(item)}")
            value = item[key]
            if not isinstance(value, str) or is_missing(value):
                raise ValueError(f"{path}: {where}.{key} is {value!r}; expected a non-empty string")
        rows.append(
            {
                "pair_id": str(index),
                "sent_more": item["stereotype"],
                "sent_less": item["anti-stereotype"],
                "stereo_antistereo": check_direction(path, where, item["direction"]),
                "bias_type": item["bias_type"],
                "bias_score": item.get("bias_score", ""),
                "source_index": index,
            }
        )
    frame = pd.DataFrame(rows, columns=[*PAIR_COLUMNS, "bias_score", "source_index"])
    places = [f"[{index}]" for index in frame["source_index"]]
    frame.attrs = {
        "dataset": "translated_crowspairs",
        "source": str(path),
        "n_duplicate_pairs": note_duplicate_pairs(frame, places, path),
    }
    return frame
