"""``benchmarks/gpu.py --smoke`` runs here and prints every figure, parsed and sane.

Its timings are not checked (they belong to the machine); what is checked is that
each figure is there, is a number where it must be one, is positive where a time
or a rate must be, that the parts of the score call add up to no more than the
call, and that two deterministic fine-tunings end with equal weights. On a CUDA
machine the run is on the GPU, and the CUDA start is timed.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parents[2]

POSITIVE = [
    "score_cli_s",
    "score_cli_cpu_s",
    "score_imports_s",
    "score_load_s",
    "score_forward_s",
    "score_provenance_s",
    "scoring_ratio_unmasked",
    "scoring_ratio_masked",
    "naive_copies",
    "naive_s",
    "engine_s",
    "engine_vs_naive",
    "masked_copies_per_s",
    "fp32_unmasked_s",
    "bf16_unmasked_s",
    "fp32_masked_s",
    "bf16_masked_s",
    "bf16_speedup_unmasked",
    "bf16_speedup_masked",
    "finetune_vs_trainer_fp32",
    "finetune_vs_trainer_bf16",
    "finetune_tokens_per_s_ours_fp32",
    "finetune_tokens_per_s_trainer_fp32",
    "finetune_tokens_per_s_ours_bf16",
    "finetune_tokens_per_s_trainer_bf16",
    "finetune_deterministic_cost",
    "finetune_deterministic_cost_fused_attention",
    "finetune_tokens_per_step",
]
NON_NEGATIVE = [
    "score_cuda_init_s",
    "score_data_s",
    "score_tokenize_s",
    "score_measures_s",
    "score_write_s",
    "naive_max_abs_difference",
    "bf16_max_abs_difference",
    "unmasked_sentences_per_s_batch_64",
    "unmasked_sentences_per_s_batch_1024",
    "masked_copies_per_s_batch_64",
    "masked_copies_per_s_batch_1024",
]
# The overhead is a difference of two processes' times: finite, of either sign.
FINITE = ["score_overhead_s", "score_overhead_cpu_s"]


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> dict[str, str]:
    workdir = tmp_path_factory.mktemp("gpu-benchmark")
    env = {**os.environ, "MGBIAS_HASH_CACHE": str(workdir / "hash-cache")}
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "gpu.py"), "--smoke", "--workdir", str(workdir)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert all("=" in line for line in lines), lines
    parsed = dict(line.split("=", 1) for line in lines)
    assert len(parsed) == len(lines), "a figure is printed twice"
    return parsed


def test_every_figure_is_printed_once_and_is_a_number(figures):
    assert set(POSITIVE + NON_NEGATIVE + FINITE) <= set(figures)
    assert figures["ratio_clock"] in ("cpu", "wall")
    for name in POSITIVE + NON_NEGATIVE + FINITE:
        assert math.isfinite(float(figures[name])), (name, figures[name])
    for name in POSITIVE:
        assert float(figures[name]) > 0, (name, figures[name])
    for name in NON_NEGATIVE:
        assert float(figures[name]) >= 0, (name, figures[name])
    assert int(figures["naive_pairs"]) == 20


def test_the_engine_and_the_naive_loop_agree(figures):
    assert float(figures["naive_max_abs_difference"]) < 1e-3


def test_batch_size_changes_the_speed_not_the_values(figures):
    assert float(figures["batch_max_abs_difference"]) < 1e-4


def test_bf16_log_probabilities_stay_near_fp32(figures):
    """Autocast rounds the logits, not the log-softmax (float32): the unmasked
    log-probabilities of the smoke model moved by 0.0044 at most."""
    assert float(figures["bf16_max_abs_difference"]) < 0.1


def test_deterministic_fine_tuning_repeats(figures):
    assert figures["finetune_deterministic_repeats"] == "1"
    assert figures["finetune_deterministic_repeats_fused_attention"] in ("0", "1")
    if not torch.cuda.is_available():  # the CPU has no other attention kernel to choose
        assert figures["finetune_deterministic_repeats_fused_attention"] == "1"


def test_the_profile_counts_each_sides_operations(figures):
    """Both loops dispatch hundreds of operations a step; on a CPU the time inside them is
    part of the step (on CUDA the backward pass's run on a thread of their own); kernels
    only on a GPU."""
    for side in ("ours", "trainer"):
        step_ms = float(figures[f"finetune_profile_{side}_step_ms"])
        host_ms = float(figures[f"finetune_profile_{side}_host_ms"])
        assert int(figures[f"finetune_profile_{side}_ops"]) > 100
        assert host_ms > 0 and step_ms > 0
        kernels = int(figures[f"finetune_profile_{side}_kernels"])
        device_ms = float(figures[f"finetune_profile_{side}_device_ms"])
        if torch.cuda.is_available():
            assert kernels > 0 and device_ms > 0
        else:
            assert kernels == 0 and device_ms == 0
            assert host_ms <= step_ms * 1.05, (side, host_ms, step_ms)


def test_the_overhead_is_the_call_less_its_floor(figures):
    """Imports, CUDA start, load and forward are the floor the overhead is measured from."""
    floor = sum(
        float(figures[f"score_{name}_s"]) for name in ("imports", "cuda_init", "load", "forward")
    )
    overhead = float(figures["score_cli_s"]) - floor
    assert overhead == pytest.approx(float(figures["score_overhead_s"]), abs=0.01)


def test_the_device_is_the_cpu_without_cuda(figures):
    if torch.cuda.is_available():
        pytest.skip("CUDA is available: the run was on the GPU")
    assert figures["device"] == "cpu"
    assert figures["ratio_clock"] == "cpu"
    assert float(figures["score_cuda_init_s"]) == 0.0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_on_cuda_the_run_is_on_the_gpu_and_times_its_start(figures):
    assert figures["device"] == torch.cuda.get_device_name(0)
    assert figures["ratio_clock"] == "wall"
    assert float(figures["score_cuda_init_s"]) > 0


def test_the_node_session_script_runs_its_parts_and_refuses_unknown_ones(tmp_path):
    """``benchmarks/gpu_session.sh``, what a GPU node runs, on its cheapest part."""
    script = REPO / "benchmarks" / "gpu_session.sh"
    env = {**os.environ, "OUT": str(tmp_path), "PY": sys.executable, "WORK": str(tmp_path)}
    done = subprocess.run(
        ["bash", str(script), "--smoke", "vectors"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = dict(
        line.split("=", 1) for line in done.stdout.splitlines() if "=" in line and " " not in line
    )
    assert float(figures["vec_reread_speedup"]) > 1
    assert "== vectors rc=0" in (tmp_path / "session.log").read_text()
    skipped = subprocess.run(
        ["bash", str(script), "--smoke", "vectors"],
        cwd=REPO,
        env={**env, "LIMIT": "10"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "== skip vectors" in skipped.stdout
    unknown = subprocess.run(
        ["bash", str(script), "--smoke", "nope"], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert unknown.returncode == 2 and "unknown part: nope" in unknown.stderr
