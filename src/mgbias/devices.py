"""The torch device a job runs on: CUDA when available unless told otherwise."""

from __future__ import annotations

import torch

__all__ = ["pick_device"]


def pick_device(preferred: str | None = None) -> torch.device:
    """Choose the device to run a model on.

    Parameters
    ----------
    preferred : str, optional
        A torch device string (``"cpu"``, ``"cuda"``, ``"cuda:1"``, ...) to use
        as given, or ``None``/``"auto"`` for CUDA when available, else CPU.

    Raises
    ------
    ValueError
        If ``preferred`` names CUDA but no CUDA device is available.
    """
    if preferred is None or preferred == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(preferred)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {preferred!r} was requested but CUDA is not available")
    return device
