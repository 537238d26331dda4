"""Benchmark of masked-LM fine-tuning: our loop against the Hugging Face ``Trainer``.

Prints one ``name=value`` per line, measured in one run:

- ``tokens_per_s_ours``: training throughput of :func:`mgbias.mlm.loop.train_steps` (the
  loop of :func:`mgbias.finetune.train.finetune_mlm`: masking, the MLM head at the
  masked positions only, AdamW, linear schedule, gradient clipping);
- ``tokens_per_s_trainer``: the same model, data, batch, optimizer, schedule and
  number of steps through ``transformers.Trainer`` with
  ``DataCollatorForLanguageModeling`` (the paper's ``run_mlm.py`` setup);
- ``ours_over_trainer``: their ratio;
- ``checkpoint_save_s``: writing one checkpoint
  (:func:`mgbias.finetune.checkpoint.save_checkpoint`);
- ``resume_overhead_s``: what resuming adds to a fresh start, after a kill: finding the
  newest checkpoint of a run SIGKILLed after its first checkpoint, loading it and
  restoring the model, optimizer, schedule and random generators
  (:func:`mgbias.finetune.checkpoint.resume`). The lost work since that checkpoint is
  at most ``checkpoint_every`` steps and is not counted.

Tokens are the real (non-padding) tokens of the batches, counted on each side. The model
has the shape of ``mlm_training`` in the configuration given with ``--config`` (default
``config/config.yaml``), random weights and a WordPiece vocabulary learnt from the demo
world's English text; the data are ``--lines`` sentences of that text, line by line.
Each side is timed from the end of its first step to the end of step ``--steps``
(steady state, setup excluded), ``--repeats`` times alternating A B A B; the minimum of
each is used. One thread, as the workflow's training jobs.

The ``Trainer`` needs the ``accelerate`` package.

Usage: ``python benchmarks/finetune.py [--config FILE] [--steps N] [--batch-size N]``
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
from transformers import (
    AutoModelForMaskedLM,
    BertForMaskedLM,
    DataCollatorForLanguageModeling,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)

from mgbias.demo.world import balanced, monolingual_corpus
from mgbias.finetune.checkpoint import resume, save_checkpoint
from mgbias.finetune.train import (
    FineTuneConfig,
    checkpoint_dir_for,
    epoch_order,
    optimizer_and_schedule,
)
from mgbias.mlm.load import load_mlm
from mgbias.mlm.loop import LoopState, Masking, train_steps
from mgbias.mlm.sequences import encode_lines
from mgbias.mlm.train import MLMTrainingConfig, bert_config
from mgbias.mlm.wordpiece import tokenizer_from_lines
from mgbias.yaml_lines import load_yaml

REPO = Path(__file__).resolve().parents[1]
KILLED_RUN = """
import sys
from pathlib import Path
from mgbias.finetune.train import FineTuneConfig, finetune_mlm
base, text, out = map(Path, sys.argv[1:4])
finetune_mlm(base, text, out, FineTuneConfig(**eval(sys.argv[4])), threads=1, progress=False)
"""


def time_ours(model, tokenizer, sequences, cfg: FineTuneConfig, steps: int) -> float:
    """Tokens per second of our loop, steps 2..steps."""
    model = copy.deepcopy(model).train()
    optimizer, scheduler = optimizer_and_schedule(model, cfg, steps)
    order = epoch_order(cfg, len(sequences))
    tokens = sum(
        int(sequences.offsets[m + 1].sum() - sequences.offsets[m].sum())
        for step in range(2, steps + 1)
        for m in order.micro_batches(step)
    )
    marks: dict[int, float] = {}
    train_steps(
        model,
        sequences,
        order,
        optimizer,
        scheduler,
        masking=Masking(
            tuple(tokenizer.all_special_ids),
            tokenizer.mask_token_id,
            (0, len(tokenizer)),
            cfg.mlm_probability,
        ),
        mask_generator=torch.Generator().manual_seed(cfg.seed),
        pad_id=tokenizer.pad_token_id,
        steps=steps,
        log_every=steps,
        max_grad_norm=cfg.max_grad_norm,
        on_step=lambda state: marks.__setitem__(state.step, time.perf_counter()),
        progress=False,
    )
    return tokens / (marks[steps] - marks[1])


class _Clock(TrainerCallback):
    def __init__(self) -> None:
        self.marks: dict[int, float] = {}

    def on_step_end(self, args, state, control, **kwargs):
        self.marks[state.global_step] = time.perf_counter()


class _CountingCollator(DataCollatorForLanguageModeling):
    """The stock collator; also counts the real tokens of each batch it makes."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.batch_tokens: list[int] = []

    def __call__(self, examples, return_tensors=None):
        batch = super().__call__(examples, return_tensors)
        self.batch_tokens.append(int(batch["attention_mask"].sum()))
        return batch


def time_trainer(model, tokenizer, sequences, cfg: FineTuneConfig, steps: int, out: Path) -> float:
    """Tokens per second of ``Trainer`` + ``DataCollatorForLanguageModeling``, steps 2..steps."""
    model = copy.deepcopy(model).train()
    examples = [
        {"input_ids": sequences.ids[start:end].tolist()}
        for start, end in zip(sequences.offsets[:-1], sequences.offsets[1:], strict=True)
    ]
    collator = _CountingCollator(tokenizer, mlm_probability=cfg.mlm_probability, seed=cfg.seed)
    clock = _Clock()
    accumulation = cfg.devices * cfg.gradient_accumulation
    arguments = TrainingArguments(
        output_dir=str(out),
        per_device_train_batch_size=cfg.batch_size,
        gradient_accumulation_steps=accumulation,
        max_steps=steps,
        learning_rate=cfg.learning_rate,
        weight_decay=cfg.weight_decay,
        adam_beta1=cfg.adam_beta1,
        adam_beta2=cfg.adam_beta2,
        adam_epsilon=cfg.adam_epsilon,
        max_grad_norm=cfg.max_grad_norm,
        warmup_steps=cfg.warmup_steps,
        lr_scheduler_type="linear",
        optim="adamw_torch_fused",  # the default, and the optimizer of our loop
        seed=cfg.seed,
        logging_strategy="no",
        save_strategy="no",
        report_to=[],
        use_cpu=True,
        dataloader_num_workers=0,
        disable_tqdm=True,
    )
    trainer = Trainer(
        model=model,
        args=arguments,
        train_dataset=examples,
        data_collator=collator,
        callbacks=[clock],
    )
    trainer.train()
    tokens = sum(collator.batch_tokens[accumulation:])  # steps 2..steps
    return tokens / (clock.marks[steps] - clock.marks[1])


def resume_timings(base: Path, lines: list[str], work: Path) -> tuple[float, float]:
    """(checkpoint save seconds, resume overhead seconds), each the minimum of 3."""
    text = work / "d_r.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = FineTuneConfig(
        learning_rate=5e-4, batch_size=32, devices=1, line_by_line=True, checkpoint_every=5
    )
    out = work / "killed"
    checkpoints = checkpoint_dir_for(out)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, str(base), str(text), str(out), repr(cfg.to_dict())],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    while not any(checkpoints.glob("step-*/meta.json")):
        if child.poll() is not None:
            raise RuntimeError("the fine-tuning ended before its first checkpoint")
        time.sleep(0.005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()

    meta = json.loads(next(checkpoints.glob("step-*/meta.json")).read_text(encoding="utf-8"))
    fingerprint = meta["fingerprint"]
    n_examples = fingerprint["n_examples"]
    saves, restores = [], []
    for _ in range(3):
        model, _ = load_mlm(str(base), attn_implementation=None)
        order = epoch_order(cfg, n_examples)
        optimizer, scheduler = optimizer_and_schedule(
            model, cfg, cfg.epochs * order.steps_per_epoch
        )
        generator = torch.Generator().manual_seed(cfg.seed)
        start = time.perf_counter()
        state = resume(
            checkpoints,
            fingerprint,
            model=model,
            optimizer=optimizer,
            scheduler=scheduler,
            grad_scaler=None,
            order=order,
            mask_generator=generator,
        )
        restores.append(time.perf_counter() - start)
        assert state is not None and state.step >= cfg.checkpoint_every
        spare = work / "spare"
        start = time.perf_counter()
        save_checkpoint(
            spare,
            loop_state=LoopState(step=state.step),
            fingerprint=fingerprint,
            model=model,
            optimizer=optimizer,
            scheduler=scheduler,
            grad_scaler=None,
            order_state=order.state_dict(),
            mask_generator=generator,
        )
        saves.append(time.perf_counter() - start)
    return min(saves), min(restores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=REPO / "config" / "config.yaml")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=32, help="per device")
    parser.add_argument("--devices", type=int, default=1, help="emulated by accumulation")
    parser.add_argument(
        "--micro-batch-size",
        type=int,
        default=None,
        help="our examples per forward pass (default: --batch-size, as the Trainer)",
    )
    args = parser.parse_args()

    settings = load_yaml(args.config).get("mlm_training", {})
    shape = MLMTrainingConfig(**{**settings, "threads": 1})
    torch.set_num_threads(1)
    lines, _ = monolingual_corpus(balanced(0, n_monolingual=args.lines), "en")
    tokenizer = tokenizer_from_lines(
        iter(lines), shape.vocab_size, lowercase=True, model_max_length=shape.max_length
    )
    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        base = work / "base"
        BertForMaskedLM(bert_config(shape, len(tokenizer), tokenizer.pad_token_id)).save_pretrained(
            base
        )
        tokenizer.save_pretrained(base)
        model = AutoModelForMaskedLM.from_pretrained(base)  # the same load on both sides
        cfg = FineTuneConfig(
            learning_rate=5e-4,
            batch_size=args.batch_size,
            devices=args.devices,
            micro_batch_size=args.micro_batch_size,
            line_by_line=True,
            max_seq_length=shape.max_length,
        )
        sequences = encode_lines(lines, tokenizer, shape.max_length).sequences
        ours, trainer = [], []
        for _ in range(args.repeats):
            ours.append(time_ours(model, tokenizer, sequences, cfg, args.steps))
            trainer.append(time_trainer(model, tokenizer, sequences, cfg, args.steps, work / "t"))
        save_s, resume_s = resume_timings(base, lines, work)
    best_ours, best_trainer = max(ours), max(trainer)  # max throughput = min time
    print(f"tokens_per_s_ours={best_ours:.0f}")
    print(f"tokens_per_s_trainer={best_trainer:.0f}")
    print(f"ours_over_trainer={best_ours / best_trainer:.2f}")
    print(f"checkpoint_save_s={save_s:.3f}")
    print(f"resume_overhead_s={resume_s:.3f}")
    print(f"# runs ours={[round(x) for x in ours]} trainer={[round(x) for x in trainer]}")
    print(
        f"# model shape {shape}; {len(sequences)} lines, batch {cfg.batch_size} x "
        f"{args.devices} devices, ours {cfg.micro_batch_size or cfg.batch_size} per pass"
    )


if __name__ == "__main__":
    main()
