"""StereoSet intrasentence examples (Nadeem et al. 2021) as sentence pairs.

Layout of the released ``data/dev.json`` (moinnadeem/StereoSet)::

    {"version": "...",
     "data": {"intersentence": [...],
              "intrasentence": [
                  {"id": "...", "target": "...", "bias_type": "gender",
                   "context": "... BLANK ...",
                   "sentences": [
                       {"sentence": "...", "id": "...",
                        "labels": [{"label": "stereotype", "human_id": "..."}, ...],
                        "gold_label": "stereotype" | "anti-stereotype" | "unrelated"},
                       ...]},
                  ...]}}

Each intrasentence example fills the ``BLANK`` of its context three ways. A pair
is made of its ``stereotype`` sentence (``sent_more``) and its
``anti-stereotype`` sentence (``sent_less``); the ``unrelated`` sentence is
dropped. ``stereo_antistereo`` is ``"stereo"`` for every pair: ``sent_more``
demonstrates the stereotype. StereoSet's bias types are ``gender``,
``profession``, ``race`` and ``religion``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from mgbias.datasets.frame import MISSING_MARKERS, PAIR_COLUMNS, note_duplicate_pairs
from mgbias.files.atomic import read_json

__all__ = ["GOLD_LABELS", "load_stereoset"]

#: Values of a sentence's ``gold_label``.
GOLD_LABELS = ("stereotype", "anti-stereotype", "unrelated")

_EXTRA_COLUMNS = ("target", "context", "sent_more_id", "sent_less_id", "source_index")


def _require_key(path: Path, where: str, mapping: Any, key: str, kind: type) -> Any:
    if not isinstance(mapping, dict):
        raise ValueError(f"{path}: {where} must be a JSON object, got {type(mapping).__name__}")
    if key not in mapping:
        raise ValueError(f"{path}: {where} has no key {key!r}; found keys {sorted(mapping)}")
    value = mapping[key]
    if not isinstance(value, kind):
        raise ValueError(
            f"{path}: {where}.{key} must be a JSON {_json_kind(kind)}, got {type(value).__name__}"
        )
    return value


def _require_text(path: Path, where: str, mapping: Any, key: str, example_id: str = "") -> str:
    """A string value the loader uses: present, not null/NaN, not empty, not a NaN marker."""
    if isinstance(mapping, dict) and key in mapping:
        value = mapping[key]
        of = f" (example id {example_id!r})" if example_id else ""
        if value is None:
            raise ValueError(f"{path}: {where}.{key}{of} is null; expected a non-empty string")
        if isinstance(value, float) and math.isnan(value):
            raise ValueError(f"{path}: {where}.{key}{of} is NaN; expected a non-empty string")
        if isinstance(value, str) and not value.strip():
            raise ValueError(f"{path}: {where}.{key}{of} is empty")
        if isinstance(value, str) and value.strip() in MISSING_MARKERS:
            raise ValueError(
                f"{path}: {where}.{key}{of} holds {value!r}, a missing-value marker; "
                "expected a non-empty string"
            )
    return _require_key(path, where, mapping, key, str)


def _json_kind(kind: type) -> str:
    return {str: "string", list: "array", dict: "object"}[kind]


def _pair_of(
    path: Path, where: str, example: dict[str, Any], example_id: str
) -> dict[str, dict[str, Any]]:
    sentences = _require_key(path, where, example, "sentences", list)
    by_label: dict[str, dict[str, Any]] = {}
    for index, sentence in enumerate(sentences):
        place = f"{where}.sentences[{index}]"
        label = _require_text(path, place, sentence, "gold_label", example_id)
        if label not in GOLD_LABELS:
            raise ValueError(
                f"{path}: {place}.gold_label is {label!r}; expected one of {GOLD_LABELS}"
            )
        if label in by_label:
            raise ValueError(f"{path}: {where} has more than one {label!r} sentence")
        if label != "unrelated":  # the unrelated sentence is not used
            _require_text(path, place, sentence, "sentence", example_id)
        by_label[label] = sentence
    for label in ("stereotype", "anti-stereotype"):
        if label not in by_label:
            raise ValueError(f"{path}: {where} has no {label!r} sentence")
    return by_label


def load_stereoset(path: str | Path) -> pd.DataFrame:
    """Read the intrasentence part of a StereoSet JSON file as (stereotype, anti-stereotype) pairs.

    Parameters
    ----------
    path : str or Path
        ``dev.json`` or a file in the same layout.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`~mgbias.datasets.frame.PAIR_COLUMNS` (``pair_id`` = the
        example's ``id``, ``sent_more`` = its stereotype sentence, ``sent_less``
        = its anti-stereotype sentence, ``stereo_antistereo`` = ``"stereo"``),
        then ``target``, ``context``, ``sent_more_id``, ``sent_less_id`` (the
        sentences' ids, empty if absent) and ``source_index`` (position in
        ``data.intrasentence``). ``attrs``: ``{"dataset": "stereoset",
        "source": str(path), "version": ..., "n_duplicate_pairs": ...}``; an
        example with the same stereotype and anti-stereotype sentences as an
        earlier one is kept, counted and logged.

    Raises
    ------
    ValueError
        Naming the file and the JSON path (e.g.
        ``data.intrasentence[3].sentences[1].sentence``) and the example id:
        invalid JSON, a missing key, a wrong type, a used value (id,
        ``bias_type``, ``gold_label``, the stereotype and anti-stereotype
        sentences) that is null, NaN, empty or a missing-value marker such as
        ``"NaN"``, an unknown ``gold_label``, an example without (or with two)
        stereotype or anti-stereotype sentences, or a duplicated example id.
        The unrelated sentence, ``target`` and ``context`` are not checked.
    """
    path = Path(path)
    document = read_json(path)
    data = _require_key(path, "the top level", document, "data", dict)
    examples = _require_key(path, "data", data, "intrasentence", list)
    rows: list[dict[str, object]] = []
    seen: dict[str, int] = {}
    for index, example in enumerate(examples):
        where = f"data.intrasentence[{index}]"
        example_id = _require_text(path, where, example, "id")
        bias_type = _require_text(path, where, example, "bias_type", example_id)
        if example_id in seen:
            raise ValueError(
                f"{path}: {where}.id {example_id!r} already used by "
                f"data.intrasentence[{seen[example_id]}]"
            )
        seen[example_id] = index
        pair = _pair_of(path, where, example, example_id)
        stereotype, anti_stereotype = pair["stereotype"], pair["anti-stereotype"]
        rows.append(
            {
                "pair_id": example_id,
                "sent_more": stereotype["sentence"],
                "sent_less": anti_stereotype["sentence"],
                "stereo_antistereo": "stereo",
                "bias_type": bias_type,
                "target": str(example.get("target", "")),
                "context": str(example.get("context", "")),
                "sent_more_id": str(stereotype.get("id", "")),
                "sent_less_id": str(anti_stereotype.get("id", "")),
                "source_index": index,
            }
        )
    frame = pd.DataFrame(rows, columns=[*PAIR_COLUMNS, *_EXTRA_COLUMNS])
    frame["source_index"] = frame["source_index"].astype("int64")
    places = [
        f"data.intrasentence[{index}] (id {pair_id!r})"
        for index, pair_id in zip(frame["source_index"], frame["pair_id"], strict=True)
    ]
    n_duplicates = note_duplicate_pairs(frame, places, path)
    frame.attrs = {
        "dataset": "stereoset",
        "source": str(path),
        "version": str(document.get("version", "")),
        "n_duplicate_pairs": n_duplicates,
    }
    return frame
