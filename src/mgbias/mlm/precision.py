"""The numeric precision of a model's forward passes: full float32, or autocast to bf16 or fp16.

Scoring, the contextual probes' hidden states and the bios encoder's features run the
model's forward pass under :func:`torch.autocast` at ``bf16`` or ``fp16`` (the weights stay
in float32; matrix products run in the lower precision), and everything after it in
float32: the logits, hidden states and attention weights are cast to float32 before any
``log_softmax``, ``logsumexp``, gather, mean or sum, so a log-probability is computed from
rounded logits but never rounded itself. ``fp32`` (the default, and the setting of every
number reproduced from the papers) runs no autocast at all: its results are those of code
without the option, bit for bit.

``fp16`` needs a CUDA device (as fine-tuning, :mod:`mgbias.finetune.train`); ``bf16``
runs on the CPU as well, where it is emulated and usually slower than ``fp32``.
"""

from __future__ import annotations

import contextlib

import torch

from mgbias.mlm.devices import pick_device
from mgbias.mlm.precision_names import PRECISION_NAMES

__all__ = [
    "DEFAULT_PRECISION",
    "PRECISIONS",
    "check_precision",
    "forward_precision",
    "precision_record",
]

PRECISIONS: dict[str, torch.dtype | None] = dict(
    zip(PRECISION_NAMES, (None, torch.bfloat16, torch.float16), strict=True)
)
"""Autocast dtype of each precision name (``None``: no autocast); weights stay in float32."""

DEFAULT_PRECISION = "fp32"


def check_precision(precision: str, device: str | torch.device | None = None) -> torch.device:
    """Refuse an unknown precision, or ``fp16`` off CUDA; the device it runs on.

    Called before a model loads, so that a bad option costs nothing.

    Parameters
    ----------
    precision : str
        A key of :data:`PRECISIONS`.
    device : str, torch.device or None
        The device the model runs (or will run) on; ``None`` or ``"auto"``: CUDA when
        available, else the CPU (:func:`mgbias.mlm.devices.pick_device`).

    Returns
    -------
    torch.device
        The resolved device.

    Raises
    ------
    ValueError
        An unknown precision (the known ones listed), or ``fp16`` on a device that is not
        CUDA.
    """
    if precision not in PRECISIONS:
        raise ValueError(f"precision {precision!r}: expected one of {', '.join(PRECISIONS)}")
    target = device if isinstance(device, torch.device) else pick_device(device)
    if precision == "fp16" and target.type != "cuda":
        raise ValueError(
            f"precision fp16 needs a CUDA device, but the model runs on {target.type}; "
            "use bf16 or fp32 on the CPU"
        )
    return target


def precision_record(precision: str) -> dict[str, str]:
    """``{"precision": precision}`` for a cache's or a record's metadata, or ``{}`` for
    ``fp32``: files written in full precision keep the bytes they had before the option."""
    return {} if precision == DEFAULT_PRECISION else {"precision": precision}


def forward_precision(
    precision: str, device: torch.device
) -> contextlib.AbstractContextManager[object]:
    """The context a forward pass runs in: :func:`torch.autocast` at the precision's dtype
    on ``device``, or nothing for ``fp32``.

    Only the model's own calls belong inside it: casts to float32 and the arithmetic on
    the outputs go after it (under autocast, ``einsum`` and ``matmul`` of float32 tensors
    would run in the lower precision again).
    """
    check_precision(precision, device)
    dtype = PRECISIONS[precision]
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=dtype)
