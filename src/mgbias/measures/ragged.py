"""Ragged per-sentence arrays: many sentences' token values in one flat array.

The sentence measures take one 1-D array per sentence (a value per token:
log-probabilities, attention weights). :func:`pack_sentences` checks them and
packs them into one flat float64 array with each sentence's offset and
length, so a measure reduces every sentence at once (``np.add.reduceat``,
``np.bincount``) instead of looping over sentences; :func:`segment_sums`
adds each sentence's sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["pack_sentences", "segment_sums"]


def pack_sentences(
    values: Sequence[Any],
    name: str,
    *,
    allow_empty: bool = False,
    allow_neg_inf: bool = False,
    invalid: str = "a non-finite value",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check per-sentence token arrays and concatenate them into one flat array.

    Parameters
    ----------
    values : sequence of 1-D float arrays
        One array per sentence, one value per non-special token.
    name : str
        Argument name used in error messages (e.g. ``"logprobs"``).
    allow_empty : bool, optional
        Whether a sentence may have no token (default: no).
    allow_neg_inf : bool, optional
        Whether ``-inf`` (the log of probability 0) is allowed (default: no).
        NaN and ``+inf`` never are.
    invalid : str, optional
        How the error message names a refused value.

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
        If a sentence is not 1-D, is empty when that is not allowed, or holds
        a refused value; the message names the sentence index (and the token
        index of a refused value).

    Examples
    --------
    >>> import numpy as np
    >>> flat, starts, lengths = pack_sentences([np.array([-1.0, -2.0]), np.array([-3.0])], "x")
    >>> flat.tolist(), starts.tolist(), lengths.tolist()
    ([-1.0, -2.0, -3.0], [0, 2], [2, 1])
    >>> pack_sentences([np.array([-1.0]), np.array([0.0, np.nan])], "x")
    Traceback (most recent call last):
    ...
    ValueError: x[1] holds a non-finite value (nan) at token 1
    """
    arrays = [np.asarray(sentence, dtype=np.float64) for sentence in values]
    lengths = np.empty(len(arrays), dtype=np.int64)
    for index, array in enumerate(arrays):
        if array.ndim != 1:
            raise ValueError(
                f"{name}[{index}] must be a 1-D array (one value per token), "
                f"got shape {array.shape}"
            )
        if array.size == 0 and not allow_empty:
            raise ValueError(
                f"{name}[{index}] is empty; every sentence needs at least one non-special token"
            )
        lengths[index] = array.size
    starts = np.zeros(len(arrays), dtype=np.int64)
    if not arrays:
        return np.empty(0, dtype=np.float64), starts, lengths
    flat = np.concatenate(arrays)
    np.cumsum(lengths[:-1], out=starts[1:])
    refused = np.isnan(flat) | (flat == np.inf)
    if not allow_neg_inf:
        refused |= flat == -np.inf
    if refused.any():
        position = int(np.argmax(refused))
        # side="right": of sentences sharing a start offset, the last one is the non-empty one.
        sentence = int(np.searchsorted(starts, position, side="right") - 1)
        raise ValueError(
            f"{name}[{sentence}] holds {invalid} ({flat[position]}) "
            f"at token {position - starts[sentence]}"
        )
    return flat, starts, lengths


def segment_sums(
    values: Sequence[Any], name: str, *, allow_empty: bool = True, allow_neg_inf: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Check per-sentence token arrays; return their sums, the flat values and lengths.

    :func:`pack_sentences` (which see for the checks), plus the sum of each
    sentence's values.

    Parameters
    ----------
    values : sequence of 1-D float arrays
        One array per sentence (e.g. log-probabilities of its shared tokens).
    name : str
        Argument name for error messages.
    allow_empty : bool, optional
        Whether a sentence may have no token (its sum is 0; default: yes).
    allow_neg_inf : bool, optional
        Whether ``-inf`` (log of probability 0) is allowed.

    Returns
    -------
    sums : np.ndarray of float64, shape (n_sentences,)
    flat : np.ndarray of float64, shape (total_tokens,)
    lengths : np.ndarray of int64, shape (n_sentences,)

    Raises
    ------
    ValueError
        Naming the sentence (and token) that is not 1-D, empty when not
        allowed, NaN, ``+inf``, or ``-inf`` when not allowed.

    Examples
    --------
    >>> import numpy as np
    >>> sums, _, lengths = segment_sums([np.array([-1.0, -2.0]), np.array([])], "x")
    >>> sums.tolist(), lengths.tolist()
    ([-3.0, 0.0], [2, 0])
    """
    flat, _, lengths = pack_sentences(
        values,
        name,
        allow_empty=allow_empty,
        allow_neg_inf=allow_neg_inf,
        invalid="an invalid value",
    )
    segment = np.repeat(np.arange(lengths.size), lengths)
    sums = np.bincount(segment, weights=flat, minlength=lengths.size).astype(np.float64)
    return sums, flat, lengths
