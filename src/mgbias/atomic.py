"""Atomic file writes: a failed or killed job never leaves a partial file."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it into place on success.

    The temporary file lives in the destination directory so the final
    ``os.replace`` is atomic. On any exception it is removed and ``path`` is
    left as it was. A process killed outright (SIGKILL) cannot clean up; the
    partial file it leaves (``.<name>.partial-*``) is hidden, never at
    ``path``, and removed by the next write of ``path``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{path.name}.partial-"
    for stale in path.parent.glob(f"{glob.escape(prefix)}*"):
        stale.unlink(missing_ok=True)
    handle, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=path.parent)
    os.close(handle)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, path)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | Path, data: Any) -> None:
    """Write JSON atomically with sorted keys, so equal data gives equal bytes."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def read_json(path: str | Path) -> Any:
    """Read a JSON file, naming the file in the error if it is not valid JSON."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON (line {error.lineno}): {error.msg}") from None
