"""Settings: one dataclass per configuration section, its defaults from the schema.

A section's settings are a dataclass declared with :func:`schema_settings`: a field the
schema gives a default takes it from the schema (``mgbias/resources/schema.yaml``) and
states none of its own, so that the workflow, the command line, the API and a script
read one value; a field the schema gives no default to (a section the schema leaves
open, e.g. ``kaneko2023.finetune``, whose keys the workflow passes to its jobs as
written) states it in the class. A default stated in both places is an error when the
class is defined. :data:`SECTIONS` names each section's class, so that
``mgbias check-config`` checks every section's keys and values with the class that
reads them, before a job runs.

:func:`settings_from_mapping` is the one place that checks a mapping's keys against a
dataclass's fields: an unknown key is an :class:`~mgbias.errors.InputError` naming where
the mapping came from, the key and the keys allowed; a field the mapping leaves out
takes the dataclass's default; a field without a default must be given. The values
themselves are the dataclass's to check (its ``__post_init__``).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from mgbias.errors import InputError
from mgbias.workflow.schema import schema_node

__all__ = [
    "SECTIONS",
    "allowed_keys",
    "schema_settings",
    "section_class",
    "settings_from_mapping",
    "unknown_keys",
]

T = TypeVar("T")

#: Each configuration section read as settings -> the class that reads it
#: (``module:Class``, imported only where the section is checked).
SECTIONS: dict[str, str] = {
    "mlm_training": "mgbias.mlm.settings:MLMTrainingConfig",
    "kaneko2023.finetune": "mgbias.finetune.settings:FineTuneConfig",
    "zhao2020.vectors.train": "mgbias.embeddings.train:SkipgramConfig",
    "zhao2020.rcsls": "mgbias.embeddings.rcsls_config:RCSLSConfig",
    "basta2020.probes": "mgbias.contextual.settings:ProbeSettings",
    "bios.classifier": "mgbias.bios.experiment:ClassifierSettings",
    "bios.classifier.encoder": "mgbias.bios.encoder:EncoderSettings",
}


def section_class(section: str) -> type:
    """The settings class of the configuration section ``section`` (a key of
    :data:`SECTIONS`)."""
    module, _, name = SECTIONS[section].partition(":")
    return getattr(importlib.import_module(module), name)


def schema_settings(
    section: str, *, ignore: Iterable[str] = (), what: str = "keys", frozen: bool = True
) -> Callable[[type[T]], type[T]]:
    """Declare the settings dataclass of the configuration section ``section``.

    Use in place of ``@dataclass``: each annotated field whose key the schema gives a
    default takes that default (a copy per instance where it is a list or a mapping);
    such a field must state no default of its own (a ``TypeError`` when the class is
    defined says which). The class gets ``section``, and a classmethod
    ``from_mapping(values=None, where=section, **given)`` unless it defines one:
    :func:`settings_from_mapping` of ``values`` and ``given``, unknown keys called
    ``what``. ``ignore``: keys of the section that are another reader's (not fields).
    """

    def declare(cls: type[T]) -> type[T]:
        properties = schema_node(section).get("properties", {})
        for name in cls.__dict__.get("__annotations__", {}):
            if "default" not in properties.get(name, {}):
                continue
            default = properties[name]["default"]
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__}.{name} states a default ({cls.__dict__[name]!r}), but "
                    f"the schema's {section}.{name} states one ({default!r}): state it once, "
                    "in the schema"
                )
            if isinstance(default, list | dict):
                default = dataclasses.field(
                    default_factory=functools.partial(copy.deepcopy, default)
                )
            setattr(cls, name, default)
        cls = dataclasses.dataclass(frozen=frozen)(cls)
        cls.section = section
        cls.ignored_keys = frozenset(ignore)
        cls.unknown_key_name = what
        if "from_mapping" not in cls.__dict__:
            cls.from_mapping = classmethod(_from_mapping)
        return cls

    return declare


def _from_mapping(cls, values: Mapping[str, Any] | None = None, where: str | None = None, **given):
    """The settings ``values`` and ``given`` name, every other one at its default;
    ``where`` (default: the section) begins the error of an unknown key."""
    if given:
        values = {**(values or {}), **given} if isinstance(values, Mapping | None) else values
    return settings_from_mapping(
        cls,
        values,
        where or cls.section,
        what=cls.unknown_key_name,
        ignore=cls.ignored_keys,
    )


def allowed_keys(cls: type, ignore: Iterable[str] = ()) -> list[str]:
    """The keys a mapping of settings of the dataclass ``cls`` may hold: its ``__init__``
    fields and ``ignore``, sorted."""
    return sorted({field.name for field in dataclasses.fields(cls) if field.init} | set(ignore))


def unknown_keys(cls: type, mapping: Mapping[str, Any], ignore: Iterable[str] = ()) -> list[str]:
    """The keys of ``mapping`` that are not :func:`allowed_keys`, as sorted strings."""
    allowed = set(allowed_keys(cls, ignore))
    return sorted(str(key) for key in mapping if key not in allowed)


def settings_from_mapping(
    cls: type[T],
    mapping: Mapping[str, Any] | None,
    where: str,
    *,
    what: str = "keys",
    ignore: Iterable[str] = (),
) -> T:
    """``cls(**mapping)`` after checking the keys of ``mapping`` against ``cls``'s fields.

    Parameters
    ----------
    cls
        A dataclass.
    mapping
        The settings; ``None`` is an empty mapping (every field at its default).
    where
        Where the mapping comes from (a config key such as ``"bios.classifier"``, or the
        class name), the first words of every error.
    what
        What the unknown keys are called in the error (``"keys"``; e.g. ``"RCSLS
        setting(s)"``).
    ignore
        Keys allowed in ``mapping`` that are not fields (another reader's keys of the
        same section): not passed to ``cls``.

    Returns
    -------
    T
        ``cls`` with the mapping's fields; the others at their defaults.

    Raises
    ------
    InputError
        If ``mapping`` is not a mapping, has a key that is neither a field (``init``)
        nor in ``ignore``, or lacks a field that has no default.
    TypeError
        If ``cls`` is not a dataclass.

    Examples
    --------
    >>> @dataclasses.dataclass
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> settings_from_mapping(Point, {"x": 1}, "point")
    Point(x=1, y=0)
    >>> settings_from_mapping(Point, {"x": 1, "z": 2}, "point")
    Traceback (most recent call last):
    ...
    mgbias.errors.InputError: point: unknown keys ['z']; expected among ['x', 'y']
    """
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"settings_from_mapping: {cls!r} is not a dataclass")
    if mapping is None:
        mapping = {}
    if not isinstance(mapping, Mapping):
        raise InputError(
            f"{where}: expected a mapping of settings, got {type(mapping).__name__} {mapping!r}"
        )
    fields = [field for field in dataclasses.fields(cls) if field.init]
    names = {field.name for field in fields}
    unknown = unknown_keys(cls, mapping, ignore)
    if unknown:
        raise InputError(
            f"{where}: unknown {what} {unknown}; expected among {allowed_keys(cls, ignore)}"
        )
    missing = [
        field.name
        for field in fields
        if field.name not in mapping
        and field.default is dataclasses.MISSING
        and field.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise InputError(f"{where}: missing required key(s) {missing}")
    return cls(**{key: value for key, value in mapping.items() if key in names})
