"""The pair measures, one module each (:class:`~mgbias.measures.measure.PairMeasure`), and
what is derived from them.

A pair measure's module declares it whole: its record (name, paper, equation, units,
direction), how it is computed from the two passes, its sentence scores or what decides
a pair, its per-pair columns, its edge pairs, its rounding and its row in Kaneko et al.
(2023)'s Table 1. Everything that lists pair measures reads :func:`pair_measures`:
``mgbias score --measures``, the scoring
(:mod:`mgbias.pairs.scoring`), the per-pair table, the length structure
(:mod:`mgbias.pairs.structure`), the orientation (:mod:`mgbias.measures.orientation`),
the meta-evaluation's order and docs/measures.md.

Adding a pair measure: a module here whose ``MEASURE`` is a ``PairMeasure``, and its
name in :data:`_MODULES` (or, from another package, :func:`register`); then
``python -m mgbias.measures.registry > docs/measures.md`` and its name in the
``pair_measures`` enum and default of ``schema.yaml`` (the schema, below the measures in
the layers, cannot read them; ``tests/unit/measures/test_measure_registry.py`` checks).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from mgbias.measures.measure import PairMeasure
from mgbias.measures.pair import aul, aula, bsjsd, cps, sjsd, sss

__all__ = [
    "by_cache",
    "names",
    "oriented",
    "pair_measure",
    "pair_measures",
    "register",
    "registered",
]

#: The pair measures' modules, in the papers' order (the order of every table).
_MODULES = (aul, aula, cps, sss, sjsd, bsjsd)

_REGISTERED: list[PairMeasure] = [module.MEASURE for module in _MODULES]


def pair_measures() -> tuple[PairMeasure, ...]:
    """Every pair measure, in the papers' order."""
    return tuple(_REGISTERED)


def names() -> tuple[str, ...]:
    """The pair measures' names, in the papers' order."""
    return tuple(measure.name for measure in _REGISTERED)


def pair_measure(name: str) -> PairMeasure:
    """The pair measure called ``name``; an unknown name lists the known ones."""
    for measure in _REGISTERED:
        if measure.name == name:
            return measure
    raise ValueError(f"unknown pair measure {name!r}; expected one of {list(names())}")


def by_cache(cache: str) -> frozenset[str]:
    """The names of the pair measures computed from the ``"unmasked"`` or ``"masked"`` pass."""
    return frozenset(measure.name for measure in _REGISTERED if measure.cache == cache)


def oriented() -> tuple[str, ...]:
    """The pair measures with sentence scores, which can be oriented by the male side,
    in the order of Kaneko et al. (2023)'s Table 1 (then the papers' order)."""
    with_scores = [m for m in _REGISTERED if m.sentence_scores is not None]
    ranked = sorted(
        (m for m in with_scores if m.table_rank is not None), key=lambda m: m.table_rank
    )
    return tuple(m.name for m in [*ranked, *(m for m in with_scores if m.table_rank is None)])


def register(measure: PairMeasure) -> None:
    """Add a pair measure declared outside this package (after the others)."""
    if not isinstance(measure, PairMeasure):
        raise TypeError(f"expected a PairMeasure, got {type(measure).__name__}")
    if measure.name in names():
        raise ValueError(f"a pair measure called {measure.name!r} exists already")
    _REGISTERED.append(measure)


@contextlib.contextmanager
def registered(measure: PairMeasure) -> Iterator[PairMeasure]:
    """:func:`register` ``measure`` for the ``with`` block, then remove it."""
    register(measure)
    try:
        yield measure
    finally:
        _REGISTERED.remove(measure)
