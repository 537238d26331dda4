"""Read training text: plain or gzip UTF-8 files, one sentence per line."""

from __future__ import annotations

import gzip
from collections.abc import Iterator, Sequence
from pathlib import Path


def iter_text_lines(text_files: Sequence[Path]) -> Iterator[str]:
    """Yield the non-blank lines of plain or gzip (``.gz``) UTF-8 text files, stripped.

    Raises
    ------
    ValueError
        If a line is not valid UTF-8 (the message names the file and line).
    """
    for path in map(Path, text_files):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rb") as handle:
            for line_number, raw in enumerate(handle, start=1):
                try:
                    line = raw.decode("utf-8").strip()
                except UnicodeDecodeError as exc:
                    raise ValueError(
                        f"{path}, line {line_number}: expected UTF-8 text ({exc.reason} at byte "
                        f"{exc.start})"
                    ) from exc
                if line:
                    yield line
