"""Benchmark of the bios extraction (Zhao et al. 2020, §4) against a bare decompress-and-grep.

Writes a WET file of about ``--mb`` MB (gzip, one member per record, as Common Crawl
writes them; default 100) of seeded pages: lines of random words of the English demo
bios' vocabulary, and, on one page in ten, a demo bio (so that the rules and the NER
run as they do on real pages). Then, in the same run, times

- the extraction of English bios from the file (:func:`mgbias.bios.pipeline.extract_file`
  with the demo's ``blank`` NER), and
- ``zcat FILE | grep -c ' is a'``.

Prints one ``name=value`` per line: ``wet_mb`` (file size), ``extract_s``, ``grep_s``,
``wet_mb_s`` (MB of gzip per second of extraction), ``grep_mb_s`` and ``ratio``
(``grep_s / extract_s``: the goal is at least 0.3, the extraction within about 3x of
the decompress-and-grep), and ``bios`` (bios extracted). ``bigru_epoch_s`` comes with the
occupation classifier (not built yet).

Usage: ``python benchmarks/bios.py [--mb MB] [--seed N] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from pathlib import Path

from mgbias.bios.demo import demo_pages, write_wet
from mgbias.bios.pipeline import extract_file, load_extractor

FILLER_WORDS = (
    "the of and to in a is that for it as was with be by on not he she this are or his her "
    "from at which but have an they you were their one all we can has there been if more "
    "when will would who so no city work years music news page home contact about team "
    "school family house price free online service time people world market water"
).split()


def write_benchmark_wet(path: Path, megabytes: float, seed: int) -> list[str]:
    """Write the benchmark's WET file; return every name of its bios (the NER's list)."""
    rng = random.Random(seed)
    bios = [page for page in demo_pages("en", "CC-MAIN-2018-34") if page.kind == "planted"]
    names = sorted({page.name for page in bios})
    target = megabytes * 1e6
    batch: list[tuple[str, str, str | None]] = []
    n_pages = 0
    parts = []
    while True:
        lines = [
            " ".join(rng.choice(FILLER_WORDS) for _ in range(rng.randint(5, 40)))
            for _ in range(rng.randint(10, 60))
        ]
        if n_pages % 10 == 0:
            lines.insert(rng.randrange(len(lines)), bios[n_pages // 10 % len(bios)].text)
        batch.append((f"http://bench.example.org/{n_pages}", "\n".join(lines), "eng"))
        n_pages += 1
        if len(batch) == 2000:
            part = path.with_name(f"{path.name}.part{len(parts)}")
            write_wet(part, batch)
            parts.append(part)
            batch = []
            if sum(p.stat().st_size for p in parts) >= target:
                break
    with open(path, "wb") as out:
        for part in parts:
            out.write(part.read_bytes())
            part.unlink()
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, help="write the WET file here (kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.keep or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        wet = directory / "CC-MAIN-20180814000000-20180814235959-00000.warc.wet.gz"
        names = write_benchmark_wet(wet, args.mb, args.seed)
        size_mb = wet.stat().st_size / 1e6
        rules, nlp = load_extractor("en", pipeline="blank", names=names)
        start = time.perf_counter()
        bios = extract_file(wet, rules, nlp)
        extract_s = time.perf_counter() - start
        start = time.perf_counter()
        grep = subprocess.run(
            f"zcat '{wet}' | grep -c ' is a'", shell=True, capture_output=True, text=True
        )
        grep_s = time.perf_counter() - start
        if grep.returncode not in (0, 1):
            raise SystemExit(f"zcat | grep failed: {grep.stderr}")
    print(f"wet_mb={size_mb:.1f}")
    print(f"bios={len(bios)}")
    print(f"grep_lines={grep.stdout.strip()}")
    print(f"extract_s={extract_s:.2f}")
    print(f"grep_s={grep_s:.2f}")
    print(f"wet_mb_s={size_mb / extract_s:.1f}")
    print(f"grep_mb_s={size_mb / grep_s:.1f}")
    print(f"ratio={grep_s / extract_s:.2f}")


if __name__ == "__main__":
    main()
