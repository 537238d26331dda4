"""The settings of masked-LM fine-tuning (Kaneko et al. 2023, §3.1), without torch.

:class:`FineTuneConfig` is what :func:`mgbias.finetune.train.finetune_mlm` runs with, what
the workflow's ``kaneko2023.finetune`` holds and what ``mgbias finetune``'s options
default to: the command line reads its defaults from here, so that building the parser
imports no model library.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from mgbias.finetune import TRAINER_SEED
from mgbias.mlm.precision_names import PRECISION_NAMES
from mgbias.seeds import check_seed
from mgbias.settings import schema_settings

__all__ = ["FineTuneConfig"]


@schema_settings("kaneko2023.finetune", what="fine-tuning setting(s)")
class FineTuneConfig:
    """Hyper-parameters of masked-LM fine-tuning; the defaults are the paper's (§3.1).

    Attributes
    ----------
    seed : int
        Seeds the example order, the masking, dropout and any newly initialised weight
        (``Trainer`` default 42).
    learning_rate : float
        Peak AdamW learning rate (5e-5).
    epochs : int
        Passes over the examples (3).
    batch_size : int
        Examples per device and micro-batch (``per_device_train_batch_size``, 8).
    devices : int
        Devices of the data-parallel run being reproduced (4 in the paper); on one
        device their batches are accumulated (see the module docstring).
    gradient_accumulation : int
        Further accumulation steps (``gradient_accumulation_steps``, 1).
    micro_batch_size : int or None
        Examples per forward pass; ``None`` (default): ``batch_size``, one device batch
        per pass. A multiple of ``batch_size`` runs several device batches in one pass,
        each still weighted as its device's own mean loss (the same loss up to
        floating-point rounding; other masking and dropout draws). Faster on a CPU,
        where small passes are dominated by per-operation overhead; memory grows with it.
    weight_decay, adam_beta1, adam_beta2, adam_epsilon : float
        AdamW settings (0, 0.9, 0.999, 1e-8).
    warmup_steps : int
        Linear warm-up steps before the linear decay to zero (0).
    max_grad_norm : float or None
        Gradient-norm clipping (``Trainer`` default 1.0; ``None`` disables it, as in
        ``run_mlm_no_trainer.py``).
    mlm_probability : float
        Share of tokens selected for prediction (0.15; 80% [MASK], 10% random, 10% kept).
    line_by_line : bool
        One example per line, truncated to ``max_seq_length`` (``False``: lines grouped
        into blocks of ``max_seq_length`` tokens).
    max_seq_length : int or None
        Block size (or truncation length, line by line); ``None`` takes
        ``min(tokenizer.model_max_length, 1024)`` as ``run_mlm.py`` does (512 for BERT).
    group_lines : int or None
        Lines grouped at a time before cutting blocks; each group's remainder is dropped
        (1000, ``run_mlm.py``'s map batch); ``None`` groups the whole text.
    precision : str
        ``"fp32"``, ``"bf16"`` (autocast; CPU or GPU) or ``"fp16"`` (autocast with loss
        scaling; GPU only).
    eval_batch_size : int
        Batch of the development-loss evaluation (8).
    checkpoint_every : int
        Steps between checkpoints (``Trainer``'s ``save_steps``, 500); 0 for none.
    log_every : int or None
        Steps per loss log point; ``None``: ``max(1, min(100, steps // 20))``.
    group_by_length : bool
        Line by line only: steps of examples of similar length, from windows of 50
        steps of the epoch's shuffled order sorted by length
        (:func:`mgbias.mlm.loop.length_grouped_order`; the ``Trainer``'s
        ``group_by_length``). Less padding, so faster where lines differ in length;
        other batches than the default (``False``), so other weights.
    deterministic : bool
        Deterministic algorithms (:func:`mgbias.mlm.determinism.deterministic_training`;
        default ``True``): a rerun on the same machine gives the same weights, bit for
        bit, on the CPU and on CUDA. ``False`` lets a GPU use faster non-deterministic
        kernels (fused attention); on the CPU it changes nothing.
    compile : bool
        Compile the encoder with ``torch.compile`` (default ``False``). The numbers
        change in the last bits (fused operations); a run stays deterministic.
    """

    seed: int = TRAINER_SEED
    learning_rate: float = 5e-5
    epochs: int = 3
    batch_size: int = 8
    devices: int = 4
    gradient_accumulation: int = 1
    micro_batch_size: int | None = None
    weight_decay: float = 0.0
    adam_beta1: float = 0.9
    adam_beta2: float = 0.999
    adam_epsilon: float = 1e-8
    warmup_steps: int = 0
    max_grad_norm: float | None = 1.0
    mlm_probability: float = 0.15
    line_by_line: bool = False
    max_seq_length: int | None = None
    group_lines: int | None = 1000
    precision: str = "fp32"
    eval_batch_size: int = 8
    checkpoint_every: int = 500
    log_every: int | None = None
    group_by_length: bool = False
    deterministic: bool = True
    compile: bool = False

    def __post_init__(self) -> None:
        check_seed(self.seed)
        positive = ["epochs", "batch_size", "devices", "gradient_accumulation", "eval_batch_size"]
        optional_positive = ["micro_batch_size", "max_seq_length", "group_lines", "log_every"]
        for name in positive + optional_positive:
            value = getattr(self, name)
            if value is None and name in optional_positive:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"FineTuneConfig.{name} must be a positive integer, got {value!r}")
        for name in ("warmup_steps", "checkpoint_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(
                    f"FineTuneConfig.{name} must be a non-negative integer, got {value!r}"
                )
        if not self.learning_rate > 0:
            raise ValueError(
                f"FineTuneConfig.learning_rate must be positive, got {self.learning_rate!r}"
            )
        if not 0.0 < self.mlm_probability < 1.0:
            raise ValueError(
                f"FineTuneConfig.mlm_probability must be in (0, 1), got {self.mlm_probability!r}"
            )
        if self.max_grad_norm is not None and not self.max_grad_norm > 0:
            raise ValueError(
                f"FineTuneConfig.max_grad_norm must be positive or None, got {self.max_grad_norm!r}"
            )
        if self.micro_batch_size is not None and (
            self.micro_batch_size % self.batch_size
            or self.micro_batch_size > self.effective_batch_size
        ):
            raise ValueError(
                f"FineTuneConfig.micro_batch_size must be a multiple of batch_size "
                f"({self.batch_size}) and at most the effective batch "
                f"({self.effective_batch_size}), got {self.micro_batch_size}"
            )
        for name in ("line_by_line", "group_by_length", "deterministic", "compile"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(
                    f"FineTuneConfig.{name} must be true or false, got {getattr(self, name)!r}"
                )
        if self.group_by_length and not self.line_by_line:
            raise ValueError(
                "FineTuneConfig.group_by_length needs line_by_line: blocks all have "
                "max_seq_length tokens"
            )
        if self.precision not in PRECISION_NAMES:
            raise ValueError(
                f"FineTuneConfig.precision must be one of {sorted(PRECISION_NAMES)}, "
                f"got {self.precision!r}"
            )

    @property
    def effective_batch_size(self) -> int:
        """Examples per optimisation step: ``batch_size * devices * gradient_accumulation``."""
        return self.batch_size * self.devices * self.gradient_accumulation

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict."""
        return asdict(self)
