"""The location keys of a workflow configuration, read one way.

A key whose schema entry carries ``x-location`` (``file``: a URL template of one file
per expansion; ``directory``: the root a downloader reads below) names where a download
comes from: ``corpora.<name>.url``, ``pair_datasets.<name>.url``,
``kaneko2023.sources.<name>.url``, ``bios.url``, ... (:func:`location_keys` lists them,
derived from the schema, so that a new key marked there is read like the others).

Each takes a URL (``https://``, ``file://``) or a local path, which becomes a
``file://`` URL (:func:`as_url`, relative paths staying relative to the working
directory, as the downloaders read ``file://relative/path``: :mod:`mgbias.corpora.download`).
:func:`missing_locations` lists the local files that do not exist, each template
expanded as the workflow expands it ({lang}, {world}, {pair}, {src}, {tgt}; any other
placeholder, e.g. {filename}, is matched against the files there), except the files a
rule of the workflow writes (:func:`mgbias.workflow.layout.matching_output`): the demo's mirror,
the mined template pairs, ...
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mgbias.corpora.opus import opus_pair
from mgbias.languages import PIVOT
from mgbias.workflow import layout
from mgbias.workflow.core import DEFAULT_WORLD, local_file_of_url

#: The schema keyword that marks a location key, and its values.
LOCATION = "x-location"
KINDS = ("file", "directory")

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def as_url(location: str) -> str:
    """``location`` as a URL: a URL unchanged, a local path as ``file://path`` (relative
    paths stay relative to the working directory; ``~`` is expanded).

    >>> as_url("data/pairs_{lang}.csv"), as_url("/srv/x.zip"), as_url("https://h/x")
    ('file://data/pairs_{lang}.csv', 'file:///srv/x.zip', 'https://h/x')
    """
    if _SCHEME.match(location):
        return location
    return "file://" + (str(Path(location).expanduser()) if location[:1] == "~" else location)


def location_keys(schema: Mapping[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Every key of ``schema`` marked ``x-location``: its path (``*`` for any name of a
    mapping) and its kind (``file`` or ``directory``), in schema order."""
    found: list[tuple[tuple[str, ...], str]] = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if not isinstance(node, Mapping):
            return
        if LOCATION in node:
            found.append((path, node[LOCATION]))
        for name, child in (node.get("properties") or {}).items():
            walk(child, (*path, name))
        if isinstance(node.get("additionalProperties"), Mapping):
            walk(node["additionalProperties"], (*path, "*"))

    walk(schema, ())
    return found


@dataclass(frozen=True)
class Location:
    """One configured location: its dotted ``key``, ``kind``, the mapping that holds it
    (``owner[name]`` is the value) and the mappings above it, innermost first."""

    key: str
    kind: str
    owner: dict
    name: str
    ancestors: tuple[Mapping[str, Any], ...]

    @property
    def value(self) -> Any:
        return self.owner[self.name]


def locations(config: Mapping[str, Any], schema: Mapping[str, Any]) -> Iterator[Location]:
    """The location values a configuration gives (strings only: the schema reports
    anything else)."""
    for path, kind in location_keys(schema):
        yield from _walk(config, path, kind, (), ())


def _walk(node, path, kind, done, ancestors) -> Iterator[Location]:
    if not isinstance(node, dict) or not path:
        return
    head, rest = path[0], path[1:]
    names = [n for n in node if isinstance(n, str)] if head == "*" else [head]
    for name in names:
        if name not in node:
            continue
        if not rest:
            if isinstance(node[name], str):
                yield Location(".".join((*done, name)), kind, node, name, ancestors)
            continue
        yield from _walk(node[name], rest, kind, (*done, name), (node, *ancestors))


def localize(config: dict, schema: Mapping[str, Any]) -> None:
    """Turn every local path among the locations into a ``file://`` URL (in place)."""
    for location in list(locations(config, schema)):
        location.owner[location.name] = as_url(location.value)


def _nearest(key: str, location: Location) -> Any:
    """``key`` of the mapping holding the location, or of the nearest one above it (the
    top level excluded: its ``languages`` are the corpora's targets)."""
    for node in (location.owner, *location.ancestors[:-1]):
        if isinstance(node, Mapping) and node.get(key):
            return node[key]
    return None


def _expansions(template: str, location: Location, config: Mapping[str, Any]) -> list[dict]:
    """The values of the template's placeholders the workflow fills in."""
    names = set(_PLACEHOLDER.findall(template))
    targets = [lang for lang in config.get("languages") or [] if lang != PIVOT]
    worlds = _nearest("worlds", location) or config.get("worlds") or [DEFAULT_WORLD]
    if names & {"pair", "src", "tgt"}:  # a parallel corpus: English and each target
        codes = location.owner.get("codes") or {}
        combos = [
            {"pair": opus_pair(PIVOT, codes.get(tgt, tgt)), "src": PIVOT, "tgt": tgt, "lang": lang}
            for tgt in location.owner.get("languages") or targets
            for lang in (PIVOT, tgt)
        ]
    else:
        languages = _nearest("languages", location) or [PIVOT, *targets]
        combos = [{"lang": lang} for lang in languages]
    return [{**combo, "world": world} for world in worlds for combo in combos]


class _Kept(dict):
    """Format values that keep any other placeholder as it is (``{filename}``)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _made_by_workflow(path: str, kind: str) -> bool:
    """Whether a rule writes ``path`` (a file) or files below it (a directory)."""
    if kind == "directory":
        root = path.rstrip("/") + "/"
        return any(output.template.startswith(root) for output in layout.OUTPUTS.values())
    return layout.matching_output(_PLACEHOLDER.sub("x", path)) is not None


def missing_locations(
    config: Mapping[str, Any], schema: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """``(key, problem)`` for each local location that does not exist: ``<path>: no such
    file`` (``no such directory``, ``no file matches``, ``... is a directory``), a
    relative path with the working directory it was looked for in."""
    problems = []
    for location in locations(config, schema):
        url = location.value
        if local_file_of_url(url) is None:
            continue  # remote: checked when downloaded
        seen = set()
        for fields in _expansions(url, location, config):
            path = local_file_of_url(url.format_map(_Kept(fields)))
            if path in seen or _made_by_workflow(path, location.kind):
                continue
            seen.add(path)
            problem = _problem(path, location.kind)
            if problem:
                where = "" if Path(path).is_absolute() else f" (in {Path.cwd()})"
                problems.append((location.key, f"{path}: {problem}{where}"))
    return problems


def _problem(path: str, kind: str) -> str | None:
    if _PLACEHOLDER.search(path):  # a placeholder the workflow fills in from a listing
        return None if glob.glob(_PLACEHOLDER.sub("*", glob.escape(path))) else "no file matches"
    target = Path(path)
    if kind == "directory":
        return None if target.is_dir() else "no such directory"
    if target.is_dir():
        return "is a directory, expected a file"
    return None if target.exists() else "no such file"


def from_workdir(path: str, workdir: str) -> str:
    """``path`` (relative to the directory Snakemake starts in, or absolute) as seen from
    ``workdir`` below that directory.

    >>> from_workdir("config/own.yaml", "runs/own"), from_workdir("/srv/x", "runs/own")
    ('../../config/own.yaml', '/srv/x')
    """
    if os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(os.path.relpath(".", workdir), path))


def _is_local_source(source: str) -> bool:
    """Whether a model ``source`` names a local directory (as check-config reads it): one
    that exists, or a path that is clearly one (``./``, ``../``, two slashes and more);
    ``org/name`` is a hub id."""
    return Path(source).is_dir() or source.startswith(("./", "../")) or source.count("/") >= 2


def relocate(config: dict, schema: Mapping[str, Any], workdir: str) -> list[str]:
    """Make each relative local path of ``config`` name the same file from ``workdir``
    (in place), and return the keys changed.

    A run's outputs live under the configuration's ``workdir`` (Snakemake changes into
    it), while the paths a configuration gives (a model ``source``, a location's ``url``
    or ``files``) are written relative to the directory Snakemake starts in, as
    ``mgbias check-config`` reads them. A location that a rule of the workflow writes
    (the demo's mirror, the mined template pairs) is the run's own, below ``workdir``,
    and stays as it is; absolute paths, ``~`` and remote URLs too.

    >>> config = {"models": {"m": {"source": "./my-bert"}, "h": {"source": "org/bert"}}}
    >>> relocate(config, {}, "runs/a"), config["models"]["m"]["source"]
    (['models.m.source'], '../../my-bert')
    """
    if os.path.normpath(workdir) == ".":
        return []
    changed = []
    for location in list(locations(config, schema)):
        path = local_file_of_url(as_url(location.value))
        if path is None or os.path.isabs(path) or _made_by_workflow(path, location.kind):
            continue
        location.owner[location.name] = "file://" + from_workdir(path, workdir)
        changed.append(location.key)
    for name, entry in (config.get("models") or {}).items():
        source = entry.get("source") if isinstance(entry, dict) else None
        if isinstance(source, str) and not os.path.isabs(source) and source[:1] != "~":
            if _is_local_source(source):
                entry["source"] = from_workdir(source, workdir)
                changed.append(f"models.{name}.source")
    return changed
