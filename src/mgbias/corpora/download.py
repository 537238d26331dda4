"""Fetch a file from a URL into place, verified, or not at all.

:func:`fetch` is the only way the workflow brings external data in: OPUS moses
zips, Common Crawl WET files, word lists, dictionaries. The same code reads the
real hosts (``https://``) and the demo mirror (``file://`` or a loopback HTTP
server in tests).

URL forms
---------
``http://host/path``, ``https://host/path``
    Fetched with :mod:`urllib.request` (redirects are followed).
``file:///abs/path``
    An absolute path (three slashes: empty host, then the path).
``file://relative/path``
    A path relative to the current working directory. This departs from RFC 8089,
    where the part after ``file://`` up to the next slash is a host name; the
    workflow's configuration names its bundled mirror this way because Snakemake
    runs every job in the working directory. ``file://localhost/x`` therefore means
    the relative path ``localhost/x``.

Percent-escapes in ``file:`` paths are decoded (``%20`` is a space).

Guarantees
----------
The body is streamed into a temporary file next to ``dest`` while its SHA-256 is
computed, then validated (HTTP status, length announced by ``Content-Length``,
expected digest, archive integrity judged by ``dest``'s name), and only then
renamed onto ``dest``, followed by its checksum sidecar (both written with
:func:`mgbias.files.atomic.atomic_paths`). On any failure the temporary files are removed,
``dest`` is not created, and a ``dest`` that existed before is left as it was.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import logging
import os
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from tqdm.auto import tqdm

from mgbias.corpora.checksums import is_sha256_hex, sidecar_path, sidecar_text
from mgbias.files.atomic import atomic_paths

logger = logging.getLogger(__name__)

USER_AGENT = "mgbias-downloader"


class DownloadError(RuntimeError):
    """A download failed or its content did not pass validation.

    The message names the URL, the destination and what was expected versus found.
    """

    def __init__(self, url: str, dest: str | Path, problem: str) -> None:
        super().__init__(f"download of {url} to {dest} failed: {problem}")
        self.url = url
        self.dest = str(dest)
        self.problem = problem


class _TransientError(Exception):
    """A connection error or timeout: worth another attempt."""


@dataclass
class _Source:
    """An open byte stream and the length it announced (None when unknown)."""

    stream: BinaryIO
    announced_length: int | None
    is_network: bool


def file_url_path(url: str) -> Path:
    """Return the local path named by a ``file://`` URL.

    ``file:///abs/path`` is absolute; ``file://relative/path`` is relative to the
    current working directory (see the module docstring). Percent-escapes are decoded.

    Raises
    ------
    ValueError
        If ``url`` does not start with ``file://`` or names no path.
    """
    prefix = "file://"
    if not url.startswith(prefix):
        raise ValueError(f"not a file:// URL: {url!r}")
    path = urllib.parse.unquote(url[len(prefix) :])
    if not path:
        raise ValueError(f"file:// URL names no path: {url!r}")
    return Path(path)


@contextmanager
def _open_source(url: str, dest: Path, timeout: float) -> Iterator[_Source]:
    scheme = urllib.parse.urlsplit(url).scheme.lower()
    if scheme == "file":
        path = file_url_path(url)
        try:
            stream = open(path, "rb")
        except FileNotFoundError:
            raise DownloadError(url, dest, f"not found: no file {path}") from None
        except IsADirectoryError:
            raise DownloadError(url, dest, f"{path} is a directory, expected a file") from None
        except OSError as err:
            raise DownloadError(url, dest, f"cannot open {path}: {err}") from None
        with stream:
            yield _Source(stream, os.fstat(stream.fileno()).st_size, is_network=False)
        return
    if scheme not in ("http", "https"):
        raise DownloadError(
            url, dest, f"unsupported URL scheme {scheme!r}; expected http, https or file"
        )
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as err:
        err.close()
        what = "not found" if err.code == 404 else f"reason: {err.reason}"
        raise DownloadError(url, dest, f"HTTP status {err.code} ({what}); expected 200") from None
    except urllib.error.URLError as err:
        if isinstance(err.reason, OSError):
            raise _TransientError(f"cannot connect: {err.reason}") from err
        raise DownloadError(url, dest, f"cannot open URL: {err.reason}") from None
    except (OSError, http.client.HTTPException) as err:
        raise _TransientError(f"connection failed: {err!r}") from err
    with response:
        if response.status != 200:
            raise DownloadError(url, dest, f"HTTP status {response.status}; expected 200")
        header = response.headers.get("Content-Length")
        announced = int(header) if header is not None and header.strip().isdigit() else None
        yield _Source(response, announced, is_network=True)


def _stream_into(
    url: str, dest: Path, temp_path: Path, *, timeout: float, progress: bool, chunk_size: int
) -> tuple[str, int]:
    """Copy the body of ``url`` into ``temp_path`` (overwritten), a temporary file for ``dest``.

    Returns the SHA-256 hex digest and the number of bytes.
    """
    digest = hashlib.sha256()
    n_bytes = 0
    with open(temp_path, "wb") as handle, _open_source(url, dest, timeout) as source:
        with tqdm(
            total=source.announced_length,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            desc=dest.name,
            disable=None if progress else True,
            leave=False,
        ) as bar:
            while True:
                try:
                    chunk = source.stream.read(chunk_size)
                except http.client.IncompleteRead as err:
                    n_bytes += len(err.partial)
                    expected = source.announced_length or (n_bytes + (err.expected or 0))
                    raise DownloadError(
                        url, dest, f"truncated: got {n_bytes} of {expected} bytes"
                    ) from None
                except OSError as err:
                    if source.is_network:
                        raise _TransientError(
                            f"connection lost after {n_bytes} bytes: {err!r}"
                        ) from err
                    raise
                if not chunk:
                    break
                handle.write(chunk)
                digest.update(chunk)
                n_bytes += len(chunk)
                bar.update(len(chunk))
        announced = source.announced_length
    if announced is not None and n_bytes < announced:
        raise DownloadError(url, dest, f"truncated: got {n_bytes} of {announced} bytes")
    return digest.hexdigest(), n_bytes


def _download_with_retries(
    url: str,
    dest: Path,
    temp_path: Path,
    *,
    timeout: float,
    retries: int,
    progress: bool,
    chunk_size: int,
    retry_wait: float,
) -> tuple[str, int]:
    """Stream ``url`` into ``temp_path``, retrying connection failures with backoff.

    Returns the SHA-256 hex digest and the number of bytes of the body.
    """
    attempts = retries + 1
    for attempt in range(1, attempts + 1):
        try:
            return _stream_into(
                url, dest, temp_path, timeout=timeout, progress=progress, chunk_size=chunk_size
            )
        except _TransientError as err:
            if attempt == attempts:
                raise DownloadError(
                    url, dest, f"{err} (gave up after {attempts} attempt(s))"
                ) from err.__cause__
            wait = retry_wait * 2 ** (attempt - 1)
            logger.warning("%s: %s; retrying in %.1f s", url, err, wait)
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def check_archive(path: str | Path, kind_from_name: str, *, chunk_size: int = 1 << 20) -> None:
    """Check the integrity of an archive, choosing the check by a file name's suffix.

    ``.zip``: the central directory must be readable and every member's CRC-32 must
    match (:meth:`zipfile.ZipFile.testzip`). ``.gz``: the whole stream (all gzip
    members, as in Common Crawl WET files) is decompressed, which detects truncation
    and CRC errors. Other names: no check.

    Parameters
    ----------
    path
        The file to check.
    kind_from_name
        The name whose suffix decides the check (the destination name; the file
        being checked is a temporary file with another name).

    Raises
    ------
    ValueError
        Describing what is wrong with the archive.
    """
    suffix = Path(kind_from_name).suffix.lower()
    if suffix == ".zip":
        try:
            with zipfile.ZipFile(path) as archive:
                bad_member = archive.testzip()
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as err:
            raise ValueError(f"not a readable zip archive: {err}") from None
        except (NotImplementedError, RuntimeError) as err:
            raise ValueError(f"zip archive cannot be verified: {err}") from None
        if bad_member is not None:
            raise ValueError(f"zip member {bad_member!r} fails its CRC-32 check")
    elif suffix == ".gz":
        try:
            with gzip.open(path, "rb") as stream:
                while stream.read(chunk_size):
                    pass
        except (gzip.BadGzipFile, EOFError, zlib.error, OSError) as err:
            raise ValueError(f"not a complete gzip stream: {err}") from None


def fetch(
    url: str,
    dest: str | Path,
    *,
    expected_sha256: str | None = None,
    timeout: float = 60.0,
    retries: int = 2,
    progress: bool = True,
    chunk_size: int = 1 << 20,
    retry_wait: float = 1.0,
) -> str:
    """Download ``url`` to ``dest``, validate it, write a sidecar and return its SHA-256.

    Parameters
    ----------
    url
        ``http://``, ``https://`` or ``file://`` URL (see the module docstring for
        ``file://relative/path``).
    dest
        Destination path; its parent directory is created if needed. Its name decides
        the archive check (``.zip``, ``.gz``; see :func:`check_archive`).
    expected_sha256
        If given, the download must have this SHA-256 (hex).
    timeout
        Seconds to wait on a connect or a read before giving up on an attempt.
    retries
        Further attempts after a connection error or timeout. HTTP error statuses and
        validation failures (truncation, digest, archive) are not retried.
    progress
        Show a tqdm progress bar (only when stderr is a terminal).
    chunk_size
        Bytes read per call while streaming.
    retry_wait
        Seconds before the first retry; doubled before each further one.

    Returns
    -------
    str
        The SHA-256 hex digest of the file now at ``dest``; it is also written to
        ``dest + ".sha256"`` in ``sha256sum`` format.

    Raises
    ------
    DownloadError
        On HTTP status other than 200 (404 says "not found"), a body shorter than its
        ``Content-Length`` ("truncated: got N of M bytes"), a digest other than
        ``expected_sha256``, a corrupt archive, or connection failures on every attempt.
        ``dest`` is then not created and a pre-existing ``dest`` is untouched.
    """
    dest = Path(dest)
    if expected_sha256 is not None:
        expected_sha256 = expected_sha256.strip().lower()
        if not is_sha256_hex(expected_sha256):
            raise ValueError(
                f"expected_sha256 for {url} must be 64 hex characters, got {expected_sha256!r}"
            )
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    # Sidecar last: a crash between the two renames leaves a fresh file with a stale
    # or missing sidecar, which verify_sidecar reports, never a silent mismatch.
    with atomic_paths(dest, sidecar_path(dest)) as (temp_path, temp_sidecar):
        digest, n_bytes = _download_with_retries(
            url,
            dest,
            temp_path,
            timeout=timeout,
            retries=retries,
            progress=progress,
            chunk_size=chunk_size,
            retry_wait=retry_wait,
        )
        if expected_sha256 is not None and digest != expected_sha256:
            raise DownloadError(
                url, dest, f"SHA-256 mismatch: expected {expected_sha256}, got {digest}"
            )
        try:
            check_archive(temp_path, dest.name, chunk_size=chunk_size)
        except ValueError as err:
            raise DownloadError(url, dest, f"corrupt archive ({n_bytes} bytes): {err}") from None
        temp_sidecar.write_text(sidecar_text(dest, digest), encoding="utf-8")
    logger.info("fetched %s -> %s (%d bytes, sha256 %s)", url, dest, n_bytes, digest)
    return digest
