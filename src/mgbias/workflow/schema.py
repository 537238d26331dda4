"""The schema of a workflow configuration (``mgbias/resources/schema.yaml``) and the
defaults it gives, for the configuration checks (:mod:`mgbias.config`) and the planners.

The schema is the one place of every default: :func:`validator_class` fills them in
while it validates, :func:`section_defaults` gives those of one section,
:func:`filled_section` a section over its defaults and :func:`filled_entry` one entry
of a mapping section (a model, a pair dataset) over an entry's defaults, so that a
planner given a configuration that was not validated (a unit test's, an API caller's)
reads the same values as after validation, and restates none.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mgbias.files.yaml_lines import load_yaml
from mgbias.resources import resource_path

__all__ = [
    "filled_entry",
    "filled_section",
    "key_default",
    "load_schema",
    "schema_node",
    "schema_path",
    "section_defaults",
    "validator_class",
]


def schema_path() -> Path:
    """The shipped schema of a workflow configuration (``mgbias/resources/schema.yaml``)."""
    return resource_path("schema.yaml")


def load_schema(path: str | Path | None = None) -> dict:
    """Read a YAML schema file (default: the shipped one, :func:`schema_path`).

    A file is parsed once per process (again when its size or modification time
    changes): planning the workflow asks for the shipped schema more than once. Each
    call returns its own copy. A file that does not parse raises
    :class:`~mgbias.files.yaml_lines.YAMLInputError` naming it.
    """
    return copy.deepcopy(_current_schema(path))


def _current_schema(path: str | Path | None = None) -> dict:
    """The parsed schema of ``path`` (default: the shipped one) as it is now, shared:
    callers copy what they keep."""
    path = Path(path or schema_path())
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        version = None  # load_yaml names the file and why it cannot be read
    return _parsed_schema(path, version)


@functools.cache
def _parsed_schema(path: Path, version: tuple[int, int] | None) -> dict:
    """The schema of one version (modification time and size) of ``path``."""
    return load_yaml(path)


def _with_defaults(validator_class):
    """Extend a jsonschema validator so that it fills in ``default`` values."""
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if "default" in subschema and name not in instance:
                    instance[name] = copy.deepcopy(subschema["default"])
        yield from validate_properties(validator, properties, instance, schema)

    import jsonschema

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


@functools.cache
def validator_class():
    """The schema's validator, filling in defaults; jsonschema is imported on first use, so
    that a command which reads no configuration (``mgbias score``) does not load it."""
    import jsonschema

    return _with_defaults(jsonschema.Draft202012Validator)


def _defaults_of(schema: Mapping[str, Any]) -> dict:
    """An empty object validated against ``schema``, which fills in its defaults."""
    instance: dict = {}
    for _ in validator_class()(schema).iter_errors(instance):
        pass  # required keys have no default: only the defaults are wanted
    return instance


def schema_node(key: str) -> dict:
    """The schema's entry of the dotted key ``key`` (``mbe.permutations``, a section such
    as ``zhao2020.rcsls``); ``*`` stands for each entry of a mapping section
    (``pair_datasets.*.cluster``). The shipped schema's own object, shared: a caller
    copies what it keeps or changes. KeyError naming the key where the schema has none."""
    node: Any = _current_schema()
    try:
        for name in key.split("."):
            node = node["additionalProperties"] if name == "*" else node["properties"][name]
    except (KeyError, TypeError):
        raise KeyError(f"the configuration schema has no key {key!r}") from None
    return node


@functools.cache
def _section_defaults(key: str) -> dict:
    return _defaults_of(schema_node(key))


def section_defaults(key: str) -> dict:
    """The defaults of the section ``key`` (dotted, e.g. ``bios.classifier.transfer``) of
    the shipped schema, filled in as validation fills them (nested objects with a default
    get theirs): what a configuration without the section reads, so that no planner
    restates a default."""
    return copy.deepcopy(_section_defaults(key))


def key_default(key: str) -> Any:
    """The default the schema states for the key ``key`` (dotted: ``mbe.permutations``;
    ``pair_datasets.*.cluster`` for a key of each entry of a mapping section), read from
    its entry without jsonschema (a command-line parser reads its defaults here);
    KeyError naming the key if it has none. Only the default is copied, not the schema: a
    parser asks for dozens."""
    try:
        return copy.deepcopy(schema_node(key)["default"])
    except KeyError:
        raise KeyError(f"the configuration schema states no default for {key!r}") from None


def filled_section(config: Mapping[str, Any], key: str) -> dict:
    """The top-level section ``key`` of ``config`` over its :func:`section_defaults`: a
    key the configuration leaves out reads the schema's default."""
    return {**section_defaults(key), **(config.get(key) or {})}


@functools.cache
def _entry_defaults(key: str) -> dict:
    return _defaults_of(load_schema()["properties"][key]["additionalProperties"])


def filled_entry(entry: Mapping[str, Any], key: str) -> dict:
    """One entry of the mapping section ``key`` (``models``, ``pair_datasets``: a name to
    its settings) over the schema's defaults of an entry's keys (``mbe: true``,
    ``perturb: false``, ...)."""
    return {**copy.deepcopy(_entry_defaults(key)), **entry}
