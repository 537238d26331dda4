"""Download the WET files of one shard into a local mirror of the crawl's layout.

Resuming works at two levels:

- per file: a file already in place whose ``.sha256`` sidecar verifies is not fetched
  again, so a rerun downloads only the files that failed or never ran (a file with a
  missing or wrong sidecar is fetched again);
- per byte, over HTTP(S) (:func:`fetch_resumable`): the bytes received so far are kept
  in a hidden ``.<name>.download`` beside the destination, and the next attempt (or the
  next run) asks for the rest with ``Range: bytes=N-``. A server that answers 200
  instead of 206 sends the whole file again, which replaces the partial one.

Either way a file reaches its destination only complete: validated as a whole gzip
stream (:func:`mgbias.corpora.download.check_archive`), then renamed into place, then
its sidecar written. ``file://`` URLs go through :func:`mgbias.corpora.download.fetch`.
"""

from __future__ import annotations

import http.client
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from mgbias.corpora.checksums import ChecksumError, sha256_file, verify_sidecar, write_sidecar
from mgbias.corpora.download import USER_AGENT, DownloadError, check_archive, fetch


def partial_path(dest: str | Path) -> Path:
    """Where the bytes of an unfinished download of ``dest`` are kept between attempts."""
    dest = Path(dest)
    return dest.parent / f".{dest.name}.download"


class _Interrupted(Exception):
    """The transfer stopped early; the bytes so far are kept."""


def _attempt(url: str, partial: Path, timeout: float, chunk_size: int) -> None:
    have = partial.stat().st_size if partial.exists() else 0
    headers = {"User-Agent": USER_AGENT}
    if have:
        headers["Range"] = f"bytes={have}-"
    request = urllib.request.Request(url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as err:
        err.close()
        if err.code == 416 and have:  # the partial file is no prefix of the file: start over
            partial.unlink()
            raise _Interrupted("range not satisfiable; restarting") from None
        raise DownloadError(url, partial, f"HTTP status {err.code}; expected 200 or 206") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
        raise _Interrupted(f"cannot connect: {err!r}") from err
    with response:
        if response.status == 206:
            mode, expected_total = "ab", have
        elif response.status == 200:
            mode, expected_total = "wb", 0
        else:
            raise DownloadError(url, partial, f"HTTP status {response.status}")
        length = response.headers.get("Content-Length")
        expected_total = expected_total + int(length) if length and length.isdigit() else None
        partial.parent.mkdir(parents=True, exist_ok=True)
        with open(partial, mode) as handle:
            try:
                while chunk := response.read(chunk_size):
                    handle.write(chunk)
            except http.client.IncompleteRead as err:
                handle.write(err.partial)
                raise _Interrupted("connection closed early") from None
            except OSError as err:
                raise _Interrupted(f"connection lost: {err!r}") from err
    if expected_total is not None and partial.stat().st_size < expected_total:
        raise _Interrupted(f"got {partial.stat().st_size} of {expected_total} bytes")


def fetch_resumable(
    url: str,
    dest: str | Path,
    *,
    retries: int = 2,
    timeout: float = 60.0,
    retry_wait: float = 1.0,
    chunk_size: int = 1 << 20,
) -> str:
    """Download ``url`` (http/https) to ``dest``, resuming from a kept partial file.

    Returns the SHA-256 of ``dest`` (also written to its sidecar). Raises
    :class:`DownloadError` when every attempt stopped early (the partial file is kept
    for the next run), on an HTTP error status, or when the complete file is not a
    whole gzip stream (the partial file is then removed).
    """
    dest = Path(dest)
    partial = partial_path(dest)
    problem = ""
    for attempt in range(retries + 1):
        if attempt:
            time.sleep(retry_wait * 2 ** (attempt - 1))
        try:
            _attempt(url, partial, timeout, chunk_size)
            break
        except _Interrupted as err:
            problem = str(err)
    else:
        kept = partial.stat().st_size if partial.exists() else 0
        raise DownloadError(url, dest, f"truncated: {problem}; {kept} bytes kept for resuming")
    try:
        check_archive(partial, dest.name)
    except ValueError as err:
        partial.unlink()
        raise DownloadError(url, dest, f"corrupt archive: {err}") from None
    digest = sha256_file(partial)
    os.replace(partial, dest)
    write_sidecar(dest, digest)
    return digest


@dataclass
class FetchReport:
    """What :func:`fetch_paths` did: relative paths fetched and kept, SHA-256 per path."""

    fetched: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    sha256: dict[str, str] = field(default_factory=dict)


def url_for(prefix: str, path: str) -> str:
    """``prefix`` (crawl root URL, with or without trailing slash) joined with ``path``."""
    return prefix.rstrip("/") + "/" + path.lstrip("/")


def fetch_paths(
    prefix: str,
    paths: list[str] | tuple[str, ...],
    dest_root: str | Path,
    *,
    retries: int = 2,
    timeout: float = 60.0,
    retry_wait: float = 1.0,
) -> FetchReport:
    """Fetch each ``path`` from ``prefix`` to ``dest_root/path``; skip verified ones.

    Raises :class:`mgbias.corpora.download.DownloadError` on the first file that fails;
    the files fetched before it stay in place (and are kept by the next run).
    """
    report = FetchReport()
    for path in paths:
        dest = Path(dest_root) / path
        if dest.exists():
            try:
                report.sha256[path] = verify_sidecar(dest)
                report.kept.append(path)
                continue
            except ChecksumError:
                pass
        url = url_for(prefix, path)
        if url.startswith(("http://", "https://")):
            report.sha256[path] = fetch_resumable(
                url, dest, retries=retries, timeout=timeout, retry_wait=retry_wait
            )
        else:
            report.sha256[path] = fetch(
                url, dest, retries=retries, timeout=timeout, retry_wait=retry_wait, progress=False
            )
        report.fetched.append(path)
    return report


def fetch_shard(
    listing: str | Path,
    snapshot: str,
    index: int,
    *,
    prefix: str,
    dest_root: str | Path,
    max_files: int | None,
    files_per_shard: int,
    seed: int,
    retries: int = 2,
) -> dict:
    """Fetch shard ``index`` of ``snapshot`` as planned from its ``wet.paths.gz``.

    The plan is :func:`mgbias.bios.ccpaths.select_files` then
    :func:`mgbias.bios.ccpaths.make_shards`, so it is the same in every job of a run.
    Returns the shard's manifest: ``{"shard", "snapshot", "files": [{"path", "sha256"}]}``
    with paths relative to ``dest_root``.
    """
    from mgbias.bios.ccpaths import make_shards, read_listing, select_files

    chosen = select_files(read_listing(listing, snapshot), max_files, seed, snapshot)
    shards = make_shards(snapshot, chosen, files_per_shard)
    if not 0 <= index < len(shards):
        raise ValueError(f"{snapshot} has {len(shards)} shards; no shard {index}")
    shard = shards[index]
    report = fetch_paths(prefix, shard.paths, dest_root, retries=retries)
    return {
        "shard": shard.name,
        "snapshot": snapshot,
        "files": [{"path": p, "sha256": report.sha256[p]} for p in shard.paths],
    }
