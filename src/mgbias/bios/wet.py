"""Stream the text records of a Common Crawl WET file (``*.warc.wet.gz``) with warcio.

A WET file is a gzip of one member per WARC record: a ``warcinfo`` record first, then
one ``conversion`` record per page (the page's extracted plain text, UTF-8, with the
page's URL in ``WARC-Target-URI``). Since 2018 Common Crawl also writes the language
identified by CLD2 in ``WARC-Identified-Content-Language`` (ISO 639-3 codes, comma
separated, most likely first), e.g. ``eng,spa``.

Page text follows the authors: the body decoded as UTF-8, cut at 100,000 characters.
Bytes that are not UTF-8 are replaced (U+FFFD), so one bad page never stops a file.
A file that is not a WARC stream, or whose last record is cut short (a truncated
download), raises :class:`WetError` naming the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

MAX_PAGE_CHARS = 100_000
LANGUAGE_HEADER = "WARC-Identified-Content-Language"


class WetError(ValueError):
    """A WET file could not be parsed; the message names the file."""


@dataclass(frozen=True)
class Page:
    """One conversion record: its URL, identified languages (None if no header) and text."""

    uri: str
    languages: tuple[str, ...] | None
    text: str


def parse_languages(value: str | None) -> tuple[str, ...] | None:
    """``"eng,spa"`` -> ``("eng", "spa")``; a missing or empty header -> None."""
    if value is None:
        return None
    codes = tuple(code.strip().lower() for code in value.split(",") if code.strip())
    return codes or None


def iter_pages(path: str | Path, *, max_chars: int = MAX_PAGE_CHARS) -> Iterator[Page]:
    """Yield the conversion records of the WET file at ``path``, in file order.

    Other record types (``warcinfo``, and any ``response``/``metadata`` in a mixed file)
    are skipped. Records with an empty body yield a Page with empty text.
    """
    try:
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type != "conversion":
                    continue
                headers = record.rec_headers
                body = record.content_stream().read()
                announced = headers.get_header("Content-Length")
                if announced is not None and len(body) < int(announced):
                    raise WetError(
                        f"{path}: truncated record {headers.get_header('WARC-Record-ID')}: "
                        f"{len(body)} of {announced} bytes"
                    )
                yield Page(
                    uri=headers.get_header("WARC-Target-URI") or "",
                    languages=parse_languages(headers.get_header(LANGUAGE_HEADER)),
                    text=body.decode("utf-8", errors="replace")[:max_chars],
                )
    except ArchiveLoadFailed as err:
        raise WetError(f"{path}: not a WARC/WET file: {err}") from None
    except (OSError, EOFError) as err:  # zlib/gzip errors on a corrupt member
        raise WetError(f"{path}: corrupt WET file: {err}") from None
