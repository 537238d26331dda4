"""Benchmark of one demo-MLM training step: MLM head at labelled positions vs everywhere.

Prints one ``name=value`` per line, measured in one run on the same model,
batch and labels:

- ``full_head_ms``: one optimisation step (forward, backward, AdamW) with
  ``BertForMaskedLM``'s own loss, which applies the vocabulary projection at
  every position;
- ``masked_head_ms``: the same step with :func:`mgbias.mlm.train.masked_lm_loss`,
  which applies it only at the ~15% labelled positions (the loss is equal,
  ``tests/unit/mlm/test_mlm_train.py``);
- ``masked_head_speedup``: their ratio.

The model has the shape of ``mlm_training`` in the configuration given with
``--config`` (default ``config/config.yaml``) with random weights; the batch
holds ``batch_size`` random sentences of ``--length`` tokens, labels drawn
with the configured ``mlm_probability`` (seeded). Each side is warmed up, then
timed ``--repeats`` times for ``--steps`` steps, alternating with the other;
the minimum of each is used. One thread, as the workflow's training jobs.

Usage: ``python benchmarks/mlm_training.py [--config FILE] [--steps N] [--length N]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import torch
from transformers import BertForMaskedLM

from mgbias.files.yaml_lines import load_yaml
from mgbias.mlm.train import MLMTrainingConfig, bert_config, masked_lm_loss

REPO = Path(__file__).resolve().parents[1]


def _timed(step: Callable[[], None], steps: int) -> float:
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=REPO / "config" / "config.yaml")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--length", type=int, default=10, help="tokens per sentence")
    args = parser.parse_args()

    settings = load_yaml(args.config).get("mlm_training", {})
    cfg = MLMTrainingConfig(**{**settings, "threads": 1})
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = BertForMaskedLM(bert_config(cfg, cfg.vocab_size))
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate)
    input_ids = torch.randint(5, cfg.vocab_size, (cfg.batch_size, args.length))
    attention_mask = torch.ones_like(input_ids)
    selected = torch.rand(input_ids.shape) < cfg.mlm_probability
    selected[0, 0] = True
    labels = torch.where(selected, input_ids, torch.full_like(input_ids, -100))

    def full_step() -> None:
        loss = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels).loss
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    def masked_step() -> None:
        loss = masked_lm_loss(model, input_ids, attention_mask, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    for step in (full_step, masked_step):
        _timed(step, 3)
    full, masked = [], []
    for _ in range(args.repeats):
        full.append(_timed(full_step, args.steps))
        masked.append(_timed(masked_step, args.steps))
    print(f"full_head_ms={min(full) * 1000:.1f}")
    print(f"masked_head_ms={min(masked) * 1000:.1f}")
    print(f"masked_head_speedup={min(full) / min(masked):.2f}")


if __name__ == "__main__":
    main()
