"""Deterministic training (mgbias.mlm.determinism): strict mode, its restoration, and a
fine-tuning that repeats bit for bit on a GPU (skipped without CUDA)."""

from __future__ import annotations

import os
import warnings
from dataclasses import replace

import pytest
import torch
from fixtures.text import gendered_lines, write_lines
from fixtures.tiny_models import MODEL_FAMILIES, build_model, save_tiny_mlm
from safetensors.torch import load_file

from mgbias.finetune.train import FineTuneConfig, finetune_mlm
from mgbias.mlm.determinism import CUBLAS_WORKSPACE_CONFIG, deterministic_training
from mgbias.mlm.loop import masked_lm_loss

CPU = torch.device("cpu")


def unpool() -> torch.Tensor:
    """``max_unpool1d``: no deterministic implementation on any device."""
    values = torch.tensor([[[1.0, 2.0]]])
    return torch.nn.functional.max_unpool1d(values, torch.tensor([[[1, 3]]]), kernel_size=2)


def test_deterministic_training_is_strict_and_restores_the_settings():
    before = (
        torch.are_deterministic_algorithms_enabled(),
        torch.is_deterministic_algorithms_warn_only_enabled(),
        torch.backends.cudnn.deterministic,
        torch.backends.cudnn.benchmark,
    )
    with deterministic_training(CPU):
        assert torch.are_deterministic_algorithms_enabled()
        assert not torch.is_deterministic_algorithms_warn_only_enabled()
        assert torch.backends.cudnn.deterministic and not torch.backends.cudnn.benchmark
        # an operation without a deterministic version stops the run, not just warns
        with pytest.raises(RuntimeError, match="does not have a deterministic implementation"):
            unpool()
    with deterministic_training(CPU, enabled=False):
        assert not torch.are_deterministic_algorithms_enabled()
        assert unpool().tolist() == [[[0.0, 1.0, 0.0, 2.0]]]
    after = (
        torch.are_deterministic_algorithms_enabled(),
        torch.is_deterministic_algorithms_warn_only_enabled(),
        torch.backends.cudnn.deterministic,
        torch.backends.cudnn.benchmark,
    )
    assert after == before


@pytest.mark.parametrize("family", MODEL_FAMILIES)
def test_every_family_trains_in_strict_mode_and_repeats(family):
    """A loss with two loss groups, its backward pass and an AdamW step: strict mode
    raises on any operation without a deterministic version; two passes agree."""
    model = build_model(family, 40).train()
    input_ids = torch.randint(5, 40, (4, 9), generator=torch.Generator().manual_seed(0))
    attention_mask = torch.ones_like(input_ids)
    attention_mask[2:, 6:] = 0
    labels = torch.full_like(input_ids, -100)
    labels[0, 1], labels[1, 3], labels[2, 2], labels[3, 5] = 7, 11, 13, 17
    groups = torch.tensor([0, 0, 1, 1])
    gradients = []
    with deterministic_training(CPU):
        for _ in range(2):
            model.zero_grad()
            torch.manual_seed(1)  # dropout
            masked_lm_loss(model, input_ids, attention_mask, labels, groups=groups).backward()
            gradients.append([p.grad.clone() for p in model.parameters() if p.grad is not None])
        torch.optim.AdamW(model.parameters(), fused=True).step()
    assert gradients[0] and all(map(torch.equal, *gradients))


def test_the_settings_are_restored_after_an_error():
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        with pytest.raises(KeyError), deterministic_training(CPU):
            raise KeyError("inside")
        assert torch.are_deterministic_algorithms_enabled()
        assert torch.is_deterministic_algorithms_warn_only_enabled()
    finally:
        torch.use_deterministic_algorithms(False)


def test_a_bad_cublas_workspace_setting_is_refused(monkeypatch):
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":0:0")
    with pytest.raises(ValueError, match=r"CUBLAS_WORKSPACE_CONFIG is ':0:0'.*':4096:8'"):
        with deterministic_training(torch.device("cuda")):
            pass
    assert not torch.is_deterministic_algorithms_warn_only_enabled()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_fine_tuning_on_cuda_repeats_bit_for_bit(tmp_path):
    base = save_tiny_mlm(tmp_path / "base")
    text = write_lines(
        tmp_path / "d_r.txt",
        gendered_lines("he", 40) + [f"{line} {line}" for line in gendered_lines("she", 40)],
    )
    cfg = FineTuneConfig(
        learning_rate=1e-2, batch_size=8, devices=2, line_by_line=True, checkpoint_every=0
    )
    runs = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name in ("first", "second"):
            out = finetune_mlm(base, text, tmp_path / name, cfg, device="cuda", progress=False)
            runs.append(load_file(out / "model.safetensors"))
    assert not [w for w in caught if "determinis" in str(w.message)]
    assert os.environ["CUBLAS_WORKSPACE_CONFIG"] in (CUBLAS_WORKSPACE_CONFIG, ":16:8")
    assert runs[0].keys() == runs[1].keys()
    assert all(torch.equal(runs[0][name], runs[1][name]) for name in runs[0])
    # bf16 autocast and one pass for both device batches (loss groups) repeat as well
    grouped = replace(cfg, precision="bf16", micro_batch_size=16)
    again = [
        load_file(
            finetune_mlm(base, text, tmp_path / f"bf16-{i}", grouped, device="cuda", progress=False)
            / "model.safetensors"
        )
        for i in range(2)
    ]
    assert all(torch.equal(again[0][name], again[1][name]) for name in again[0])
