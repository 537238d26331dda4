"""The row a pair measure's formula result becomes
(:class:`~mgbias.measures.measure.PairResult`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mgbias.measures.measure import PairResult
from mgbias.measures.preference import compare_pairs

__all__ = ["compared", "preference_row", "result_row"]


def result_row(result: Any, n: int) -> PairResult:
    """A formula's result (``score``, ``se``, ``p_value``, ``n_edge``, ``n_ties``,
    ``n_clusters``) with ``n`` pairs in its denominator."""
    return PairResult(
        result.score,
        result.se,
        result.p_value,
        n=n,
        n_edge=result.n_edge,
        n_ties=result.n_ties,
        n_clusters=result.n_clusters,
    )


def preference_row(result: Any) -> PairResult:
    """A share of pairs (:class:`~mgbias.measures.preference.PairPreferenceResult`): its
    denominator is the pairs it counted."""
    return result_row(result, result.n_counted)


def compared(sides: Callable, formula: Callable = compare_pairs) -> Callable:
    """The computation of a share of pairs from its sentence scores: ``formula(more, less,
    edge=..., **options)`` (default :func:`~mgbias.measures.preference.compare_pairs`) on
    ``sides(unmasked, masked)``."""

    def compute(unmasked, masked, edge, options):
        return preference_row(formula(*sides(unmasked, masked), edge=edge, **options))

    return compute
