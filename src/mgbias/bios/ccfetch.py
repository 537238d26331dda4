"""Download the WET files of one shard into a local mirror of the crawl's layout.

Each file goes through :func:`mgbias.corpora.download.fetch` (streamed, validated as a
complete gzip, written atomically with its ``.sha256`` sidecar). A rerun resumes: a
file already in place whose sidecar verifies is not fetched again, so only the files
that failed (or never ran) are downloaded. A file with a missing or wrong sidecar is
fetched again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mgbias.corpora.checksums import ChecksumError, verify_sidecar
from mgbias.corpora.download import fetch


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
        report.sha256[path] = fetch(
            url_for(prefix, path),
            dest,
            retries=retries,
            timeout=timeout,
            retry_wait=retry_wait,
            progress=False,
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
