"""The torch device a job runs on: CUDA when available unless told otherwise."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import torch

Item = TypeVar("Item")
Launched = TypeVar("Launched")

__all__ = ["launched_ahead", "pick_device", "to_device"]


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


def to_device(tensor: torch.Tensor, device: str | torch.device) -> torch.Tensor:
    """``tensor`` on ``device``, without making the host wait for a GPU.

    A CPU tensor bound for CUDA goes through pinned (page-locked) memory with
    ``non_blocking=True``: the copy is queued and the host goes on (a copy from ordinary
    memory, or one without ``non_blocking``, waits until the device has run everything
    queued before it). A tensor already on ``device`` is returned as it is.
    """
    device = torch.device(device)
    if tensor.device == device:
        return tensor
    if device.type == "cuda" and tensor.device.type == "cpu":
        return tensor.pin_memory().to(device, non_blocking=True)
    return tensor.to(device)


def launched_ahead(
    items: Iterable[Item], launch: Callable[[Item], Launched]
) -> Iterator[tuple[Item, Launched]]:
    """``(item, launch(item))`` for each item in order, each yielded only once the next
    item's ``launch`` has been called.

    ``launch`` queues work on a GPU without waiting for it; the caller reads each
    result back (its one wait for the device) while the device already runs the next
    item's work, and the host prepares the one after. On a CPU the results are the same,
    in the same order.
    """
    queued: tuple[Item, Launched] | None = None
    for item in items:
        launched = launch(item)
        if queued is not None:
            yield queued
        queued = (item, launched)
    if queued is not None:
        yield queued
