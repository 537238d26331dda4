"""A real one-node SLURM cluster on 127.0.0.1, for workflow tests.

:func:`slurm_cluster` installs the Debian packages if they are missing, writes a
``slurm.conf`` and ``gres.conf`` into a temporary directory, starts ``munged``,
``slurmctld`` and ``slurmd`` in the foreground as child processes, waits until the
node is idle and yields a :class:`SlurmCluster`. On exit it cancels the cluster's
jobs and stops the three daemons it started (SIGTERM, wait, then SIGKILL), also
when starting failed half-way.

Everything lives under the temporary directory: the munge key and socket, the
controller's state, the node's spool, the logs and pid files. Nothing under
``/etc`` is touched, and the daemons listen on free ports chosen at start, so a
cluster already running on the machine is not disturbed. The node has the
machine's CPU count and memory and one fake GPU (``Gres=gpu:fake:1`` backed by
``/dev/null``), so ``sbatch --gpus=1`` is scheduled and the job sees
``CUDA_VISIBLE_DEVICES``. There is no accounting storage: job states come from
``squeue``, which keeps finished jobs for ``MinJobAge`` seconds.

Client commands find the cluster through ``SLURM_CONF`` (and, inside jobs, through an
``srun`` wrapper first on ``PATH``; see :func:`write_srun_wrapper`); run them with
:meth:`SlurmCluster.run` or pass :attr:`SlurmCluster.env` to a subprocess.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

DEBIAN_PACKAGES = ("slurmctld", "slurmd", "slurm-client", "munge")
"""What :func:`ensure_slurm_installed` installs with ``apt-get``."""

REQUIRED_PROGRAMS = (
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "srun",
    "squeue",
    "sinfo",
    "scancel",
)

CLUSTER_NAME = "mgbiastest"
NODE_NAME = "localhost"
MIN_JOB_AGE_SECONDS = 86400
"""How long ``squeue`` keeps reporting a finished job (no accounting storage)."""


class SlurmUnavailable(RuntimeError):
    """SLURM cannot be installed or started here (not root, no ``apt-get``)."""


@dataclass(frozen=True)
class SlurmCluster:
    """A running one-node cluster.

    Attributes
    ----------
    partition
        Name of the cluster's only (and default) partition.
    node
        Name of the only node.
    cpus, real_memory_mb
        What the node offers (the machine's CPU count and memory).
    gpus
        Number of (fake) GPUs on the node.
    root
        Temporary directory holding configuration, state, spool and logs.
    conf
        Path of ``slurm.conf``.
    env
        ``os.environ`` plus ``SLURM_CONF``: the environment for client commands
        (``sbatch``, ``squeue``, ``snakemake --executor slurm``).
    """

    partition: str
    node: str
    cpus: int
    real_memory_mb: int
    gpus: int
    root: Path
    conf: Path
    env: Mapping[str, str]

    def run(self, *command: str, timeout: float = 30) -> subprocess.CompletedProcess:
        """Run a client command against this cluster; raise if it fails or hangs."""
        return _run(list(command), env=self.env, timeout=timeout)

    def daemon_log(self, daemon: str) -> str:
        """Text of ``munged``, ``slurmctld`` or ``slurmd``'s log file ('' before it exists)."""
        path = self.root / "log" / f"{daemon}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _run(
    command: Sequence[str],
    *,
    timeout: float,
    env: Mapping[str, str] | None = None,
    check: bool = True,
) -> subprocess.CompletedProcess:
    result = subprocess.run(
        list(command),
        env=None if env is None else dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check and result.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} exited with {result.returncode}:\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    return result


def missing_programs() -> list[str]:
    """The SLURM and munge programs not found on ``PATH`` (or in ``/usr/sbin``)."""
    search = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin", "/sbin"])
    return [name for name in REQUIRED_PROGRAMS if shutil.which(name, path=search) is None]


def _program(name: str) -> str:
    search = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin", "/sbin"])
    path = shutil.which(name, path=search)
    if path is None:
        raise SlurmUnavailable(f"{name} is not installed")
    return path


def _apt_has_candidates(env: Mapping[str, str]) -> bool:
    """True when the apt package lists know every package we need."""
    result = _run(["apt-cache", "policy", *DEBIAN_PACKAGES], env=env, timeout=60, check=False)
    return (
        result.returncode == 0
        and "Candidate: (none)" not in result.stdout
        and all(f"{package}:" in result.stdout for package in DEBIAN_PACKAGES)
    )


def ensure_slurm_installed(timeout: float = 900) -> None:
    """Install munge and SLURM with ``apt-get`` unless their programs are present.

    Runs ``apt-get update`` only when the package lists do not know the packages,
    or when the first install attempt fails (stale lists).

    Raises
    ------
    SlurmUnavailable
        When something is missing and the process is not root or has no ``apt-get``.
    RuntimeError
        When ``apt-get`` fails.
    """
    if not missing_programs():
        return
    if os.geteuid() != 0:
        raise SlurmUnavailable(
            f"SLURM is not installed ({', '.join(missing_programs())} missing) and "
            "installing it with apt-get needs root"
        )
    if shutil.which("apt-get") is None:
        raise SlurmUnavailable("SLURM is not installed and there is no apt-get to install it")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", *DEBIAN_PACKAGES]
    if not _apt_has_candidates(env):
        _run(["apt-get", "update"], env=env, timeout=timeout)
    result = _run(install, env=env, timeout=timeout, check=False)
    if result.returncode != 0:
        _run(["apt-get", "update"], env=env, timeout=timeout)
        _run(install, env=env, timeout=timeout)
    if missing_programs():
        raise RuntimeError(
            f"apt-get installed {', '.join(DEBIAN_PACKAGES)} but "
            f"{', '.join(missing_programs())} are still missing"
        )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def machine_resources() -> tuple[int, int]:
    """CPU count and memory (MiB) of this machine, as ``slurmd -C`` detects them.

    The node must not claim more than ``slurmd`` finds, or it is set INVALID;
    ``os.cpu_count`` and the physical page count are the fallback when ``slurmd -C``
    prints no usable line.
    """
    detected = _run([_program("slurmd"), "-C"], timeout=30, check=False).stdout
    fields = dict(
        item.split("=", 1) for item in detected.split() if "=" in item and item[0].isupper()
    )
    try:
        return int(fields["CPUs"]), int(fields["RealMemory"])
    except (KeyError, ValueError):
        memory_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
        return os.cpu_count() or 1, memory_mb


def slurm_conf_text(
    root: Path,
    *,
    cpus: int,
    real_memory_mb: int,
    partition: str,
    ctld_port: int,
    slurmd_port: int,
    munge_socket: Path,
) -> str:
    """``slurm.conf`` for one node on 127.0.0.1 with one fake GPU and no accounting."""
    lines = [
        f"ClusterName={CLUSTER_NAME}",
        f"SlurmctldHost={NODE_NAME}(127.0.0.1)",
        f"SlurmctldPort={ctld_port}",
        f"SlurmdPort={slurmd_port}",
        "CommunicationParameters=NoInAddrAny",
        "SlurmUser=root",
        "SlurmdUser=root",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={munge_socket}",
        f"StateSaveLocation={root / 'state'}",
        f"SlurmdSpoolDir={root / 'spool'}",
        f"SlurmctldPidFile={root / 'run' / 'slurmctld.pid'}",
        f"SlurmdPidFile={root / 'run' / 'slurmd.pid'}",
        f"SlurmctldLogFile={root / 'log' / 'slurmctld.log'}",
        f"SlurmdLogFile={root / 'log' / 'slurmd.log'}",
        f"PlugStackConfig={root / 'plugstack.conf'}",
        "MailProg=/bin/true",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core_Memory",
        "SchedulerType=sched/backfill",
        "GresTypes=gpu",
        "AccountingStorageType=accounting_storage/none",
        "JobAcctGatherType=jobacct_gather/none",
        "JobCompType=jobcomp/none",
        "MpiDefault=none",
        "ReturnToService=2",
        f"MinJobAge={MIN_JOB_AGE_SECONDS}",
        "SlurmctldTimeout=30",
        "SlurmdTimeout=60",
        "InactiveLimit=0",
        "KillWait=5",
        "Waittime=0",
        "SlurmctldDebug=info",
        "SlurmdDebug=info",
        f"NodeName={NODE_NAME} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={real_memory_mb} "
        "Gres=gpu:fake:1 State=UNKNOWN",
        f"PartitionName={partition} Nodes={NODE_NAME} Default=YES MaxTime=INFINITE State=UP",
    ]
    return "\n".join(lines) + "\n"


def gres_conf_text() -> str:
    """``gres.conf``: one fake GPU, no hardware detection."""
    return f"AutoDetect=off\nNodeName={NODE_NAME} Name=gpu Type=fake File=/dev/null Count=1\n"


def write_srun_wrapper(root: Path, conf: Path) -> Path:
    """``root/bin/srun``: ``srun`` that finds this cluster even without ``SLURM_CONF``.

    Inside a job, the Snakemake job-step executor drops every ``SLURM_*`` variable but
    the job's identity (``SLURM_CONF`` included) before it calls ``srun``. A real
    cluster keeps its configuration where clients look by default
    (``/etc/slurm/slurm.conf``); this one lives in a temporary directory, so the
    wrapper, first on the jobs' ``PATH``, puts ``SLURM_CONF`` back instead of
    writing under ``/etc``.
    """
    bin_dir = root / "bin"
    bin_dir.mkdir(exist_ok=True)
    wrapper = bin_dir / "srun"
    wrapper.write_text(
        f'#!/bin/sh\nSLURM_CONF="${{SLURM_CONF:-{conf}}}" exec {_program("srun")} "$@"\n'
    )
    wrapper.chmod(0o755)
    return bin_dir


def _stop(process: subprocess.Popen, grace_seconds: float = 10) -> None:
    """SIGTERM one process we started, wait, then SIGKILL it."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=grace_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=grace_seconds)


def _start_daemon(
    stack: ExitStack, name: str, command: list[str], env: Mapping[str, str], root: Path
) -> subprocess.Popen:
    """Start a daemon in the foreground and register its stop with ``stack``."""
    output = open(root / "log" / f"{name}.stdout", "w")  # noqa: SIM115 - closed by the stack
    stack.callback(output.close)
    process = subprocess.Popen(
        command,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    stack.callback(_stop, process)
    return process


def _wait_for(
    condition,
    *,
    what: str,
    deadline_seconds: float,
    processes: Mapping[str, subprocess.Popen],
    root: Path,
) -> None:
    """Poll ``condition()`` until true; fail early if a daemon died, late on the deadline."""
    deadline = time.monotonic() + deadline_seconds
    while True:
        for name, process in processes.items():
            if process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with {process.returncode} while waiting for {what}:\n"
                    + _tail_logs(root, name)
                )
        if condition():
            return
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"no {what} after {deadline_seconds:.0f} s:\n"
                + "\n".join(_tail_logs(root, name) for name in processes)
            )
        time.sleep(0.5)


def _tail_logs(root: Path, name: str, chars: int = 3000) -> str:
    texts = []
    for suffix in (".log", ".stdout"):
        path = root / "log" / f"{name}{suffix}"
        if path.exists():
            texts.append(f"--- {path.name}\n{path.read_text(errors='replace')[-chars:]}")
    return "\n".join(texts)


def _node_state(env: Mapping[str, str]) -> str:
    result = _run(
        ["sinfo", "--noheader", "--Node", "--format=%t"], env=env, timeout=10, check=False
    )
    return result.stdout.strip() if result.returncode == 0 else ""


def _cancel_jobs(env: Mapping[str, str], deadline_seconds: float = 30) -> None:
    """Cancel every job of the cluster and wait (bounded) until none is running."""
    try:
        _run(["scancel", "--full", "--user=root"], env=env, timeout=15, check=False)
        deadline = time.monotonic() + deadline_seconds
        while time.monotonic() < deadline:
            queue = _run(
                ["squeue", "--noheader", "--states=RUNNING,COMPLETING,PENDING", "--format=%i"],
                env=env,
                timeout=10,
                check=False,
            )
            if queue.returncode != 0 or not queue.stdout.strip():
                return
            time.sleep(0.5)
    except (subprocess.TimeoutExpired, OSError):
        return


@contextmanager
def slurm_cluster(
    partition: str = "debug",
    *,
    start_deadline_seconds: float = 90,
    install: bool = True,
) -> Iterator[SlurmCluster]:
    """Start a one-node SLURM cluster on 127.0.0.1; stop it on exit.

    Parameters
    ----------
    partition
        Name of the (only, default) partition.
    start_deadline_seconds
        How long to wait for the node to become idle before giving up.
    install
        Install the Debian packages when programs are missing (needs root).

    Yields
    ------
    SlurmCluster
        The running cluster; its ``env`` points client commands at it.

    Raises
    ------
    SlurmUnavailable
        When SLURM is missing and cannot be installed (not root, no ``apt-get``),
        or the daemons cannot run as this user.
    RuntimeError, TimeoutError
        When a daemon dies at start or the node is not idle by the deadline.
    """
    if install:
        ensure_slurm_installed()
    elif missing_programs():
        raise SlurmUnavailable(f"{', '.join(missing_programs())} not installed")
    if os.geteuid() != 0:
        raise SlurmUnavailable("the SLURM daemons of a test cluster run as root")

    with ExitStack() as stack:
        root = Path(tempfile.mkdtemp(prefix="slurm-"))
        stack.callback(shutil.rmtree, root, ignore_errors=True)
        for sub in ("state", "spool", "run", "log", "munge"):
            (root / sub).mkdir(mode=0o700)

        munge_key = root / "munge" / "munge.key"
        munge_key.write_bytes(os.urandom(1024))
        munge_key.chmod(0o400)
        munge_socket = root / "munge" / "munge.socket"

        cpus, real_memory_mb = machine_resources()
        conf = root / "slurm.conf"
        conf.write_text(
            slurm_conf_text(
                root,
                cpus=cpus,
                real_memory_mb=real_memory_mb,
                partition=partition,
                ctld_port=free_port(),
                slurmd_port=free_port(),
                munge_socket=munge_socket,
            )
        )
        (root / "gres.conf").write_text(gres_conf_text())
        (root / "plugstack.conf").write_text("")
        wrappers = write_srun_wrapper(root, conf)
        env = {
            **os.environ,
            "SLURM_CONF": str(conf),
            "PATH": os.pathsep.join([str(wrappers), os.environ.get("PATH", "")]),
        }
        # a surrounding allocation's variables must not leak into this cluster's jobs
        for variable in [name for name in env if name.startswith("SLURM_")]:
            if variable != "SLURM_CONF":
                del env[variable]

        munged = _start_daemon(
            stack,
            "munged",
            [
                _program("munged"),
                "--foreground",
                "--force",
                f"--socket={munge_socket}",
                f"--key-file={munge_key}",
                f"--pid-file={root / 'run' / 'munged.pid'}",
                f"--log-file={root / 'log' / 'munged.log'}",
                f"--seed-file={root / 'munge' / 'munged.seed'}",
            ],
            env,
            root,
        )
        _wait_for(
            munge_socket.exists,
            what="munge socket",
            deadline_seconds=start_deadline_seconds,
            processes={"munged": munged},
            root=root,
        )
        slurmctld = _start_daemon(
            stack,
            "slurmctld",
            [_program("slurmctld"), "-D", "-i", "-f", str(conf)],
            env,
            root,
        )
        slurmd = _start_daemon(
            stack,
            "slurmd",
            [_program("slurmd"), "-D", "-N", NODE_NAME, "-f", str(conf)],
            env,
            root,
        )
        # registered after the daemons' stops, so it runs before them on exit
        stack.callback(_cancel_jobs, env)
        daemons = {"munged": munged, "slurmctld": slurmctld, "slurmd": slurmd}
        _wait_for(
            lambda: _node_state(env) == "idle",
            what="idle node in sinfo",
            deadline_seconds=start_deadline_seconds,
            processes=daemons,
            root=root,
        )
        yield SlurmCluster(
            partition=partition,
            node=NODE_NAME,
            cpus=cpus,
            real_memory_mb=real_memory_mb,
            gpus=1,
            root=root,
            conf=conf,
            env=env,
        )
