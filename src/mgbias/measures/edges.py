"""Pairs a measure cannot score in the usual way, and the rule each measure applies.

Real subword tokenizers produce pairs that the papers' examples never show.
"Paul" / "Paula" becomes ``pau ##l`` / ``pau ##l ##a``: every token of the
first sentence is shared with the second, so the first sentence has no
modified token at all. Four flags describe such pairs, as the model sees
them (after truncation):

- ``identical``: both sentences are the same token sequence (no modified
  token on either side; e.g. a pair that differs only in case for an uncased
  model, or only after the length limit);
- ``no_shared``: the sentences have no token in common;
- ``no_modified_more`` / ``no_modified_less``: ``sent_more`` / ``sent_less``
  has no token of its own (every token is shared).

Each measure follows its formula where the formula is defined, with an
empty sum equal to 0, and says which pairs are its edge cases (its record's
``edge_flags``, :mod:`mgbias.measures.pair`; :meth:`PairEdges.for_measure`):

========  =========================================  ==================================
measure   edge pairs                                 default rule
========  =========================================  ==================================
aul/aula  identical                                  equal scores: a tie
cps       identical or no_shared                     both sums empty (0) or equal: a tie
sss       no modified token on one or both sides     the empty side's sum is 0
                                                     (log-likelihood of no token); both
                                                     empty: a tie
sjsd      identical or no_shared                     pair score 0 (a mean over no token
                                                     is undefined: no preference)
bsjsd     identical or no_shared                     both distance sums 0 or equal: a tie
========  =========================================  ==================================

With ``tie_rule="exclude"`` a measure drops its edge pairs (and its ties)
from ``n``; with ``"neutral"`` (default) or ``"half"`` they stay, scored as
above. Identical sentences get identical numbers: the scoring engine may
differ in the last float bits between two batch positions of the same
input, so :func:`mgbias.pairs.scoring.pair_measures` copies one side's
numbers to the other for identical pairs before any measure runs.

Every measure reports ``n_edge``, the number of its edge pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["EDGE_FLAGS", "PairEdges", "identical_sequences", "pair_edges"]

#: The per-pair flags, in the order of the per-pair tables.
EDGE_FLAGS = ("identical", "no_shared", "no_modified_more", "no_modified_less")


@dataclass(frozen=True)
class PairEdges:
    """Edge-case flags of every pair (bool arrays of one length), see the module docstring."""

    identical: np.ndarray
    no_shared: np.ndarray
    no_modified_more: np.ndarray
    no_modified_less: np.ndarray

    def __post_init__(self) -> None:
        lengths = {name: np.asarray(getattr(self, name)).shape for name in EDGE_FLAGS}
        if len(set(lengths.values())) != 1 or len(next(iter(lengths.values()))) != 1:
            raise ValueError(f"PairEdges: flags must be 1-D of one length, got shapes {lengths}")

    def __len__(self) -> int:
        return int(np.asarray(self.identical).size)

    def for_measure(self, measure: Any) -> np.ndarray:
        """Bool per pair: is it an edge case of ``measure`` (a
        :class:`~mgbias.measures.measure.PairMeasure`: any of its ``edge_flags``)?"""
        unknown = [name for name in measure.edge_flags if name not in EDGE_FLAGS]
        if unknown or not measure.edge_flags:
            raise ValueError(
                f"pair measure {measure.name!r}: edge flags {list(measure.edge_flags)}; "
                f"expected some of {list(EDGE_FLAGS)}"
            )
        flags = [np.asarray(getattr(self, name), dtype=bool) for name in measure.edge_flags]
        return np.logical_or.reduce(flags)

    def counts(self) -> dict[str, int]:
        """Number of pairs with each flag."""
        return {name: int(np.count_nonzero(getattr(self, name))) for name in EDGE_FLAGS}


def _lengths(arrays: Sequence[Any]) -> np.ndarray:
    return np.fromiter((len(array) for array in arrays), dtype=np.int64, count=len(arrays))


def pair_edges(
    more_shared: Sequence[Any],
    more_modified: Sequence[Any],
    less_modified: Sequence[Any],
) -> PairEdges:
    """Edge flags from the per-pair token arrays of the masked pass.

    Parameters
    ----------
    more_shared : sequence of 1-D arrays
        Per pair, one entry per shared token (the shared tokens are the same
        on both sides, so one side suffices), e.g. ``sent_more``'s shared
        log-probabilities.
    more_modified, less_modified : sequences of 1-D arrays
        Per pair, one entry per modified token of ``sent_more`` / ``sent_less``.

    Returns
    -------
    PairEdges
        ``identical`` = no modified token on either side (the shared tokens,
        and so the sentences, are then the same sequence).

    Raises
    ------
    ValueError
        If the three sequences hold different numbers of pairs.

    Examples
    --------
    >>> edges = pair_edges([[-1.0], [-1.0, -2.0], []], [[], [], [-3.0]], [[-2.0], [], [-1.0]])
    >>> edges.counts()
    {'identical': 1, 'no_shared': 1, 'no_modified_more': 2, 'no_modified_less': 1}
    >>> edges.no_modified_more.tolist()
    [True, True, False]
    """
    shared = _lengths(more_shared)
    more = _lengths(more_modified)
    less = _lengths(less_modified)
    if not shared.size == more.size == less.size:
        raise ValueError(
            f"pair_edges: more_shared holds {shared.size} pairs, more_modified {more.size}, "
            f"less_modified {less.size}"
        )
    return PairEdges(
        identical=(more == 0) & (less == 0),
        no_shared=shared == 0,
        no_modified_more=more == 0,
        no_modified_less=less == 0,
    )


def identical_sequences(more_ids: Sequence[Any], less_ids: Sequence[Any]) -> np.ndarray:
    """Bool per pair: are the two token-id sequences equal?

    The flag ``identical`` of the unmasked pass (AUL, AULA), from the token
    ids each sentence was scored on.

    Examples
    --------
    >>> identical_sequences([[1, 2], [3]], [[1, 2], [3, 4]]).tolist()
    [True, False]
    """
    if len(more_ids) != len(less_ids):
        raise ValueError(
            f"identical_sequences: {len(more_ids)} sentences on one side, {len(less_ids)} "
            "on the other"
        )
    return np.fromiter(
        (
            np.array_equal(np.asarray(a), np.asarray(b))
            for a, b in zip(more_ids, less_ids, strict=True)
        ),
        dtype=bool,
        count=len(more_ids),
    )
