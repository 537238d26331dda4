"""The masked-LM training loop shared by demo pre-training and fine-tuning.

One optimisation step: take the step's micro-batches from a :class:`BatchOrder`, mask each
(:func:`mask_tokens`, BERT's 80/10/10 rule), compute :func:`masked_lm_loss` (the MLM head
applied at the labelled positions only), back-propagate the mean over the micro-batches,
optionally clip the gradient norm, and step the optimizer and the learning-rate schedule.

- :func:`mgbias.mlm.train.train_mlm` (demo pre-training from scratch) draws one batch per
  step with replacement (:class:`SampledOrder`), without clipping;
- :func:`mgbias.finetune.train.finetune_mlm` walks seeded epoch permutations
  (:class:`EpochOrder`), accumulates micro-batches to the effective batch, clips like the
  Hugging Face ``Trainer`` and saves checkpoints through the ``on_step`` hook.

Everything random is drawn from generators the caller seeds: the batch order, the masking
generator and torch's global generator (dropout), so a run is reproducible and, with the
state of each saved and restored (:class:`LoopState` and the caller's checkpoint), a
resumed run continues exactly where the interrupted one stopped.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import torch
from tqdm.auto import tqdm
from transformers import PreTrainedModel

from mgbias.mlm.devices import to_device
from mgbias.mlm.heads import mlm_encoder_and_head
from mgbias.mlm.sequences import PackedSequences

__all__ = [
    "BatchOrder",
    "EpochOrder",
    "LENGTH_WINDOW_STEPS",
    "LoopState",
    "Masking",
    "SampledOrder",
    "evaluate_mlm_loss",
    "length_grouped_order",
    "mask_tokens",
    "masked_lm_loss",
    "train_steps",
]

log = logging.getLogger(__name__)


def mask_tokens(
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    *,
    special_ids: Sequence[int] | torch.Tensor,
    mask_id: int,
    random_token_range: tuple[int, int],
    mlm_probability: float,
    generator: torch.Generator,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Apply BERT's 80/10/10 masking (Devlin et al. 2019, section 3.1).

    Each real, non-special token is selected with probability ``mlm_probability``
    (at least one per batch); a selected token becomes ``mask_id`` with
    probability 0.8, a uniform token from ``random_token_range`` (half-open) with
    probability 0.1, and stays unchanged otherwise. Labels are the original ids
    at selected positions and -100 elsewhere.

    Returns
    -------
    tuple[torch.Tensor, torch.Tensor]
        ``(masked_input_ids, labels)``.
    """
    maskable = attention_mask.bool() & ~torch.isin(input_ids, torch.as_tensor(special_ids))
    draws = torch.rand(input_ids.shape, generator=generator)
    selected = (draws < mlm_probability) & maskable
    if not selected.any():
        # Guarantee a defined loss: select the maskable position with the lowest draw.
        candidates = torch.where(maskable, draws, torch.full_like(draws, math.inf))
        selected.view(-1)[torch.argmin(candidates)] = True
    labels = torch.where(selected, input_ids, torch.full_like(input_ids, -100))
    action = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(*random_token_range, input_ids.shape, generator=generator)
    masked = input_ids.clone()
    masked[selected & (action < 0.8)] = mask_id
    replace = selected & (action >= 0.8) & (action < 0.9)
    masked[replace] = random_ids[replace]
    return masked, labels


def masked_lm_loss(
    model: PreTrainedModel,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    labels: torch.Tensor,
    groups: torch.Tensor | None = None,
) -> torch.Tensor:
    """Mean cross-entropy of the MLM head at the labelled positions only.

    Equal to ``model(input_ids, attention_mask=..., labels=labels).loss``, but the
    head (a vocabulary-sized projection) runs on the ~15% of positions that carry
    a label instead of on every position, which makes a training step several
    times cheaper for a small model (``benchmarks/mlm_training.py``). The model is
    split by :func:`mgbias.mlm.heads.mlm_encoder_and_head` (BERT, RoBERTa, ALBERT,
    DistilBERT, ELECTRA); a model it cannot split computes its own logits.

    With ``groups`` (one integer id per row), the rows form groups, e.g. the batches
    of several data-parallel devices run in one pass, and the result is the **sum**
    over the groups of each group's mean cross-entropy: a group's loss weighs as if
    it had been computed alone. A group without a labelled position adds nothing.

    ``labels`` and ``groups`` may stay on the CPU while the model runs on a GPU: the
    labelled positions are then found on the CPU and copied over without waiting, so
    the GPU never stops for the host to learn how many there are (a boolean mask on the
    GPU would make it).
    """
    encoder, head = mlm_encoder_and_head(model)
    device = input_ids.device
    selected = labels != -100
    positions = selected.flatten().nonzero().squeeze(1)  # row-major, as labels[selected]
    targets = to_device(labels.flatten()[positions], device)
    if head is None:
        if groups is None:
            return model(
                input_ids=input_ids,
                attention_mask=attention_mask,
                labels=to_device(labels, device),
            ).loss
        output = model(input_ids=input_ids, attention_mask=attention_mask).logits
        logits = output.flatten(0, 1)[to_device(positions, device)]
    else:
        hidden = encoder(input_ids=input_ids, attention_mask=attention_mask)[0]
        logits = head(hidden.flatten(0, 1)[to_device(positions, device)])
    if groups is None:
        return torch.nn.functional.cross_entropy(logits, targets)
    losses = torch.nn.functional.cross_entropy(logits, targets, reduction="none")
    groups = groups.to(positions.device)
    group_of = groups[torch.div(positions, labels.shape[1], rounding_mode="floor")]
    n_groups = int(groups.max()) + 1
    counts = torch.bincount(group_of, minlength=n_groups)
    present = counts.nonzero().squeeze(1)
    sums = torch.zeros(n_groups, dtype=losses.dtype, device=device)
    sums = sums.index_add(0, to_device(group_of, device), losses)
    return (sums[to_device(present, device)] / to_device(counts[present], device)).sum()


@dataclass(frozen=True)
class Masking:
    """How :func:`mask_tokens` masks: the tokenizer's ids and the selection probability."""

    special_ids: tuple[int, ...]
    mask_id: int
    random_token_range: tuple[int, int]
    mlm_probability: float

    def __post_init__(self) -> None:
        # built once, not on every batch
        object.__setattr__(self, "_specials", torch.tensor(self.special_ids, dtype=torch.long))

    def apply(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """:func:`mask_tokens` with these settings."""
        return mask_tokens(
            input_ids,
            attention_mask,
            special_ids=self._specials,
            mask_id=self.mask_id,
            random_token_range=self.random_token_range,
            mlm_probability=self.mlm_probability,
            generator=generator,
        )


# --------------------------------------------------------------------------- batch orders


class BatchOrder(Protocol):
    """Which examples each optimisation step trains on."""

    def micro_batches(self, step: int) -> list[np.ndarray]:
        """Example indices of step ``step`` (1-based), one array per micro-batch."""

    def groups(self, step: int) -> list[np.ndarray] | None:
        """Loss groups of each micro-batch's rows (see :func:`masked_lm_loss`), numbered
        across the step; ``None``: each micro-batch is one group."""

    def state_dict(self) -> dict[str, Any]:
        """What a checkpoint needs to continue the order after the last step taken."""

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Continue from a :meth:`state_dict`."""


class SampledOrder:
    """``batch_size`` examples per step, drawn uniformly with replacement (demo pre-training).

    The draws come from ``numpy.random.default_rng(seed)``, one call per step, in step
    order; the state is that generator's.
    """

    def __init__(self, n_examples: int, batch_size: int, seed: int) -> None:
        self.n_examples = n_examples
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)

    def micro_batches(self, step: int) -> list[np.ndarray]:
        return [self.rng.integers(0, self.n_examples, size=self.batch_size)]

    def groups(self, step: int) -> None:
        return None

    def state_dict(self) -> dict[str, Any]:
        return {"bit_generator": self.rng.bit_generator.state}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.rng.bit_generator.state = state["bit_generator"]


#: Steps per window of :func:`length_grouped_order` (the ``Trainer``'s
#: ``LengthGroupedSampler`` sorts "mega-batches" of at most 50 batches).
LENGTH_WINDOW_STEPS = 50


def length_grouped_order(
    order: np.ndarray,
    lengths: np.ndarray,
    examples_per_step: int,
    rng: np.random.Generator,
    window_steps: int = LENGTH_WINDOW_STEPS,
) -> np.ndarray:
    """Reorder an epoch's shuffled ``order`` so that each step's examples are of similar
    length.

    The order is cut into windows of ``window_steps * examples_per_step`` examples.
    Each window is sorted by length, longest first (ties keep their shuffled order) and
    cut into steps of ``examples_per_step``; its full steps are then put in an order
    drawn from ``rng`` (one permutation per window, in window order), so that long and
    short steps alternate at random rather than from long to short within a window. The
    epoch's last step, which may be shorter, stays last. The examples of a window are
    the same as without grouping, so the order stays random at the scale of windows.
    """
    window = window_steps * examples_per_step
    grouped = []
    for start in range(0, len(order), window):
        chunk = order[start : start + window]
        chunk = chunk[np.argsort(-lengths[chunk], kind="stable")]
        full = len(chunk) // examples_per_step
        steps = chunk[: full * examples_per_step].reshape(full, examples_per_step)
        grouped.append(steps[rng.permutation(full)].reshape(-1))
        grouped.append(chunk[full * examples_per_step :])
    return np.concatenate(grouped) if grouped else order


class EpochOrder:
    """Epochs over the examples, each in a seeded random order (fine-tuning).

    Epoch ``e`` visits the examples in ``numpy.random.default_rng([seed, e]).permutation``
    order. A step takes the next ``examples_per_step`` of them (fewer at the end of an
    epoch; every example is used once per epoch), split into micro-batches of
    ``micro_batch_size`` (one forward pass each). The loss groups are consecutive runs
    of ``group_size`` examples, the batches of the data-parallel devices a step stands
    for (default: one group per micro-batch); ``micro_batch_size`` must then be a
    multiple of ``group_size``. The order is a function of the step number alone, so a
    resumed run needs no state but the step.

    With ``lengths`` (each example's token count), each epoch's order is then grouped
    by length (:func:`length_grouped_order`, windows of :data:`LENGTH_WINDOW_STEPS`
    steps), so that a step's examples, padded to the longest, carry little padding.
    Every example is still used once per epoch, but steps hold other examples than
    without grouping, so the weights differ.
    """

    def __init__(
        self,
        n_examples: int,
        examples_per_step: int,
        micro_batch_size: int,
        seed: int,
        group_size: int | None = None,
        lengths: np.ndarray | None = None,
    ) -> None:
        if n_examples < 1:
            raise ValueError("EpochOrder: there are no training examples")
        group_size = micro_batch_size if group_size is None else group_size
        if micro_batch_size % group_size:
            raise ValueError(
                f"EpochOrder: micro_batch_size {micro_batch_size} is not a multiple of the "
                f"group size {group_size}"
            )
        self.n_examples = n_examples
        self.examples_per_step = examples_per_step
        self.micro_batch_size = micro_batch_size
        self.group_size = group_size
        self.seed = seed
        if lengths is not None and len(lengths) != n_examples:
            raise ValueError(f"EpochOrder: {len(lengths)} lengths given for {n_examples} examples")
        self.lengths = None if lengths is None else np.asarray(lengths)
        self.steps_per_epoch = math.ceil(n_examples / examples_per_step)
        self._epoch: int | None = None
        self._permutation: np.ndarray | None = None

    def permutation(self, epoch: int) -> np.ndarray:
        """The order of the examples in epoch ``epoch`` (0-based)."""
        if epoch != self._epoch:
            rng = np.random.default_rng([self.seed, epoch])
            order = rng.permutation(self.n_examples)
            if self.lengths is not None:
                order = length_grouped_order(order, self.lengths, self.examples_per_step, rng)
            self._permutation = order
            self._epoch = epoch
        return self._permutation

    def micro_batches(self, step: int) -> list[np.ndarray]:
        epoch, within = divmod(step - 1, self.steps_per_epoch)
        start = within * self.examples_per_step
        chosen = self.permutation(epoch)[start : start + self.examples_per_step]
        size = self.micro_batch_size
        return [chosen[i : i + size] for i in range(0, len(chosen), size)]

    def groups(self, step: int) -> list[np.ndarray] | None:
        if self.group_size == self.micro_batch_size:
            return None
        groups, offset = [], 0
        for micro in self.micro_batches(step):
            groups.append(offset + np.arange(len(micro)) // self.group_size)
            offset += math.ceil(len(micro) / self.group_size)
        return groups

    def state_dict(self) -> dict[str, Any]:
        return {
            "n_examples": self.n_examples,
            "examples_per_step": self.examples_per_step,
            "micro_batch_size": self.micro_batch_size,
            "group_size": self.group_size,
            "seed": self.seed,
            "grouped_by_length": self.lengths is not None,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state != self.state_dict():
            raise ValueError(
                f"the checkpoint's batch order {state} is not this run's {self.state_dict()}"
            )


# --------------------------------------------------------------------------- the loop


@dataclass
class LoopState:
    """Progress of a training loop: the last step taken and the loss log.

    ``history`` holds ``(step, mean loss)`` every ``log_every`` steps and at the last
    step; ``window`` the step losses since the last log point.
    """

    step: int = 0
    history: list[tuple[int, float]] = field(default_factory=list)
    window: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready copy."""
        return {
            "step": self.step,
            "history": [[step, loss] for step, loss in self.history],
            "window": list(self.window),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LoopState:
        """Inverse of :meth:`to_dict`."""
        return cls(
            step=int(data["step"]),
            history=[(int(step), float(loss)) for step, loss in data["history"]],
            window=[float(loss) for loss in data["window"]],
        )


def train_steps(
    model: PreTrainedModel,
    sequences: PackedSequences,
    order: BatchOrder,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    *,
    masking: Masking,
    mask_generator: torch.Generator,
    pad_id: int,
    steps: int,
    log_every: int,
    state: LoopState | None = None,
    max_grad_norm: float | None = None,
    autocast_dtype: torch.dtype | None = None,
    grad_scaler: torch.amp.GradScaler | None = None,
    on_step: Callable[[LoopState], None] | None = None,
    sync_every: int | None = None,
    progress: bool = True,
    desc: str = "MLM training",
) -> LoopState:
    """Run optimisation steps ``state.step + 1`` to ``steps`` of masked-LM training.

    Parameters
    ----------
    model
        A masked LM in training mode, on its device.
    sequences
        The training examples.
    order
        Which examples each step uses (:class:`SampledOrder`, :class:`EpochOrder`).
    optimizer, scheduler
        Stepped once per step, the scheduler after the optimizer.
    masking, mask_generator
        Masking settings and the CPU generator of the masking draws.
    pad_id
        Padding id of the batches.
    steps
        The last step.
    log_every
        Steps per loss log point (the last step is always logged).
    state
        Where to start (a resumed run's :class:`LoopState`); a fresh state by default.
    max_grad_norm
        Clip the gradients' total L2 norm to this (``None``: no clipping).
    autocast_dtype
        Run forward passes under :func:`torch.autocast` in this dtype (``torch.bfloat16``
        or ``torch.float16``); ``None`` for full precision.
    grad_scaler
        Loss scaler for float16 training.
    on_step
        Called with the state after every step (e.g. to save a checkpoint). Its
        ``window`` holds every step's loss only at log steps and at multiples of
        ``sync_every`` (see below).
    sync_every
        Also read the losses back at multiples of this many steps (the steps at which
        ``on_step`` saves a checkpoint); ``None``: at log steps only.
    progress
        Show a tqdm progress bar.
    desc
        The progress bar's label.

    Returns
    -------
    LoopState
        The state after the last step.

    Raises
    ------
    FloatingPointError
        If a step's loss is not finite (the message names the step). It is raised when
        the losses are read back (a log step or a multiple of ``sync_every``), so the
        steps since then have run; nothing is saved from them.

    The step losses stay on the model's device until a log step: reading each back at
    once (``loss.item()``) would make the host wait for the GPU at every micro-batch,
    instead of preparing the next batch while the GPU computes. The values, and their
    sums and means, are the same either way. Inputs go to a GPU through pinned memory
    without waiting for the copy.

    A step's loss is the mean over its loss groups (by default its micro-batches; see
    :class:`EpochOrder`) of each group's mean over its labelled positions, as
    data-parallel training averages the devices' losses.
    """
    state = state if state is not None else LoopState()
    device = next(model.parameters()).device
    # listed once: model.parameters() walks the module tree, which costs a tiny model's
    # step several percent when the gradient norm is clipped on every step
    trained = [parameter for parameter in model.parameters() if parameter.requires_grad]
    autocast = (
        (lambda: torch.autocast(device_type=device.type, dtype=autocast_dtype))
        if autocast_dtype is not None
        else contextlib.nullcontext
    )
    bar = tqdm(
        range(state.step + 1, steps + 1),
        desc=desc,
        disable=not progress,
        unit="step",
        initial=state.step,
        total=steps,
    )
    pending: list[tuple[int, list[torch.Tensor]]] = []  # steps whose losses are on device
    for step in bar:
        micro_batches = order.micro_batches(step)
        groups = order.groups(step)
        n_groups = len(micro_batches) if groups is None else int(groups[-1][-1]) + 1
        optimizer.zero_grad(set_to_none=True)
        losses = []
        for position, indices in enumerate(micro_batches):
            input_ids, attention_mask = sequences.batch(indices, pad_id)
            masked_ids, labels = masking.apply(input_ids, attention_mask, mask_generator)
            row_groups = None if groups is None else torch.from_numpy(groups[position])
            with autocast():
                loss = masked_lm_loss(
                    model,
                    to_device(masked_ids, device),
                    to_device(attention_mask, device),
                    labels,
                    groups=row_groups,
                )
            if n_groups > 1:
                loss = loss / n_groups
            (grad_scaler.scale(loss) if grad_scaler is not None else loss).backward()
            losses.append(loss.detach())
        pending.append((step, losses))
        if grad_scaler is not None:
            grad_scaler.unscale_(optimizer)
        if max_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(trained, max_grad_norm)
        if grad_scaler is not None:
            grad_scaler.step(optimizer)
            grad_scaler.update()
        else:
            optimizer.step()
        scheduler.step()
        state.step = step
        logged = step % log_every == 0 or step == steps
        if logged or (sync_every and step % sync_every == 0):
            state.window.extend(_step_losses(pending, desc))
            pending.clear()
        if logged:
            mean_loss = float(np.mean(state.window))
            state.history.append((step, mean_loss))
            state.window.clear()
            bar.set_postfix(loss=f"{mean_loss:.3f}")
            log.info("step %d/%d: mean MLM loss %.4f", step, steps, mean_loss)
        if on_step is not None:
            on_step(state)
    return state


def _step_losses(pending: list[tuple[int, list[torch.Tensor]]], desc: str) -> list[float]:
    """The loss of each pending step (the sum of its micro-batches' losses, added in
    order), read from the device in one transfer.

    Raises
    ------
    FloatingPointError
        If a step's loss is not finite (the message names the first such step).
    """
    flat = [loss.float() for _, losses in pending for loss in losses]
    values = iter(torch.stack(flat).tolist()) if flat else iter(())
    totals = []
    for step, losses in pending:
        total = 0.0
        for _ in losses:
            total += next(values)
        if not math.isfinite(total):
            raise FloatingPointError(f"{desc}: the loss of step {step} is {total}")
        totals.append(total)
    return totals


def evaluate_mlm_loss(
    model: PreTrainedModel,
    sequences: PackedSequences,
    *,
    masking: Masking,
    seed: int,
    batch_size: int,
    pad_id: int,
    autocast_dtype: torch.dtype | None = None,
) -> tuple[float, int]:
    """Masked-LM loss of ``model`` on ``sequences`` (evaluation only: no gradient).

    The examples are masked in order, ``batch_size`` at a time, by
    :func:`mask_tokens` with a CPU generator seeded by ``seed``, so the same model
    and data give the same value. The model is put in eval mode (no dropout).

    Returns
    -------
    (float, int)
        The mean cross-entropy over all labelled positions (token-weighted, not a
        mean of batch means) and the number of those positions.
    """
    if len(sequences) == 0:
        raise ValueError("evaluate_mlm_loss: there are no examples")
    model.eval()
    device = next(model.parameters()).device
    generator = torch.Generator().manual_seed(seed)
    total, count = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(sequences), batch_size):
            indices = np.arange(start, min(start + batch_size, len(sequences)))
            input_ids, attention_mask = sequences.batch(indices, pad_id)
            masked_ids, labels = masking.apply(input_ids, attention_mask, generator)
            context = (
                torch.autocast(device_type=device.type, dtype=autocast_dtype)
                if autocast_dtype is not None
                else contextlib.nullcontext()
            )
            with context:
                loss = masked_lm_loss(
                    model, masked_ids.to(device), attention_mask.to(device), labels.to(device)
                )
            n_labelled = int((labels != -100).sum())
            total += float(loss) * n_labelled
            count += n_labelled
    return total / count, count
