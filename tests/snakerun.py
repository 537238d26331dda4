"""Run the workflow from tests: a copy of the checkout's workflow in a temp dir.

Workflow tests change code, data and parameters of a completed run and check
what Snakemake plans next, so each works on its own copy of the workflow
files (Snakefile, rules, scripts, config, tests/configs, src, profiles)
rather than on the checkout. The library itself is imported from the
installed package.

Snakemake runs in a child of a fork server that has imported ``snakemake.cli`` once
(:func:`run_snakemake`): the same ``main(argv)`` the ``snakemake`` command calls, in
a fresh process, without paying the two CPU seconds of its imports per call. Its Python
script jobs (``script:``) run in children of a server that has imported the model
libraries (:func:`job_python`): a tiny model's job spends seconds importing torch and
transformers for a fraction of a second of work.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterable
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
    """Run the workflow copied into ``workdir`` with ``config`` (relative to it); its
    script jobs in :func:`job_python` unless it is a dry run."""
    command = ["-s", "Snakefile", "--configfile", config, "--cores", "2", *args]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return run_snakemake(command, cwd=workdir, env=env, timeout=timeout, python=jobs_python(args))


def jobs_python(args: Iterable[str]) -> str | None:
    """The interpreter for the script jobs of ``snakemake *args``: :func:`job_python`, or
    ``None`` (this one's, nothing started) for a dry run, which runs no job."""
    return None if {"-n", "--dry-run", "--dryrun"} & set(args) else job_python()


_JOB_SERVER: list[str] = []


def job_python() -> str:
    """The ``python`` that this test process's Snakemake runs give their script jobs: the
    client of a server that has imported the model libraries
    (:data:`fixtures.command_server.JOB_PRELOAD`), started on the first call and ended
    with the process. A job is its script run as ``__main__`` in a child of the server,
    with the job's directory, environment and streams; any other use of ``python`` (a
    ``-m`` or ``-c`` call) runs the real interpreter."""
    if not _JOB_SERVER:
        import atexit

        from fixtures.command_server import JOB_PRELOAD, CommandServer

        server = CommandServer({**os.environ, "OMP_NUM_THREADS": "1"}, JOB_PRELOAD)
        server.__enter__()
        atexit.register(server.__exit__)
        _JOB_SERVER.append(str(server.write_python_client(Path(server.directory) / "python")))
    return _JOB_SERVER[0]


_FORK_SERVER = multiprocessing.get_context("forkserver")
_FORK_SERVER.set_forkserver_preload(["snakemake.cli"])


def run_snakemake(
    args: list[str],
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    python: str | None = None,
) -> subprocess.CompletedProcess:
    """``snakemake *args`` in ``cwd`` as ``subprocess.run(..., capture_output=True,
    text=True)`` returns it: the command's ``main`` in a fresh process forked from a server
    that has imported it (its own session: a timeout ends its jobs too). ``python``: the
    interpreter of its script jobs (Snakemake's ``sys.executable``; default this one's)."""
    env = dict(os.environ if env is None else env)
    with tempfile.TemporaryDirectory(prefix="snakemake-run-") as logs:
        out, err = Path(logs, "stdout"), Path(logs, "stderr")
        process = _FORK_SERVER.Process(
            target=_snakemake_main,
            args=(list(args), str(cwd), env, str(out), str(err), python),
        )
        process.start()
        process.join(timeout)
        if process.is_alive():
            _end_session(process.pid)
            process.join()
            raise subprocess.TimeoutExpired([SNAKEMAKE, *args], timeout, out.read_bytes())
        stdout = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
        stderr = err.read_text(encoding="utf-8", errors="replace") if err.exists() else ""
    return subprocess.CompletedProcess([SNAKEMAKE, *args], process.exitcode, stdout, stderr)


def _end_session(pid: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            return


def _snakemake_main(
    args: list[str], cwd: str, env: dict[str, str], out: str, err: str, python: str | None
) -> None:
    """The fork server's child: the environment, directory and output files of the
    command, the interpreter of its script jobs, then ``snakemake.cli.main``; exits with
    its status."""
    os.setsid()
    if python is not None:
        sys.executable = python  # what Snakemake runs a `script:` job with
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    for path, fd in ((out, 1), (err, 2)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    sys.argv = [SNAKEMAKE, *args]
    status = 1
    try:
        from snakemake.cli import main

        main(args)
    except SystemExit as done:
        code = done.code
        if code is not None and not isinstance(code, int):
            print(code, file=sys.stderr)  # as the interpreter prints it at exit
        status = code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


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
