"""One guard for every command and API function that writes: no output over an input, no
output over another output.

:func:`check_output_paths` runs before any work (before a model loads, before a file is
read) and raises :class:`OutputPathError` on the first of these clashes, in one line
naming both options:

- an output is an input file: ``d.csv is both --data and --output: it would be
  overwritten``;
- two outputs are one file: ``x.csv is both --output and --per-pair: one would overwrite
  the other``;
- an output replaces a file that already exists inside an input directory (``--output
  model/config.json`` with ``--model model``): that file would be overwritten. A new file
  written into an input directory changes nothing that was read, so it is allowed;
- an input, or another output, lies inside an output directory that is written as a
  whole (``replaced``: ``mgbias finetune --output DIR`` replaces ``DIR`` atomically,
  :func:`mgbias.files.atomic.atomic_directory`): it would be deleted, or overwritten.

Two spellings are one file when their resolved paths are equal (``d.csv``, ``./d.csv``,
``sub/../d.csv``, an absolute path, a symbolic link to the file or through a linked
directory) or when both exist with the same device and inode (a hard link). An atomic
write replaces a link rather than writing through it, but the user named one file twice
either way, so the guard refuses both.

An input that does not exist (a hub id, a named dataset) has nothing to overwrite and is
skipped; outputs are compared with each other whether they exist or not.

:func:`check_distinct_inputs` guards the two sides of a comparison (male and female
sentences): one file named twice, or two files of the same bytes, would compare a set
with itself and read as a confident "no difference".
"""

from __future__ import annotations

import filecmp
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mgbias.errors import InputError

__all__ = [
    "OutputPathError",
    "SameInputsError",
    "check_distinct_inputs",
    "check_output_paths",
    "option_paths",
]


class OutputPathError(InputError):
    """An output that would overwrite an input or another output; the message names both."""


class SameInputsError(InputError):
    """The two sides of a comparison are one file, or files of the same bytes."""


@dataclass(frozen=True)
class _Named:
    """One path as the user spelled it, under the option (or argument) that named it."""

    name: str
    given: str
    resolved: Path
    identity: tuple[int, int] | None  # (device, inode), None when nothing is there

    @property
    def is_dir(self) -> bool:
        return self.identity is not None and self.resolved.is_dir()

    def same_file(self, other: _Named) -> bool:
        if self.resolved == other.resolved:
            return True
        return self.identity is not None and self.identity == other.identity

    def inside(self, directory: _Named) -> bool:
        """Strictly below ``directory`` (through its resolved path)."""
        return self.resolved != directory.resolved and self.resolved.is_relative_to(
            directory.resolved
        )

    def spelled(self, other: _Named) -> str:
        """`` (as X)`` where ``other`` named this file by another spelling."""
        return "" if Path(other.given) == Path(self.given) else f" (as {other.given})"


def option_paths(value: Any) -> Iterator[str]:
    """The paths an option's value names: a path, or each path of a list (nested)."""
    if value is None:
        return
    if isinstance(value, str | os.PathLike):
        yield os.fspath(value)
    elif isinstance(value, Iterable):
        for item in value:
            yield from option_paths(item)


def _named(mapping: Mapping[str, Any] | None) -> list[_Named]:
    named = []
    for name, value in (mapping or {}).items():
        for given in option_paths(value):
            if not given:
                continue
            try:
                status = os.stat(given)  # follows links: a link and its target are one file
                identity: tuple[int, int] | None = (status.st_dev, status.st_ino)
            except (OSError, ValueError):
                identity = None
            named.append(_Named(name, given, Path(os.path.realpath(given)), identity))
    return named


def check_output_paths(
    inputs: Mapping[str, Any],
    outputs: Mapping[str, Any],
    *,
    replaced: Mapping[str, Any] | None = None,
) -> None:
    """Refuse outputs that would overwrite an input or each other, before any work.

    Parameters
    ----------
    inputs, outputs : mapping
        ``{name: path}``: the option (``--data``) or argument (``vectors``) that names
        the path, and a path, a sequence of paths or ``None`` (not given).
    replaced : mapping, optional
        Output directories written as a whole: whatever lies inside them now is lost.

    Raises
    ------
    OutputPathError
        The first clash, in one line naming the path and both options (module
        docstring).
    """
    read = [path for path in _named(inputs) if path.identity is not None]
    whole = _named(replaced)
    written = _named(outputs) + whole
    for output in written:
        for source in read:
            if output.same_file(source):
                raise OutputPathError(
                    f"{source.given} is both {source.name} and {output.name}"
                    f"{source.spelled(output)}: it would be overwritten"
                )
            if source.is_dir and output.identity is not None and output.inside(source):
                raise OutputPathError(
                    f"{output.given} is {output.name} and already inside {source.name} "
                    f"{source.given}: it would be overwritten"
                )
    for directory in whole:
        for source in read:
            if source.inside(directory):
                raise OutputPathError(
                    f"{source.given} is {source.name} and inside {directory.name} "
                    f"{directory.given}, which is written as a whole: it would be deleted"
                )
    for index, first in enumerate(written):
        for second in written[index + 1 :]:
            if first.same_file(second):
                raise OutputPathError(
                    f"{first.given} is both {first.name} and {second.name}"
                    f"{first.spelled(second)}: one would overwrite the other"
                )
            for directory, path in ((first, second), (second, first)):
                if directory in whole and path.inside(directory):
                    raise OutputPathError(
                        f"{path.given} is {path.name} and inside {directory.name} "
                        f"{directory.given}, which is written as a whole: one would "
                        "overwrite the other"
                    )


def check_distinct_inputs(first: tuple[str, Any], second: tuple[str, Any]) -> None:
    """Refuse two inputs that are one file, or two files of the same bytes.

    Parameters
    ----------
    first, second : (name, path)
        The option (``--female``) and the path of each side; a value that is not a path
        (a list of sentences) or names no file is left to the caller.

    Raises
    ------
    SameInputsError
        ``"m.txt is both --female and --male: ..."`` or ``"f.txt (--female) and m.txt
        (--male) hold the same bytes: ..."``.
    """
    sides = []
    for name, value in (first, second):
        if not isinstance(value, str | os.PathLike):
            return
        named = _named({name: value})
        if not named or named[0].identity is None or named[0].is_dir:
            return
        sides.append(named[0])
    one, other = sides
    why = "the two sides of the comparison would be the same sentences"
    if one.same_file(other):
        raise SameInputsError(
            f"{one.given} is both {one.name} and {other.name}{one.spelled(other)}: {why}"
        )
    if filecmp.cmp(one.resolved, other.resolved, shallow=False):
        raise SameInputsError(
            f"{one.given} ({one.name}) and {other.given} ({other.name}) hold the same bytes: {why}"
        )
