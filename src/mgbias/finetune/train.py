"""Masked-LM fine-tuning of any Hugging Face MLM on a text (Kaneko et al. 2023, §3.1).

The paper fine-tunes ``bert-base-uncased`` and ``albert-base-v2`` on each D_r "with
masked language model learning", using the Transformers library v4.22.2 with "all
hyperparameters set to their default values", on four GPUs. Those defaults are the ones of
the library's ``run_mlm.py`` example (its ``Trainer``), written out in
:class:`FineTuneConfig`: learning rate 5e-5, 3 epochs, batch 8 per device, AdamW
(β = 0.9, 0.999, ε = 1e-8, no weight decay), linear decay to zero without warm-up,
gradient-norm clipping at 1.0, 15% masking with the 80/10/10 rule, the text grouped
into blocks of ``min(model_max_length, 1024)`` tokens (512 for both models), seed 42,
full precision.

Devices and the effective batch
-------------------------------
On four devices, data-parallel training averages four per-device batches of 8: an
effective batch of 32. One device reproduces it by gradient accumulation: each step takes
``batch_size * devices * gradient_accumulation`` examples, computes the loss of each
``batch_size`` micro-batch and averages them (:func:`mgbias.mlm.loop.train_steps`). The
effective batch is therefore independent of the hardware the run lands on.

Differences from ``run_mlm.py`` that do not change what is learnt
------------------------------------------------------------------
- The examples are visited in ``numpy.random.default_rng([seed, epoch]).permutation``
  order (the ``Trainer`` draws its order from a torch generator), so a resumed run
  knows the order from the step number alone.
- The MLM head runs only at the masked positions (:func:`mgbias.mlm.loop.masked_lm_loss`;
  the loss and its gradients are the same).
- The last step of an epoch uses the examples that are left (the effective batch is
  smaller), and the step count is ``epochs * ceil(n_examples / effective_batch)``.

Checkpoints and resuming
------------------------
Every ``checkpoint_every`` steps the full training state is saved next to the output
(:mod:`mgbias.finetune.checkpoint`); a new run with the same configuration, base model
and text resumes from the newest one, and its final weights are identical to those of an
uninterrupted run on the same machine (the test kills a run with SIGKILL).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import PreTrainedTokenizerBase, get_linear_schedule_with_warmup

from mgbias.files.atomic import atomic_directory
from mgbias.finetune.checkpoint import remove_checkpoints, resume, save_checkpoint
from mgbias.finetune.settings import FineTuneConfig
from mgbias.mlm.determinism import deterministic_training
from mgbias.mlm.heads import mlm_encoder_and_head
from mgbias.mlm.load import load_mlm, model_revision
from mgbias.mlm.loop import EpochOrder, LoopState, Masking, evaluate_mlm_loss, train_steps
from mgbias.mlm.precision import PRECISIONS, check_precision
from mgbias.mlm.sequences import Encoded, encode_lines, group_blocks
from mgbias.mlm.text_lines import iter_text_lines
from mgbias.mlm.unmasked import default_max_length

__all__ = [
    "PRECISIONS",
    "FineTuneConfig",
    "checkpoint_dir_for",
    "compile_encoder",
    "epoch_order",
    "finetune_mlm",
    "optimizer_and_schedule",
]

log = logging.getLogger(__name__)

_RUN_MLM_MAX_LENGTH = 1024  # run_mlm.py caps the tokenizer's maximum at 1024


def optimizer_and_schedule(
    model: torch.nn.Module, cfg: FineTuneConfig, steps: int
) -> tuple[torch.optim.AdamW, torch.optim.lr_scheduler.LambdaLR]:
    """AdamW with ``cfg``'s settings and the linear schedule (warm-up, then decay to 0).

    The fused AdamW kernel is used on the CPU and on CUDA (the ``Trainer``'s default
    optimizer in current transformers, ``adamw_torch_fused``): the same update, several
    times faster on the CPU than the per-tensor loop and than the multi-tensor
    (``foreach``) one (``optimizer_fused_over_foreach`` of ``benchmarks/finetune.py
    --levers``: 4 with the demo's 2-layer model).
    """
    optimizer = torch.optim.AdamW(
        model.parameters(),
        lr=cfg.learning_rate,
        betas=(cfg.adam_beta1, cfg.adam_beta2),
        eps=cfg.adam_epsilon,
        weight_decay=cfg.weight_decay,
        fused=True,
    )
    return optimizer, get_linear_schedule_with_warmup(optimizer, cfg.warmup_steps, steps)


def epoch_order(
    cfg: FineTuneConfig, n_examples: int, lengths: np.ndarray | None = None
) -> EpochOrder:
    """The example order of a fine-tuning: steps of the effective batch, passes of
    ``micro_batch_size``, loss groups of ``batch_size`` (one per emulated device batch);
    with ``cfg.group_by_length``, grouped by the examples' ``lengths`` (required then)."""
    if cfg.group_by_length and lengths is None:
        raise ValueError("epoch_order: group_by_length needs the examples' lengths")
    return EpochOrder(
        n_examples,
        cfg.effective_batch_size,
        cfg.micro_batch_size or cfg.batch_size,
        cfg.seed,
        group_size=cfg.batch_size,
        lengths=lengths if cfg.group_by_length else None,
    )


def compile_encoder(model: torch.nn.Module) -> None:
    """Compile ``model``'s encoder in place (``torch.compile``, dynamic shapes: batches
    are padded to their longest example). The weights and their names are unchanged, so
    checkpoints and the saved model are those of an uncompiled run."""
    encoder, _ = mlm_encoder_and_head(model)
    encoder.compile(dynamic=True)


def checkpoint_dir_for(out_dir: Path) -> Path:
    """Default checkpoint directory of an output directory: ``<out_dir>.checkpoints``."""
    out_dir = Path(out_dir)
    return out_dir.with_name(out_dir.name + ".checkpoints")


# --------------------------------------------------------------------------- helpers


def _files(text: Path | str | Sequence[Path | str]) -> list[Path]:
    return [Path(text)] if isinstance(text, str | Path) else [Path(path) for path in text]


def _sequence_length(cfg: FineTuneConfig, tokenizer: PreTrainedTokenizerBase, model: Any) -> int:
    """``cfg.max_seq_length``, or ``run_mlm.py``'s ``min(model_max_length, 1024)``, capped
    by what the model accepts (:func:`mgbias.mlm.unmasked.default_max_length`)."""
    accepted = default_max_length(model, tokenizer)
    if cfg.max_seq_length is None:
        return min(accepted, _RUN_MLM_MAX_LENGTH)
    if cfg.max_seq_length > accepted:
        raise ValueError(
            f"max_seq_length {cfg.max_seq_length} is longer than the model accepts "
            f"({accepted} tokens: its tokenizer's model_max_length and position embeddings)"
        )
    return cfg.max_seq_length


def _encode(
    files: list[Path], tokenizer: PreTrainedTokenizerBase, cfg: FineTuneConfig, length: int
) -> Encoded:
    lines = iter_text_lines(files)
    if cfg.line_by_line:
        return encode_lines(lines, tokenizer, length)
    return group_blocks(lines, tokenizer, length, cfg.group_lines)


def _weights_sha256(path: Path) -> str | None:
    """sha256 of a local model directory's weight files (concatenated in name order; one
    file's own sha256), or ``None`` for a hub id."""
    if not path.is_dir():
        return None
    digest = hashlib.sha256()
    for weights in sorted(path.iterdir()):
        if weights.suffix in (".safetensors", ".bin"):
            with open(weights, "rb") as handle:
                while chunk := handle.read(1 << 24):
                    digest.update(chunk)
    return digest.hexdigest()


@contextlib.contextmanager
def _training_environment(
    device: torch.device, threads: int | None, deterministic: bool
) -> Iterator[None]:
    """Deterministic (or free) algorithms, a thread count, and the caller's random
    states kept."""
    previous_threads = torch.get_num_threads()
    python_state, numpy_state = random.getstate(), np.random.get_state()
    cuda = [device.index or 0] if device.type == "cuda" else []
    try:
        if threads is not None:
            torch.set_num_threads(threads)
        with deterministic_training(device, deterministic), torch.random.fork_rng(devices=cuda):
            yield
    finally:
        torch.set_num_threads(previous_threads)
        random.setstate(python_state)
        np.random.set_state(numpy_state)


def _training_texts(
    files: list[Path],
    dev_files: list[Path],
    tokenizer: PreTrainedTokenizerBase,
    cfg: FineTuneConfig,
    length: int,
) -> tuple[Encoded, Encoded | None]:
    """The training and (with ``dev_files``) development examples; ValueError naming the
    files when either gives none."""
    train = _encode(files, tokenizer, cfg, length)
    if len(train.sequences) == 0:
        raise ValueError(
            f"{', '.join(map(str, files))}: {train.n_lines} lines give no training example "
            f"(a block needs {length} tokens; use line_by_line or a shorter max_seq_length)"
        )
    dev = _encode(dev_files, tokenizer, cfg, length) if dev_files else None
    if dev is not None and len(dev.sequences) == 0:
        raise ValueError(
            f"{', '.join(map(str, dev_files))}: {dev.n_lines} development lines give "
            f"no example (a block needs {length} tokens)"
        )
    return train, dev


def _development_loss(
    network: Any,
    dev: Encoded,
    dev_files: list[Path],
    masking: Masking,
    cfg: FineTuneConfig,
    pad_id: int,
    autocast_dtype: torch.dtype | None,
) -> dict[str, Any]:
    """``training.json``'s ``dev``: the masked-LM loss of the development examples (masked
    with the run's seed), with what they were."""
    loss, n_labelled = evaluate_mlm_loss(
        network,
        dev.sequences,
        masking=masking,
        seed=cfg.seed,
        batch_size=cfg.eval_batch_size,
        pad_id=pad_id,
        autocast_dtype=autocast_dtype,
    )
    log.info("development loss %.4f over %d masked tokens", loss, n_labelled)
    return {
        "files": [path.name for path in dev_files],
        "text_sha256": dev.text_sha256,
        "n_lines": dev.n_lines,
        "n_examples": len(dev.sequences),
        "n_labelled": n_labelled,
        "loss": loss,
    }


def _text_record(files: list[Path], train: Encoded) -> dict[str, Any]:
    """``training.json``'s description of the training text."""
    return {
        "text_files": [path.name for path in files],
        "text_sha256": train.text_sha256,
        "n_lines": train.n_lines,
        "n_examples": len(train.sequences),
        "n_tokens": train.sequences.n_tokens,
    }


def _loss_record(history: list[tuple[int, float]]) -> dict[str, Any]:
    """``training.json``'s loss history (mean loss per log window) and final loss."""
    return {
        "loss_history": [{"step": step, "loss": loss} for step, loss in history],
        "final_loss": history[-1][1] if history else float("nan"),
    }


def _save(out_dir: Path, network: Any, tokenizer: Any, summary: dict[str, Any]) -> None:
    """The model, its tokenizer and ``training.json`` in ``out_dir``, all or nothing."""
    with atomic_directory(out_dir) as directory:
        network.save_pretrained(directory)
        tokenizer.save_pretrained(directory)
        (directory / "training.json").write_text(
            json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )


# --------------------------------------------------------------------------- fine-tuning


def finetune_mlm(
    model: str | Path,
    text: Path | str | Sequence[Path | str],
    out_dir: Path | str,
    cfg: FineTuneConfig | None = None,
    *,
    dev: Path | str | Sequence[Path | str] = (),
    revision: str | None = None,
    device: str | None = None,
    threads: int | None = None,
    checkpoint_dir: Path | str | None = None,
    keep_checkpoints: bool = False,
    allow_untrained_head: bool = False,
    progress: bool = True,
) -> Path:
    """Fine-tune a masked LM on a text with the masked-LM objective; save it to ``out_dir``.

    Parameters
    ----------
    model
        A Hugging Face hub id (``"bert-base-uncased"``) or a local model directory.
    text
        Training text: one or more plain or gzip UTF-8 files, one sentence per line (a
        D_r of :func:`mgbias.finetune.mixture.write_mixture`).
    out_dir
        Receives the model and tokenizer (``save_pretrained``) and ``training.json``,
        atomically (:func:`mgbias.files.atomic.atomic_directory`).
    cfg
        Hyper-parameters (default: the paper's, :class:`FineTuneConfig`).
    dev
        Development text, evaluated once at the end for ``dev_loss`` (never for model
        selection); none by default.
    revision
        Hub revision of ``model``.
    device
        ``"cpu"``, ``"cuda"``, ... or ``None``/``"auto"`` (:func:`mgbias.mlm.load.pick_device`).
    threads
        ``torch.set_num_threads`` during the run (restored afterwards).
    checkpoint_dir
        Where checkpoints go (default :func:`checkpoint_dir_for` ``(out_dir)``).
    keep_checkpoints
        Keep the last checkpoint after success (default: remove the directory).
    allow_untrained_head
        Fine-tune a checkpoint without MLM head weights (the head starts at random).
    progress
        Show a progress bar.

    Returns
    -------
    Path
        ``out_dir``.

    ``training.json`` holds the configuration, the effective sequence length and batch,
    the step counts, the base model (name, hub revision, sha256 of a local directory's
    weight files), the training text's sha256 and line, example and token counts, the
    loss history (mean loss per log window), ``final_loss`` and the development loss. It
    does not depend on whether the run was resumed.

    Raises
    ------
    ValueError
        On fp16 without CUDA, a training or development text too short for one block, or
        a ``max_seq_length`` longer than the model accepts.
    """
    cfg = cfg if cfg is not None else FineTuneConfig()
    out_dir = Path(out_dir)
    files, dev_files = _files(text), _files(dev)
    if not files:
        raise ValueError("finetune_mlm: no training text given")
    target = check_precision(cfg.precision, device)  # fp16 needs CUDA
    autocast_dtype = PRECISIONS[cfg.precision]
    checkpoints = checkpoint_dir_for(out_dir) if checkpoint_dir is None else Path(checkpoint_dir)

    with _training_environment(target, threads, cfg.deterministic):
        torch.manual_seed(cfg.seed)  # any weight the checkpoint lacks starts from this seed
        network, tokenizer = load_mlm(
            str(model),
            revision=revision,
            device=target,
            allow_untrained_head=allow_untrained_head,
            attn_implementation=None,
        )
        length = _sequence_length(cfg, tokenizer, network)
        train, dev_data = _training_texts(files, dev_files, tokenizer, cfg, length)
        pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        order = epoch_order(cfg, len(train.sequences), np.diff(train.sequences.offsets))
        steps = cfg.epochs * order.steps_per_epoch
        base = {
            "name": str(model),
            "revision": model_revision(network),
            "weights_sha256": _weights_sha256(Path(model)),
        }
        fingerprint = {
            "config": {**cfg.to_dict(), "checkpoint_every": None},
            "base_model": base,
            "text_sha256": train.text_sha256,
            "n_examples": len(train.sequences),
            "sequence_length": length,
        }
        log.info(
            "fine-tuning %s on %d lines (%d examples of up to %d tokens, %d tokens): "
            "%d steps of %d examples (%d x %d devices x %d accumulation), lr %g",
            model,
            train.n_lines,
            len(train.sequences),
            length,
            train.sequences.n_tokens,
            steps,
            cfg.effective_batch_size,
            cfg.batch_size,
            cfg.devices,
            cfg.gradient_accumulation,
            cfg.learning_rate,
        )

        network.train()
        if cfg.compile:
            compile_encoder(network)
        optimizer, scheduler = optimizer_and_schedule(network, cfg, steps)
        grad_scaler = torch.amp.GradScaler("cuda") if cfg.precision == "fp16" else None
        masking = Masking(
            special_ids=tuple(tokenizer.all_special_ids),
            mask_id=tokenizer.mask_token_id,
            # DataCollatorForLanguageModeling draws replacements from the whole vocabulary.
            random_token_range=(0, len(tokenizer)),
            mlm_probability=cfg.mlm_probability,
        )
        mask_generator = torch.Generator().manual_seed(cfg.seed)
        torch.manual_seed(cfg.seed)
        resumed = resume(
            checkpoints,
            fingerprint,
            model=network,
            optimizer=optimizer,
            scheduler=scheduler,
            grad_scaler=grad_scaler,
            order=order,
            mask_generator=mask_generator,
        )
        loop_state = resumed if resumed is not None else LoopState()
        if resumed is not None:
            log.info("resuming from step %d of %d", resumed.step, steps)

        def checkpoint(current: LoopState) -> None:
            if cfg.checkpoint_every and current.step % cfg.checkpoint_every == 0:
                if current.step < steps:
                    save_checkpoint(
                        checkpoints,
                        loop_state=current,
                        fingerprint=fingerprint,
                        model=network,
                        optimizer=optimizer,
                        scheduler=scheduler,
                        grad_scaler=grad_scaler,
                        order_state=order.state_dict(),
                        mask_generator=mask_generator,
                    )

        loop_state = train_steps(
            network,
            train.sequences,
            order,
            optimizer,
            scheduler,
            masking=masking,
            mask_generator=mask_generator,
            pad_id=pad_id,
            steps=steps,
            log_every=cfg.log_every or max(1, min(100, steps // 20)),
            state=loop_state,
            max_grad_norm=cfg.max_grad_norm,
            autocast_dtype=autocast_dtype,
            grad_scaler=grad_scaler,
            on_step=checkpoint,
            sync_every=cfg.checkpoint_every or None,
            progress=progress,
            desc="MLM fine-tuning",
        )
        network.eval()
        dev_summary = None
        if dev_data is not None:
            dev_summary = _development_loss(
                network, dev_data, dev_files, masking, cfg, pad_id, autocast_dtype
            )

    summary = {
        "base_model": base,
        "config": cfg.to_dict(),
        "sequence_length": length,
        "effective_batch_size": cfg.effective_batch_size,
        "steps": steps,
        "steps_per_epoch": order.steps_per_epoch,
        **_text_record(files, train),
        **_loss_record(loop_state.history),
        "dev": dev_summary,
    }
    _save(out_dir, network, tokenizer, summary)
    if not keep_checkpoints:
        remove_checkpoints(checkpoints)
    log.info("saved fine-tuned MLM to %s (final loss %.4f)", out_dir, summary["final_loss"])
    return out_dir
