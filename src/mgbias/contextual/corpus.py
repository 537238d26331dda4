"""The sentences of a probe domain from its download (Basta et al. 2020, §5.2.1).

The paper's domains are the English sides of parallel corpora (OPUS TED2013 and Europarl
moses zips, WMT13 News Commentary in a tgz, a biomedical corpus) and the Spanish side of
WMT13; the demo's are the demo world's news-crawl gzip and OPUS zips. One reader for all:
a zip or tar member by name, or the whole of a gzip or plain text file.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

__all__ = ["read_domain_lines"]


def _open_text(path: Path, member: str | None) -> str:
    data = path.read_bytes()
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if member is None or member not in names:
                raise ValueError(f"{path}: member {member!r} not in the zip ({names[:10]})")
            data = archive.read(member)
    elif member is not None and tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            try:
                handle = archive.extractfile(member)
            except KeyError:
                handle = None
            if handle is None:
                raise ValueError(f"{path}: member {member!r} not in the tar archive")
            data = handle.read()
    elif member is not None:
        raise ValueError(f"{path}: a member ({member!r}) is given but it is not an archive")
    if data[:2] == b"\x1f\x8b":
        data = gzip.GzipFile(fileobj=io.BytesIO(data)).read()
    return data.decode("utf-8")


def read_domain_lines(
    path: str | Path, *, member: str | None = None, max_lines: int = 0
) -> list[str]:
    """Non-empty, stripped lines of ``path`` (or of its archive ``member``), the first
    ``max_lines`` if > 0.

    Raises
    ------
    ValueError
        A missing member, a member given for a non-archive, or no line at all.
    """
    path = Path(path)
    lines = [line.strip() for line in _open_text(path, member).splitlines()]
    lines = [line for line in lines if line]
    if max_lines > 0:
        lines = lines[:max_lines]
    if not lines:
        raise ValueError(f"{path}: no sentence")
    return lines
