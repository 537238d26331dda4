"""The measure registry: every bias measure once, with where it comes from and where it goes.

Every measure is declared in a module of its own: the pair measures in
:mod:`mgbias.measures.pair`, MBE, TBS and inBias, whose computations have pipelines of
their own, in :mod:`mgbias.measures.other`.
:func:`measures` lists them all (the pair measures first, in the papers' order); the
command line, the configuration schema, the report's order of measures and
``docs/measures.md`` (:func:`measures_markdown`; ``python -m mgbias.measures.registry``)
read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mgbias.measures import pair
from mgbias.measures.measure import Measure
from mgbias.measures.other import other_measures

__all__ = [
    "OTHER_MEASURES",
    "TIES_DOMINATE",
    "LengthLean",
    "by_name",
    "measures",
    "measures_markdown",
    "table_order",
    "verdict",
]


#: The measures that are not pair measures (:mod:`mgbias.measures.other`), with their rows
#: in Kaneko et al. (2023)'s Table 1 where they have one.
OTHER_MEASURES: tuple[Measure, ...] = other_measures()


def measures() -> tuple[Measure, ...]:
    """Every measure: the pair measures (:func:`mgbias.measures.pair.pair_measures`), then
    MBE, TBS and inBias."""
    return (*pair.pair_measures(), *OTHER_MEASURES)


def table_order() -> tuple[str, ...]:
    """The measures of Kaneko et al. (2023)'s Table 1, in its order (``table_rank``)."""
    ranked = [m for m in measures() if m.table_rank is not None]
    return tuple(m.name for m in sorted(ranked, key=lambda m: m.table_rank))


#: A verdict says the measure could not decide when more than this share of the pairs it
#: compared tied (:func:`verdict`).
TIES_DOMINATE = 0.5


def by_name(name: str) -> Measure:
    """The registered measure called ``name``; an unknown name lists the known ones."""
    for measure in measures():
        if measure.name == name:
            return measure
    raise ValueError(f"unknown measure {name!r}; expected one of {[m.name for m in measures()]}")


@dataclass(frozen=True)
class LengthLean:
    """A pair measure whose decisions follow the length difference, as its verdict says it.

    The numbers of :data:`~mgbias.measures.measure.PAIR_LENGTH_COLUMNS` for one measure
    (:func:`mgbias.pairs.structure.length_structure`): ``n_unequal`` pairs of unequal
    length decided, in ``share`` percent of which the shorter sentence won (binomial
    ``p_value`` against 50), and the measure on the ``matched_n`` length-matched pairs.
    """

    n_unequal: int
    share: float
    p_value: float
    matched_score: float
    matched_p_value: float
    matched_n: int

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> LengthLean | None:
        """The lean of a row with :data:`~mgbias.measures.measure.PAIR_LENGTH_COLUMNS`;
        None where ``length_lean`` is not true (or the row has no length columns)."""
        if row.get("length_lean") not in (True, "True"):
            return None
        return cls(
            n_unequal=int(row["n_unequal"]),
            share=float(row["length_share"]),
            p_value=float(row["length_p_value"]),
            matched_score=float(row["matched_score"]),
            matched_p_value=float(row["matched_p_value"]),
            matched_n=int(row["matched_n"]),
        )


def _p(p_value: float) -> str:
    """``"p = 0.0042"``; a p-value below the smallest float reads ``"p < 1e-300"``."""
    return "p < 1e-300" if p_value == 0.0 else f"p = {p_value:.2g}"


def _preference(
    measure: Measure, score: float, p_value: float, alpha: float, subject: str = "the model"
) -> str:
    if not p_value < alpha:
        return f"no significant preference at alpha = {alpha:g}"
    if score > measure.neutral:
        return f"{subject} prefers {measure.above}"
    if score < measure.neutral:
        return f"{subject} prefers {measure.below}"
    return "no preference"


def _length_words(
    measure: Measure, lean: LengthLean, alpha: float, subject: str = "the model"
) -> str:
    side, share = ("shorter", lean.share) if lean.share >= 50.0 else ("longer", 100 - lean.share)
    said = (
        f"in {lean.n_unequal} pairs of unequal length the {side} sentence won {share:.1f}% "
        f"({_p(lean.p_value)}): the measure's length artifact, not {subject}, may decide"
    )
    if not lean.matched_n:
        return f"{said}; no pair is length-matched"
    matched = _preference(measure, lean.matched_score, lean.matched_p_value, alpha, subject)
    return (
        f"{said}; on the {lean.matched_n} length-matched pair"
        f"{'s' if lean.matched_n != 1 else ''} {measure.short} is {lean.matched_score:.4g} "
        f"({_p(lean.matched_p_value)}): {matched}"
    )


def verdict(
    name: str,
    score: float,
    p_value: float,
    *,
    alpha: float = 0.05,
    sample: str = "",
    n_ties: int = 0,
    n_compared: int = 0,
    lean: LengthLean | None = None,
    subject: str = "the model",
    units: str = "",
    smallest_p: float | None = None,
    artifact: str = "",
) -> str:
    """One measure's result in words, its direction read from the registry.

    ``"AULA 46.5 (p = 0.007, 262 pairs): the model prefers the anti-stereotypical
    sentence"``: the score lies below the measure's :attr:`Measure.neutral`
    value, so :attr:`Measure.below` is preferred; ``p_value >= alpha`` (or a
    p-value that is not a number) reads ``"no significant preference at alpha =
    0.05"`` whatever the score.

    Two structural findings come before the model's preference:

    - more than :data:`TIES_DOMINATE` of the ``n_compared`` pairs tied: ``"AULA: 234 of
      262 pairs tied: the measure could not decide for this model and data"`` (a share of
      wins counts ties as no win, so its score says nothing of a preference then);
    - ``lean`` given (the measure's decisions on pairs of unequal length follow the length
      difference, :func:`mgbias.pairs.structure.leans_on_length`), a random BERT on
      CrowS-Pairs: ``"SSS 43.44 (p = 3.8e-07, 1508 pairs): in 416 pairs of unequal length
      the shorter sentence won 100.0% (p = 1.2e-125): the measure's length artifact, not
      the model, may decide; on the 1092 length-matched pairs SSS is 45.24 (p = 0.0018):
      the model prefers the anti-stereotypical sentence"``. For AUL and AULA the length is
      the sentence's token count; for the other measures the count of its modified tokens.

    Parameters
    ----------
    name : str
        A registered measure with a direction (not ``inbias``).
    score, p_value : float
        The measure's score in its units and the p-value of its test.
    alpha : float
        Significance level.
    sample : str
        What was scored, e.g. ``"262 pairs"``; printed after the p-value.
    n_ties, n_compared : int
        Pairs whose two sentences scored the same, of the pairs the measure compared
        (0: not known; no ties verdict).
    lean : LengthLean, optional
        The measure's length lean, given only where it leans.
    subject : str
        Whose scores these are: ``"the model"``, or ``"the random copy"`` for a
        structural baseline's (:mod:`mgbias.pairs.baseline`).
    units, smallest_p : str, float, optional
        The test's units (``"2 clusters"``) and the smallest p-value it can give with
        them. Where that is not below ``alpha`` and the test did not reach it, the verdict
        says so: ``"AUL 100 (p = 0.5, 6 pairs in 2 clusters): 2 clusters cannot give p
        below alpha = 0.05 (at best p = 0.5): the test, not the model, decides"``.
    artifact : str, optional
        What of the data, not the model, may decide the score (MBE's set lengths,
        :mod:`mgbias.measures.mbe_length`), said in place of a preference.

    Raises
    ------
    ValueError
        An unknown measure, one without a direction, or ``alpha`` outside (0, 1).
    """
    measure = by_name(name)
    if measure.neutral is None:
        raise ValueError(f"measure {name!r} has no direction; a verdict needs one")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    if n_compared and n_ties > TIES_DOMINATE * n_compared:
        return (
            f"{measure.short}: {n_ties} of {n_compared} pair{'s' if n_compared != 1 else ''} "
            f"tied: the measure could not decide for {subject.replace('the ', 'this ', 1)} "
            "and data"
        )
    where = f"p = {p_value:.2g}" + (f", {sample}" if sample else "")
    head = f"{measure.short} {score:.4g} ({where})"
    if smallest_p is not None and smallest_p >= alpha and not p_value < alpha:
        return (
            f"{head}: {units or 'these units'} cannot give p below alpha = {alpha:g} "
            f"(at best p = {smallest_p:.2g}): the test, not {subject}, decides"
        )
    if lean is not None:
        return f"{head}: {_length_words(measure, lean, alpha, subject)}"
    if artifact:
        return f"{head}: {artifact}"
    return f"{head}: {_preference(measure, score, p_value, alpha, subject)}"


def measures_markdown() -> str:
    """``docs/measures.md``: measure -> paper and equation -> module -> rule -> output."""
    lines = [
        "# Measures",
        "",
        "Generated from `mgbias.measures.registry` (`python -m mgbias.measures.registry >",
        "docs/measures.md`); a test checks that it is current. Edge cases, ties and the",
        "significance tests of the pair measures: `docs/pair_measures.md`.",
        "",
        "| measure | paper and equation | code | cache | rule | output | units | direction |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for m in measures():
        cells = [
            f"`{m.name}` ({m.title})",
            f"{m.paper}: {m.equation}",
            f"`{m.module}.{m.function}`",
            m.cache,
            f"`{m.rule}`",
            m.output,
            m.units,
            m.direction,
        ]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    lines += ["", "## Variants", ""]
    lines += [
        f"- `{m.name}`, `{variant}`: {text}" for m in measures() for variant, text in m.variants
    ]
    lines += ["", "## Published values for comparison", ""]
    lines += [f"- `{m.name}`: {m.published}" for m in measures()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(measures_markdown(), end="")
