"""Killed jobs leave no partial output, and a rerun finishes with the same tables.

A copy of the completed tiny demo run loses its score caches of the mined sentences and
what follows from them (the MBE results and table); Snakemake then reruns those scoring
jobs, and the first is killed with SIGKILL while it runs. Every output that exists
afterwards must be complete, the rerun must finish, and its result tables must equal
those of the uninterrupted run byte for byte. (That two whole runs of one configuration,
model training included, give the same bytes is shown by tests/workflow/test_slurm.py.)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest
from snakerun import SNAKEMAKE, checked, result_tables, snakemake

from mgbias.mlm.unmasked_cache import read_score_cache

pytestmark = pytest.mark.workflow


def _cmdline(child: psutil.Process) -> list[str]:
    """The command line of a child process; [] once it has exited (zombie or gone)."""
    try:
        return child.cmdline()
    except psutil.NoSuchProcess:  # ZombieProcess is a subclass
        return []


def kill_scoring_job(workdir: Path, deadline_s: float = 600) -> int:
    """Run the workflow; SIGKILL the first scoring job's process while it runs.

    Returns Snakemake's exit code, which must report the failed job.
    """
    config = "tests/configs/tiny.yaml"
    command = [SNAKEMAKE, "-s", "Snakefile", "--configfile", config, "--cores", "1"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    process = subprocess.Popen(
        command,
        cwd=workdir,
        start_new_session=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        start = time.monotonic()
        while True:
            if process.poll() is not None:
                pytest.fail("the workflow ended before a scoring job could be killed")
            if time.monotonic() - start > deadline_s:
                pytest.fail("no scoring job started in time")
            jobs = [
                child
                for child in psutil.Process(process.pid).children(recursive=True)
                if any("score_unmasked" in part for part in _cmdline(child))
            ]
            if jobs:
                time.sleep(1.0)  # inside the job: loading the model or scoring
                for job in jobs:
                    job.send_signal(signal.SIGKILL)
                break
            time.sleep(0.1)
        return process.wait(timeout=300)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def test_kill_scoring_job_leaves_no_partial_output_and_rerun_matches(tiny_run, tiny_copy):
    reference = tiny_run  # an uninterrupted run of the same config
    killed = tiny_copy
    shutil.rmtree(killed / "results" / "score" / "mined")
    shutil.rmtree(killed / "results" / "mbe")
    for table in (killed / "results" / "tables").glob("mbe_*"):
        table.unlink()
    assert kill_scoring_job(killed) != 0

    scores = killed / "results" / "score" / "mined"
    for cache in scores.rglob("*.parquet"):
        read_score_cache(cache)  # every cache that exists is complete
    # nothing downstream of the killed job ran (tables of the mined sentences,
    # which do not depend on scoring, may already exist, complete)
    assert not (killed / "results" / "tables" / "mbe_scores.csv").exists()
    assert not (killed / "results" / "mbe").exists()

    checked(snakemake(killed))
    assert result_tables(killed) == result_tables(reference)
    leftovers = [p for p in killed.rglob(".*.partial-*")]
    assert leftovers == [], leftovers
