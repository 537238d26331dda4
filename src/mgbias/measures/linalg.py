"""Row-wise linear algebra shared by the measures and the word-vector spaces
(:mod:`mgbias.measures.inbias`, :mod:`mgbias.embeddings`), free of both."""

from __future__ import annotations

import numpy as np

__all__ = ["unit_rows"]


def unit_rows(matrix: np.ndarray, eps: float = 0.0) -> np.ndarray:
    """Each row divided by its L2 norm (plus ``eps``); all-zero rows stay zero.

    Parameters
    ----------
    matrix
        ``(n, d)`` array.
    eps
        Added to every norm, as fastText's alignment code does (``1e-8``); 0 divides by
        the exact norm.

    Returns
    -------
    numpy.ndarray
        A new array of the same dtype.
    """
    norms = np.linalg.norm(matrix, axis=1, keepdims=True) + eps
    safe = np.where(norms > 0, norms, 1)
    return (matrix / safe).astype(matrix.dtype, copy=False)
