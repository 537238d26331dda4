"""The public pair benchmarks shipped with the package, by name.

``mgbias/resources/pair_benchmarks.yaml`` is the one place that says where
CrowS-Pairs, the multilingual CrowS-Pairs of Steinborn et al. (2022) and
StereoSet live (URL template), which languages they have, how their files are
read, and the sha256 of each file. ``mgbias score --data NAME`` downloads them
by that name; a workflow configuration refers to one with
``pair_datasets: {x: {benchmark: NAME}}`` (:func:`mgbias.config.validate_config`
fills in its URL, languages and checksums).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from mgbias.files.yaml_lines import load_yaml
from mgbias.resources import resource_path

__all__ = ["FORMATS", "benchmark_checksums", "load_benchmarks"]

FILE_NAME = "pair_benchmarks.yaml"
FORMATS = ("crows_pairs", "multilingual_crows_pairs", "stereoset")

_SCHEMA = {
    "type": "object",
    "minProperties": 1,
    "propertyNames": {"pattern": "^[A-Za-z0-9_]+$"},
    "additionalProperties": {
        "type": "object",
        "additionalProperties": False,
        "required": ["description", "format", "url", "languages"],
        "properties": {
            "description": {"type": "string"},
            "format": {"enum": list(FORMATS)},
            "url": {"type": "string", "pattern": "^https://"},
            "languages": {
                "type": "array",
                "minItems": 1,
                "uniqueItems": True,
                "items": {"type": "string", "pattern": "^[a-z]{2}$"},
            },
            "sha256": {
                "type": "object",
                "propertyNames": {"pattern": "^[a-z]{2}$"},
                "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            },
        },
    },
}


def validate_benchmarks(benchmarks: Any, source: str = FILE_NAME) -> dict[str, dict]:
    """Check a benchmarks mapping: the keys above, ``{lang}`` in a multilingual URL,
    a digest only for a listed language.

    Raises
    ------
    ValueError
        naming ``source``, the benchmark and what was expected.
    """
    import jsonschema  # here: a command that reads no benchmark list does not load it

    errors = sorted(
        jsonschema.Draft202012Validator(_SCHEMA).iter_errors(benchmarks),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        where = ".".join(str(p) for p in errors[0].absolute_path) or "<top level>"
        raise ValueError(f"{source}: {where}: {errors[0].message}")
    for name, entry in benchmarks.items():
        if len(entry["languages"]) > 1 and "{lang}" not in entry["url"]:
            raise ValueError(f"{source}: {name}.url: several languages need {{lang}} in the URL")
        unknown = sorted(set(entry.get("sha256", {})) - set(entry["languages"]))
        if unknown:
            raise ValueError(
                f"{source}: {name}.sha256: {unknown} not among its languages {entry['languages']}"
            )
    return benchmarks


@cache
def _load() -> dict[str, dict]:
    path = resource_path(FILE_NAME)
    return validate_benchmarks(load_yaml(path), str(path))


def load_benchmarks() -> dict[str, dict]:
    """The shipped benchmarks by name (a copy: callers may change it).

    Returns
    -------
    dict
        name -> ``{"description", "format", "url", "languages", "sha256"?}``.
    """
    return copy.deepcopy(_load())


def benchmark_checksums(name: str, languages: list[str]) -> dict[str, str]:
    """The pinned sha256 of a benchmark's files, keyed by expanded URL (the
    form of a configuration's ``checksums``); languages without a pin are left out."""
    entry = _load()[name]
    pins = entry.get("sha256", {})
    return {entry["url"].format(lang=lang): pins[lang] for lang in languages if lang in pins}
