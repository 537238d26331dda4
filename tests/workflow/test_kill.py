"""Killed jobs leave no partial output, and runs are reproducible.

The tiny demo workflow is killed with SIGKILL (the whole process group:
Snakemake and the job it runs) while a scoring job is writing; every output
that exists afterwards must be complete, the rerun must finish, and its
result tables must equal those of an uninterrupted run byte for byte.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from snakerun import SNAKEMAKE, checked, copy_workflow, result_tables, snakemake

from mgbias.mlm.cache import read_score_cache

pytestmark = pytest.mark.workflow


def kill_when_scoring(workdir: Path, deadline_s: float = 600) -> None:
    """Start the workflow and SIGKILL its process group once a scoring job runs."""
    command = [SNAKEMAKE, "-s", "Snakefile", "--configfile", "config/tiny.yaml", "--cores", "1"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen(
        command,
        cwd=workdir,
        start_new_session=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    logs = workdir / "logs" / "score_unmasked"
    try:
        start = time.monotonic()
        while not (logs.exists() and any(logs.rglob("*.log"))):
            if process.poll() is not None:
                pytest.fail("the workflow ended before any scoring job started")
            if time.monotonic() - start > deadline_s:
                pytest.fail("no scoring job started in time")
            time.sleep(0.2)
        time.sleep(1.5)  # inside the job: model loading or scoring
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def test_kill_scoring_job_leaves_no_partial_output_and_rerun_matches(tiny_run, tmp_path_factory):
    reference = tiny_run  # an uninterrupted run of the same config
    killed = copy_workflow(tmp_path_factory.mktemp("kill") / "killed")
    kill_when_scoring(killed)

    scores = killed / "results" / "scores"
    for cache in scores.rglob("*.parquet"):
        read_score_cache(cache)  # every cache that exists is complete
    assert not (killed / "results" / "tables").exists()

    checked(snakemake(killed))
    assert result_tables(killed) == result_tables(reference)
    leftovers = [p for p in killed.rglob(".*.partial-*")]
    assert leftovers == [], leftovers
