"""Share a completed workflow run through a DVC remote, and take one in.

Snakemake decides what is out of date; DVC records the results of a run
(``dvc.yaml``, ``dvc.lock``) and moves them to and from a remote. The two
must agree, so sharing follows a fixed recipe (docs/sharing.md):

push
    Snakemake has nothing left to do (``snakemake -n``) → ``dvc commit -f``
    records the outputs and the code, data and parameters they came from in
    ``dvc.lock`` → ``dvc push`` uploads the outputs. The caller then commits
    ``dvc.lock`` with git.
pull
    ``dvc pull`` → ``dvc status`` must be clean (the checkout's code, config
    and data are those ``dvc.lock`` recorded) → ``snakemake --touch
    --forceall`` restores Snakemake's view: pulled files get arbitrary
    modification times, and touching every job in DAG order makes outputs
    newer than their inputs and records each job's parameters and code in
    ``.snakemake/`` (a plain ``--touch`` records only the jobs it would run,
    and a later change of the others would go unnoticed) → ``snakemake -n``
    must have nothing to do.

Both read the workflow configuration from ``params.yaml`` (key
``configfile``), the same file the DVC stages pass to Snakemake, and the folder of its
results (key ``workdir``, the configuration's own ``workdir``, which DVC needs there for
the stages' outs: DVC reads variables from that file only). ``push --config FILE``
first writes both keys from ``FILE``; push and pull refuse a ``params.yaml`` whose
``workdir`` is not its configuration's.

Command line: ``python -m mgbias.workflow.share push|pull [--config FILE] [--remote NAME]
[--root DIR]``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from mgbias.files.yaml_lines import YAMLInputError, load_yaml
from mgbias.workflow.layout import WORKDIR_VARIABLE
from mgbias.workflow.schema import load_schema

PARAMS_FILE = "params.yaml"
DVC_FILE = "dvc.yaml"
LOCK_FILE = "dvc.lock"
NOTHING_TO_DO = "Nothing to be done"


class ShareError(RuntimeError):
    """The checkout is not in a state that can be shared or restored."""


def _read_yaml(path: Path):
    """The parsed YAML of ``path``; ShareError naming it (and the line) if it cannot be
    read or parsed."""
    try:
        return load_yaml(path)
    except YAMLInputError as error:
        raise ShareError(str(error)) from None


def configfile(root: Path) -> str:
    """The Snakemake configuration file the DVC stages run, from ``params.yaml``.

    Parameters
    ----------
    root
        The checkout (where ``params.yaml`` and ``dvc.yaml`` are).

    Returns
    -------
    str
        The path as written in ``params.yaml`` (relative to ``root``).
    """
    params_path = root / PARAMS_FILE
    params = _read_yaml(params_path)
    value = params.get("configfile") if isinstance(params, dict) else None
    if not isinstance(value, str) or not value:
        raise ShareError(
            f"{params_path}: expected a key 'configfile' naming the Snakemake "
            f"configuration file (e.g. config/config.yaml), found {value!r}"
        )
    if not (root / value).is_file():
        raise ShareError(f"{params_path}: configfile {value!r} does not exist under {root}")
    return value


#: What ``push --config`` writes above the two keys of ``params.yaml``.
PARAMS_HEADER = """\
# Settings of the DVC pipeline (dvc.yaml); see docs/sharing.md.
#
# The workflow's parameters are not repeated here. They live in one Snakemake
# configuration file, named below: every DVC stage passes it to Snakemake
# (--configfile) and tracks all of its keys as DVC parameters, so Snakemake
# and DVC read the same values, and `dvc status` / `dvc params diff` see any
# change to them. `workdir` is that file's own `workdir` (the folder of its
# results, under which the stages' outs are), copied here because DVC reads
# its variables from this file only. To record and share another
# configuration: make push CONFIG=FILE, which writes both keys, then commit.
"""


@functools.cache
def default_workdir() -> str:
    """The ``workdir`` of a configuration that gives none: the schema's default
    (:mod:`mgbias.workflow.schema`)."""
    return load_schema()["properties"]["workdir"]["default"]


def config_workdir(root: Path, config: str) -> str:
    """The ``workdir`` the configuration file ``config`` (relative to ``root``) gives,
    or the default; ShareError naming the file if it cannot be read."""
    path = root / config
    if not path.is_file():
        raise ShareError(f"{path}: no such configuration file")
    data = _read_yaml(path)
    value = {"workdir": default_workdir(), **data}["workdir"] if isinstance(data, dict) else None
    if not isinstance(value, str) or not value:
        raise ShareError(f"{path}: key 'workdir': expected a folder, found {value!r}")
    return value


def workdir(root: Path) -> str:
    """The folder of the shared run's outputs: ``params.yaml``'s ``workdir``, which must
    be its configuration's (ShareError naming both files otherwise)."""
    config = configfile(root)
    params = _read_yaml(root / PARAMS_FILE)
    written = {"workdir": default_workdir(), **params}["workdir"]
    wanted = config_workdir(root, config)
    if not isinstance(written, str) or os.path.normpath(written) != os.path.normpath(wanted):
        raise ShareError(
            f"{root / PARAMS_FILE}: workdir {written!r}, but {config} keeps its results in "
            f"{wanted!r}; write params.yaml from it: python -m mgbias.workflow.share push --config "
            f"{config} (make push CONFIG={config})"
        )
    return written


def use(root: Path, config: str | Path) -> bool:
    """Make ``params.yaml`` name the configuration file ``config`` and its ``workdir``;
    whether the file changed.

    ``config`` is a path relative to ``root`` or an absolute one inside it.
    """
    path = Path(config)
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(root.resolve())
        except ValueError:
            raise ShareError(f"{config}: not inside the checkout {root}") from None
    name = path.as_posix()
    text = f"{PARAMS_HEADER}configfile: {name}\nworkdir: {config_workdir(root, name)}\n"
    target = root / PARAMS_FILE
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return False
    target.write_text(text, encoding="utf-8")
    return True


def stage_outputs(root: Path) -> list[str]:
    """Every ``outs`` path of every stage of ``dvc.yaml``, in file order, below the
    run's ``workdir`` (``${workdir}`` filled in from ``params.yaml``)."""
    dvc_path = root / DVC_FILE
    pipeline = _read_yaml(dvc_path)
    stages = pipeline.get("stages") if isinstance(pipeline, dict) else None
    if not isinstance(stages, dict) or not stages:
        raise ShareError(f"{dvc_path}: expected a mapping 'stages' with at least one stage")
    folder = workdir(root)
    paths = []
    for name, stage in stages.items():
        for out in (stage or {}).get("outs") or []:
            path = out if isinstance(out, str) else next(iter(out))
            path = path.replace(WORKDIR_VARIABLE, folder)
            if "${" in path:
                raise ShareError(
                    f"{dvc_path}: stage {name!r}: out {path!r} must be a path, with "
                    f"{WORKDIR_VARIABLE} as its only variable"
                )
            paths.append(os.path.normpath(path))
    return paths


def tool_environment() -> dict[str, str]:
    """The environment for DVC and Snakemake: this interpreter's scripts come first.

    DVC runs each stage's ``cmd`` in a shell, which must find the
    ``snakemake`` installed next to this Python, also when the virtual
    environment is not activated.
    """
    scripts = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": os.pathsep.join([scripts, os.environ.get("PATH", "")])}


def dvc_command(*args: str) -> list[str]:
    """``dvc ARGS`` run by this interpreter."""
    return [sys.executable, "-m", "dvc", *args]


def snakemake_command(root: Path, *args: str) -> list[str]:
    """``snakemake --configfile CONFIG ARGS`` with the configuration of ``params.yaml``."""
    return [sys.executable, "-m", "snakemake", "--configfile", configfile(root), *args]


def run(
    command: Sequence[str], root: Path, *, capture: bool = False, timeout: float | None = None
) -> subprocess.CompletedProcess:
    """Run ``command`` in ``root``; raise ShareError naming it if it fails.

    With ``capture`` the output is returned (and shown in the error), else it
    goes to this process's stdout and stderr as it comes.
    """
    result = subprocess.run(
        list(command),
        cwd=root,
        env=tool_environment(),
        capture_output=capture,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        shown = " ".join(command[2:] if command[0] == sys.executable else command)
        output = f"\n{result.stdout}{result.stderr}" if capture else ""
        raise ShareError(f"`{shown}` failed in {root} (exit {result.returncode}){output}")
    return result


def require_nothing_to_do(root: Path) -> None:
    """Raise ShareError unless ``snakemake -n`` plans no job for the configuration."""
    result = run(snakemake_command(root, "-n"), root, capture=True)
    if NOTHING_TO_DO not in result.stdout + result.stderr:
        stats = _job_stats(result.stdout + result.stderr)
        raise ShareError(
            f"Snakemake has jobs to run for {configfile(root)} in {root}; run the workflow "
            f"to completion first (snakemake --configfile {configfile(root)}).\n{stats}"
        )


def _job_stats(dry_run_output: str) -> str:
    """The 'Job stats' table of a dry run, or its last lines."""
    start = dry_run_output.find("Job stats:")
    if start < 0:
        return "\n".join(dry_run_output.splitlines()[-10:])
    return dry_run_output[start:].split("\n\n", 1)[0]


def dvc_status(root: Path) -> dict:
    """``dvc status`` as a mapping: stage or file -> what changed; empty when clean."""
    result = run(dvc_command("status", "--json"), root, capture=True)
    try:
        return json.loads(result.stdout or "{}")
    except json.JSONDecodeError as error:
        raise ShareError(f"`dvc status --json` in {root}: not JSON:\n{result.stdout}") from error


def require_clean_status(root: Path) -> None:
    """Raise ShareError unless the checkout is exactly what ``dvc.lock`` records."""
    changes = dvc_status(root)
    if changes:
        raise ShareError(
            f"dvc status in {root} is not clean: the checkout's code, configuration or "
            f"data differ from what {LOCK_FILE} records, so the pulled results do not "
            f"belong to it. Check out the commit that was pushed, or rerun the workflow.\n"
            + json.dumps(changes, indent=2)
        )


def create_missing_outputs(root: Path) -> list[str]:
    """Create, empty, every ``dvc.yaml`` out this configuration does not produce.

    A configuration without a demo world or without workflow-trained models
    (``config/paper.yaml``) leaves those outs absent; DVC records them as
    empty directories. Call only once Snakemake has nothing left to do.
    """
    created = []
    for path in stage_outputs(root):
        if not (root / path).exists():
            (root / path).mkdir(parents=True)
            created.append(path)
    return created


def push(root: Path, remote: str | None = None, config: str | Path | None = None) -> None:
    """Record a completed run in ``dvc.lock`` and upload its outputs.

    Parameters
    ----------
    root
        The checkout whose run is shared.
    remote
        DVC remote name; the default remote when ``None``.
    config
        The configuration file of the run; ``params.yaml`` is written from it first
        (:func:`use`). ``None``: the one ``params.yaml`` names.

    Raises
    ------
    ShareError
        Snakemake still has jobs to run, or a DVC command failed.
    """
    if config is not None and use(root, config):
        print(
            f"mgbias share: {PARAMS_FILE} now names {configfile(root)}; commit it with {LOCK_FILE}"
        )
    workdir(root)
    require_nothing_to_do(root)
    for path in create_missing_outputs(root):
        print(f"mgbias share: {path}: not produced by this configuration; recorded empty")
    run(dvc_command("commit", "--force"), root)
    run(dvc_command("push", *_remote_args(remote)), root)
    print(
        f"mgbias share: pushed. Commit {LOCK_FILE} (and .gitignore if DVC changed it) "
        f"with git and push it, so collaborators pull the same results."
    )


def restore_snakemake_view(root: Path) -> None:
    """Make Snakemake see the checked-out outputs as up to date (``--touch --forceall``)."""
    run(snakemake_command(root, "--touch", "--forceall", "--cores", "1", "--quiet"), root)


def pull(root: Path, remote: str | None = None, force: bool = False) -> None:
    """Download the outputs ``dvc.lock`` records and restore Snakemake's view of them.

    Parameters
    ----------
    root
        The checkout (a clone of the commit that was pushed).
    remote
        DVC remote name; the default remote when ``None``.
    force
        Overwrite local outputs that differ from the pulled ones
        (``dvc pull --force``); without it DVC refuses.

    Raises
    ------
    ShareError
        No ``dvc.lock``, a DVC command failed, ``dvc status`` is not clean
        after the pull (nothing is touched then), or Snakemake still plans
        jobs afterwards.
    """
    if not (root / LOCK_FILE).is_file():
        raise ShareError(f"{root / LOCK_FILE}: missing; nothing has been pushed from this commit")
    workdir(root)
    run(dvc_command("pull", *_remote_args(remote), *(["--force"] if force else [])), root)
    require_clean_status(root)
    restore_snakemake_view(root)
    require_nothing_to_do(root)
    print("mgbias share: pulled; dvc status clean and Snakemake has nothing to do.")


def _remote_args(remote: str | None) -> list[str]:
    return ["--remote", remote] if remote else []


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of ``push`` / ``pull`` (also used by ``mgbias share``)."""
    parser.add_argument(
        "action",
        choices=["push", "pull"],
        help="push: send this run's outputs to the DVC remote; pull: take a shared run in",
    )
    parser.add_argument(
        "--config",
        default=None,
        help="push: the run's configuration file; params.yaml is written from it first "
        "(default: the one params.yaml names)",
    )
    parser.add_argument("--remote", default=None, help="DVC remote (default: the default remote)")
    parser.add_argument("--root", type=Path, default=Path("."), help="the checkout (default: .)")
    parser.add_argument(
        "--force", action="store_true", help="pull: overwrite local outputs that differ"
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    return add_arguments(
        argparse.ArgumentParser(
            prog="python -m mgbias.workflow.share",
            description="Share workflow results through DVC (push) or take them in (pull).",
        )
    )


def run_action(args: argparse.Namespace) -> int:
    """Carry out parsed ``push`` / ``pull`` arguments; 1 with a message on failure."""
    root = args.root.resolve()
    try:
        if not (root / DVC_FILE).is_file():
            raise ShareError(
                f"{root} holds no {DVC_FILE}: not an mgbias checkout; run this in the "
                "repository's root (or give it with --root)"
            )
        if args.action == "push":
            if args.force:
                raise ShareError("--force applies to pull only")
            push(root, args.remote, config=args.config)
        else:
            if args.config is not None:
                raise ShareError(
                    "--config applies to push only: pull takes the configuration that "
                    f"the pulled {PARAMS_FILE} names"
                )
            pull(root, args.remote, force=args.force)
    except ShareError as error:
        print(f"mgbias share: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_action(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
