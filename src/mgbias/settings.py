"""Settings dataclasses built from a mapping (a config section, a JSON record).

:func:`settings_from_mapping` is the one place that checks a mapping's keys against a
dataclass's fields: an unknown key is an :class:`~mgbias.errors.InputError` naming where
the mapping came from, the key and the keys allowed; a field the mapping leaves out
takes the dataclass's default; a field without a default must be given. The values
themselves are the dataclass's to check (its ``__post_init__``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from mgbias.errors import InputError

__all__ = ["settings_from_mapping"]

T = TypeVar("T")


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
    ignored = set(ignore)
    unknown = sorted(str(key) for key in mapping if key not in names and key not in ignored)
    if unknown:
        raise InputError(
            f"{where}: unknown {what} {unknown}; expected among {sorted(names | ignored)}"
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
