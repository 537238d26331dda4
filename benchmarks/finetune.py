"""Benchmark of masked-LM fine-tuning: our loop against the Hugging Face ``Trainer``.

Prints one ``name=value`` per line, measured in one run:

- ``tokens_per_s_ours``: training throughput of :func:`mgbias.mlm.loop.train_steps` (the
  loop of :func:`mgbias.finetune.train.finetune_mlm`: masking, the MLM head at the
  masked positions only, AdamW, linear schedule, gradient clipping), with the
  fine-tuning's default deterministic algorithms
  (:func:`mgbias.mlm.determinism.deterministic_training`);
- ``tokens_per_s_trainer``: the same model, data, batch, optimizer, schedule and
  number of steps through ``transformers.Trainer`` with
  ``DataCollatorForLanguageModeling`` (the paper's ``run_mlm.py`` setup);
- ``ours_over_trainer``: their ratio, from process CPU time (see Timing);
  ``ours_over_trainer_wall``: the same from wall time;
- ``checkpoint_save_s``: writing one checkpoint
  (:func:`mgbias.finetune.checkpoint.save_checkpoint`);
- ``resume_overhead_s``: what resuming adds to a fresh start, after a kill: finding the
  newest checkpoint of a run SIGKILLed after its first checkpoint, loading it and
  restoring the model, optimizer, schedule and random generators
  (:func:`mgbias.finetune.checkpoint.resume`). The lost work since that checkpoint is
  at most ``checkpoint_every`` steps and is not counted.

With ``--levers``, also the speed-ups of options of the loop, ours against ours:

- ``optimizer_fused_over_foreach``: time of one AdamW update of the model's weights
  with the multi-tensor (``foreach=True``) implementation over the fused one
  (``fused=True``, what :func:`mgbias.finetune.train.optimizer_and_schedule` uses);
- ``group_by_length_speedup``: tokens per second with ``group_by_length`` over
  without, on lines of 1 to ``--join`` sentences (default 3), so of varied lengths;
- ``compile_speedup``: tokens per second with ``compile`` (``torch.compile`` of the
  encoder) over without, timed after ``--compile-warmup`` steps (default 10), once
  the compiler has seen the batch shapes.

Tokens are the real (non-padding) tokens of the batches, counted on each side. The model
has the shape of ``mlm_training`` in the configuration given with ``--config`` (default
``config/config.yaml``), random weights and a WordPiece vocabulary learnt from the demo
world's English text; the data are ``--lines`` sentences of that text, line by line.
Each side is timed from the end of its first step to the end of step ``--steps``
(steady state, setup excluded), ``--repeats`` times alternating A B A B; the minimum of
each is used. One thread, as the workflow's training jobs.

Timing. On a CPU shared with other work, a single-threaded process that waits for a core
loses wall time but not CPU time, so the ratios on the CPU divide process CPU times
(``time.process_time``), as ``benchmarks/scoring.py`` does; on CUDA, wall times after
``torch.cuda.synchronize``.

:func:`finetune_figures` is the fine-tuning part of ``benchmarks/gpu.py`` (fp32 and
bf16 against the ``Trainer``, and whether deterministic runs repeat; see there), which
runs it as ``python benchmarks/finetune.py --figures full`` (or ``smoke``).
``--profile full|smoke`` prints :func:`profile_figures` instead: where a step's time goes
on each side (host operations, GPU kernels), from :mod:`torch.profiler`.

The ``Trainer`` needs the ``accelerate`` package.

Usage: ``python benchmarks/finetune.py [--config FILE] [--steps N] [--batch-size N]
[--levers] [--figures full|smoke] [--profile full|smoke]``
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import torch
from scoring import Shape
from transformers import (
    AutoModelForMaskedLM,
    BertForMaskedLM,
    DataCollatorForLanguageModeling,
    PrinterCallback,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)

from mgbias.demo.world import balanced, monolingual_corpus
from mgbias.files.yaml_lines import load_yaml
from mgbias.finetune.checkpoint import resume, save_checkpoint
from mgbias.finetune.train import (
    PRECISIONS,
    FineTuneConfig,
    checkpoint_dir_for,
    compile_encoder,
    epoch_order,
    optimizer_and_schedule,
)
from mgbias.mlm.determinism import CUBLAS_WORKSPACE_CONFIG, deterministic_training
from mgbias.mlm.load import load_mlm
from mgbias.mlm.loop import LoopState, Masking, train_steps
from mgbias.mlm.sequences import PackedSequences, encode_lines
from mgbias.mlm.train import MLMTrainingConfig, bert_config
from mgbias.mlm.wordpiece import tokenizer_from_lines

REPO = Path(__file__).resolve().parents[1]
CPU = torch.device("cpu")
KILLED_RUN = """
import sys
from pathlib import Path
from mgbias.finetune.train import FineTuneConfig, finetune_mlm
base, text, out = map(Path, sys.argv[1:4])
finetune_mlm(base, text, out, FineTuneConfig(**eval(sys.argv[4])), threads=1, progress=False)
"""


# --------------------------------------------------------------------------- timing


@dataclass(frozen=True)
class Run:
    """One timed training run: real tokens of the timed steps and their seconds."""

    tokens: int
    wall: float
    cpu: float
    weights: dict[str, torch.Tensor] | None = None

    def rate(self, clock: str) -> float:
        """Tokens per second on ``clock`` ("wall" or "cpu")."""
        return self.tokens / (self.wall if clock == "wall" else self.cpu)


class Marks:
    """Wall and process CPU time at chosen steps (after the GPU's queued work)."""

    def __init__(
        self,
        device: torch.device,
        first: int,
        last: int,
        each_step: Callable[[int], None] | None = None,
    ) -> None:
        self.device, self.first, self.last = device, first, last
        self.each_step = each_step
        self.times: dict[int, tuple[float, float]] = {}

    def step_done(self, step: int) -> None:
        if step in (self.first, self.last):
            if self.device.type == "cuda":
                torch.cuda.synchronize(self.device)
            self.times[step] = (time.perf_counter(), time.process_time())
        if self.each_step is not None:  # after the clock: its own work is not timed
            self.each_step(step)

    def seconds(self) -> tuple[float, float]:
        (wall0, cpu0), (wall1, cpu1) = self.times[self.first], self.times[self.last]
        return wall1 - wall0, cpu1 - cpu0


@contextlib.contextmanager
def strict_fused_attention(device: torch.device) -> Iterator[None]:
    """Strict deterministic algorithms with the attention kernel left to torch: what
    :func:`deterministic_training` does except choosing the math kernel on CUDA (strict
    mode makes the fused kernels' backward passes take their deterministic paths)."""
    if device.type == "cuda":
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", CUBLAS_WORKSPACE_CONFIG)
    previous = torch.are_deterministic_algorithms_enabled()
    try:
        torch.use_deterministic_algorithms(True)
        yield
    finally:
        torch.use_deterministic_algorithms(previous)


def determinism(device: torch.device, mode: str):
    """The context of a run: ``"on"`` (the fine-tuning default), ``"off"`` or
    ``"strict_fused"`` (:func:`strict_fused_attention`)."""
    if mode == "strict_fused":
        return strict_fused_attention(device)
    return deterministic_training(device, mode == "on")


# --------------------------------------------------------------------------- the two sides


def time_ours(
    model,
    tokenizer,
    sequences: PackedSequences,
    cfg: FineTuneConfig,
    steps: int,
    *,
    device: torch.device = CPU,
    mode: str = "on",
    first: int = 1,
    keep_weights: bool = False,
    each_step: Callable[[int], None] | None = None,
) -> Run:
    """Our loop from ``model``'s weights (copied), timed over steps ``first + 1..steps``;
    ``each_step`` is called with the number of every step when it ends."""
    model = copy.deepcopy(model).to(device).train()
    if cfg.compile:
        compile_encoder(model)
    optimizer, scheduler = optimizer_and_schedule(model, cfg, steps)
    order = epoch_order(cfg, len(sequences), np.diff(sequences.offsets))
    tokens = sum(
        int(sequences.offsets[m + 1].sum() - sequences.offsets[m].sum())
        for step in range(first + 1, steps + 1)
        for m in order.micro_batches(step)
    )
    marks = Marks(device, first, steps, each_step)
    torch.manual_seed(cfg.seed)  # dropout
    with determinism(device, mode):
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
            autocast_dtype=PRECISIONS[cfg.precision],
            on_step=lambda state: marks.step_done(state.step),
            progress=False,
        )
    wall, cpu = marks.seconds()
    weights = None
    if keep_weights:
        weights = {name: value.detach().cpu().clone() for name, value in model.state_dict().items()}
    return Run(tokens, wall, cpu, weights)


class _Clock(TrainerCallback):
    def __init__(self, marks: Marks) -> None:
        self.marks = marks

    def on_step_end(self, args, state, control, **kwargs):
        self.marks.step_done(state.global_step)


class _CountingCollator(DataCollatorForLanguageModeling):
    """The stock collator; also counts the real tokens of each batch it makes."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.batch_tokens: list[int] = []

    def __call__(self, examples, return_tensors=None):
        batch = super().__call__(examples, return_tensors)
        self.batch_tokens.append(int(batch["attention_mask"].sum()))
        return batch


def time_trainer(
    model,
    tokenizer,
    sequences: PackedSequences,
    cfg: FineTuneConfig,
    steps: int,
    out: Path,
    *,
    device: torch.device = CPU,
    first: int = 1,
    each_step: Callable[[int], None] | None = None,
) -> Run:
    """``Trainer`` + ``DataCollatorForLanguageModeling``, timed over steps
    ``first + 1..steps``; bf16
    autocast (``bf16=True``) when ``cfg.precision`` is ``"bf16"``; ``each_step`` as in
    :func:`time_ours`."""
    model = copy.deepcopy(model).train()
    examples = [
        {"input_ids": sequences.ids[start:end].tolist()}
        for start, end in zip(sequences.offsets[:-1], sequences.offsets[1:], strict=True)
    ]
    collator = _CountingCollator(tokenizer, mlm_probability=cfg.mlm_probability, seed=cfg.seed)
    marks = Marks(device, first, steps, each_step)
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
        bf16=cfg.precision == "bf16",
        logging_strategy="no",
        save_strategy="no",
        report_to=[],
        use_cpu=device.type == "cpu",
        dataloader_num_workers=0,
        disable_tqdm=True,
    )
    trainer = Trainer(
        model=model,
        args=arguments,
        train_dataset=examples,
        data_collator=collator,
        callbacks=[_Clock(marks)],
    )
    trainer.remove_callback(PrinterCallback)  # its summary line would break name=value output
    trainer.train()
    # steps first + 1..steps; the data loader may have made a batch ahead of the last step
    tokens = sum(collator.batch_tokens[first * accumulation : steps * accumulation])
    wall, cpu = marks.seconds()
    return Run(tokens, wall, cpu)


# --------------------------------------------------------------------------- data


def joined_lines(sentences: list[str], n_lines: int, most: int, seed: int) -> list[str]:
    """``n_lines`` lines of 1 to ``most`` sentences drawn from ``sentences`` (seeded), so
    that the lines' lengths vary as a real text's do."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, most + 1, size=n_lines)
    return [" ".join(rng.choice(sentences, size=count)) for count in counts]


# --------------------------------------------------------------------------- the GPU part


@dataclass(frozen=True)
class FinetuneSize:
    """Model and work of :func:`finetune_figures`."""

    layers: int
    hidden: int
    heads: int
    intermediate: int
    vocabulary: int
    max_length: int
    most_sentences: int
    lines: int
    steps: int
    batch_size: int


#: bert-base: 12 layers, hidden 768, vocabulary 30,522; 300 steps of 32 lines of up to
#: 128 tokens (a GPU run)
FULL = FinetuneSize(12, 768, 12, 3072, 30_522, 128, 12, 2000, 300, 32)
#: CI size: seconds on a CPU
SMOKE = FinetuneSize(2, 64, 2, 128, 2000, 32, 3, 400, 12, 8)


def finetune_figures(
    size: FinetuneSize, device: torch.device, work: Path, repeats: int = 1
) -> dict[str, object]:
    """Our fine-tuning loop against the ``Trainer`` on ``device``, in fp32 and in bf16,
    and the repeatability and cost of deterministic runs.

    Figures (rates in real tokens per second; ratios on process CPU time on a CPU, wall
    time on CUDA; the best of ``repeats`` rounds, A B A B):

    - ``finetune_tokens_per_s_{ours,trainer}_{fp32,bf16}`` and
      ``finetune_vs_trainer_{fp32,bf16}`` (ours over the ``Trainer``): ours as the
      workflow runs it, deterministic; bf16 is autocast on both sides (the ``Trainer``
      with ``bf16=True``);
    - ``finetune_deterministic_repeats``: 1 if two deterministic fp32 runs end with
      equal weights (``torch.equal`` on every tensor), else 0;
    - ``finetune_deterministic_cost``: time of a deterministic fp32 run over a
      non-deterministic one (the cuBLAS workspace setting, made by the first
      deterministic run, holds for the rest of the process: the cost leaves it out);
    - ``finetune_deterministic_repeats_fused_attention`` and
      ``finetune_deterministic_cost_fused_attention``: the same with strict
      deterministic algorithms but the attention kernel left to torch
      (:func:`strict_fused_attention`); on a CPU they equal the deterministic run.
    - On CUDA only, ``torch.compile`` of the encoder (``compile: true``), the lever
      against a step bound by its ~950 kernels' host overhead (both loops launch the
      same number: measured on a CPU with a dispatch counter):
      ``finetune_compiled_vs_trainer_fp32`` and
      ``finetune_tokens_per_s_ours_compiled_fp32`` (deterministic,
      timed after :data:`COMPILE_WARMUP` steps, which the compiler spends on the batch
      shapes), or ``finetune_compiled_error`` if the compiler fails there.
    """
    clock = "wall" if device.type == "cuda" else "cpu"
    model, tokenizer, sequences, fp32 = _bench_setup(size, work)
    bf16 = replace(fp32, precision="bf16")
    runs: dict[str, list[Run]] = {}

    def ours(name: str, cfg: FineTuneConfig, mode: str, keep: bool = False) -> None:
        run = time_ours(
            model,
            tokenizer,
            sequences,
            cfg,
            size.steps,
            device=device,
            mode=mode,
            keep_weights=keep,
        )
        runs.setdefault(name, []).append(run)

    def trainer(name: str, cfg: FineTuneConfig) -> None:
        run = time_trainer(model, tokenizer, sequences, cfg, size.steps, work / name, device=device)
        runs.setdefault(name, []).append(run)

    for round_ in range(repeats):
        first = round_ == 0
        ours("ours_fp32", fp32, "on", keep=first)
        trainer("trainer_fp32", fp32)
        ours("ours_bf16", bf16, "on")
        trainer("trainer_bf16", bf16)
        ours("free_fp32", fp32, "off")
        ours("fused_fp32", fp32, "strict_fused", keep=first)
    ours("ours_fp32", fp32, "on", keep=True)  # the repeat
    ours("fused_fp32", fp32, "strict_fused", keep=True)

    def best(name: str) -> float:
        return max(run.rate(clock) for run in runs[name])

    def repeats_exactly(name: str) -> int:
        one, other = runs[name][0].weights, runs[name][-1].weights
        return int(all(torch.equal(one[key], other[key]) for key in one))

    figures: dict[str, object] = {}
    for precision in ("fp32", "bf16"):
        ours_rate, trainer_rate = best(f"ours_{precision}"), best(f"trainer_{precision}")
        figures[f"finetune_tokens_per_s_ours_{precision}"] = round(ours_rate)
        figures[f"finetune_tokens_per_s_trainer_{precision}"] = round(trainer_rate)
        figures[f"finetune_vs_trainer_{precision}"] = round(ours_rate / trainer_rate, 3)
    figures["finetune_deterministic_repeats"] = repeats_exactly("ours_fp32")
    figures["finetune_deterministic_cost"] = round(best("free_fp32") / best("ours_fp32"), 3)
    figures["finetune_deterministic_repeats_fused_attention"] = repeats_exactly("fused_fp32")
    figures["finetune_deterministic_cost_fused_attention"] = round(
        best("free_fp32") / best("fused_fp32"), 3
    )
    if device.type == "cuda":
        figures.update(_compiled_figures(model, tokenizer, sequences, fp32, size, device))
        compiled = figures.get("finetune_tokens_per_s_ours_compiled_fp32")
        if compiled is not None:
            ratio = compiled / best("trainer_fp32")
            figures["finetune_compiled_vs_trainer_fp32"] = round(ratio, 3)
    figures["finetune_tokens_per_step"] = round(
        float(np.mean(np.diff(sequences.offsets))) * size.batch_size
    )
    return figures


def _bench_setup(size: FinetuneSize, work: Path):
    """The model (random weights, saved and loaded as both sides load it), its tokenizer,
    the training lines and the fp32 settings of :func:`finetune_figures` at ``size``."""
    sentences, _ = monolingual_corpus(balanced(0, n_monolingual=2000), "en")
    lines = joined_lines(sentences, size.lines, size.most_sentences, seed=0)
    tokenizer = tokenizer_from_lines(
        iter(sentences), size.vocabulary, lowercase=True, model_max_length=size.max_length
    )
    torch.manual_seed(0)
    shape = Shape(size.layers, size.hidden, size.heads, size.intermediate, size.vocabulary)
    config = shape.bert_config(pad_token_id=tokenizer.pad_token_id)
    base = work / "finetune-base"
    BertForMaskedLM(config).save_pretrained(base)
    model = AutoModelForMaskedLM.from_pretrained(base)  # the same load on both sides
    sequences = encode_lines(lines, tokenizer, size.max_length).sequences
    fp32 = FineTuneConfig(
        batch_size=size.batch_size,
        devices=1,
        line_by_line=True,
        max_seq_length=size.max_length,
        checkpoint_every=0,
    )
    return model, tokenizer, sequences, fp32


#: Untimed first steps of a compiled run (the compiler sees the batch shapes).
COMPILE_WARMUP = 10


def _compiled_figures(model, tokenizer, sequences, cfg, size, device) -> dict[str, object]:
    """Tokens per second of our deterministic fp32 loop with the encoder compiled."""
    try:
        run = time_ours(
            model,
            tokenizer,
            sequences,
            replace(cfg, compile=True),
            size.steps,
            device=device,
            mode="on",
            first=COMPILE_WARMUP,
        )
    except Exception as error:  # a compiler missing or failing on this node: say so
        message = " ".join(f"{type(error).__name__}: {error}".split())
        return {"finetune_compiled_error": message[:200]}
    return {"finetune_tokens_per_s_ours_compiled_fp32": round(run.rate("wall"))}


# --------------------------------------------------------------------------- profile

#: Steps of a profiled run: skipped, then recorded untimed (the profiler's warm-up),
#: then recorded (:func:`profile_figures`).
PROFILE_WAIT, PROFILE_WARMUP, PROFILE_ACTIVE = 1, 2, 5


def profile_figures(size: FinetuneSize, device: torch.device, work: Path) -> dict[str, object]:
    """Where a training step's time goes, ours (deterministic fp32, as the workflow runs it)
    and the ``Trainer``'s (fp32), from :mod:`torch.profiler` over
    :data:`PROFILE_ACTIVE` steps after :data:`PROFILE_WAIT` + :data:`PROFILE_WARMUP`.

    Per step, for ``side`` ``ours`` and ``trainer``:

    - ``finetune_profile_{side}_step_ms``: wall time (under the profiler, which adds its
      own host time to every operation);
    - ``finetune_profile_{side}_ops``: operations the host dispatched (top-level torch
      operations: a call from Python, not the operations it runs inside);
    - ``finetune_profile_{side}_host_ms``: time inside those operations on the host
      (dispatch, and on a CPU the arithmetic too);
    - ``finetune_profile_{side}_kernels`` and ``finetune_profile_{side}_device_ms``: GPU
      kernels launched and their summed run time (0 on a CPU).

    A step whose ``device_ms`` is well below its ``step_ms`` waits on the host; one whose
    ``host_ms`` is below its ``step_ms`` spends the rest in Python outside torch (data,
    masking, the loop). The five operations of most host time of each side are printed
    as ``#`` lines; a profiler that fails on the node gives ``finetune_profile_error``.
    """
    model, tokenizer, sequences, fp32 = _bench_setup(size, work)
    steps = PROFILE_WAIT + PROFILE_WARMUP + PROFILE_ACTIVE
    first = steps - PROFILE_ACTIVE

    def ours(each_step: Callable[[int], None]) -> Run:
        return time_ours(
            model,
            tokenizer,
            sequences,
            fp32,
            steps,
            device=device,
            first=first,
            each_step=each_step,
        )

    def trainer(each_step: Callable[[int], None]) -> Run:
        out = work / "profile-trainer"
        return time_trainer(
            model, tokenizer, sequences, fp32, steps, out, device=device, first=first,
            each_step=each_step,
        )  # fmt: skip

    figures: dict[str, object] = {}
    for side, train in (("ours", ours), ("trainer", trainer)):
        try:
            events, run = _profiled(train, device)
        except Exception as error:  # no profiler (CUPTI) on the node: say so, go on
            message = " ".join(f"{type(error).__name__}: {error}".split())
            return {**figures, "finetune_profile_error": f"{side}: {message}"[:200]}
        figures.update(_profile_summary(side, events, run))
    return figures


def _profiled(train: Callable[[Callable[[int], None]], Run], device: torch.device):
    """``train(each_step)`` under :mod:`torch.profiler`: the events of its recorded steps
    and its :class:`Run`."""
    from torch.profiler import ProfilerActivity, profile, schedule

    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    plan = schedule(wait=PROFILE_WAIT, warmup=PROFILE_WARMUP, active=PROFILE_ACTIVE, repeat=1)
    recorded: list = []  # the events of the recorded steps, when their window closes
    with profile(
        activities=activities,
        schedule=plan,
        on_trace_ready=lambda done: recorded.append(done.events()),
    ) as profiler:
        run = train(lambda _: profiler.step())
    if not recorded:
        raise RuntimeError("no steps were recorded")
    return recorded[0], run


def _profile_summary(side: str, events, run: Run) -> dict[str, object]:
    """The per-step figures of :func:`profile_figures` from one run's recorded events."""
    from torch.autograd import DeviceType

    def dispatched(event) -> bool:  # a call from Python (or the autograd engine)
        parent = event.cpu_parent
        return parent is None or parent.name.startswith("ProfilerStep")

    top_level = [
        event
        for event in events
        if event.device_type == DeviceType.CPU
        and dispatched(event)
        and not event.name.startswith("ProfilerStep")
    ]
    # a GPU kernel is recorded with the host operation that launched it (``kernels``)
    kernels = [
        kernel
        for event in events
        if event.device_type == DeviceType.CPU
        for kernel in event.kernels
    ]
    per_step = 1 / PROFILE_ACTIVE
    figures: dict[str, object] = {
        f"finetune_profile_{side}_step_ms": round(run.wall * 1000 * per_step, 2),
        f"finetune_profile_{side}_ops": round(len(top_level) * per_step),
        f"finetune_profile_{side}_host_ms": round(
            sum(event.cpu_time_total for event in top_level) / 1000 * per_step, 2
        ),
        f"finetune_profile_{side}_kernels": round(len(kernels) * per_step),
        f"finetune_profile_{side}_device_ms": round(
            sum(kernel.duration for kernel in kernels) / 1000 * per_step, 2
        ),
    }
    totals: dict[str, float] = {}
    for event in top_level:
        totals[event.name] = totals.get(event.name, 0.0) + event.cpu_time_total
    for name, total in sorted(totals.items(), key=lambda item: -item[1])[:5]:
        print(f"# {side}: {name} {total / 1000 * per_step:.2f} ms a step", flush=True)
    return figures


# --------------------------------------------------------------------------- levers


def optimizer_ratio(model, repeats: int = 5, updates: int = 20) -> float:
    """Time of a ``foreach`` AdamW update over a fused one, on ``model``'s weights with
    random gradients (process CPU time, the best of ``repeats``)."""
    model = copy.deepcopy(model)
    generator = torch.Generator().manual_seed(0)
    for parameter in model.parameters():
        parameter.grad = torch.randn(parameter.shape, generator=generator)
    seconds: dict[str, float] = {}
    for _ in range(repeats):
        for kind in ("fused", "foreach"):
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, **{kind: True})
            optimizer.step()  # state allocated
            start = time.process_time()
            for _ in range(updates):
                optimizer.step()
            elapsed = time.process_time() - start
            seconds[kind] = min(seconds.get(kind, elapsed), elapsed)
    return seconds["foreach"] / seconds["fused"]


def lever_speedups(
    model, tokenizer, lines: list[str], cfg: FineTuneConfig, args: argparse.Namespace
) -> dict[str, float]:
    """``group_by_length_speedup`` and ``compile_speedup`` (CPU time, best of repeats)."""
    long_lines = joined_lines(lines, len(lines), args.join, seed=1)
    joined = encode_lines(long_lines, tokenizer, cfg.max_seq_length).sequences
    plain = encode_lines(lines, tokenizer, cfg.max_seq_length).sequences
    cases = {
        "plain_joined": (joined, cfg, 1),
        "grouped_joined": (joined, replace(cfg, group_by_length=True), 1),
        "plain_warm": (plain, cfg, args.compile_warmup),
        "compiled_warm": (plain, replace(cfg, compile=True), args.compile_warmup),
    }
    steps = {name: first + args.steps - 1 for name, (_, _, first) in cases.items()}
    rates: dict[str, float] = {}
    for _ in range(args.repeats):
        for name, (sequences, case, first) in cases.items():
            run = time_ours(model, tokenizer, sequences, case, steps[name], first=first)
            rates[name] = max(rates.get(name, 0.0), run.rate("cpu"))
    return {
        "group_by_length_speedup": round(rates["grouped_joined"] / rates["plain_joined"], 3),
        "compile_speedup": round(rates["compiled_warm"] / rates["plain_warm"], 3),
    }


# --------------------------------------------------------------------------- resuming


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


def print_figures(size: FinetuneSize, figures=None) -> None:
    """Print ``figures`` (:func:`finetune_figures`, or :func:`profile_figures`) on CUDA
    when available, else on the CPU (one thread), as ``name=value`` lines. A process of
    its own, as a workflow job is: ``CUBLAS_WORKSPACE_CONFIG`` is then set before the
    process's first cuBLAS call."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory(prefix="mgbias-finetune-bench-") as scratch:
        results = (figures or finetune_figures)(size, device, Path(scratch))
        for name, value in results.items():
            print(f"{name}={value}", flush=True)


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
    parser.add_argument("--levers", action="store_true", help="also the options' speed-ups")
    parser.add_argument("--join", type=int, default=3, help="most sentences per line (levers)")
    parser.add_argument("--compile-warmup", type=int, default=10, help="untimed steps (levers)")
    parser.add_argument(
        "--figures",
        choices=("full", "smoke"),
        default=None,
        help="print only finetune_figures at this size, on CUDA when available",
    )
    parser.add_argument(
        "--profile",
        choices=("full", "smoke"),
        default=None,
        help="print only profile_figures at this size, on CUDA when available",
    )
    args = parser.parse_args()
    if args.figures:
        print_figures(FULL if args.figures == "full" else SMOKE)
        return
    if args.profile:
        print_figures(FULL if args.profile == "full" else SMOKE, profile_figures)
        return

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
        levers = lever_speedups(model, tokenizer, lines, cfg, args) if args.levers else {}
    best = {
        clock: (max(r.rate(clock) for r in ours), max(r.rate(clock) for r in trainer))
        for clock in ("cpu", "wall")
    }
    print(f"tokens_per_s_ours={best['cpu'][0]:.0f}")
    print(f"tokens_per_s_trainer={best['cpu'][1]:.0f}")
    print(f"ours_over_trainer={best['cpu'][0] / best['cpu'][1]:.2f}")
    print(f"ours_over_trainer_wall={best['wall'][0] / best['wall'][1]:.2f}")
    print(f"checkpoint_save_s={save_s:.3f}")
    print(f"resume_overhead_s={resume_s:.3f}")
    if args.levers:
        print(f"optimizer_fused_over_foreach={optimizer_ratio(model):.2f}")
        for name, value in levers.items():
            print(f"{name}={value}")
    print(
        f"# runs (CPU clock) ours={[round(r.rate('cpu')) for r in ours]} "
        f"trainer={[round(r.rate('cpu')) for r in trainer]}"
    )
    print(
        f"# model shape {shape}; {len(sequences)} lines, batch {cfg.batch_size} x "
        f"{args.devices} devices, ours {cfg.micro_batch_size or cfg.batch_size} per pass"
    )


if __name__ == "__main__":
    main()
