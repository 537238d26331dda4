"""Benchmark of Snakemake's scheduler loop: the CPU time of the workflow's main process.

A generated workflow (no model, no data) shaped like the demo's: ``--quick`` jobs that
end at once, then one job of ``--wait`` seconds on the only core while ``--ready`` jobs
(each with ``--inputs`` input files) wait for it. It runs twice in temporary
directories: with Snakemake as installed, and with
:func:`mgbias.workflow.reevaluation.one_pending_reevaluation` (what ``rules/common.smk``
does). Prints one ``name=value`` per line:

- ``main_cpu_s_snakemake``, ``main_cpu_s_one_pending``: CPU seconds (user + system, all
  threads) of the main Snakemake process, its jobs' processes not counted;
- ``main_cpu_ratio``: the first over the second;
- ``wall_s_snakemake``, ``wall_s_one_pending``: the runs' wall times (the jobs' own
  time is the same in both).

Usage: ``python benchmarks/scheduler.py [--quick 150] [--ready 40] [--inputs 10]
[--wait 20]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

SNAKEFILE = """
QUICK, READY, INPUTS = {quick}, {ready}, {inputs}
if {one_pending}:
    from mgbias.workflow.reevaluation import one_pending_reevaluation

    one_pending_reevaluation()

rule all:
    input: expand("ready/{{i}}", i=range(READY))

rule quick:
    output: "quick/{{i}}"
    shell: "touch {{output}}"

rule wait:
    input: expand("quick/{{i}}", i=range(QUICK))
    output: "wait/done"
    priority: 100
    shell: "sleep {wait}; touch {{output}}"

rule ready:
    input:
        expand("quick/{{j}}", j=range(INPUTS)),
        lambda wc: [] if int(wc.i) else "wait/done",
    output: "ready/{{i}}"
    shell: "touch {{output}}"
"""

#: Runs Snakemake's command line in this process and prints the process's own CPU time.
MAIN = """
import atexit, json, os, sys
from snakemake.cli import main
atexit.register(lambda: print(json.dumps(os.times()[:2]), file=sys.stderr))
sys.argv = ["snakemake", *sys.argv[1:]]
main()
"""


def run(directory: Path, one_pending: bool, args: argparse.Namespace) -> tuple[float, float]:
    """(main process CPU seconds, wall seconds) of one run in ``directory``."""
    directory.mkdir()
    (directory / "Snakefile").write_text(
        textwrap.dedent(
            SNAKEFILE.format(
                quick=args.quick,
                ready=args.ready,
                inputs=min(args.inputs, args.quick),
                wait=args.wait,
                one_pending=one_pending,
            )
        )
    )
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "--cores", "1", "--quiet", "all"],
        cwd=directory,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"snakemake failed in {directory}:\n{done.stderr[-3000:]}")
    user, system = json.loads(done.stderr.strip().splitlines()[-1])
    return user + system, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", type=int, default=150, help="jobs that end at once")
    parser.add_argument("--ready", type=int, default=40, help="jobs waiting for the core")
    parser.add_argument("--inputs", type=int, default=10, help="input files per waiting job")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds of the long job")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mgbias-scheduler-") as tmp:
        plain_cpu, plain_wall = run(Path(tmp) / "snakemake", False, args)
        fixed_cpu, fixed_wall = run(Path(tmp) / "one_pending", True, args)
    print(f"main_cpu_s_snakemake={plain_cpu:.2f}")
    print(f"main_cpu_s_one_pending={fixed_cpu:.2f}")
    print(f"main_cpu_ratio={plain_cpu / fixed_cpu:.2f}")
    print(f"wall_s_snakemake={plain_wall:.1f}")
    print(f"wall_s_one_pending={fixed_wall:.1f}")


if __name__ == "__main__":
    main()
