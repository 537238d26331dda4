"""Read YAML with line numbers: the one loader for every YAML file mgbias reads.

PyYAML's ``safe_load`` reports a syntax error as a traceback and keeps the
last of two equal keys without a word. :class:`LineLoader` (a ``SafeLoader``)
instead

- turns a syntax error into ``<file>:<line>:<column>: <problem>``,
- refuses a key given twice in one mapping, naming both lines (a key that
  overrides one merged in with ``<<: *anchor`` is not a duplicate),
- records the line of every key and list item, so that a message about a
  value can point at it (:meth:`YAMLDocument.where`).

Every failure is a :class:`YAMLInputError` (a ``ValueError``) whose message
starts with the file's name; lines and columns count from 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mgbias.errors import InputError

__all__ = [
    "LineLoader",
    "YAMLDocument",
    "YAMLInputError",
    "load_yaml",
    "loads_yaml",
    "parse_yaml",
    "read_yaml",
]

_MERGE_TAG = "tag:yaml.org,2002:merge"


class YAMLInputError(InputError):
    """A YAML file cannot be read, does not parse, or repeats a key.

    The message starts with ``<file>:<line>:<column>:`` where the place is known.
    """


class _LineLoading:
    """Duplicate keys refused and key lines recorded, over either of PyYAML's safe loaders."""

    def __init__(self, stream, name: str = "<string>") -> None:
        super().__init__(stream)
        self.name = name
        self.key_lines: dict[tuple, int] = {}

    def load_document(self) -> Any:
        """The one document of the stream (``None`` when empty), its key lines recorded."""
        node = self.get_single_node()
        if node is None:
            return None
        self.key_lines = _key_lines(node, self.name)
        return self.construct_document(node)


class LineLoader(_LineLoading, yaml.SafeLoader):
    """A ``SafeLoader`` that refuses duplicate keys and records the line of every key.

    ``name`` is the file name used in messages. After :meth:`load_document`,
    ``key_lines`` maps each key path (a tuple of keys and list indices) to the
    1-based line where the key (or the list item) starts.
    """


#: The same over libyaml's parser where PyYAML was built with it (about 10x faster on the
#: schema, which every dry run reads); its errors are described by :class:`LineLoader`.
_FastLineLoader = (
    type("_FastLineLoader", (_LineLoading, yaml.CSafeLoader), {})
    if getattr(yaml, "__with_libyaml__", False)
    else LineLoader
)


def _key_lines(root: yaml.Node, name: str) -> dict[tuple, int]:
    """The 1-based line of every key and list item under ``root``, by path.

    Checked on the nodes, before anything is constructed: a key given twice in one
    mapping (merged keys excepted) is a :class:`YAMLInputError` naming both lines.
    """
    lines: dict[tuple, int] = {}

    def walk(node: yaml.Node, path: tuple, active: frozenset, target: dict) -> None:
        if id(node) in active:  # a recursive alias
            return
        active = active | {id(node)}
        if isinstance(node, yaml.MappingNode):
            merged = []
            first_line: dict[tuple[str, str], int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    merged.append(value_node)
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    continue
                mark, identity = key_node.start_mark, (key_node.tag, key_node.value)
                if identity in first_line:
                    raise YAMLInputError(
                        f"{name}:{mark.line + 1}:{mark.column + 1}: duplicate key "
                        f"{key_node.value!r} (first given at line {first_line[identity]}); "
                        "a key may appear once in a mapping"
                    )
                first_line[identity] = mark.line + 1
                key_path = (*path, key_node.value)
                target[key_path] = key_node.start_mark.line + 1
                walk(value_node, key_path, active, target)
            for value_node in merged:  # explicit keys win over merged ones
                sequence = isinstance(value_node, yaml.SequenceNode)
                for source in value_node.value if sequence else [value_node]:
                    inherited: dict[tuple, int] = {}
                    walk(source, path, active, inherited)
                    for key_path, line in inherited.items():
                        target.setdefault(key_path, line)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                item_path = (*path, index)
                target[item_path] = item.start_mark.line + 1
                walk(item, item_path, active, target)

    walk(root, (), frozenset(), lines)
    return lines


@dataclass(frozen=True)
class YAMLDocument:
    """A parsed YAML file: its ``data`` and the ``lines`` of its keys, by path."""

    name: str
    data: Any
    lines: Mapping[tuple, int] = field(default_factory=dict)

    def line(self, key: str | tuple | list) -> int | None:
        """The line of ``key`` (a path tuple, or dotted as in ``models.m.languages``), else
        of its nearest enclosing key given in the file; ``None`` when none is."""
        dotted = key if isinstance(key, str) else ".".join(str(part) for part in key)
        by_dotted = {".".join(map(str, path)): line for path, line in self.lines.items()}
        while dotted:
            if dotted in by_dotted:
                return by_dotted[dotted]
            dotted = dotted.rsplit(".", 1)[0] if "." in dotted else ""
        return None

    def where(self, key: str | tuple | list) -> str:
        """``<file>:<line>`` of ``key`` (:meth:`line`), or the file alone."""
        line = self.line(key)
        return f"{self.name}:{line}" if line is not None else self.name


def _describe_yaml_error(name: str, error: yaml.YAMLError, text: str) -> str:
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        mark = error.problem_mark
        problem = error.problem or "invalid YAML"
        context = ""
        if error.context:
            context = f" ({error.context}"
            if error.context_mark is not None and error.context_mark.line != mark.line:
                context += f" at line {error.context_mark.line + 1}"
            context += ")"
        return f"{name}:{mark.line + 1}:{mark.column + 1}: {problem}{context}"
    if isinstance(error, yaml.reader.ReaderError):
        line = text.count("\n", 0, error.position) + 1
        column = error.position - (text.rfind("\n", 0, error.position) + 1) + 1
        return (
            f"{name}:{line}:{column}: character U+{error.character:04X} is not allowed in "
            "YAML (a control character: is this a binary or corrupted file?)"
        )
    return f"{name}: not valid YAML ({error})"


def parse_yaml(text: str, name: str = "<string>") -> YAMLDocument:
    """Parse one YAML document from ``text``; ``name`` (a file name) starts every message.

    Raises
    ------
    YAMLInputError
        ``<name>:<line>:<column>: <problem>`` for a syntax error or a duplicate key.
    """
    try:
        return _parsed(_FastLineLoader, text, name)
    except yaml.YAMLError:
        pass  # described by the pure-Python parser's message, marks and context
    try:
        return _parsed(LineLoader, text, name)  # refuses a character YAML does not allow
    except yaml.YAMLError as error:
        raise YAMLInputError(_describe_yaml_error(name, error, text)) from None


def _parsed(loader_class: type, text: str, name: str) -> YAMLDocument:
    loader = loader_class(text, name)
    try:
        data = loader.load_document()
    finally:
        loader.dispose()
    return YAMLDocument(name=name, data=data, lines=loader.key_lines)


def read_yaml(path: str | Path) -> YAMLDocument:
    """Read and parse the YAML file ``path`` (UTF-8), with the lines of its keys.

    Raises
    ------
    YAMLInputError
        If the file cannot be read, is not UTF-8 (the line and byte are named), does
        not parse (``<file>:<line>:<column>: <problem>``) or repeats a key.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise YAMLInputError(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise YAMLInputError(
            f"{path}:{line}: byte {error.start} ({raw[error.start : error.start + 1]!r}) is "
            "not UTF-8; save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)"
        ) from None
    return parse_yaml(text, str(path))


def load_yaml(path: str | Path) -> Any:
    """The data of the YAML file ``path`` (:func:`read_yaml`)."""
    return read_yaml(path).data


def loads_yaml(text: str, name: str = "<string>") -> Any:
    """The data of the YAML ``text`` (:func:`parse_yaml`)."""
    return parse_yaml(text, name).data
