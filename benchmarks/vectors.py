"""Benchmark of reading a .vec file again through the binary cache (mgbias.embeddings.veccache).

Prints one ``name=value`` per line, measured in one run on a synthetic ``--words``
(50,000) x ``--dim`` (300) file of unit vectors written as fastText does (six significant
digits, a space after the last value), in a cache directory of the run's own:

- ``vec_parse_s``: :func:`mgbias.embeddings.vectors.read_vec` with the cache off (the
  text parsed; median of ``--repeat`` reads);
- ``vec_first_read_s``: the first read with the cache on (parse, sha256, write the entry);
- ``vec_hashed_read_s``: a later read that hashes the file and loads the entry: the read
  after a change of the file's ``ctime`` (here ``os.utime``; a copy, a ``chmod``), or of a
  file younger than ``STAT_MARGIN_NS`` at its last hashing;
- ``vec_cached_read_s``: a later read once the stat record is trusted (stat, load the
  entry; median of ``--repeat`` reads): every read of a file that was not just written;
- ``vec_reread_speedup``: ``vec_parse_s / vec_cached_read_s`` (goal: at least 20);
- ``vec_words_parse_s``, ``vec_words_cached_read_s``, ``vec_words_reread_speedup``: the
  same for a read of ``--listed`` (1,000) words (``words=``, the bios classifier's read).

Each cached read is checked to equal the parsed one (words and float32 bits).

Usage: ``python benchmarks/vectors.py [--words N] [--dim D] [--repeat R]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from mgbias.embeddings import veccache
from mgbias.embeddings.vectors import Vectors, read_vec, unit_rows, write_vec


def _timed(read: Callable[[], Vectors]) -> tuple[float, Vectors]:
    start = time.perf_counter()
    vectors = read()
    return time.perf_counter() - start, vectors


def _median(read: Callable[[], Vectors], repeat: int) -> tuple[float, Vectors]:
    """The median time of ``repeat`` reads, and the last read (each other one is dropped
    before the next, as in a job that reads a file once)."""
    times = []
    for _ in range(repeat):
        vectors = None
        seconds, vectors = _timed(read)
        times.append(seconds)
    return statistics.median(times), vectors


def _check(expected: Vectors, got: Vectors, what: str) -> None:
    if expected.words != got.words or expected.matrix.tobytes() != got.matrix.tobytes():
        raise SystemExit(f"{what}: the cached read differs from the parsed one")


def _wait_until_old(path: Path) -> None:
    """Sleep until ``path`` is older than the stat record's margin (a trusted record)."""
    stat = path.stat()
    changed = max(stat.st_mtime_ns, stat.st_ctime_ns)
    wait = (changed + veccache.STAT_MARGIN_NS - time.time_ns()) / 1e9 + 0.1
    if wait > 0:
        time.sleep(wait)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=50_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--listed", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    matrix = unit_rows(rng.standard_normal((args.words, args.dim))).astype(np.float32)
    words = [f"w{i}" for i in range(args.words)]
    listed = [words[i] for i in rng.choice(args.words, size=args.listed, replace=False)]
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mgbias-bench-vec-") as tmp:
        work = Path(tmp)
        os.environ[veccache.CACHE_DIR_ENV] = str(work / "cache")
        path = work / "src.vec"
        write_vec(path, Vectors(words, matrix))

        results["vec_parse_s"], parsed = _median(lambda: read_vec(path, cache=False), args.repeat)
        results["vec_first_read_s"], got = _timed(lambda: read_vec(path))
        _check(parsed, got, "first")
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # a new ctime: hash again
        got = None
        results["vec_hashed_read_s"], got = _timed(lambda: read_vec(path))
        _check(parsed, got, "hashed")
        _wait_until_old(path)
        got = read_vec(path)  # hashes once more, now long after the file's last change
        got = None
        results["vec_cached_read_s"], got = _median(lambda: read_vec(path), args.repeat)
        _check(parsed, got, "cached")
        parsed = got = None
        results["vec_reread_speedup"] = results["vec_parse_s"] / results["vec_cached_read_s"]

        results["vec_words_parse_s"], parsed = _median(
            lambda: read_vec(path, words=listed, cache=False), args.repeat
        )
        results["vec_words_cached_read_s"], cached = _median(
            lambda: read_vec(path, words=listed), args.repeat
        )
        _check(parsed, cached, "words")
        results["vec_words_reread_speedup"] = (
            results["vec_words_parse_s"] / results["vec_words_cached_read_s"]
        )
        results["vec_file_mb"] = path.stat().st_size / 1e6
    for name, value in results.items():
        print(f"{name}={value:.4g}")


if __name__ == "__main__":
    main()
