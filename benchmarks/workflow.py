"""Benchmark of the workflow's planning: no-op dry run time and rerun precision.

Prints one ``name=value`` per line, measured in one run on a completed run of
the configuration given with ``--config`` (default ``config/config.yaml``,
the demo: three target languages):

- ``noop_dryrun_s``: wall time of ``snakemake -n`` on the completed run, best
  of 3.
- ``paper_dryrun_s``: wall time of ``snakemake -n --configfile config/paper.yaml``
  (``make paper-plan``: every job of the papers, planned offline) in an empty
  directory, best of 3; ``paper_jobs``: the jobs it plans.
- ``one_lang_rerun_ratio``: jobs planned after a new release of one target
  language's parallel corpora (the first language of the configuration; each
  of its ``{pair}.txt.zip`` archives in the demo mirror gets new bytes), divided
  by jobs planned after a new release of every language's. A job that does not
  depend on the language (a table or figure over all languages, ``all``) is in
  both plans, so these jobs keep the ratio above its floor.
- ``one_lang_rerun_floor``: ``1 / languages``, the ratio if every job were
  specific to one language.
- ``one_lang_jobs``, ``all_lang_jobs``, ``languages``: the counts behind them.
- ``shared_jobs``: jobs of the rules that the one-language plan runs as often
  as the all-languages plan (the language-independent ones), and
  ``one_lang_rerun_ratio_language_jobs``: the ratio without them, which is at
  the floor when a language's change reruns only that language's jobs.
- ``rerun_rules``: per rule, ``jobs after one language / jobs after all``.

With ``--workdir DIR`` the completed run in ``DIR`` is used (it must have
been made with the same ``--config``; the benchmark stops if a dry run there
plans any job); the run is never changed, the changes are made in copies next
to it. Without ``--workdir`` the benchmark first runs the configuration in a
temporary copy of the repository (the demo takes about 14 minutes on two
cores, ``--config config/demo-full.yaml`` about 20; ``--config
tests/configs/tiny.yaml``, two languages, about one).

Usage: ``python benchmarks/workflow.py [--workdir DIR] [--config FILE]``
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
from collections import Counter
from pathlib import Path

from mgbias.files.yaml_lines import load_yaml
from mgbias.languages import PIVOT

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
PARTS = [
    *("Snakefile", "rules", "scripts", "config", "tests/configs"),
    *("src", "profiles", "envs", "report"),
]
MIRROR = Path("data") / "demo" / "mirror"


def run(workdir: Path, config: str, *args: str) -> str:
    command = [SNAKEMAKE, "-s", "Snakefile", "--configfile", config, "--cores", "2", *args]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(
            f"snakemake failed in {workdir}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done.stdout


def planned_rules(output: str) -> Counter[str]:
    """Jobs per rule from the ``Job stats`` table of a dry run (empty if nothing to do)."""
    counts: Counter[str] = Counter()
    table = output.split("Job stats:", 1)
    if len(table) < 2:
        return counts
    for line in table[1].splitlines():
        found = re.match(r"^(\w+)\s+(\d+)$", line.strip())
        if found and found[1] != "total":
            counts[found[1]] = int(found[2])
        elif line.startswith("total"):
            break
    return counts


def completed_run(config: str) -> Path:
    workdir = Path(tempfile.mkdtemp(prefix="mgbias-bench-")) / "run"
    workdir.mkdir(parents=True)
    for part in PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, workdir / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, workdir / part)
    print(f"# running {config} in {workdir}", file=sys.stderr)
    run(workdir, config)
    return workdir


def paper_plan(workdir: Path) -> tuple[float, int]:
    """Best of 3 wall times of the paper configuration's dry run, offline, in an empty
    directory next to ``workdir`` (with the workflow of ``workdir``), and its jobs."""
    empty = Path(tempfile.mkdtemp(prefix="paper-plan-", dir=workdir.parent))
    command = [
        *(SNAKEMAKE, "-n", "-s", str(workdir / "Snakefile"), "--directory", str(empty)),
        *("--configfile", str(workdir / "config" / "paper.yaml"), "--cores", "2"),
    ]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    times, jobs = [], 0
    try:
        for _ in range(3):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=empty, capture_output=True, text=True, env=env)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(
                    f"the paper plan failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
                )
            jobs = sum(planned_rules(done.stdout).values())
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    return min(times), jobs


def plan_after_touching(workdir: Path, config: str, zips: list[Path]) -> Counter[str]:
    copy = workdir.parent / f"{workdir.name}-changed"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(workdir, copy, symlinks=True)
    try:
        for path in zips:  # a new corpus version arrives: same files, new bytes
            with zipfile.ZipFile(copy / path.relative_to(workdir), "a") as archive:
                archive.comment = b"a new release"
        return planned_rules(run(copy, config, "-n"))
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def corpus_archives(workdir: Path, language: str) -> list[Path]:
    """The demo mirror's parallel corpus archives of one target language (``de-en``, ...)."""
    return sorted(
        path
        for path in (workdir / MIRROR).rglob("*.txt.zip")
        if language in path.name.removesuffix(".txt.zip").split("-")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workdir", type=Path, help="a completed run of --config (default: run it first)"
    )
    parser.add_argument(
        "--config",
        default="config/config.yaml",
        help="configuration, relative to the run directory (default: the demo)",
    )
    args = parser.parse_args()
    workdir = args.workdir.resolve() if args.workdir else completed_run(args.config)
    languages = load_yaml(workdir / args.config)["languages"]
    languages = [language for language in languages if language != PIVOT]

    times = []
    for _ in range(3):
        start = time.perf_counter()
        out = run(workdir, args.config, "-n")
        times.append(time.perf_counter() - start)
        if planned_rules(out):
            raise SystemExit(
                f"{workdir} is not a completed run of {args.config}: "
                f"{sum(planned_rules(out).values())} jobs planned"
            )
    print(f"noop_dryrun_s={min(times):.2f}")
    paper_seconds, paper_jobs = paper_plan(workdir)
    print(f"paper_dryrun_s={paper_seconds:.2f}")
    print(f"paper_jobs={paper_jobs}")

    archives = {language: corpus_archives(workdir, language) for language in languages}
    missing = [language for language, paths in archives.items() if not paths]
    if missing:
        raise SystemExit(f"no corpus archive in {workdir / MIRROR} for languages {missing}")
    one = plan_after_touching(workdir, args.config, archives[languages[0]])
    every = plan_after_touching(workdir, args.config, sorted(sum(archives.values(), [])))
    one_count, all_count = sum(one.values()), sum(every.values())
    shared = sum(count for rule, count in every.items() if one[rule] == count)
    print(f"one_lang_rerun_ratio={one_count / all_count:.3f}")
    print(f"one_lang_rerun_floor={1 / len(languages):.3f}")
    print(f"one_lang_jobs={one_count}")
    print(f"all_lang_jobs={all_count}")
    print(f"languages={len(languages)}")
    print(f"shared_jobs={shared}")
    print(
        "one_lang_rerun_ratio_language_jobs="
        f"{(one_count - shared) / max(all_count - shared, 1):.3f}"
    )
    rules = ",".join(f"{rule}:{one[rule]}/{count}" for rule, count in sorted(every.items()))
    print(f"rerun_rules={rules}")


if __name__ == "__main__":
    main()
