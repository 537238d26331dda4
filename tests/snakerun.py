"""Run the workflow from tests: a copy of the checkout's workflow in a temp dir.

Workflow tests change code, data and parameters of a completed run and check
what Snakemake plans next, so each works on its own copy of the workflow
files (Snakefile, rules, scripts, config, tests/configs, src, profiles)
rather than on the checkout. The library itself is imported from the
installed package.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
WORKFLOW_PARTS = [
    *("Snakefile", "rules", "scripts", "config", "tests/configs"),
    *("src", "profiles", "envs", "report"),
]


def copy_workflow(dest: Path) -> Path:
    """Copy the workflow files of the checkout into ``dest`` (created)."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for part in WORKFLOW_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, dest / part, ignore=ignore, dirs_exist_ok=True)
        else:
            shutil.copy2(source, dest / part)
    return dest


def snakemake(
    workdir: Path, *args: str, config: str = "tests/configs/tiny.yaml", timeout: float = 1200
) -> subprocess.CompletedProcess:
    """Run the workflow copied into ``workdir`` with ``config`` (relative to it)."""
    command = [SNAKEMAKE, "-s", "Snakefile", "--configfile", config, "--cores", "2", *args]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        command, cwd=workdir, capture_output=True, text=True, timeout=timeout, env=env
    )


def checked(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    """``result`` if the run succeeded, else an AssertionError with its output."""
    if result.returncode != 0:
        raise AssertionError(f"snakemake failed:\n{result.stdout[-4000:]}\n{result.stderr[-8000:]}")
    return result


def planned_job_inputs(dry_run_output: str) -> list[tuple[str, dict[str, str], list[str]]]:
    """``(rule, wildcards, inputs)`` of every job a ``snakemake -n`` output plans."""
    jobs = []
    for block in re.split(r"\n\s*\n", dry_run_output):
        rule = re.search(r"^(?:local)?(?:rule|checkpoint) (\w+):$", block, re.M)
        if not rule:
            continue
        found = re.search(r"^\s+wildcards: (.*)$", block, re.M)
        wildcards = dict(item.split("=", 1) for item in found[1].split(", ")) if found else {}
        inputs = re.search(r"^\s+input: (.*)$", block, re.M)
        jobs.append((rule[1], wildcards, inputs[1].split(", ") if inputs else []))
    return jobs


def planned_job_outputs(dry_run_output: str) -> list[tuple[str, list[str]]]:
    """``(rule, outputs)`` of every job a ``snakemake -n`` output plans."""
    jobs = []
    for block in re.split(r"\n\s*\n", dry_run_output):
        rule = re.search(r"^(?:local)?(?:rule|checkpoint) (\w+):$", block, re.M)
        if rule:
            outputs = re.search(r"^\s+output: (.*)$", block, re.M)
            jobs.append((rule[1], outputs[1].split(", ") if outputs else []))
    return jobs


def planned_jobs(dry_run_output: str) -> list[tuple[str, dict[str, str]]]:
    """``(rule, wildcards)`` of every job a ``snakemake -n`` output plans."""
    return [(rule, wildcards) for rule, wildcards, _ in planned_job_inputs(dry_run_output)]


def result_tables(workdir: Path) -> dict[str, bytes]:
    """Every file under results/tables, by name, as bytes."""
    return {p.name: p.read_bytes() for p in sorted((workdir / "results" / "tables").iterdir())}


def run_script(name: str, **sections) -> None:
    """A workflow script as Snakemake runs it, in this process: ``snakemake`` holds the
    given sections (``input``, ``output``, ``params``, ``wildcards``: dicts), one thread
    and no log file."""
    import runpy
    from types import SimpleNamespace

    snakemake = SimpleNamespace(
        log=[None], threads=1, **{k: SimpleNamespace(**v) for k, v in sections.items()}
    )
    runpy.run_path(str(REPO / "scripts" / name), init_globals={"snakemake": snakemake})
