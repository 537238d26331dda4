"""Common Crawl index listings: ``crawl-data/CC-MAIN-YYYY-WW/wet.paths.gz``.

The real layout: a snapshot's listing is a gzip text file with one path per line,
relative to the crawl's root (``https://data.commoncrawl.org/``), e.g.::

    crawl-data/CC-MAIN-2018-34/segments/1534221208676.20/wet/CC-MAIN-20180814062251-20180814082251-00000.warc.wet.gz

This module reads a listing, checks each line has that shape, selects a seeded subset
of files per snapshot (``max_files``), and batches the selection into shards of
``files_per_shard`` consecutive files (one job per shard in the workflow).
"""

from __future__ import annotations

import gzip
import random
import re
from dataclasses import dataclass
from pathlib import Path

from mgbias.seeds import check_seed, derive_seed

SNAPSHOT_RE = re.compile(r"^CC-MAIN-\d{4}-\d{2}$")
WET_PATH_RE = re.compile(
    r"^crawl-data/(?P<snapshot>CC-MAIN-\d{4}-\d{2})/segments/[^/\s]+/wet/[^/\s]+\.warc\.wet\.gz$"
)


def check_snapshot(snapshot: str) -> str:
    """Return ``snapshot`` if it names a crawl (``CC-MAIN-YYYY-WW``); raise ValueError otherwise."""
    if not SNAPSHOT_RE.match(snapshot):
        raise ValueError(f"not a Common Crawl snapshot name (CC-MAIN-YYYY-WW): {snapshot!r}")
    return snapshot


def listing_path(snapshot: str) -> str:
    """The listing's path relative to the crawl root: ``crawl-data/<snapshot>/wet.paths.gz``."""
    return f"crawl-data/{check_snapshot(snapshot)}/wet.paths.gz"


def parse_listing(data: bytes, snapshot: str) -> list[str]:
    """Return the WET paths of a ``wet.paths.gz`` body (gzip bytes), in listing order.

    Blank lines are ignored. Raises ValueError naming the line when a line is not a WET
    path of ``snapshot`` (a listing of another crawl, or a ``warc.paths.gz`` by mistake).
    """
    check_snapshot(snapshot)
    try:
        text = gzip.decompress(data).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise ValueError(f"wet.paths.gz of {snapshot} is not gzip UTF-8 text: {err}") from None
    paths = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        match = WET_PATH_RE.match(line)
        if match is None or match["snapshot"] != snapshot:
            raise ValueError(f"wet.paths.gz of {snapshot}, line {number}: not a WET path: {line!r}")
        paths.append(line)
    return paths


def read_listing(path: str | Path, snapshot: str) -> list[str]:
    """:func:`parse_listing` of a file."""
    return parse_listing(Path(path).read_bytes(), snapshot)


def write_listing(path: str | Path, paths: list[str]) -> None:
    """Write ``paths`` as a ``wet.paths.gz`` (used by the demo mirror and tests)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    body = "".join(f"{p}\n" for p in paths).encode("utf-8")
    Path(path).write_bytes(gzip.compress(body, mtime=0))


def select_files(paths: list[str], max_files: int | None, seed: int, snapshot: str) -> list[str]:
    """A seeded subset of at most ``max_files`` paths, kept in listing order.

    ``max_files=None`` keeps every path. The draw depends on ``(seed, snapshot)`` only,
    so capping one snapshot never changes the files chosen for another.
    """
    check_seed(seed)
    if max_files is None or max_files >= len(paths):
        return list(paths)
    if max_files < 0:
        raise ValueError(f"max_files must be >= 0 or None, got {max_files}")
    rng = random.Random(derive_seed(seed, "bios-wet-files", snapshot))
    chosen = sorted(rng.sample(range(len(paths)), max_files))
    return [paths[i] for i in chosen]


@dataclass(frozen=True)
class Shard:
    """A batch of WET files of one snapshot: the unit of one download/extraction job."""

    snapshot: str
    index: int
    paths: tuple[str, ...]

    @property
    def name(self) -> str:
        """``<snapshot>-<index, 5 digits>``, e.g. ``CC-MAIN-2018-34-00003``."""
        return f"{self.snapshot}-{self.index:05d}"


def make_shards(snapshot: str, paths: list[str], files_per_shard: int) -> list[Shard]:
    """Batch ``paths`` (in order) into shards of ``files_per_shard`` files (last may be short)."""
    if files_per_shard < 1:
        raise ValueError(f"files_per_shard must be >= 1, got {files_per_shard}")
    return [
        Shard(snapshot, i, tuple(paths[start : start + files_per_shard]))
        for i, start in enumerate(range(0, len(paths), files_per_shard))
    ]


def plan_shards(
    listings: dict[str, list[str]], *, max_files: int | None, files_per_shard: int, seed: int
) -> list[Shard]:
    """Shards of every snapshot (sorted by name): seeded selection, then batching."""
    shards: list[Shard] = []
    for snapshot in sorted(listings):
        chosen = select_files(listings[snapshot], max_files, seed, snapshot)
        shards.extend(make_shards(snapshot, chosen, files_per_shard))
    return shards
