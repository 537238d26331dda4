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

__all__ = ["aul", "pack_sentences"]


def pack_sentences(
    values: Sequence[np.ndarray], name: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check per-sentence token arrays and concatenate them into one flat array.

    Parameters
    ----------
    values : sequence of 1-D float arrays
        One array per sentence, one value per non-special token.
    name : str
        Argument name used in error messages (e.g. ``"logprobs"``).

    Returns
    -------
    flat : np.ndarray of float64, shape (total_tokens,)
        All sentences' values, concatenated in order.
    starts : np.ndarray of int64, shape (n_sentences,)
        Offset of each sentence's first token in ``flat``.
    lengths : np.ndarray of int64, shape (n_sentences,)
        Number of tokens of each sentence.

    Raises
    ------
    ValueError
        If a sentence is not 1-D, is empty, or holds a non-finite value; the
        message names the sentence index (and token index for non-finite values).
    """
    arrays = [np.asarray(sentence, dtype=np.float64) for sentence in values]
    lengths = np.empty(len(arrays), dtype=np.int64)
    for index, array in enumerate(arrays):
        if array.ndim != 1:
            raise ValueError(
                f"{name}[{index}] must be a 1-D array (one value per token), "
                f"got shape {array.shape}"
            )
        if array.size == 0:
            raise ValueError(
                f"{name}[{index}] is empty; every sentence needs at least one non-special token"
            )
        lengths[index] = array.size
    if not arrays:
        empty = np.empty(0, dtype=np.int64)
        return np.empty(0, dtype=np.float64), empty, empty
    flat = np.concatenate(arrays)
    starts = np.zeros(len(arrays), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    finite = np.isfinite(flat)
    if not finite.all():
        position = int(np.argmin(finite))
        sentence = int(np.searchsorted(starts, position, side="right") - 1)
        raise ValueError(
            f"{name}[{sentence}] holds a non-finite value ({flat[position]}) "
            f"at token {position - starts[sentence]}"
        )
    return flat, starts, lengths


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
