"""DVC sharing: a completed run pushed to a remote and pulled into a fresh clone.

The checkout's files (as git would commit them) are copied into a temporary
git repository that runs ``tests/configs/tiny.yaml`` (named in its params.yaml);
the session's completed tiny run is copied in and ``dvc repro`` records it
(each stage's Snakemake command has nothing left to do). Each
check pushes that run with the project's recipe (``python -m mgbias.workflow.share
push``) to an S3-compatible server on 127.0.0.1 (moto) or to a local
directory, clones the repository elsewhere with git, pulls with the recipe
(``python -m mgbias.workflow.share pull``) and compares the clone with the original.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
import yaml
from snakerun import checked, planned_jobs, snakemake

from mgbias.workflow.core import evaluation_jobs
from mgbias.workflow.share import stage_outputs

pytestmark = pytest.mark.workflow

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CONFIG = "tests/configs/tiny.yaml"
# What a completed run adds to a checkout: outputs, logs and Snakemake's records.
RUN_PARTS = ["data", "models", "results", "logs", ".snakemake"]
GIT = [
    "git",
    "-c",
    "user.name=mgbias tests",
    "-c",
    "user.email=tests@mgbias.invalid",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "init.defaultBranch=main",
]


def tool_env(home: Path) -> dict[str, str]:
    """Environment of git, DVC and Snakemake: no user or system configuration.

    DVC's global, system and site-cache directories, the AWS configuration
    files and the git configuration are all private to the test; the S3
    credentials are moto's dummy ones.
    """
    home.mkdir(parents=True, exist_ok=True)
    return {
        **os.environ,
        "PATH": os.pathsep.join([str(BIN), os.environ.get("PATH", "")]),
        "OMP_NUM_THREADS": "1",
        "DVC_NO_ANALYTICS": "1",
        "DVC_GLOBAL_CONFIG_DIR": str(home / "dvc-global"),
        "DVC_SYSTEM_CONFIG_DIR": str(home / "dvc-system"),
        "DVC_SITE_CACHE_DIR": str(home / "dvc-site-cache"),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": str(home / "aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(home / "aws-credentials"),
    }


def run(
    command: list[str], cwd: Path, env: dict[str, str], timeout: float = 300, check: bool = True
) -> subprocess.CompletedProcess:
    """Run ``command`` in ``cwd``; with ``check``, fail the test with its output if it fails."""
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    if check and result.returncode != 0:
        pytest.fail(
            f"{' '.join(command)} failed in {cwd} (exit {result.returncode}):\n"
            f"{result.stdout[-4000:]}\n{result.stderr[-8000:]}"
        )
    return result


def dvc(*args: str) -> list[str]:
    return [sys.executable, "-m", "dvc", *args]


def share(action: str) -> list[str]:
    return [sys.executable, "-m", "mgbias.workflow.share", action]


def copy_checkout(dest: Path) -> None:
    """Copy the files git would commit from the checkout (tracked or new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def commit_all(repo: Path, env: dict[str, str], message: str) -> None:
    run([*GIT, "add", "-A"], repo, env)
    run([*GIT, "commit", "-q", "-m", message], repo, env)


def dvc_status(repo: Path, env: dict[str, str], *args: str) -> dict:
    return json.loads(run(dvc("status", "--json", *args), repo, env).stdout or "{}")


def output_files(repo: Path) -> dict[str, bytes]:
    """Every file under the DVC outs of ``repo``, by path relative to it, as bytes."""
    files = {}
    for out in stage_outputs(repo):
        for path in sorted((repo / out).rglob("*")):
            if path.is_file():
                files[path.relative_to(repo).as_posix()] = path.read_bytes()
    return files


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def dvc_run(tiny_run, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A git repository of the checkout whose DVC stages ran (tiny demo), results recorded.

    The session's completed tiny run (its outputs and Snakemake's records,
    modification times kept) is the starting point, so ``dvc repro`` runs
    every stage's Snakemake command and each finds nothing left to do; DVC
    then records the outputs in dvc.lock.
    """
    base = tmp_path_factory.mktemp("dvc-run")
    env = tool_env(base / "home")
    origin = base / "origin"
    origin.mkdir()
    copy_checkout(origin)
    assert (origin / ".dvc" / "config").is_file(), "the checkout must be a DVC repository"
    for part in RUN_PARTS:
        if (tiny_run / part).exists():
            shutil.copytree(tiny_run / part, origin / part, symlinks=True, dirs_exist_ok=True)
    params = yaml.safe_load((origin / "params.yaml").read_text())
    params["configfile"] = CONFIG
    (origin / "params.yaml").write_text(yaml.safe_dump(params))
    run([*GIT, "init", "-q"], origin, env)
    commit_all(origin, env, "the workflow, configured for the tiny demo")
    repro = run(dvc("repro"), origin, env, timeout=900)
    assert "Nothing to be done" in repro.stdout + repro.stderr, repro.stdout[-3000:]
    commit_all(origin, env, "results recorded in dvc.lock")
    return origin, env


def pushed_copy(dvc_run, dest: Path, remote_url: str, *modify: tuple[str, str]) -> Path:
    """A copy of the completed run with a default remote, pushed by the recipe."""
    origin, env = dvc_run
    shutil.copytree(origin, dest, symlinks=True)
    run(dvc("remote", "add", "--default", "storage", remote_url), dest, env)
    for option, value in modify:
        run(dvc("remote", "modify", "storage", option, value), dest, env)
    commit_all(dest, env, "share through the remote")
    run(share("push"), dest, env, timeout=600)
    assert dvc_status(dest, env, "--cloud") == {}, "the remote must hold every output"
    return dest


def pulled_clone(source: Path, dest: Path, env: dict[str, str]) -> Path:
    """A git clone of ``source`` at ``dest`` into which the recipe pulled the results."""
    run(["git", "clone", "-q", str(source), str(dest)], dest.parent, env)
    assert not (dest / "results" / "tables").exists()
    run(share("pull"), dest, env, timeout=600)
    return dest


def assert_clone_matches(source: Path, clone: Path, env: dict[str, str]) -> None:
    """The clone is clean for DVC, up to date for Snakemake and holds the same bytes."""
    assert dvc_status(clone, env) == {}
    plan = checked(snakemake(clone, "-n", config=CONFIG, timeout=300))
    assert "Nothing to be done" in plan.stdout + plan.stderr, plan.stdout[-3000:]
    assert planned_jobs(plan.stdout) == []
    pulled, original = output_files(clone), output_files(source)
    assert sorted(pulled) == sorted(original)
    assert any(name.startswith("results/tables/") for name in pulled)
    assert any(name.startswith("models/") for name in pulled)
    different = [name for name in original if pulled[name] != original[name]]
    assert different == []


@pytest.fixture()
def moto_endpoint(tmp_path) -> Iterator[str]:
    """An S3-compatible server (moto) on 127.0.0.1, stopped after the test."""
    port = free_port()
    log = (tmp_path / "moto.log").open("w")
    server = subprocess.Popen(
        [str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                pytest.fail(f"moto_server exited ({server.returncode}); see {log.name}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("moto_server did not listen within 60 s")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
        log.close()


@pytest.fixture(scope="module")
def local_remote(dvc_run, tmp_path_factory) -> tuple[Path, Path]:
    """The completed run pushed to a local directory remote: (repository, remote)."""
    base = tmp_path_factory.mktemp("dvc-local")
    store = base / "store"
    return pushed_copy(dvc_run, base / "origin", str(store)), store


def test_dvc_s3_remote_push_then_pull_into_fresh_clone_is_clean_and_identical(
    dvc_run, moto_endpoint, tmp_path
):
    _, env = dvc_run
    s3 = boto3.client(
        "s3",
        endpoint_url=moto_endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        region_name="us-east-1",
    )
    s3.create_bucket(Bucket="mgbias-share")
    source = pushed_copy(
        dvc_run,
        tmp_path / "origin",
        "s3://mgbias-share/dvc",
        ("endpointurl", moto_endpoint),
    )
    stored = s3.list_objects_v2(Bucket="mgbias-share", Prefix="dvc/")
    assert stored["KeyCount"] > 0, "dvc push must have written to the S3 server"

    clone = pulled_clone(source, tmp_path / "clone", env)
    assert_clone_matches(source, clone, env)


def test_dvc_local_remote_pull_is_identical_and_still_sees_later_changes(
    dvc_run, local_remote, tmp_path
):
    """A clone pulled from a local remote is clean and identical (as from S3); then a
    parameter and a measure's code change replan the MBE jobs only, and DVC sees them."""
    _, env = dvc_run
    source, store = local_remote
    assert any(path.is_file() for path in store.rglob("*"))
    clone = pulled_clone(source, tmp_path / "clone", env)
    assert_clone_matches(source, clone, env)

    config_path = clone / CONFIG
    original = config_path.read_bytes()
    config = yaml.safe_load(original)
    n_mbe = len(evaluation_jobs(config))
    only_mbe = Counter(
        {"mbe": n_mbe, "mbe_scores": 1, "mbe_figure": 1, "provenance_summary": 1, "all": 1}
    )

    # a measure parameter: Snakemake reruns the MBE jobs and DVC sees the stages changed
    config["mbe"]["weighting"] = "dot"
    config_path.write_text(yaml.safe_dump(config))
    jobs = planned_jobs(checked(snakemake(clone, "-n", config=CONFIG)).stdout)
    assert Counter(rule for rule, _ in jobs) == only_mbe
    changed = dvc_status(clone, env)
    assert changed["tables"] == [{"changed deps": {CONFIG: {"mbe": "modified"}}}]
    config_path.write_bytes(original)
    assert dvc_status(clone, env) == {}

    # a measure's code: the MBE jobs again, nothing upstream
    with (clone / "src/mgbias/measures/mbe.py").open("a") as module:
        module.write('\n_CHANGED = "later"\n')
    jobs = planned_jobs(checked(snakemake(clone, "-n", config=CONFIG)).stdout)
    assert Counter(rule for rule, _ in jobs) == only_mbe


def test_dvc_pull_refuses_to_restore_a_checkout_that_differs_from_dvc_lock(
    dvc_run, local_remote, tmp_path
):
    _, env = dvc_run
    source, _ = local_remote
    clone = tmp_path / "clone"
    run(["git", "clone", "-q", str(source), str(clone)], tmp_path, env)
    with (clone / "src/mgbias/stats.py").open("a") as module:
        module.write('\n_CHANGED = "after the push"\n')

    refused = run(share("pull"), clone, env, timeout=600, check=False)
    assert refused.returncode == 1
    assert "not clean" in refused.stderr and "src" in refused.stderr, refused.stderr
    # Snakemake's view was not restored: no job was recorded as run
    metadata = clone / ".snakemake" / "metadata"
    assert not metadata.exists() or not any(metadata.iterdir())


def test_dvc_push_refuses_an_incomplete_run(dvc_run, tmp_path):
    origin, env = dvc_run
    source = tmp_path / "origin"
    shutil.copytree(origin, source, symlinks=True)
    lock = (source / "dvc.lock").read_bytes()
    (source / "results/tables/mbe_scores.csv").unlink()

    refused = run(share("push"), source, env, timeout=600, check=False)
    assert refused.returncode == 1
    assert "jobs to run" in refused.stderr and "mbe_scores" in refused.stderr, refused.stderr
    assert (source / "dvc.lock").read_bytes() == lock
