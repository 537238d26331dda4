"""The row a pair measure's formula result becomes
(:class:`~mgbias.measures.measure.PairResult`)."""

from __future__ import annotations

from typing import Any

from mgbias.measures.measure import PairResult

__all__ = ["preference_row", "result_row"]


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
