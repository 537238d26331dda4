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

Nothing is imported or executed: the closure of a script that needs a GPU
library can be computed on a machine without one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

__all__ = ["PACKAGE", "import_closure", "imported_modules", "module_file"]

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


def imported_modules(path: Path, src_root: Path) -> set[str]:
    """Dotted names of the ``mgbias`` modules ``path`` imports (not transitively).

    Each file is parsed once per process (and again when its size or modification
    time changes): every script's closure reads the same modules.

    Parameters
    ----------
    path : Path
        A Python file: a workflow script or a module under ``src_root``.
    src_root : Path
        The directory holding the ``mgbias`` package (``src``).

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
    stat = path.stat()
    return set(_imported_modules(path, src_root, stat.st_mtime_ns, stat.st_size))


@cache
def _imported_modules(path: Path, src_root: Path, mtime_ns: int, size: int) -> frozenset[str]:
    """:func:`imported_modules` of one version (``mtime_ns``, ``size``) of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    inside = path.is_relative_to(src_root)
    package = _module_name(src_root, path) if inside else ""
    if inside and path.name != "__init__.py":
        package = package.rpartition(".")[0]
    nodes = _top_level(tree) if path.name == "__init__.py" else _statements(tree)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return frozenset(
        name
        for name in found
        if (name == PACKAGE or name.startswith(PACKAGE + "."))
        and _known_module_file(src_root, name) is not None
    )


@cache
def _closure(path: Path, src_root: Path) -> frozenset[Path]:
    seen: set[Path] = set()
    pending = [path]
    while pending:
        current = pending.pop()
        for module in imported_modules(current, src_root):
            parts = module.split(".")
            # importing a.b.c runs a/__init__.py and a/b/__init__.py first
            for depth in range(1, len(parts) + 1):
                file = _known_module_file(src_root, ".".join(parts[:depth]))
                if file is not None and file not in seen:
                    seen.add(file)
                    pending.append(file)
    return frozenset(seen)


def import_closure(script: str | Path, src_root: str | Path) -> list[Path]:
    """Every ``mgbias`` source file that running ``script`` may execute, sorted.

    Parameters
    ----------
    script : str or Path
        The workflow script (or any Python file).
    src_root : str or Path
        The directory holding the ``mgbias`` package.

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
    return sorted(_closure(Path(script).resolve(), Path(src_root).resolve()))
