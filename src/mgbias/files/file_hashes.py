"""The sha256 of a file, remembered for the process and, for large files, across processes.

Every provenance record holds the sha256 of the model's weights
(:func:`mgbias.provenance.model_fingerprint`), and every ``mgbias`` command and
workflow job writes one: hashing an mBERT ``model.safetensors`` (711 MB) again would
read it whole, each time. So the digest of a file of at least
:data:`CACHED_FROM_BYTES` is kept in a small JSON entry of the hash cache, one per
real path (named by the sha256 of the path), beside the file's size, inode,
device, and modification and change times in nanoseconds. An entry is used only
when all of these still match the file: any write to the file changes its change
time (``st_ctime``, which no tool can set back), and a file replaced by another
has another inode, so a changed file is hashed again and its entry rewritten. A
file of 64 MiB cannot be rewritten within one tick of the file system's clock.

The cache is ``sha256/`` below the caches' root (:func:`mgbias.files.cache_dirs.cache_root`:
``$MGBIAS_CACHE_DIR``, else ``~/.cache/mgbias``), or the folder :data:`HASH_CACHE_ENV`
names; ``off`` (or an empty value) turns it off. An entry that cannot be read or
written (a damaged file, a read-only home) is passed over: the file is hashed as
without a cache. Nothing else depends on the cache, and removing it loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path

from mgbias.files.atomic import write_json
from mgbias.files.cache_dirs import cache_root

__all__ = ["CACHED_FROM_BYTES", "HASH_CACHE_ENV", "file_sha256", "hash_cache_dir"]

#: Environment variable naming the hash cache's folder (``off``: no cache).
HASH_CACHE_ENV = "MGBIAS_HASH_CACHE"
#: Files from this size on (weights, not tables) have their digest kept across processes.
CACHED_FROM_BYTES = 64 * 2**20
#: Bytes read at a time while hashing.
BLOCK_BYTES = 1 << 20

_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
_HASHES: dict[tuple[str, ...], str] = {}
_HASHES_LOCK = threading.Lock()


def hash_cache_dir() -> Path | None:
    """The folder of the hash cache's entries, or None when :data:`HASH_CACHE_ENV` is ``off``."""
    value = os.environ.get(HASH_CACHE_ENV)
    if value is None:
        return cache_root() / "sha256"
    if value.strip().lower() in ("", "off"):
        return None
    return Path(value).expanduser()


def _stamp(info: os.stat_result) -> dict[str, int]:
    """What must not change for a remembered digest to hold."""
    return {
        "size": info.st_size,
        "inode": info.st_ino,
        "device": info.st_dev,
        "mtime_ns": info.st_mtime_ns,
        "ctime_ns": info.st_ctime_ns,
    }


def _hash_bytes(real: str) -> str:
    digest = hashlib.sha256()
    with open(real, "rb") as stream:
        for block in iter(lambda: stream.read(BLOCK_BYTES), b""):
            digest.update(block)
    return digest.hexdigest()


def _entry_path(real: str) -> Path | None:
    folder = hash_cache_dir()
    if folder is None:
        return None
    return folder / f"{hashlib.sha256(real.encode('utf-8', 'surrogateescape')).hexdigest()}.json"


def _read_entry(entry: Path, real: str, stamp: dict[str, int]) -> str | None:
    """The entry's digest if it is of ``real`` with ``stamp``, else None (also if unreadable)."""
    try:
        record = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("path") != real:
        return None
    if any(record.get(name) != value for name, value in stamp.items()):
        return None
    digest = record.get("sha256")
    return digest if isinstance(digest, str) and _HEX_DIGEST.fullmatch(digest) else None


def _write_entry(entry: Path, real: str, stamp: dict[str, int], digest: str) -> None:
    """Keep ``digest`` unless the file changed while it was read; a failed write is ignored."""
    try:
        if _stamp(os.stat(real)) != stamp:
            return
        write_json(entry, {"path": real, **stamp, "sha256": digest})
    except OSError:
        pass


def file_sha256(path: str | Path) -> str:
    """The sha256 hex digest of a file's bytes.

    Remembered for the process by real path and :func:`os.stat` stamp (size,
    inode, device, modification and change times), so a weights file read by
    several outputs of one command is hashed once; and for files of at least
    :data:`CACHED_FROM_BYTES`, in the hash cache (:func:`hash_cache_dir`), so
    the next process does not hash them again while they are unchanged.

    Raises
    ------
    OSError
        If the file cannot be read (``FileNotFoundError`` if it does not exist).
    """
    real = os.path.realpath(path)
    stamp = _stamp(os.stat(real))
    key = (real, *map(str, stamp.values()))
    with _HASHES_LOCK:
        if key in _HASHES:
            return _HASHES[key]
    entry = _entry_path(real) if stamp["size"] >= CACHED_FROM_BYTES else None
    digest = _read_entry(entry, real, stamp) if entry is not None else None
    if digest is None:
        digest = _hash_bytes(real)
        if entry is not None:
            _write_entry(entry, real, stamp, digest)
    with _HASHES_LOCK:
        _HASHES[key] = digest
    return digest
