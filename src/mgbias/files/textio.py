"""Text files read as UTF-8, with a decode error that says where and what to do.

Python's own message ("'utf-8' codec can't decode byte 0xfc in position 494")
names neither the file nor the line, and the position is that of a buffer, not
of the file. :func:`encoding_error` finds the first byte that is not UTF-8 in
the file itself and names file, line and byte offset, with a guess of the
encoding the file is in and the ``iconv`` command that converts it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from mgbias.errors import EncodingError

__all__ = [
    "decoding",
    "encoding_error",
    "guess_encoding",
    "line_encoding_error",
    "read_lines",
    "read_text",
]

#: The encodings a guess chooses from (charset_normalizer's names -> iconv's): those of
#: the languages the project's data come in. A wider set gives worse guesses on short files.
_CANDIDATES = {
    "cp1252": "cp1252",
    "latin_1": "latin1",
    "shift_jis": "shift_jis",
    "cp932": "cp932",
    "euc_jp": "euc-jp",
    "utf_16": "utf-16",
}

#: How many bytes around the first bad one the guess looks at (the whole file is slow).
_GUESS_BYTES = 1 << 16


def guess_encoding(data: bytes) -> str | None:
    """A likely encoding of ``data`` that is not UTF-8, or ``None`` when there is no guess.

    A byte-order mark decides UTF-16/UTF-32; otherwise ``charset_normalizer`` (a
    dependency of ``requests``) ranks the candidates.
    """
    for bom, name in (
        (b"\xff\xfe\x00\x00", "utf-32"),
        (b"\x00\x00\xfe\xff", "utf-32"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            return name
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - installed with requests
        return None
    best = from_bytes(data[:_GUESS_BYTES], cp_isolation=list(_CANDIDATES)).best()
    if best is None:
        return None
    return _CANDIDATES.get(best.encoding)


def encoding_error(path: str | Path, data: bytes | None = None) -> EncodingError:
    """The :class:`EncodingError` of a file that is not UTF-8: file, line, byte offset, a guess.

    ``data`` is the file's content when already in hand; otherwise it is read.
    """
    if data is None:
        data = Path(path).read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        offset = error.start
    else:  # decodes after all (the caller decoded a part of it differently)
        return EncodingError(f"{path}: not valid UTF-8 text")
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    guess = guess_encoding(data)
    hint = (
        f"; it looks like {guess}: convert it with iconv -f {guess} -t utf-8 {path} > "
        f"{Path(path).with_name(Path(path).stem + '.utf8' + Path(path).suffix)}"
        if guess
        else "; convert it to UTF-8 (iconv -f ENCODING -t utf-8)"
    )
    return EncodingError(
        f"{path}, line {line}, column {column} (byte offset {offset}): byte "
        f"0x{data[offset]:02x} is not UTF-8; mgbias reads text files as UTF-8{hint}"
    )


def line_encoding_error(
    path: str | Path, line: int, raw: bytes, error: UnicodeDecodeError
) -> EncodingError:
    """The :class:`EncodingError` of one line (``raw``, its bytes) that is not UTF-8."""
    guess = guess_encoding(raw)
    hint = f"; it looks like {guess}: convert it with iconv -f {guess} -t utf-8" if guess else ""
    return EncodingError(
        f"{path}, line {line}, column {error.start + 1}: byte 0x{raw[error.start]:02x} is not "
        f"UTF-8; mgbias reads text files as UTF-8{hint}"
    )


@contextlib.contextmanager
def decoding(path: str | Path) -> Iterator[None]:
    """Turn a ``UnicodeDecodeError`` raised while reading ``path`` into :func:`encoding_error`."""
    try:
        yield
    except UnicodeDecodeError:
        raise encoding_error(path) from None


def read_text(path: str | Path) -> str:
    """The UTF-8 text of ``path`` (a leading byte-order mark kept), or an :class:`EncodingError`."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise encoding_error(path, data) from None


def read_lines(path: str | Path) -> list[str]:
    """The lines of a UTF-8 text file, without their line ends."""
    return read_text(path).splitlines()
