"""Read training text: plain or gzip UTF-8 files, one sentence per line."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from mgbias.errors import InputError
from mgbias.files.textio import line_encoding_error

GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: str | Path) -> bool:
    """Whether ``path`` holds gzip data (by its first two bytes, whatever its name)."""
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP_MAGIC


def iter_text_lines(text_files: Sequence[Path]) -> Iterator[str]:
    """Yield the non-blank lines of plain or gzip UTF-8 text files, stripped.

    Gzip is recognised by its magic bytes, so a download kept under a ``.txt``
    name may be either.

    Raises
    ------
    EncodingError
        If a line is not valid UTF-8 (the message names the file and line, and the
        encoding the file seems to be in).
    InputError
        A corrupt or truncated gzip file.
    """
    for path in map(Path, text_files):
        opener = gzip.open if is_gzip(path) else open
        with opener(path, "rb") as handle:
            try:
                for line_number, raw in enumerate(handle, start=1):
                    try:
                        line = raw.decode("utf-8").strip()
                    except UnicodeDecodeError as exc:
                        raise line_encoding_error(path, line_number, raw, exc) from None
                    if line:
                        yield line
            except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
                raise InputError(f"{path}: a corrupt or truncated gzip file ({exc})") from None
