"""Atomic writes: a failed or killed job never leaves a partial output.

One module for every output the library writes in place:

- one file: :func:`atomic_path` (and :func:`write_bytes`, :func:`write_text`,
  :func:`write_json` on top of it);
- several files that belong together: :func:`atomic_paths`, which renames them
  into place only once every one of them is complete;
- a directory: :func:`atomic_directory`.

Temporary files and directories live beside their destination (so the final
``os.replace`` is atomic) under hidden names starting with ``.<name>.``.

Every output gets the mode ``open()`` would give it: files ``0o666`` and
directories ``0o777`` less the process umask (``0o644``/``0o755`` under umask
``022``, ``0o600``/``0o700`` under ``077``), although ``tempfile`` creates them
private (``0o600``/``0o700``). See :func:`file_mode` and :func:`current_umask`.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process umask, read without changing it where the system allows.

    On Linux it is read from ``/proc/self/status`` (``Umask:``), which leaves the
    process-wide umask untouched. Elsewhere it is read by setting and restoring it
    (``os.umask``) under a lock, so concurrent calls from this module do not race
    each other.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode ``open()`` gives a new file: ``0o666`` less the umask."""
    return 0o666 & ~current_umask()


def directory_mode() -> int:
    """The mode ``mkdir`` gives a new directory: ``0o777`` less the umask."""
    return 0o777 & ~current_umask()


def _partial_prefix(path: Path) -> str:
    return f".{path.name}.partial-"


@contextlib.contextmanager
def atomic_paths(*paths: str | Path, suffix: str = "") -> Iterator[tuple[Path, ...]]:
    """Yield one temporary path beside each of ``paths``; rename them all on success.

    The block writes each temporary file. Only when it completes are the files
    renamed onto their destinations, in the order given, so a file that must
    appear last (a checksum sidecar, say) is listed last. On any exception
    every temporary file is removed and every destination is left as it was.
    Each file gets the mode ``open()`` would give it (``0o666`` less the umask;
    ``mkstemp`` creates it ``0o600``).

    The renames are atomic one by one, not together: a process killed between
    two of them leaves the earlier destinations new and the later ones old. A
    process killed outright (SIGKILL) cannot clean up; the partial files it
    leaves (``.<name>.partial-*``) are hidden, never at a destination, and removed
    by the next write of the same destination.

    Parameters
    ----------
    *paths
        The destinations; their parent directories are created if needed.
    suffix
        Appended to each temporary file's name (some writers choose the format
        by suffix).

    Yields
    ------
    tuple of Path
        The temporary paths, in the order of ``paths``; each exists, empty.
    """
    targets = [Path(path) for path in paths]
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        for stale in target.parent.glob(f"{glob.escape(_partial_prefix(target))}*"):
            stale.unlink(missing_ok=True)
    temps: list[Path] = []
    try:
        for target in targets:
            handle, tmp = tempfile.mkstemp(
                prefix=_partial_prefix(target), suffix=suffix, dir=target.parent
            )
            os.close(handle)
            temps.append(Path(tmp))
        yield tuple(temps)
        mode = file_mode()
        for tmp in temps:
            os.chmod(tmp, mode)
        for tmp, target in zip(temps, targets, strict=True):
            os.replace(tmp, target)
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it into place on success.

    The temporary file lives in the destination directory so the final
    ``os.replace`` is atomic. On any exception it is removed and ``path`` is
    left as it was. A process killed outright (SIGKILL) cannot clean up; the
    partial file it leaves (``.<name>.partial-*``) is hidden, never at
    ``path``, and removed by the next write of ``path``.
    """
    with atomic_paths(path, suffix=suffix) as (tmp,):
        yield tmp


@contextlib.contextmanager
def atomic_directory(path: str | Path) -> Iterator[Path]:
    """Yield a fresh temporary directory beside ``path``; rename it to ``path`` on success.

    The block fills the directory. On success its permissions are normalised to
    what ``mkdir`` and ``open()`` would give (directories ``0o777``, files ``0o666``,
    less the umask; ``tempfile.mkdtemp`` creates ``0o700``) and it replaces
    ``path``: an existing ``path`` is first moved aside to a hidden sibling
    (``.<name>.*.old``), which is removed once the new directory is in place,
    or moved back if the rename fails. On any exception the temporary directory
    (``.<name>.*.tmp``) is removed and ``path`` is left as it was.

    Parameters
    ----------
    path
        The destination directory; its parent is created if needed.

    Yields
    ------
    Path
        The temporary directory, empty.
    """
    out_dir = Path(path)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    retired: Path | None = None
    try:
        yield tmp
        dir_mode, plain_mode = directory_mode(), file_mode()
        os.chmod(tmp, dir_mode)
        for written in tmp.rglob("*"):
            if not written.is_symlink():
                os.chmod(written, dir_mode if written.is_dir() else plain_mode)
        if out_dir.exists():
            retired = Path(
                tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".old", dir=out_dir.parent)
            )
            os.replace(out_dir, retired)
        os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if retired is not None and not out_dir.exists():
            os.replace(retired, out_dir)
            retired = None
        raise
    finally:
        if retired is not None:
            shutil.rmtree(retired, ignore_errors=True)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write bytes atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | Path, data: Any) -> None:
    """Write JSON atomically with sorted keys, so equal data gives equal bytes."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def read_json(path: str | Path) -> Any:
    """Read a JSON file, naming the file in the error if it is not valid JSON."""
    from mgbias.errors import InputError
    from mgbias.files.textio import read_text

    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{path}, line {error.lineno}, column {error.colno}: not valid JSON: {error.msg}"
        ) from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply to read") from None
