"""Common Crawl listings, seeded shard selection and resumable shard download."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from httpmirror import Misbehaviour, serve_directory
from wetfiles import EN_LINE, write_wet

from mgbias.bios.ccfetch import fetch_paths, fetch_resumable, partial_path, url_for
from mgbias.bios.ccpaths import (
    listing_path,
    make_shards,
    parse_listing,
    plan_shards,
    read_listing,
    select_files,
    write_listing,
)
from mgbias.corpora.checksums import read_sidecar, sha256_file
from mgbias.corpora.download import DownloadError

SNAP = "CC-MAIN-2018-34"


def wet_path(i: int, snapshot: str = SNAP) -> str:
    return (
        f"crawl-data/{snapshot}/segments/1534221208676.20/wet/"
        f"CC-MAIN-20180814062251-20180814082251-{i:05d}.warc.wet.gz"
    )


def test_listing_round_trip_and_layout(tmp_path: Path) -> None:
    paths = [wet_path(i) for i in range(3)]
    target = tmp_path / listing_path(SNAP)
    assert listing_path(SNAP) == "crawl-data/CC-MAIN-2018-34/wet.paths.gz"
    write_listing(target, paths)
    assert gzip.decompress(target.read_bytes()).decode().splitlines() == paths
    assert read_listing(target, SNAP) == paths


def test_listing_rejects_other_crawl_and_warc_paths() -> None:
    other = gzip.compress((wet_path(0, "CC-MAIN-2017-13") + "\n").encode())
    with pytest.raises(ValueError, match="line 1: not a WET path"):
        parse_listing(other, SNAP)
    warc = gzip.compress(wet_path(0).replace("/wet/", "/warc/").encode())
    with pytest.raises(ValueError, match="not a WET path"):
        parse_listing(warc, SNAP)
    with pytest.raises(ValueError, match="not gzip"):
        parse_listing(b"plain text", SNAP)
    with pytest.raises(ValueError, match="CC-MAIN-YYYY-WW"):
        listing_path("2018-34")


def test_select_files_is_seeded_ordered_and_per_snapshot() -> None:
    paths = [wet_path(i) for i in range(50)]
    first = select_files(paths, 5, seed=7, snapshot=SNAP)
    assert len(first) == 5 and len(set(first)) == 5
    assert first == sorted(first, key=paths.index)  # listing order kept
    assert select_files(paths, 5, seed=7, snapshot=SNAP) == first
    assert select_files(paths, 5, seed=8, snapshot=SNAP) != first
    assert select_files(paths, None, seed=7, snapshot=SNAP) == paths
    assert select_files(paths, 99, seed=7, snapshot=SNAP) == paths


def test_shards_batch_consecutive_files() -> None:
    paths = [wet_path(i) for i in range(5)]
    shards = make_shards(SNAP, paths, 2)
    assert [len(s.paths) for s in shards] == [2, 2, 1]
    assert shards[2].paths == (paths[4],)
    assert shards[1].name == "CC-MAIN-2018-34-00001"
    with pytest.raises(ValueError, match="files_per_shard"):
        make_shards(SNAP, paths, 0)
    listings = {SNAP: paths, "CC-MAIN-2013-20": [wet_path(i, "CC-MAIN-2013-20") for i in range(3)]}
    plan = plan_shards(listings, max_files=2, files_per_shard=1, seed=1)
    assert [s.snapshot for s in plan] == ["CC-MAIN-2013-20"] * 2 + [SNAP] * 2


def test_fetch_resumes_after_a_failed_file(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    paths = [wet_path(i) for i in range(3)]
    for i, path in enumerate(paths):
        write_wet(mirror / path, [{"uri": f"http://x/{i}", "text": EN_LINE, "lang": "eng"}])
    dest = tmp_path / "local"
    plan = Misbehaviour(status={paths[1]: 500})
    with serve_directory(mirror, misbehaviour=plan) as base:
        assert url_for(base + "/", "/" + paths[0]) == f"{base}/{paths[0]}"
        with pytest.raises(DownloadError, match="HTTP status 500"):
            fetch_paths(base, paths, dest, retries=0, retry_wait=0)
        assert (dest / paths[0]).exists() and not (dest / paths[1]).exists()
        plan.status.clear()
        plan.requests.clear()
        report = fetch_paths(base, paths, dest, retries=0, retry_wait=0)
    assert report.kept == [paths[0]]
    assert report.fetched == paths[1:]
    assert plan.requests == paths[1:]  # the first file was not requested again
    for path in paths:
        assert (dest / path).read_bytes() == (mirror / path).read_bytes()
        assert read_sidecar(dest / path) == sha256_file(mirror / path) == report.sha256[path]


def test_fetch_refetches_a_file_with_a_wrong_sidecar(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    path = wet_path(0)
    write_wet(mirror / path, [{"uri": "http://x/0", "text": EN_LINE}])
    dest = tmp_path / "local"
    fetch_paths(f"file://{mirror}", [path], dest)
    (dest / path).write_bytes(b"corrupted")
    report = fetch_paths(f"file://{mirror}", [path], dest)
    assert report.fetched == [path]
    assert (dest / path).read_bytes() == (mirror / path).read_bytes()


def test_fetch_rejects_a_truncated_file(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    path = wet_path(0)
    write_wet(mirror / path, [{"uri": "http://x/0", "text": EN_LINE}])
    with serve_directory(mirror, truncate_at={path: 50}) as base:
        with pytest.raises(DownloadError, match="truncated"):
            fetch_paths(base, [path], tmp_path / "local", retries=0, retry_wait=0)
    assert not (tmp_path / "local" / path).exists()


def test_interrupted_download_resumes_from_the_kept_bytes(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    path = wet_path(0)
    pages = [{"uri": f"http://x/{i}", "text": EN_LINE + str(i)} for i in range(20)]
    full = write_wet(mirror / path, pages).read_bytes()
    assert len(full) > 2000
    dest = tmp_path / "local" / path
    plan = Misbehaviour(truncate_at={path: 1500})
    with serve_directory(mirror, misbehaviour=plan) as base:
        with pytest.raises(DownloadError, match="1500 bytes kept for resuming"):
            fetch_resumable(f"{base}/{path}", dest, retries=0)
        assert partial_path(dest).read_bytes() == full[:1500]
        assert not dest.exists()
        plan.truncate_at.clear()
        digest = fetch_resumable(f"{base}/{path}", dest, retries=0)
    assert plan.ranges == ["bytes=1500-"]
    assert dest.read_bytes() == full
    assert digest == read_sidecar(dest) == sha256_file(mirror / path)
    assert not partial_path(dest).exists()


def test_resumable_download_rejects_a_corrupt_gzip(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror"
    path = wet_path(0)
    (mirror / path).parent.mkdir(parents=True)
    (mirror / path).write_bytes(b"\x1f\x8b not really gzip")
    dest = tmp_path / "local" / path
    with serve_directory(mirror) as base:
        with pytest.raises(DownloadError, match="corrupt archive"):
            fetch_resumable(f"{base}/{path}", dest, retries=0)
    assert not dest.exists() and not partial_path(dest).exists()
