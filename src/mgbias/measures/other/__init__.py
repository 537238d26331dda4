"""The measures that are not pair measures, a record each
(:class:`~mgbias.measures.measure.Measure`): MBE of sentence sets, TBS of templates and
inBias of static word vectors, whose computations have rules of their own.
:func:`other_measures` lists them in that order.
"""

from __future__ import annotations

from mgbias.measures.measure import Measure
from mgbias.measures.other import inbias, mbe, tbs

__all__ = ["other_measures"]


def other_measures() -> tuple[Measure, ...]:
    """MBE, TBS and inBias, their records in that order."""
    return (mbe.MEASURE, tbs.MEASURE, inbias.MEASURE)
