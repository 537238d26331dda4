"""Read OPUS parallel corpora in the moses zip layout.

OPUS publishes each corpus version and language pair as
``<Corpus>/<version>/moses/<pair>.txt.zip``, for example
``OPUS-TED2020/v1/moses/de-en.txt.zip``. The pair names the two language codes
in alphabetical order joined by a hyphen (``de-en``, ``en-zh_cn``). The zip holds
one plain-text member per language, ``<Corpus>.<pair>.<lang>`` (``TED2020.de-en.de``
and ``TED2020.de-en.en``), UTF-8, one sentence per line, line *i* of one member
translating line *i* of the other; README and LICENSE members may sit beside them.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path


def opus_pair(lang_a: str, lang_b: str) -> str:
    """Return the OPUS pair name of two language codes: sorted, hyphen-joined.

    >>> opus_pair("en", "de")
    'de-en'
    """
    if not lang_a or not lang_b:
        raise ValueError(f"language codes must be non-empty, got {lang_a!r} and {lang_b!r}")
    if lang_a == lang_b:
        raise ValueError(f"a language pair needs two different languages, got {lang_a!r} twice")
    first, second = sorted((lang_a, lang_b))
    return f"{first}-{second}"


def moses_member_names(corpus: str, lang_a: str, lang_b: str) -> tuple[str, str]:
    """Return the zip member names of ``lang_a`` and ``lang_b``, in that order.

    >>> moses_member_names("TED2020", "en", "de")
    ('TED2020.de-en.en', 'TED2020.de-en.de')
    """
    if not corpus:
        raise ValueError("corpus name must be non-empty")
    pair = opus_pair(lang_a, lang_b)
    return f"{corpus}.{pair}.{lang_a}", f"{corpus}.{pair}.{lang_b}"


def _decoded_lines(lines: Iterator[bytes], zip_path: Path, member: str | None) -> Iterator[str]:
    """Decode one member (or, with ``member`` None, one text file) line by line,
    stripping the line terminator only.

    Lines are split on ``\\n`` alone (the moses convention), never on other characters
    that Python treats as line breaks, so a stray ``\\r`` or U+2028 inside a sentence
    cannot shift the alignment. A trailing ``\\r`` (CRLF files) is removed.
    """
    for line_number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            where = f"{zip_path}: member {member}" if member else f"{zip_path}:"
            raise ValueError(
                f"{where} line {line_number} is not valid UTF-8 "
                f"(byte {err.start}: {raw[err.start : err.start + 4]!r})"
            ) from None
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        yield text


def iter_moses_zip(
    zip_path: str | Path, corpus: str, src_lang: str, tgt_lang: str
) -> Iterator[tuple[str, str]]:
    """Stream aligned sentence pairs ``(src, tgt)`` from an OPUS moses zip.

    Both members are read line by line from the compressed stream; no member is ever
    held in memory whole.

    Parameters
    ----------
    zip_path
        Path of the ``<pair>.txt.zip`` file.
    corpus
        Corpus name as it appears in member names (``TED2020``, ``GlobalVoices``).
    src_lang, tgt_lang
        Language codes as spelt by the corpus; pairs are yielded in this order.

    Yields
    ------
    tuple of str
        Line *i* of the ``src_lang`` member and line *i* of the ``tgt_lang`` member,
        without their line terminators (empty lines are yielded as empty strings).

    Raises
    ------
    ValueError
        If the file is not a zip; a member is missing (the message lists the members
        the zip has); the members have different numbers of lines (the message names
        the member that ended early and the first line it lacks); a line is not UTF-8
        (member and line named); or a member fails its CRC check.
    """
    zip_path = Path(zip_path)
    src_member, tgt_member = moses_member_names(corpus, src_lang, tgt_lang)
    try:
        archive = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile as err:
        raise ValueError(f"{zip_path}: not a zip archive ({err})") from None
    with archive:
        present = set(archive.namelist())
        missing = [name for name in (src_member, tgt_member) if name not in present]
        if missing:
            raise ValueError(
                f"{zip_path}: no member {' or '.join(missing)} for corpus {corpus!r}, "
                f"pair {src_lang}-{tgt_lang}; the zip contains: {', '.join(sorted(present))}"
            )
        try:
            with archive.open(src_member) as src_raw, archive.open(tgt_member) as tgt_raw:
                src_lines = _decoded_lines(iter(src_raw), zip_path, src_member)
                tgt_lines = _decoded_lines(iter(tgt_raw), zip_path, tgt_member)
                for src, tgt, short, long_, line_number in _aligned(
                    src_lines, tgt_lines, src_member, tgt_member
                ):
                    if src is None:
                        raise ValueError(
                            f"{zip_path}: member {short} ended after {line_number - 1} lines "
                            f"but {long_} has line {line_number}; the members must have "
                            "the same number of lines"
                        )
                    yield src, tgt
        except (zipfile.BadZipFile, zlib.error, EOFError) as err:
            raise ValueError(f"{zip_path}: corrupt member data ({err})") from None


def iter_parallel_text(source: str | Path, target: str | Path) -> Iterator[tuple[str, str]]:
    """Stream aligned sentence pairs ``(source line i, target line i)`` from two text files.

    The plain-text form of a moses corpus (what :func:`iter_moses_zip` reads from a
    zip): UTF-8, one sentence a line, line *i* of one file the translation of line *i*
    of the other. Lines are split on ``\\n`` only and lose their terminator (and a
    trailing ``\\r``), as in :func:`iter_moses_zip`.

    Raises
    ------
    FileNotFoundError
        If either path is not a file.
    ValueError
        If a line is not UTF-8 (file, line and byte named), or the files have
        different numbers of lines (the shorter file and its line count named).
    """
    paths = (Path(source), Path(target))
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(
                f"{path}: no such file (expected a text file, one sentence a line, aligned "
                "line by line with the other side of the corpus)"
            )
    with open(paths[0], "rb") as src_raw, open(paths[1], "rb") as tgt_raw:
        src_lines = _decoded_lines(iter(src_raw), paths[0], None)
        tgt_lines = _decoded_lines(iter(tgt_raw), paths[1], None)
        for src, tgt, short, long_, line_number in _aligned(src_lines, tgt_lines, *paths):
            if src is None:
                raise ValueError(
                    f"{short}: ended after {line_number - 1} lines but {long_} has line "
                    f"{line_number}; the two sides of a parallel corpus must have the same "
                    "number of lines"
                )
            yield src, tgt


def _aligned(src_lines, tgt_lines, src_name, tgt_name):
    """Line pairs ``(src, tgt, None, None, i)`` of two line streams; where one stream
    ends before the other, one last ``(None, None, shorter, longer, i)`` (i: the line
    the longer one still has) and nothing more."""
    line_number = 0
    while True:
        line_number += 1
        src = next(src_lines, None)
        tgt = next(tgt_lines, None)
        if src is None and tgt is None:
            return
        if src is None or tgt is None:
            short, long_ = (src_name, tgt_name) if src is None else (tgt_name, src_name)
            yield None, None, short, long_, line_number
            return
        yield src, tgt, None, None, line_number
