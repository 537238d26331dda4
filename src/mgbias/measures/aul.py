"""AUL: All Unmasked Likelihood (Kaneko & Bollegala 2022).

AUL scores a sentence by the mean log-probability that a masked language model
assigns to each of its own tokens when nothing is masked:

.. math:: \\mathrm{AUL}(S) = \\frac{1}{|S|} \\sum_{i=1}^{|S|} \\log P(w_i \\mid S)

Only non-special tokens count (the reference code slices positions ``[1:-1]``);
the score cache already delivers the log-probabilities of those tokens alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mgbias.measures.ragged import pack_sentences

__all__ = ["aul"]


def aul(logprobs: Sequence[np.ndarray]) -> np.ndarray:
    """AUL score of each sentence: the mean of its unmasked token log-probabilities.

    Kaneko & Bollegala (2022), "Unmasking the mask", AUL:
    ``AUL(S) = (1/|S|) * sum_i log P(w_i | S)`` with every token visible.

    Parameters
    ----------
    logprobs : sequence of 1-D float arrays
        ``logprobs[k][i]`` is ``log P(w_i | S_k)`` for the i-th non-special
        token of sentence ``k``, computed with nothing masked.

    Returns
    -------
    np.ndarray of float64, shape (n_sentences,)
        One AUL score per sentence (higher = more likely under the model).

    Raises
    ------
    ValueError
        If a sentence is empty, not 1-D, or holds a non-finite value.

    Examples
    --------
    >>> import numpy as np
    >>> aul([np.array([-1.0, -2.0, -3.0]), np.array([-0.5])])
    array([-2. , -0.5])
    """
    flat, starts, lengths = pack_sentences(logprobs, "logprobs")
    if lengths.size == 0:
        return np.empty(0, dtype=np.float64)
    return np.add.reduceat(flat, starts) / lengths
