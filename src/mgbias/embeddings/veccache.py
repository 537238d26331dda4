"""A binary copy of every parsed ``.vec`` file, keyed by the text file's content.

Parsing a ``.vec`` text file is the slow part of reading it (a second for 50,000 rows of
300 values), and the workflow reads the same file many times: each alignment, BLI and
inBias of a space. :func:`cached_rows` parses a file once and keeps its rows as a
float32 ``.npy`` matrix with a JSON file of the words; a later read of the same content
loads those instead of the text.

Where: ``$MGBIAS_CACHE_DIR/vec/`` (default ``$XDG_CACHE_HOME/mgbias/vec/``, that is
``~/.cache/mgbias/vec/``), outside the workflow's folders, so neither Snakemake nor DVC
ever sees a cache file. ``MGBIAS_VEC_CACHE=0`` (or ``cache=False`` to the reader) reads
the text every time.

What a cached copy is of: the sha256 of the text file's bytes and the decoding
``errors`` mode name the entry (``<sha256>.<errors>.v<FORMAT>.npy`` and ``.json``), so
a changed file is parsed again whatever its name, size or time stamps, and identical files
share one entry. To spare hashing the whole file on every read, the sha256 is recorded
with the file's (size, mtime_ns, ctime_ns, inode, device) under ``vec/stat/``; a later read
whose ``stat`` matches all five takes the recorded sha256. The record is trusted only when
the file's time stamps were at least :data:`STAT_MARGIN_NS` older than the hashing, so a
file rewritten within the same clock tick as the one hashed (same size, same time stamps)
is hashed again (git's "racily clean" rule). ``ctime`` cannot be set back by a user
(``touch -d`` moves ``mtime`` only), so only a changed file system clock could defeat it.

An entry holds the first ``rows`` rows of the file (``maxload`` may stop a read early);
a read of at most ``rows`` rows slices it, a longer one parses again and replaces it.
Entries are written atomically (:func:`mgbias.files.atomic.atomic_paths`, mode ``0o666`` less the
umask); an entry that does not load or whose parts disagree is parsed again and rewritten,
and a cache that cannot be written (a read-only home, a full disk) is logged, not raised.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np

from mgbias.files.atomic import atomic_paths, read_json
from mgbias.files.cache_dirs import CACHE_DIR_ENV, cache_root

__all__ = [
    "CACHE_DIR_ENV",
    "CACHE_SWITCH_ENV",
    "FORMAT",
    "STAT_MARGIN_NS",
    "CachedRows",
    "cache_enabled",
    "cached_rows",
    "entry_paths",
    "file_sha256",
    "first_duplicate",
    "vec_cache_dir",
]

logger = logging.getLogger(__name__)

#: ``0``, ``false``, ``no`` or ``off``: every ``.vec`` read parses the text.
CACHE_SWITCH_ENV = "MGBIAS_VEC_CACHE"
#: Version of what an entry holds; a change to the parser's output bumps it.
FORMAT = 1
#: How much older than its hashing a file must be for its ``stat`` record to be trusted.
STAT_MARGIN_NS = 2_000_000_000

_OFF = {"0", "false", "no", "off"}
_ERRORS_NAME = re.compile(r"[a-z_]+")


class CachedRows:
    """The first ``len(words)`` rows of a ``.vec`` file, as parsed: the words in memory,
    the matrix in memory (just parsed) or in the open ``.npy`` file of a cache entry, read
    by :meth:`head` or :meth:`take`. Close it (or use it in a ``with`` block) when done.

    ``first_duplicate`` is the first row whose word repeats an earlier row's (``None``:
    every word is distinct).
    """

    def __init__(
        self,
        words: list[str],
        first_duplicate: int | None,
        matrix: np.ndarray | None = None,
        stream: BinaryIO | None = None,
        dim: int = 0,
    ):
        self.words = words
        self.first_duplicate = first_duplicate
        self._matrix = matrix
        self._stream = stream
        self._start = stream.tell() if stream is not None else 0
        self._row_bytes = 4 * dim
        self._dim = dim

    def __enter__(self) -> CachedRows:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the entry's file (nothing for parsed rows)."""
        if self._stream is not None:
            self._stream.close()

    def head(self, n: int) -> np.ndarray:
        """The first ``n`` rows (``n <= len(words)``), a float32 array of its own."""
        if self._matrix is not None:
            return self._matrix if n == len(self._matrix) else self._matrix[:n]
        out = np.empty((n, self._dim), dtype=np.float32)
        self._read(0, out)
        return out

    def take(self, indices: Sequence[int]) -> np.ndarray:
        """The rows at ``indices`` (increasing), a float32 array of its own."""
        if self._matrix is not None:
            return self._matrix[list(indices)]
        out = np.empty((len(indices), self._dim), dtype=np.float32)
        start = 0
        while start < len(indices):  # one read per run of consecutive rows
            stop = start + 1
            while stop < len(indices) and indices[stop] == indices[stop - 1] + 1:
                stop += 1
            self._read(indices[start], out[start:stop])
            start = stop
        return out

    def _read(self, row: int, out: np.ndarray) -> None:
        self._stream.seek(self._start + row * self._row_bytes)
        view = memoryview(out).cast("B")
        if self._stream.readinto(view) != len(view):
            raise OSError(f"{self._stream.name}: the cache entry ends early")


def vec_cache_dir() -> Path:
    """``$MGBIAS_CACHE_DIR/vec``, or ``$XDG_CACHE_HOME/mgbias/vec`` (``~/.cache/...``)."""
    return cache_root() / "vec"


def cache_enabled(cache: bool | None = None) -> bool:
    """``cache`` if given, else whether ``MGBIAS_VEC_CACHE`` leaves the cache on (default)."""
    if cache is not None:
        return bool(cache)
    return os.environ.get(CACHE_SWITCH_ENV, "1").strip().lower() not in _OFF


def file_sha256(path: str | Path) -> str:
    """The hex sha256 of a file's bytes."""
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def first_duplicate(words: Sequence[str]) -> int | None:
    """The index of the first word that repeats an earlier one, or ``None``."""
    seen: set[str] = set()
    for i, word in enumerate(words):
        if word in seen:
            return i
        seen.add(word)
    return None


def entry_paths(sha256: str, errors: str, root: Path | None = None) -> tuple[Path, Path]:
    """The ``.npy`` matrix and ``.json`` words of one entry."""
    base = (vec_cache_dir() if root is None else root) / f"{sha256}.{errors}.v{FORMAT}"
    return base.with_name(base.name + ".npy"), base.with_name(base.name + ".json")


def cached_rows(
    path: Path,
    n: int,
    d: int,
    errors: str,
    parse: Callable[[], tuple[list[str], np.ndarray]],
) -> CachedRows:
    """The first ``n`` rows (at least) of ``path``: from the cache, or ``parse()`` stored.

    Parameters
    ----------
    path
        The ``.vec`` file.
    n, d
        Rows wanted and their dimension (from the header).
    errors
        The decoding ``errors`` mode of the parse (part of the entry's name).
    parse
        Parses exactly the first ``n`` rows of ``path`` (its exceptions propagate; nothing
        is stored then).

    Returns
    -------
    CachedRows
        ``n`` rows or more (an entry of more rows is not cut here); close it when done.
    """
    if not _ERRORS_NAME.fullmatch(errors):
        return _parsed(parse)
    root = vec_cache_dir()
    before = os.stat(path)
    sha256 = _known_sha256(path, before, root) or _hash(path, before, root)
    if sha256 is None:  # the file changed while it was hashed
        return _parsed(parse)
    matrix_path, words_path = entry_paths(sha256, errors, root)
    found = _load(matrix_path, words_path, sha256, errors, d)
    if found is not None:
        if len(found.words) >= n:
            logger.debug("%s: %d rows from the cache %s", path, len(found.words), matrix_path)
            return found
        found.close()
    rows = _parsed(parse)
    if _same_file(before, os.stat(path)):
        _store(rows, matrix_path, words_path, sha256, errors, path)
    return rows


def _parsed(parse: Callable[[], tuple[list[str], np.ndarray]]) -> CachedRows:
    words, matrix = parse()
    return CachedRows(words, first_duplicate(words), matrix=matrix)


# --------------------------------------------------------------------------------------
# The sha256 of a file, from its stat record or hashed
# --------------------------------------------------------------------------------------


def _stat_fields(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]


def _same_file(first: os.stat_result, second: os.stat_result) -> bool:
    return _stat_fields(first) == _stat_fields(second)


def _record_path(path: Path, root: Path) -> Path:
    name = hashlib.sha256(os.fsencode(path.resolve())).hexdigest()
    return root / "stat" / f"{name}.json"


def _known_sha256(path: Path, stat: os.stat_result, root: Path) -> str | None:
    """The recorded sha256 when the record's stat matches and the record is not racy."""
    try:
        record = read_json(_record_path(path, root))
        if record["stat"] != _stat_fields(stat):
            return None
        if max(stat.st_mtime_ns, stat.st_ctime_ns) + STAT_MARGIN_NS > record["hashed_at_ns"]:
            return None
        sha256 = record["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return sha256 if isinstance(sha256, str) and len(sha256) == 64 else None


def _hash(path: Path, before: os.stat_result, root: Path) -> str | None:
    """Hash ``path`` and record its stat; ``None`` when it changed while being hashed."""
    hashed_at = time.time_ns()
    sha256 = file_sha256(path)
    if not _same_file(before, os.stat(path)):
        return None
    record = {
        "path": str(path.resolve()),
        "stat": _stat_fields(before),
        "hashed_at_ns": hashed_at,
        "sha256": sha256,
    }
    try:
        with atomic_paths(_record_path(path, root)) as (tmp,):
            tmp.write_text(json.dumps(record, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as error:
        logger.warning("%s: cannot record its sha256 in %s (%s)", path, root, error)
    return sha256


# --------------------------------------------------------------------------------------
# Entries
# --------------------------------------------------------------------------------------


def _load(
    matrix_path: Path, words_path: Path, sha256: str, errors: str, d: int
) -> CachedRows | None:
    """An entry with its ``.npy`` file open, or ``None`` when absent, unreadable or
    inconsistent (logged): the JSON must parse and name this content, the ``.npy`` header
    must be float32 of one row of ``d`` values per word, and the file exactly that long."""
    if not (matrix_path.exists() and words_path.exists()):
        return None
    stream = None
    try:
        meta = read_json(words_path)
        stream = open(matrix_path, "rb")  # noqa: SIM115 - CachedRows closes it
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
        else:
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
        words, duplicate = meta["words"], meta["first_duplicate"]
        size = os.fstat(stream.fileno()).st_size
        consistent = (
            meta["format"] == FORMAT
            and meta["sha256"] == sha256
            and meta["errors"] == errors
            and isinstance(words, list)
            and meta["rows"] == len(words)
            and (duplicate is None or isinstance(duplicate, int))
            and dtype == np.dtype("<f4")
            and not fortran
            and shape == (len(words), d)
            and size == stream.tell() + 4 * len(words) * d
        )
    except (OSError, ValueError, KeyError, TypeError, EOFError) as error:
        if stream is not None:
            stream.close()
        logger.warning("%s: unreadable cache entry, parsing again (%s)", matrix_path, error)
        return None
    if not consistent:
        stream.close()
        logger.warning("%s: inconsistent cache entry, parsing again", matrix_path)
        return None
    return CachedRows(words, duplicate, stream=stream, dim=d)


def _store(
    rows: CachedRows, matrix_path: Path, words_path: Path, sha256: str, errors: str, source: Path
) -> None:
    meta = {
        "format": FORMAT,
        "sha256": sha256,
        "errors": errors,
        "source": str(source),
        "rows": len(rows.words),
        "first_duplicate": rows.first_duplicate,
        "words": rows.words,
    }
    try:
        with atomic_paths(matrix_path, words_path) as (matrix_tmp, words_tmp):
            with open(matrix_tmp, "wb") as stream:
                np.save(stream, np.ascontiguousarray(rows.head(len(rows.words))))
            words_tmp.write_text(json.dumps(meta) + "\n", encoding="ascii")
    except (OSError, ValueError) as error:
        logger.warning("%s: cannot write the cache entry %s (%s)", source, matrix_path, error)
        return
    logger.debug("%s: %d rows cached in %s", source, len(rows.words), matrix_path)
