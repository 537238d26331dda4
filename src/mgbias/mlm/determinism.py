"""The settings under which masked-LM training repeats bit for bit on one machine.

:func:`deterministic_training` is entered around a whole training run (every step's
forward and backward pass and optimizer update). With ``enabled``:

- ``torch.use_deterministic_algorithms(True)``, strict: an operation that has no
  deterministic implementation raises ``RuntimeError`` instead of warning and
  differing between runs. The operations of the masked-LM loop have one: the
  tests run the loss, its backward pass and an AdamW step of BERT, RoBERTa, ALBERT,
  XLM-R, DistilBERT and ELECTRA in strict mode on the CPU, and fine-tune BERT on
  CUDA where there is a GPU (``tests/unit/mlm/test_determinism.py``).
- ``torch.backends.cudnn.deterministic = True`` and ``benchmark = False``: no
  per-shape kernel auto-tuning.
- On CUDA, ``CUBLAS_WORKSPACE_CONFIG=:4096:8`` (NVIDIA's condition for reproducible
  cuBLAS results with several streams or workspaces), unless the environment already
  sets it. cuBLAS reads it when a process first uses it, so it only takes effect if
  this is the process's first cuBLAS call: true of the workflow's fine-tuning jobs
  (``scripts/finetune_mlm.py`` runs one fine-tuning per process). Set it in the
  environment before starting Python to be sure in a process that used CUDA before.
- On CUDA, scaled dot-product attention runs the math kernel
  (``torch.nn.attention.sdpa_kernel(SDPBackend.MATH)``): matrix products and a
  softmax, deterministic through cuBLAS. The fused kernels' backward passes
  (memory-efficient, flash) accumulate with atomics by default; that is what made
  GPU fine-tuning differ between runs under the former ``warn_only`` mode ("Memory
  Efficient attention defaults to a non-deterministic algorithm"). Strict mode
  alone also switches them to deterministic backward passes in current torch (flash:
  its ``deterministic`` flag; memory-efficient: one key split), but that is each
  kernel's own handling of the flag; the math kernel does not depend on it.
  ``benchmarks/gpu.py --only finetune`` measures both (``finetune_deterministic_*``
  and ``..._fused_attention``), and so what the math kernel costs.
  On the CPU the attention kernel is left to torch: both CPU kernels are
  deterministic (the flash one gave equal gradients five times over with two
  threads), and the math one would change the numbers of CPU runs made so far.

With ``enabled=False`` the run may use non-deterministic algorithms
(``torch.use_deterministic_algorithms(False)``, the fused attention kernels; cuDNN
as the caller left it): faster on a GPU, but two runs differ in the last bits and
then more. On the CPU both settings give the same numbers here.

Everything is restored on exit (the environment variable is left set: cuBLAS has
read it by then).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

__all__ = ["CUBLAS_WORKSPACE_CONFIG", "deterministic_training"]

#: The cuBLAS workspace setting set for deterministic CUDA runs (NVIDIA's cuBLAS
#: documentation, "Results reproducibility"; ``:16:8`` is the other accepted value).
CUBLAS_WORKSPACE_CONFIG = ":4096:8"
_ACCEPTED_WORKSPACE_CONFIGS = (":4096:8", ":16:8")


@contextlib.contextmanager
def deterministic_training(device: torch.device, enabled: bool = True) -> Iterator[None]:
    """Run the body with deterministic (``enabled``) or free algorithms on ``device``.

    Raises
    ------
    ValueError
        If ``enabled`` on CUDA and ``CUBLAS_WORKSPACE_CONFIG`` is set to a value with
        which cuBLAS is not reproducible.
    """
    cuda = device.type == "cuda"
    previous = (
        torch.are_deterministic_algorithms_enabled(),
        torch.is_deterministic_algorithms_warn_only_enabled(),
        torch.backends.cudnn.deterministic,
        torch.backends.cudnn.benchmark,
    )
    if enabled and cuda:
        workspace = os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", CUBLAS_WORKSPACE_CONFIG)
        if workspace not in _ACCEPTED_WORKSPACE_CONFIGS:
            raise ValueError(
                f"CUBLAS_WORKSPACE_CONFIG is {workspace!r}; deterministic training on CUDA "
                f"needs one of {list(_ACCEPTED_WORKSPACE_CONFIGS)} (or leave it unset)"
            )
    attention = sdpa_kernel(SDPBackend.MATH) if enabled and cuda else contextlib.nullcontext()
    try:
        torch.use_deterministic_algorithms(enabled)
        torch.backends.cudnn.deterministic = enabled
        torch.backends.cudnn.benchmark = False if enabled else previous[3]
        with attention:
            yield
    finally:
        torch.use_deterministic_algorithms(previous[0], warn_only=previous[1])
        torch.backends.cudnn.deterministic = previous[2]
        torch.backends.cudnn.benchmark = previous[3]
