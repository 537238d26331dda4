"""Training checkpoints that let a killed fine-tuning resume bit for bit.

A checkpoint is a directory ``step-<step>`` (9 digits) under the run's checkpoint
directory, written atomically (:func:`mgbias.files.atomic.atomic_directory`), holding

- ``meta.json``: format version, step, the run's fingerprint (what must match for a
  resume: configuration, base model, training text) and the loss log
  (:class:`mgbias.mlm.loop.LoopState`);
- ``state.pt``: the model's weights, the optimizer's, the learning-rate schedule's and
  the loss scaler's state, the batch order's state and every random generator: torch's
  global (CPU and CUDA), the masking generator, numpy's global and Python's ``random``.

Only the newest checkpoint is kept. A run killed while writing one leaves a hidden
partial directory, removed at the next start; the previous checkpoint stays intact.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from mgbias.errors import WeightsError
from mgbias.files.atomic import atomic_directory
from mgbias.mlm.loop import LoopState

__all__ = [
    "CHECKPOINT_FORMAT",
    "Checkpoint",
    "latest_checkpoint",
    "remove_checkpoints",
    "restore_generators",
    "resume",
    "save_checkpoint",
]

log = logging.getLogger(__name__)

CHECKPOINT_FORMAT = 1
_STEP_DIR = re.compile(r"^step-(\d{9})$")


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint found on disk: its directory, step and metadata."""

    path: Path
    step: int
    meta: dict[str, Any]

    def load_state(self) -> dict[str, Any]:
        """The tensors and generator states of ``state.pt`` (on the CPU)."""
        state = self.path / "state.pt"
        try:
            return torch.load(state, map_location="cpu", weights_only=True)
        except Exception as error:  # noqa: BLE001 - torch raises several kinds for a bad file
            raise WeightsError(
                f"{state}: cannot read the checkpoint ({type(error).__name__}: {error}); the "
                f"file is corrupt or truncated: remove {self.path} to resume from an earlier "
                "checkpoint"
            ) from error


def _numpy_state() -> list[Any]:
    name, keys, position, has_gauss, cached = np.random.get_state(legacy=True)
    return [name, torch.from_numpy(keys.astype(np.int64)), position, has_gauss, cached]


def restore_generators(state: Mapping[str, Any], mask_generator: torch.Generator) -> None:
    """Set every random generator to the state a checkpoint recorded."""
    torch.set_rng_state(state["torch_rng"])
    if state.get("cuda_rng") is not None and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda_rng"])
    mask_generator.set_state(state["mask_rng"])
    name, keys, position, has_gauss, cached = state["numpy_rng"]
    np.random.set_state((name, keys.numpy().astype(np.uint32), position, has_gauss, cached))
    version, internal, gauss = state["python_rng"]
    random.setstate((version, tuple(internal), gauss))


def save_checkpoint(
    directory: Path,
    *,
    loop_state: LoopState,
    fingerprint: Mapping[str, Any],
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    grad_scaler: torch.amp.GradScaler | None,
    order_state: Mapping[str, Any],
    mask_generator: torch.Generator,
) -> Path:
    """Write the checkpoint of step ``loop_state.step``; remove the older ones.

    Returns
    -------
    Path
        The new checkpoint's directory.
    """
    directory = Path(directory)
    target = directory / f"step-{loop_state.step:09d}"
    state = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "scaler": grad_scaler.state_dict() if grad_scaler is not None else None,
        "order": dict(order_state),
        "torch_rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None,
        "mask_rng": mask_generator.get_state(),
        "numpy_rng": _numpy_state(),
        "python_rng": list(random.getstate()),
    }
    meta = {
        "format": CHECKPOINT_FORMAT,
        "step": loop_state.step,
        "fingerprint": dict(fingerprint),
        "loop": loop_state.to_dict(),
    }
    with atomic_directory(target) as tmp:
        torch.save(state, tmp / "state.pt")
        (tmp / "meta.json").write_text(
            json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
    for older in directory.iterdir():
        match = _STEP_DIR.match(older.name)
        if match and int(match.group(1)) < loop_state.step:
            shutil.rmtree(older, ignore_errors=True)
    log.info("checkpoint of step %d written to %s", loop_state.step, target)
    return target


def latest_checkpoint(directory: Path, fingerprint: Mapping[str, Any]) -> Checkpoint | None:
    """The newest complete checkpoint of this run in ``directory``, if any.

    Hidden partial directories of a killed write are removed. Checkpoints whose
    fingerprint differs (another configuration, base model or text) are removed with a
    warning: they cannot be resumed, and the run starts over.
    """
    directory = Path(directory)
    if not directory.is_dir():
        return None
    for partial in directory.glob(".step-*"):
        shutil.rmtree(partial, ignore_errors=True)
    found = sorted(
        (int(match.group(1)), path)
        for path in directory.iterdir()
        if (match := _STEP_DIR.match(path.name)) and (path / "meta.json").is_file()
    )
    for step, path in reversed(found):
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") == CHECKPOINT_FORMAT and meta.get("fingerprint") == dict(
            json.loads(json.dumps(fingerprint))
        ):
            return Checkpoint(path=path, step=step, meta=meta)
        log.warning(
            "checkpoint %s was written by another run (configuration, base model or text "
            "differ); removing it and starting over",
            path,
        )
        shutil.rmtree(path, ignore_errors=True)
    return None


def remove_checkpoints(directory: Path) -> None:
    """Remove the checkpoints in ``directory``, and the directory if that leaves it empty."""
    directory = Path(directory)
    if not directory.is_dir():
        return
    for path in directory.iterdir():
        if _STEP_DIR.match(path.name) or path.name.startswith(".step-"):
            shutil.rmtree(path, ignore_errors=True)
    with contextlib.suppress(OSError):
        directory.rmdir()


def resume(
    directory: Path,
    fingerprint: Mapping[str, Any],
    *,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    grad_scaler: torch.amp.GradScaler | None,
    order: Any,
    mask_generator: torch.Generator,
) -> LoopState | None:
    """Restore the newest checkpoint of this run into the given objects.

    Returns
    -------
    LoopState or None
        The loop state to continue from, or ``None`` when there is no checkpoint of this
        run (nothing is changed then).
    """
    found = latest_checkpoint(directory, fingerprint)
    if found is None:
        return None
    state = found.load_state()
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    if grad_scaler is not None and state["scaler"] is not None:
        grad_scaler.load_state_dict(state["scaler"])
    order.load_state_dict(state["order"])
    restore_generators(state, mask_generator)
    log.info("resuming from %s (step %d)", found.path, found.step)
    return LoopState.from_dict(found.meta["loop"])
