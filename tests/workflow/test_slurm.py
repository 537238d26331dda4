"""The workflow on a real one-node SLURM cluster, through ``profiles/slurm``.

A module-scoped fixture starts munge, slurmctld and slurmd on 127.0.0.1 (installing
the Debian packages first when needed; see ``slurm_cluster.py``). Snakemake runs with
``--profile profiles/slurm`` plus a small test profile that only adapts it to a cluster
without accounting storage (job states from ``squeue``, short status intervals, SLURM
logs kept, no retries so every job is submitted exactly once). The partition reaches
the profile the documented way, through ``MGBIAS_SLURM_PARTITION``.

Every job that has an action must have gone through ``sbatch``, but the local rules'
(the downloads of one file, on the host that runs Snakemake): Snakemake logged its
SLURM job id, the controller lists that id as COMPLETED under the run's job name with
the rule in its comment, and the job wrote its SLURM log. A branch of the demo DAG
(training, both scoring passes, MBE, the pair measures, a paper table) must give, byte
for byte, a local run's outputs.

Each Snakemake run has a hard timeout; on timeout its whole process group is killed,
and the fixture cancels the cluster's jobs and stops the daemons in any case.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
import yaml
from slurm_cluster import SlurmCluster, SlurmUnavailable, slurm_cluster

REPO = Path(__file__).resolve().parents[2]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
SLURM_PROFILE = REPO / "profiles" / "slurm"
RULES_WITHOUT_ACTION = {"all"}
"""Target rules with no shell/script/run: Snakemake finishes them itself, no sbatch."""

TOY_TIMEOUT_SECONDS = 300
DEMO_TIMEOUT_SECONDS = 1800


@pytest.fixture(scope="module")
def cluster() -> Iterator[SlurmCluster]:
    try:
        with slurm_cluster(partition="mgbias") as running:
            yield running
    except SlurmUnavailable as reason:
        pytest.skip(f"no SLURM test cluster: {reason}")


def run_bounded(
    command: list[str], *, timeout: float, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run ``command`` in its own process group; kill the whole group on timeout."""
    process = subprocess.Popen(
        command,
        env=None if env is None else dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                break
            try:
                output, _ = process.communicate(timeout=15)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            output = ""
        pytest.fail(f"{' '.join(command[:6])} ... timed out after {timeout} s:\n{output[-8000:]}")
    return subprocess.CompletedProcess(command, process.returncode, output, "")


def write_test_profile(directory: Path, cluster: SlurmCluster) -> Path:
    """Settings layered over ``profiles/slurm`` for a cluster without accounting."""
    settings = {
        # no accounting storage: sacct cannot see jobs; squeue keeps finished
        # jobs for MinJobAge seconds
        "slurm-status-command": "squeue",
        "slurm-init-seconds-before-status-checks": 2,
        "slurm-keep-successful-logs": True,
        "retries": 0,
        "latency-wait": 5,
    }
    largest_request_mb = 8000  # score_unmasked's mem_mb in profiles/slurm
    if cluster.real_memory_mb < largest_request_mb:
        cap = cluster.real_memory_mb // 2
        settings["set-resources"] = {
            rule: {"gpu": 1, "mem_mb": cap} for rule in ("train_mlm", "score_unmasked")
        }
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.yaml").write_text(yaml.safe_dump(settings, sort_keys=True))
    return directory


def run_through_slurm(
    cluster: SlurmCluster, tmp: Path, snakefile: Path, workdir: Path, *args: str, timeout: float
) -> subprocess.CompletedProcess:
    profile = write_test_profile(tmp / "slurm-test-profile", cluster)
    env = {**cluster.env, "MGBIAS_SLURM_PARTITION": cluster.partition}
    for name in ("MGBIAS_SLURM_GPU_PARTITION", "MGBIAS_SLURM_ACCOUNT", "SNAKEMAKE_PROFILE"):
        env.pop(name, None)
    command = [
        SNAKEMAKE,
        "-s",
        str(snakefile),
        "--directory",
        str(workdir),
        "--profile",
        str(SLURM_PROFILE),
        "--profile",
        str(profile),
        *args,
    ]
    result = run_bounded(command, timeout=timeout, env=env)
    if result.returncode != 0:
        pytest.fail(
            f"snakemake through SLURM failed ({result.returncode}):\n{result.stdout[-10000:]}\n"
            f"--- slurmctld log\n{cluster.daemon_log('slurmctld')[-3000:]}"
        )
    return result


def planned_jobs(output: str) -> Counter:
    """Rule -> job count from Snakemake's 'Job stats' table (the first one printed)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Job stats:"))
    counts = Counter()
    for line in lines[start + 3 :]:
        fields = line.split()
        if len(fields) != 2 or fields[0] == "total":
            break
        counts[fields[0]] = int(fields[1])
    return counts


LOCAL_JOB = re.compile(r"^localrule (\w+):$", re.M)


def local_jobs(output: str) -> Counter:
    """Rule -> jobs that Snakemake ran itself (``localrule NAME:``), not through sbatch."""
    return Counter(LOCAL_JOB.findall(output))


SUBMITTED = re.compile(r"Job (\d+) has been submitted with SLURM jobid (\d+) \(log: (.+?)\)\.")


def assert_every_job_went_through_sbatch(
    cluster: SlurmCluster, output: str, workdir: Path
) -> dict[str, str]:
    """Check submissions against the plan and the controller; return SLURM id -> rule."""
    planned = planned_jobs(output)
    local = local_jobs(output)
    assert all(local[rule] == planned[rule] for rule in local), (local, planned)
    expected = Counter(
        {
            rule: n
            for rule, n in planned.items()
            if rule not in RULES_WITHOUT_ACTION and rule not in local
        }
    )
    assert sum(expected.values()) > 0, output[-3000:]

    submissions = SUBMITTED.findall(output)
    snakemake_ids = [job for job, _, _ in submissions]
    slurm_ids = [slurm_id for _, slurm_id, _ in submissions]
    assert len(set(snakemake_ids)) == len(snakemake_ids), "a job was submitted twice"
    assert len(set(slurm_ids)) == len(slurm_ids)
    assert len(submissions) == sum(expected.values()), (expected, len(submissions))
    assert f"{sum(planned.values())} of {sum(planned.values())} steps (100%) done" in output

    run_id = re.search(r"SLURM run ID: (\S+)", output)
    assert run_id, "Snakemake did not use the SLURM executor"
    queue = cluster.run(
        "squeue", "--states=all", "--noheader", f"--name={run_id.group(1)}", "--format=%i|%T|%k|%P"
    ).stdout.split()
    known = {}
    for line in queue:
        slurm_id, state, comment, partition = line.split("|")
        assert state == "COMPLETED", line
        assert partition == cluster.partition, line
        known[slurm_id] = re.match(r"rule_(\w+?)(?:_wildcards_.*)?$", comment).group(1)
    assert set(known) == set(slurm_ids), (sorted(known), sorted(slurm_ids))
    assert Counter(known.values()) == expected

    for _, slurm_id, log in submissions:
        path = Path(log)
        assert path.is_file(), f"SLURM log of job {slurm_id} missing: {path}"
        assert path.is_relative_to(workdir / ".snakemake" / "slurm_logs")
    return known


# --- a tiny workflow: fast, and shows what a job sees inside SLURM ------------------

TOY_SNAKEFILE = textwrap.dedent(
    """
    rule all:
        input:
            "summary.txt",


    rule cpu_step:
        output:
            "cpu/{n}.txt",
        shell:
            "echo {wildcards.n} $SLURM_JOB_ID ${{CUDA_VISIBLE_DEVICES:-none}} > {output}"


    rule gpu_step:
        output:
            "gpu.txt",
        resources:
            gpu=1,
        shell:
            "echo gpu $SLURM_JOB_ID ${{CUDA_VISIBLE_DEVICES:-none}} > {output}"


    rule summary:
        input:
            expand("cpu/{n}.txt", n=[1, 2, 3]),
            "gpu.txt",
        output:
            "summary.txt",
        shell:
            "cat {input} > {output}; echo summary $SLURM_JOB_ID >> {output}"
    """
)


@pytest.mark.workflow
def test_slurm_runs_a_toy_workflow_through_sbatch(cluster, tmp_path):
    snakefile = tmp_path / "Snakefile"
    snakefile.write_text(TOY_SNAKEFILE)
    workdir = tmp_path / "work"
    result = run_through_slurm(cluster, tmp_path, snakefile, workdir, timeout=TOY_TIMEOUT_SECONDS)

    known = assert_every_job_went_through_sbatch(cluster, result.stdout, workdir)
    assert Counter(known.values()) == {"cpu_step": 3, "gpu_step": 1, "summary": 1}

    lines = (workdir / "summary.txt").read_text().splitlines()
    rows = [line.split() for line in lines]
    # each job ran inside its own SLURM allocation, one of those the controller knows
    job_ids = [row[1] for row in rows]
    assert len(set(job_ids)) == 5
    assert set(job_ids) == set(known)
    assert {known[row[1]] for row in rows} == {"cpu_step", "gpu_step", "summary"}
    # only the job that asked for a GPU was given the (fake) one
    gpu_seen = {row[0]: row[2] for row in rows[:4]}
    assert gpu_seen == {"1": "none", "2": "none", "3": "none", "gpu": "0"}


# --- the demo DAG: same tables as a local run ------------------------------------------


#: One branch of the tiny demo DAG, every kind of job in it: the demo world, MLM training
#: and both scoring passes (the GPU rules), mining, MBE and the pair measures (13 jobs;
#: its downloads run on the host that runs Snakemake).
#: The whole DAG through sbatch (47 jobs, each starting Python and torch in its own
#: allocation) costs `make test` ten minutes, and a paper table's branch (its perturbed
#: variant and the table, 17 jobs) another minute; this branch shows the same things.
SLURM_TARGETS = (
    "results/pairs/measures/demo-planted/multilingual_crows_pairs/original/de.csv",
    "results/mbe/demo-planted/planted/TED2020/de.json",
)


@pytest.mark.workflow
def test_slurm_runs_the_demo_dag_with_the_tables_of_a_local_run(cluster, tiny_run, tmp_path):
    # A branch of the demo DAG at its smallest size (tests/configs/tiny.yaml), every job
    # through sbatch; `tiny_run` is the local run of the same config.
    local = tiny_run
    on_slurm = tmp_path / "slurm"
    result = run_through_slurm(
        cluster,
        tmp_path,
        REPO / "Snakefile",
        on_slurm,
        *SLURM_TARGETS,  # before --configfile, which takes every value after it
        "--configfile",
        str(REPO / "tests" / "configs" / "tiny.yaml"),
        timeout=DEMO_TIMEOUT_SECONDS,
    )
    known = assert_every_job_went_through_sbatch(cluster, result.stdout, on_slurm)
    assert {"train_mlm", "score_unmasked", "score_pairs", "mbe", "pair_measures"} <= set(
        known.values()
    )
    # the downloads ran on this host, where the network is (rules/download.smk)
    on_host = local_jobs(result.stdout)
    assert {"download_corpus", "download_monolingual", "download_pairs"} <= set(on_host), on_host
    assert not {"download_corpus", "download_monolingual", "download_pairs"} & set(known.values())

    for target in SLURM_TARGETS:
        local_bytes = (local / target).read_bytes()
        slurm_bytes = (on_slurm / target).read_bytes()
        assert slurm_bytes == local_bytes, target
    per_pairs = sorted((on_slurm / "results" / "pairs" / "per_pair").rglob("*.csv"))
    assert len(per_pairs) == 1, per_pairs
    for per_pair in per_pairs:
        relative = per_pair.relative_to(on_slurm)
        assert (local / relative).read_bytes() == per_pair.read_bytes(), relative
