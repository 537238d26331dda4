"""Resuming a killed fine-tuning: a run SIGKILLed after its first checkpoint and restarted
ends with the same weights and training.json as an uninterrupted run; checkpoints of
another configuration are not resumed."""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from fixtures.text import gendered_lines, write_lines
from fixtures.tiny_models import save_tiny_mlm

from mgbias.finetune.train import FineTuneConfig, checkpoint_dir_for, finetune_mlm

CFG = FineTuneConfig(
    learning_rate=1e-2, batch_size=8, devices=1, line_by_line=True, checkpoint_every=5
)
CHILD = """
import sys
from pathlib import Path
from mgbias.finetune.train import FineTuneConfig, finetune_mlm
base, text, out = map(Path, sys.argv[1:4])
cfg = FineTuneConfig(**eval(sys.argv[4]))
finetune_mlm(base, text, out, cfg, threads=1, progress=False)
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> tuple[Path, Path]:
    directory = tmp_path_factory.mktemp("resume")
    base = save_tiny_mlm(directory / "base")
    # 240 lines: 30 steps per epoch, 90 in all; a checkpoint every 5 steps.
    text = write_lines(
        directory / "d_r.txt", gendered_lines("he", 120) + gendered_lines("she", 120)
    )
    return base, text


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_killed_run_resumes_to_the_same_weights(inputs, tmp_path, caplog):
    base, text = inputs
    reference = finetune_mlm(base, text, tmp_path / "reference", CFG, threads=1, progress=False)

    out = tmp_path / "killed"
    checkpoints = checkpoint_dir_for(out)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(base), str(text), str(out), repr(CFG.to_dict())],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while not any(checkpoints.glob("step-*/meta.json")):
        if child.poll() is not None:
            pytest.fail(f"the run ended before its first checkpoint: {child.stderr.read()!r}")
        if time.monotonic() > deadline:
            child.kill()
            pytest.fail("no checkpoint within 120 s")
        time.sleep(0.005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    assert not out.exists(), "the run finished before it was killed; make it longer"

    with caplog.at_level(logging.INFO, logger="mgbias.finetune.train"):
        resumed = finetune_mlm(base, text, out, CFG, threads=1, progress=False)
    messages = [
        r.getMessage()
        for r in caplog.records
        if r.name == "mgbias.finetune.train" and "resuming from step" in r.getMessage()
    ]
    assert len(messages) == 1 and messages[0].endswith(" of 90")
    assert sha256(resumed / "model.safetensors") == sha256(reference / "model.safetensors")
    assert (resumed / "training.json").read_bytes() == (reference / "training.json").read_bytes()
    assert not checkpoints.exists()


def test_checkpoints_of_another_run_are_not_resumed(inputs, tmp_path, caplog):
    base, text = inputs
    out = tmp_path / "out"
    short = replace(CFG, epochs=1)
    finetune_mlm(base, text, out, short, keep_checkpoints=True, threads=1, progress=False)
    checkpoints = checkpoint_dir_for(out)
    # One epoch is 30 steps; none is written at the last step.
    assert [p.name for p in checkpoints.iterdir()] == ["step-000000025"]
    (checkpoints / ".step-000000050.abc.tmp").mkdir()  # left by a kill during a write

    other = replace(short, learning_rate=5e-3)
    with caplog.at_level(logging.WARNING, logger="mgbias.finetune.checkpoint"):
        finetune_mlm(base, text, out, other, threads=1, progress=False)
    assert any("written by another run" in r.getMessage() for r in caplog.records)
    fresh = finetune_mlm(base, text, tmp_path / "fresh", other, threads=1, progress=False)
    assert sha256(out / "model.safetensors") == sha256(fresh / "model.safetensors")
    assert not checkpoints.exists()
