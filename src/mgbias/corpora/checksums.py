"""SHA-256 digests of downloaded files and their ``sha256sum``-style sidecars.

Every file that :func:`mgbias.corpora.download.fetch` puts in place gets a
sidecar ``<file>.sha256`` holding one line in the format written by GNU
``sha256sum``::

    <64 lowercase hex digits><two spaces><file's base name>

so ``sha256sum -c <file>.sha256`` (run in the file's directory) checks it too.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from mgbias.files.atomic import write_text

SIDECAR_SUFFIX = ".sha256"
"""Appended to a file's name to name its sidecar."""

_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
# "<digest>  <name>" (text mode) or "<digest> *<name>" (binary mode) in sha256sum output.
_SIDECAR_LINE = re.compile(r"(?P<digest>[0-9a-fA-F]{64}) [ *](?P<name>.+)")


class ChecksumError(ValueError):
    """A file does not match its recorded digest, or the record is missing or malformed."""


def sidecar_path(path: str | Path) -> Path:
    """Return the sidecar path of ``path`` (``path`` with ``.sha256`` appended)."""
    path = Path(path)
    return path.with_name(path.name + SIDECAR_SUFFIX)


def is_sha256_hex(text: str) -> bool:
    """Return whether ``text`` is a SHA-256 digest in lowercase hex (64 characters)."""
    return _HEX_DIGEST.fullmatch(text) is not None


def sha256_file(path: str | Path, *, chunk_size: int = 1 << 20) -> str:
    """Return the SHA-256 hex digest of a file, read in chunks of ``chunk_size`` bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def sidecar_text(path: str | Path, digest: str) -> str:
    """Return the sidecar content for ``path``: ``"<digest>  <base name>\\n"``.

    Raises
    ------
    ValueError
        If ``digest`` is not a SHA-256 digest in hex.
    """
    digest = digest.lower()
    if not is_sha256_hex(digest):
        raise ValueError(f"not a SHA-256 hex digest (64 hex characters): {digest!r}")
    return f"{digest}  {Path(path).name}\n"


def write_sidecar(path: str | Path, digest: str) -> Path:
    """Write ``digest`` to the sidecar of ``path`` atomically and return the sidecar path.

    The sidecar is written to a temporary file in the same directory and renamed into
    place, so a reader never sees a half-written sidecar.

    Raises
    ------
    ValueError
        If ``digest`` is not a SHA-256 digest in hex.
    """
    text = sidecar_text(path, digest)
    target = sidecar_path(path)
    write_text(target, text)
    return target


def read_sidecar(path: str | Path) -> str:
    """Return the digest recorded in the sidecar of ``path``.

    Raises
    ------
    ChecksumError
        If the sidecar is missing, is not one ``sha256sum`` line, or names another file.
    """
    path = Path(path)
    target = sidecar_path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ChecksumError(f"{path}: checksum sidecar {target} is missing") from None
    except UnicodeDecodeError as err:
        raise ChecksumError(f"{target}: sidecar is not UTF-8 text ({err})") from None
    lines = text.splitlines()
    match = _SIDECAR_LINE.fullmatch(lines[0]) if len(lines) == 1 else None
    if match is None:
        raise ChecksumError(
            f"{target}: malformed sidecar; expected one line '<sha256 hex>  {path.name}', "
            f"found {text[:200]!r}"
        )
    if match["name"] != path.name:
        raise ChecksumError(
            f"{target}: sidecar names file {match['name']!r}, expected {path.name!r}"
        )
    return match["digest"].lower()


def verify_sidecar(path: str | Path) -> str:
    """Recompute the digest of ``path``, check it against its sidecar and return it.

    Raises
    ------
    ChecksumError
        If the sidecar is missing or malformed, or the file's digest differs from the
        recorded one (the message names the file and both digests).
    FileNotFoundError
        If ``path`` itself does not exist.
    """
    expected = read_sidecar(path)
    actual = sha256_file(path)
    if actual != expected:
        raise ChecksumError(
            f"{path}: SHA-256 mismatch; sidecar {sidecar_path(path).name} records "
            f"{expected}, file has {actual}"
        )
    return actual
