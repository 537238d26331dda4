"""Each Snakemake command of the DVC stages plans with every shipped configuration.

A stage's command (``dvc.yaml``) is run as a dry run in an empty directory: Snakemake
reports a DAG it cannot finish (e.g. ``--until`` stopping at a rule that is both upstream
and downstream of another) as a failed dry run, so a stage that would fail in ``dvc
repro`` fails here first.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))

pytestmark = pytest.mark.workflow


def stage_commands(stage: str) -> list[list[str]]:
    """The snakemake commands of one stage, as argument lists."""
    cmd = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"][stage]["cmd"]
    parts = [shlex.split(part) for part in cmd.split("&&")]
    return [part for part in parts if part and part[0] == "snakemake"]


def test_the_data_stage_commands_are_found():
    commands = stage_commands("data")
    assert len(commands) == 3
    assert "--until" in commands[0] and "download_pairs" not in commands[0]
    # every dataset under data/mined: the probe corpora, the bios datasets and splits
    assert "basta2020_corpus" in commands[0]
    assert "pair_downloads" in commands[1] and "bios_downloads" in commands[2]
    assert "bios_datasets" in commands[2]


@pytest.mark.parametrize("configfile", ["config/config.yaml", "config/demo-full.yaml"])
def test_data_stage_plans_every_download_including_files_made_from_downloads(tmp_path, configfile):
    for command in stage_commands("data"):
        args = [a.replace("${configfile}", str(REPO / configfile)) for a in command[1:]]
        result = subprocess.run(
            [
                SNAKEMAKE,
                "-n",
                "-s",
                str(REPO / "Snakefile"),
                "--directory",
                str(tmp_path),
                "--cores",
                "1",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, (command, result.stdout[-3000:] + result.stderr[-3000:])
        assert "Out of jobs ready" not in result.stdout + result.stderr
