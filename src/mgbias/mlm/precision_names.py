"""The names of a model pass's numeric precisions, without torch.

:mod:`mgbias.mlm.precision` maps each to its autocast dtype; the command line and the
configuration's checks read the names from here, so that parsing imports no torch.
"""

__all__ = ["PRECISION_NAMES"]

#: Full float32, autocast to bfloat16, autocast to float16 (CUDA only).
PRECISION_NAMES = ("fp32", "bf16", "fp16")
