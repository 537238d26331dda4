"""The library modules a workflow script runs: its import closure within ``mgbias``.

Snakemake reruns a job when one of its inputs changes, so every rule lists
the library files its script executes as inputs (``code=``). Listing them by
hand drifts; this module derives them from the source with :mod:`ast`:

- every ``import mgbias.x`` and ``from mgbias.x import y`` of the script, at
  any depth (an import inside a function runs when the function does);
- ``from mgbias.x import y`` adds ``mgbias/x/y.py`` when ``y`` is a module;
- relative imports (``from . import y``, ``from .z import y``) resolve
  against the importing module's package;
- importing ``mgbias.a.b`` runs the ``__init__.py`` of ``mgbias`` and of
  ``mgbias.a`` first, so those files count too; a package ``__init__.py``
  contributes its module-level imports only (an import inside one of its
  functions, e.g. a lazy ``__getattr__``, runs only when that name is used,
  and is followed through the module that names it);
- and so on, transitively.

A file's imports are looked up by the digest of its bytes (:class:`ImportCache`),
so each file is parsed once; the workflow keeps them between runs in the cache root
(:func:`shared_cache_path`: ``~/.cache/mgbias/code-imports.json``), shared by every
checkout and every run folder (entries are found by content, so sharing is safe), so
that a plan parses only the files changed since the last one, also in a new folder.

Nothing is imported or executed: the closure of a script that needs a GPU
library can be computed on a machine without one.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

from mgbias.files.atomic import atomic_path, write_text
from mgbias.files.cache_dirs import cache_root

#: The file name of the workflow's :class:`ImportCache` in the cache root.
SHARED_CACHE = "code-imports.json"


def shared_cache_path() -> Path:
    """The workflow's :class:`ImportCache` file: :data:`SHARED_CACHE` in the cache root
    (``$MGBIAS_CACHE_DIR``, else ``~/.cache/mgbias``)."""
    return cache_root() / SHARED_CACHE


__all__ = [
    "PACKAGE",
    "ImportCache",
    "code_digest",
    "import_closure",
    "imported_modules",
    "meaning_digest",
    "module_file",
]

#: The package whose modules are followed.
PACKAGE = "mgbias"


def module_file(src_root: Path, module: str) -> Path | None:
    """The source file of ``module`` (dotted) under ``src_root``, or None if it has none."""
    path = src_root.joinpath(*module.split("."))
    if path.with_suffix(".py").is_file():
        return path.with_suffix(".py")
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return None


@cache
def _known_module_file(src_root: Path, module: str) -> Path | None:
    """:func:`module_file`, looked up once per process (the closures of every rule's
    script ask for the same modules)."""
    return module_file(src_root, module)


def _module_name(src_root: Path, path: Path) -> str:
    parts = list(path.relative_to(src_root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _top_level(tree: ast.Module) -> Iterable[ast.AST]:
    """Module-level statements, including those under ``if``/``try`` blocks."""
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        yield node
        if isinstance(node, ast.If | ast.Try):
            for field in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(getattr(node, field, []))
        elif isinstance(node, ast.ExceptHandler):
            pending.extend(node.body)


def _statements(tree: ast.Module) -> Iterable[ast.stmt]:
    """Every statement of ``tree``, at any depth (in functions, classes, loops, ``with``,
    ``try`` handlers and ``match`` cases). An import is a statement, and a statement
    sits only in another's body, so this finds the imports :func:`ast.walk` does
    without visiting the expressions, which are most of a module's nodes."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.stmt):
            yield node
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                pending.extend(
                    child
                    for child in value
                    if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case)
                )


class ImportCache:
    """The imports found in each source file, by the digest of its bytes, kept in a
    JSON file (``path``) from one process to the next.

    Planning the workflow takes the closure of every rule's script, which reads some
    200 files: parsing them is most of that work, and their imports change only when
    their bytes do. An entry is found by the file's content, never by its name or
    time, so an edited file is parsed again and a stale entry is never used. A cache
    file that is missing, unreadable or of another format is started afresh, and one
    that cannot be written is left as it is (the closures are the same without it).
    With ``path`` None the cache lives in memory only. A file shared by many checkouts
    gathers every version of every module; past :attr:`LIMIT` entries, a save keeps only
    those this process used.
    """

    FORMAT = 2
    LIMIT = 20_000

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.entries: dict[str, list] = {}
        self.meanings: dict[str, str] = {}
        self._found: dict[tuple[Path, str], tuple[tuple[int, int], Any]] = {}
        self._used: set[str] = set()
        self._read()
        self.added = False

    def _header(self) -> dict:
        return {"format": self.FORMAT, "python": list(sys.version_info[:2])}

    def _read(self) -> None:
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(data, dict) or data.get("header") != self._header():
            return
        entries, meanings = data.get("imports"), data.get("meanings")
        if isinstance(entries, dict) and isinstance(meanings, dict):
            self.entries, self.meanings = entries, meanings

    def imports(self, source: bytes, path: Path) -> list:
        """The import statements of ``source`` (the bytes of ``path``; an
        ``__init__.py`` counts its module-level ones only), as :func:`_import_statements`
        lists them."""
        init = path.name == "__init__.py"
        key = hashlib.blake2b(source + (b"\0init" if init else b""), digest_size=16).hexdigest()
        self._used.add(key)
        if key not in self.entries:
            tree = ast.parse(source.decode("utf-8"), filename=str(path))
            self.entries[key] = _import_statements(tree, init)
            self.added = True
        return self.entries[key]

    def found(self, path: Path, what: str, find: Callable[[], Any]) -> Any:
        """``find()`` (what :meth:`imports` or :meth:`meaning` gives for ``path``),
        remembered in this process while the file's size and time stay the same: a plan
        asks for the same files once per script."""
        status = path.stat()
        signature = (status.st_size, status.st_mtime_ns)
        known = self._found.get((path, what))
        if known is not None and known[0] == signature:
            return known[1]
        value = find()
        self._found[(path, what)] = (signature, value)
        return value

    def meaning(self, source: bytes, path: Path) -> str:
        """:func:`meaning_digest` of ``source`` (the bytes of ``path``), looked up by the
        digest of the bytes first."""
        key = hashlib.blake2b(source, digest_size=16).hexdigest()
        self._used.add(key)
        if key not in self.meanings:
            self.meanings[key] = meaning_digest(source, path)
            self.added = True
        return self.meanings[key]

    def save(self) -> None:
        """Write the entries to ``path`` if any were added (atomically: a process
        reading it meanwhile sees the old file or the new one)."""
        if self.path is None or not self.added:
            return
        if len(self.entries) + len(self.meanings) > self.LIMIT:
            self.entries = {k: v for k, v in self.entries.items() if k in self._used}
            self.meanings = {k: v for k, v in self.meanings.items() if k in self._used}
        text = json.dumps(
            {"header": self._header(), "imports": self.entries, "meanings": self.meanings}
        )
        try:
            write_text(self.path, text)
        except OSError:  # a full disk: the closures are the same without the cache
            return
        self.added = False


#: The cache of the processes that pass none (in memory).
_MEMORY = ImportCache()


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the docstring of the module and of every class and function left
    out (a body of only a docstring keeps a ``pass``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return tree


def meaning_digest(source: bytes, path: Path | str = "<source>") -> str:
    r"""A digest of what Python source does, not of how it is written down.

    The blake2b digest of the syntax tree (:func:`ast.parse`, no line or column
    numbers) without docstrings: a comment, a docstring, blank lines or a formatting
    change give the same digest, a changed statement, name, literal or annotation
    another one. ``path`` names the file in a syntax error.

    Examples
    --------
    >>> a = meaning_digest(b"def f(x):\n    'Twice x.'\n    return 2 * x\n")
    >>> a == meaning_digest(b"def f(x):  # doubled\n    return 2*x\n")
    True
    >>> a == meaning_digest(b"def f(x):\n    return 3 * x\n")
    False
    """
    tree = _without_docstrings(ast.parse(source.decode("utf-8"), filename=str(path)))
    dumped = ast.dump(tree, annotate_fields=False, include_attributes=False)
    return hashlib.blake2b(dumped.encode("utf-8"), digest_size=16).hexdigest()


def _import_statements(tree: ast.Module, init: bool) -> list:
    """``["import", name]`` for each name of an ``import``, ``["from", level, module,
    names]`` for each ``from … import`` (``module`` empty in ``from . import x``): all
    of ``tree``'s, or its module-level ones for an ``__init__.py`` (``init``)."""
    found: list = []
    for node in _top_level(tree) if init else _statements(tree):
        if isinstance(node, ast.Import):
            found.extend(["import", alias.name] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names]
            found.append(["from", node.level, node.module or "", names])
    return found


def imported_modules(path: Path, src_root: Path, cache: ImportCache | None = None) -> set[str]:
    """Dotted names of the ``mgbias`` modules ``path`` imports (not transitively).

    Parameters
    ----------
    path : Path
        A Python file: a workflow script or a module under ``src_root``.
    src_root : Path
        The directory holding the ``mgbias`` package (``src``).
    cache : ImportCache, optional
        Where the imports of a file's bytes are looked up before it is parsed
        (default: one in memory, for the life of the process).

    Returns
    -------
    set of str
        Modules and packages, e.g. ``{"mgbias.measures", "mgbias.measures.aula"}``.

    Raises
    ------
    SyntaxError
        If ``path`` is not valid Python (the message names the file and line).
    """
    path, src_root = Path(path), Path(src_root)
    cache = cache or _MEMORY
    statements = cache.found(path, "imports", lambda: cache.imports(path.read_bytes(), path))
    inside = path.is_relative_to(src_root)
    package = _module_name(src_root, path) if inside else ""
    if inside and path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for statement in statements:
        if statement[0] == "import":
            found.add(statement[1])
            continue
        _, level, module, names = statement
        if level:
            base = package.split(".")[: len(package.split(".")) - level + 1]
            module = ".".join([*base, module] if module else base)
        found.add(module)
        found.update(f"{module}.{name}" for name in names)
    return {
        name
        for name in found
        if (name == PACKAGE or name.startswith(PACKAGE + "."))
        and _known_module_file(src_root, name) is not None
    }


def _files_run(path: Path, src_root: Path, cache: ImportCache | None) -> tuple[Path, ...]:
    """The ``mgbias`` files importing ``path``'s modules runs (not transitively): each
    module's file and, before it, its packages' ``__init__.py`` files."""
    files: dict[Path, None] = {}
    for module in imported_modules(path, src_root, cache):
        parts = module.split(".")
        # importing a.b.c runs a/__init__.py and a/b/__init__.py first
        for depth in range(1, len(parts) + 1):
            file = _known_module_file(src_root, ".".join(parts[:depth]))
            if file is not None:
                files[file] = None
    return tuple(files)


def _closure(path: Path, src_root: Path, cache: ImportCache | None) -> frozenset[Path]:
    memo = cache or _MEMORY
    seen: set[Path] = set()
    pending = [path]
    while pending:
        current = pending.pop()
        # a plan takes the closure of every script: each file's imports are resolved
        # once per process (while its size and time stay the same)
        runs = memo.found(
            current, f"runs:{src_root}", lambda c=current: _files_run(c, src_root, cache)
        )
        for file in runs:
            if file not in seen:
                seen.add(file)
                pending.append(file)
    return frozenset(seen)


def import_closure(
    script: str | Path, src_root: str | Path, cache: ImportCache | None = None
) -> list[Path]:
    """Every ``mgbias`` source file that running ``script`` may execute, sorted.

    Parameters
    ----------
    script : str or Path
        The workflow script (or any Python file).
    src_root : str or Path
        The directory holding the ``mgbias`` package.
    cache : ImportCache, optional
        The imports of the files already read (default: one in memory, for the
        life of the process); saved when the closure added to it.

    Returns
    -------
    list of Path
        Absolute paths of the modules and package ``__init__.py`` files, sorted.

    Examples
    --------
    >>> from pathlib import Path
    >>> src = Path(__file__).resolve().parents[1]
    >>> [p.name for p in import_closure(src / "mgbias" / "seeds.py", src)]
    []
    """
    closure = _closure(Path(script).resolve(), Path(src_root).resolve(), cache)
    if cache is not None:
        cache.save()
    return sorted(closure)


def code_digest(
    script: str | Path,
    src_root: str | Path,
    directory: str | Path,
    cache: ImportCache | None = None,
    *,
    leave_out: Iterable[str | Path] = (),
) -> tuple[Path, list[str]]:
    """The code input of a workflow script's jobs: a file of what its code means.

    One line per file, ``<path> <meaning digest>`` (:func:`meaning_digest`), for
    ``script`` and every file of its :func:`import_closure` but those of ``leave_out``
    (modules the script runs only for some jobs), paths relative to ``src_root``'s
    parent (``scripts/…``, ``src/mgbias/…``). The file goes to ``directory``, named
    after the script (and the files left out), and is rewritten only when a line
    changes: Snakemake, comparing its time with the outputs', reruns a job when the
    code it runs changes in what it does, not when a comment, a docstring or the
    formatting does. A digest written for the first time gets the time 0 (1970), so
    that a fresh clone or a copy of a completed run, whose outputs are older than its
    first plan, has nothing to redo.

    Returns
    -------
    (Path, list of str)
        The digest file, and the files whose meaning changed since it was last written
        (none when it is new or unchanged).
    """
    script, src_root = Path(script).resolve(), Path(src_root).resolve()
    left = {Path(path).resolve() for path in leave_out}
    files = [script, *(p for p in import_closure(script, src_root, cache) if p not in left)]
    base = src_root.parent
    meanings = {
        os.path.relpath(path, base): (cache or _MEMORY).found(
            path, "meaning", lambda path=path: (cache or _MEMORY).meaning(path.read_bytes(), path)
        )
        for path in files
    }
    if cache is not None:
        cache.save()
    text = "".join(f"{name} {digest}\n" for name, digest in meanings.items())
    suffix = "".join(f"-without-{Path(path).stem}" for path in sorted(map(str, left)))
    target = Path(directory) / f"{script.stem}{suffix}.txt"
    try:
        before = target.read_text(encoding="utf-8")
    except OSError:
        before = None
    if before == text:
        return target, []
    with atomic_path(target) as partial:
        partial.write_text(text, encoding="utf-8")
        if before is None:
            os.utime(partial, (0, 0))
    if before is None:
        return target, []
    old = dict(line.split(" ", 1) for line in before.splitlines() if " " in line)
    return target, [name for name, digest in meanings.items() if old.get(name) != digest]
