"""A parallel corpus of one's own, as plain text files, packed into the OPUS moses zip.

The workflow reads every parallel corpus from a moses zip (:mod:`mgbias.corpora.opus`).
A corpus configured with ``files`` (two aligned plain-text files, one sentence per
line) is packed into that layout once (rule ``download_corpus_files``), and every
later step reads it as it reads OPUS.
"""

from __future__ import annotations

import gzip
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from mgbias.corpora.checksums import sha256_file, sidecar_path, sidecar_text
from mgbias.corpora.opus import moses_member_names
from mgbias.files.atomic import atomic_paths


def _plain_lines(path: Path) -> Iterator[bytes]:
    """The lines of a plain-text file (gzip-compressed when its name ends in ``.gz``)."""
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rb") as handle:
        yield from handle


def write_moses_zip(dest: str | Path, corpus: str, files: Mapping[str, str | Path]) -> str:
    """Pack two aligned plain-text files into an OPUS moses zip at ``dest``; return its
    SHA-256 (also written to the ``.sha256`` sidecar, after the zip).

    This is how a parallel corpus of one's own enters the workflow: line *i* of one
    file translates line *i* of the other, UTF-8, one sentence per line (a ``.gz``
    name is read compressed). The members are ``<corpus>.<pair>.<lang>``, as
    :func:`iter_moses_zip` reads them.

    Parameters
    ----------
    dest
        The zip to write (atomically, with its sidecar).
    corpus
        The corpus name of the member names.
    files
        Exactly two languages, each mapped to its file.

    Raises
    ------
    ValueError
        If ``files`` does not give two languages, a line is not UTF-8 (file and line
        named), or the files have different numbers of lines (both counts named).
    """
    if len(files) != 2:
        raise ValueError(f"a parallel corpus needs two languages, got {sorted(files)}")
    (lang_a, path_a), (lang_b, path_b) = ((lang, Path(path)) for lang, path in files.items())
    members = dict(zip((lang_a, lang_b), moses_member_names(corpus, lang_a, lang_b), strict=True))
    dest = Path(dest)
    counts = {}
    with atomic_paths(dest, sidecar_path(dest)) as (tmp_zip, tmp_sidecar):
        with zipfile.ZipFile(tmp_zip, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for lang, path in ((lang_a, path_a), (lang_b, path_b)):
                count = 0
                with archive.open(members[lang], "w") as member:
                    for count, raw in enumerate(_plain_lines(path), start=1):  # noqa: B007
                        try:
                            raw.decode("utf-8")
                        except UnicodeDecodeError as err:
                            raise ValueError(
                                f"{path}: line {count} is not valid UTF-8 (byte {err.start}: "
                                f"{raw[err.start : err.start + 4]!r}); save the file as UTF-8"
                            ) from None
                        member.write(raw if raw.endswith(b"\n") else raw + b"\n")
                counts[lang] = count
        if counts[lang_a] != counts[lang_b]:
            raise ValueError(
                f"{path_a} has {counts[lang_a]} lines but {path_b} has {counts[lang_b]}; "
                "the two sides of a parallel corpus must have one line per sentence pair"
            )
        digest = sha256_file(tmp_zip)
        tmp_sidecar.write_text(sidecar_text(dest, digest), encoding="utf-8")
    return digest
