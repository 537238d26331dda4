"""Benchmark of the workflow's planning: no-op dry run time and rerun precision.

Prints one ``name=value`` per line, measured in one run:

- ``noop_dryrun_s``: wall time of ``snakemake -n`` on a completed demo run
  (the tiny demo world unless ``--workdir`` names a completed run), best of 3.
- ``one_lang_rerun_ratio``: jobs planned after one language's corpora change,
  divided by jobs planned after every language's corpora change. The closer
  to 1/len(languages), the less a one-language change reruns.

Usage: ``python benchmarks/workflow.py [--workdir DIR] [--config config/tiny.yaml]``
(with no ``--workdir`` it first runs the tiny demo in a temporary copy).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
PARTS = ["Snakefile", "rules", "scripts", "config", "src", "profiles", "envs", "report"]


def run(workdir: Path, config: str, *args: str) -> str:
    command = [SNAKEMAKE, "-s", "Snakefile", "--configfile", config, "--cores", "2", *args]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(
            f"snakemake failed in {workdir}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done.stdout


def planned(output: str) -> int:
    found = re.search(r"^total\s+(\d+)$", output, re.M)
    return int(found[1]) if found else 0


def completed_run(config: str) -> Path:
    workdir = Path(tempfile.mkdtemp(prefix="mgbias-bench-")) / "run"
    workdir.mkdir(parents=True)
    for part in PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, workdir / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, workdir / part)
    run(workdir, config)
    return workdir


def plan_after_touching(workdir: Path, config: str, zips: list[Path]) -> int:
    copy = workdir.parent / "changed"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(workdir, copy, symlinks=True)
    for path in zips:  # a new corpus version arrives: same files, new bytes
        with zipfile.ZipFile(copy / path.relative_to(workdir), "a") as archive:
            archive.comment = b"a new release"
    count = planned(run(copy, config, "-n"))
    shutil.rmtree(copy)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, help="a completed run (default: run the tiny demo)")
    parser.add_argument("--config", default="config/tiny.yaml")
    args = parser.parse_args()
    workdir = args.workdir.resolve() if args.workdir else completed_run(args.config)

    times = []
    for _ in range(3):
        start = time.perf_counter()
        out = run(workdir, args.config, "-n")
        times.append(time.perf_counter() - start)
        if planned(out):
            raise SystemExit(f"{workdir} is not a completed run: {planned(out)} jobs planned")
    print(f"noop_dryrun_s={min(times):.2f}")

    zips = sorted((workdir / "data" / "demo" / "mirror").rglob("*.txt.zip"))
    languages = sorted({re.sub(r"-?en-?", "", p.name.split(".")[0]) for p in zips})
    one = [p for p in zips if re.sub(r"-?en-?", "", p.name.split(".")[0]) == languages[0]]
    one_count = plan_after_touching(workdir, args.config, one)
    all_count = plan_after_touching(workdir, args.config, zips)
    print(f"one_lang_rerun_ratio={one_count / all_count:.3f}")
    print(f"one_lang_jobs={one_count}")
    print(f"all_lang_jobs={all_count}")
    print(f"languages={len(languages)}")


if __name__ == "__main__":
    main()
