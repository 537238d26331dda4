"""Token-id sequences compared without a model library: the shared tokens of two
sentences (Nangia et al. 2020, §3), which :mod:`mgbias.mlm.spans` masks and
:mod:`mgbias.measures.orientation` aligns words with."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import numpy as np

__all__ = ["shared_token_indices"]


def shared_token_indices(
    ids_a: Sequence[int] | np.ndarray, ids_b: Sequence[int] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the shared tokens of two token-id sequences (special tokens already removed).

    Shared tokens are the items of ``difflib.SequenceMatcher``'s ``equal``
    opcodes (Nangia et al. 2020, §3), with ``autojunk=False``.

    Returns
    -------
    tuple[np.ndarray, np.ndarray]
        int64 indices into ``ids_a`` and into ``ids_b``, of equal length, with
        ``ids_a[first[i]] == ids_b[second[i]]`` for every ``i``.

    Examples
    --------
    >>> shared_token_indices([7, 10, 11, 12], [8, 10, 11, 12])
    (array([1, 2, 3]), array([1, 2, 3]))
    """
    list_a = [int(token) for token in ids_a]
    list_b = [int(token) for token in ids_b]
    matcher = difflib.SequenceMatcher(None, list_a, list_b, autojunk=False)
    first: list[int] = []
    second: list[int] = []
    for tag, start_a, end_a, start_b, end_b in matcher.get_opcodes():
        if tag == "equal":
            first.extend(range(start_a, end_a))
            second.extend(range(start_b, end_b))
    return np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
