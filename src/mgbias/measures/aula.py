"""AULA: All Unmasked Likelihood with Attention weights (Kaneko & Bollegala 2022).

Used as the sentence score ``A(T)`` of the MBE measure (Kaneko et al. 2022,
Eq. 1):

.. math:: A(T) = \\frac{1}{|T|} \\sum_{i=1}^{|T|} \\alpha_i \\log P(w_i \\mid T)

``alpha_i`` is the attention token ``i`` *receives*: attentions averaged over
layers, heads and query positions, then restricted to the non-special tokens
without renormalising. The score cache computes ``alpha``; this module only
applies the formula. Note that it is a mean over tokens, not a sum.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mgbias.measures.ragged import pack_sentences

__all__ = ["aula"]


def aula(logprobs: Sequence[np.ndarray], attention: Sequence[np.ndarray]) -> np.ndarray:
    """AULA score of each sentence (Kaneko et al. 2022, Eq. 1).

    ``A(T) = (1/|T|) * sum_i alpha_i * log P(w_i | T)``.

    Parameters
    ----------
    logprobs : sequence of 1-D float arrays
        ``logprobs[k][i]`` is ``log P(w_i | T_k)`` for the i-th non-special
        token of sentence ``k``, with nothing masked.
    attention : sequence of 1-D float arrays
        ``attention[k][i]`` is ``alpha_i`` of sentence ``k``: the attention the
        token receives, averaged over layers, heads and query positions, not
        renormalised after dropping special tokens. Same shapes as ``logprobs``.

    Returns
    -------
    np.ndarray of float64, shape (n_sentences,)
        One AULA score per sentence (higher = more likely under the model).

    Raises
    ------
    ValueError
        If the two inputs hold different numbers of sentences, if a sentence's
        two arrays differ in length (the message names the sentence and both
        lengths), or if a sentence is empty, not 1-D or holds a non-finite value.

    Examples
    --------
    >>> import numpy as np
    >>> aula([np.array([-1.0, -2.0, -3.0])], [np.array([0.2, 0.3, 0.5])]).round(4)
    array([-0.7667])
    """
    if len(logprobs) != len(attention):
        raise ValueError(
            f"logprobs holds {len(logprobs)} sentences but attention holds {len(attention)}"
        )
    flat_logprobs, starts, lengths = pack_sentences(logprobs, "logprobs")
    flat_attention, _, attention_lengths = pack_sentences(attention, "attention")
    mismatched = np.flatnonzero(lengths != attention_lengths)
    if mismatched.size:
        index = int(mismatched[0])
        raise ValueError(
            f"sentence {index}: logprobs[{index}] has {lengths[index]} tokens "
            f"but attention[{index}] has {attention_lengths[index]}"
        )
    if lengths.size == 0:
        return np.empty(0, dtype=np.float64)
    return np.add.reduceat(flat_attention * flat_logprobs, starts) / lengths
