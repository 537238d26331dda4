"""What a bias measure is: its record (:class:`Measure`) and, for a pair measure, how it is
computed from the shared model passes (:class:`PairMeasure`).

A pair measure is declared once, in its own module of :mod:`mgbias.measures.pair`: its
name, paper and equation, its computation from the two passes, its per-pair columns, its
edge pairs, the rounding of its comparison and its place in Kaneko et al. (2023)'s
Table 1. The registries (:mod:`mgbias.measures.pair` for the pair measures,
:mod:`mgbias.measures.registry` for every measure) and everything that lists measures (the
command line, the scoring, the per-pair tables, the orientation, the meta-evaluation and
docs/measures.md) read these records. The configuration schema, which sits below the
measures, writes its ``pair_measures`` list itself; a test keeps it equal to them.

Nothing heavy is imported here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

__all__ = [
    "MBE_RESULT_COLUMNS",
    "PAIR_LENGTH_COLUMNS",
    "PAIR_RESULT_COLUMNS",
    "PAIR_SCORE_COLUMNS",
    "Measure",
    "PairCompute",
    "PairMeasure",
    "PairResult",
]


@dataclass(frozen=True)
class Measure:
    """One bias measure: where it comes from and where it goes.

    ``module`` and ``function`` name the pure function of its formula; ``cache`` the
    model outputs it is computed from; ``rule`` the workflow rule that computes it and
    ``output`` where that rule writes it; ``units`` and ``direction`` how to read it;
    ``published`` values the papers print for comparison.
    """

    name: str
    title: str
    paper: str
    equation: str
    module: str
    function: str
    cache: str
    rule: str
    output: str
    units: str
    direction: str
    published: str
    kind: str = "pair"
    #: ``(name, what it computes)`` per variant, the default first.
    variants: tuple[tuple[str, str], ...] = ()
    #: The score of no bias (50 for a share of pairs, 0 for a mean difference);
    #: ``None`` for a measure without a direction (inBias is a distance, >= 0).
    neutral: float | None = None
    #: What the model prefers when the score lies above / below :attr:`neutral`
    #: (completing "the model prefers ..."); :func:`mgbias.measures.registry.verdict`
    #: reads them.
    above: str = ""
    below: str = ""
    #: The measure's row in Kaneko et al. (2023)'s Table 1 (the meta-evaluation: TBS,
    #: SSS, CPS, AUL, AULA, MBE), which orders its tables; None: not in it.
    table_rank: int | None = None

    def formula(self) -> Callable:
        """The pure function of its formula (``module.function``; imports its module), for
        reading and the documentation; a pair measure is computed by its ``compute``."""
        import importlib

        return getattr(importlib.import_module(self.module), self.function)

    @property
    def short(self) -> str:
        """The measure's name as the papers print it (``"AULA"``, ``"S_JSD"``)."""
        return self.title.split(",")[0]


class PairResult(NamedTuple):
    """One pair measure's numbers, as a row of
    :func:`mgbias.pairs.scoring.pair_measures` reports them."""

    score: float
    se: float
    p_value: float
    #: Pairs in the score's denominator (``n_counted``; all scored pairs for ``sjsd``).
    n: int
    n_edge: int
    #: Pairs of ``n`` with equal scores (``sjsd``: a pair score of 0): no preference.
    n_ties: int
    #: Clusters the test and the standard error took as units; 0: the pairs.
    n_clusters: int = 0


class PairCompute(Protocol):
    """How one pair measure is computed from the cached passes (:attr:`PairMeasure.compute`).

    ``unmasked`` and ``masked`` are the passes after
    :func:`mgbias.pairs.scoring.equalise_identical` (a measure reads the one its
    ``cache`` names; the other may be None), ``edge`` the measure's edge pairs (bool
    per pair) and ``options`` the keyword arguments ``seed`` and ``tie_rule`` of its
    formula, and ``clusters`` when the pairs are clustered.
    """

    def __call__(
        self, unmasked: Any, masked: Any, edge: Any, options: Mapping[str, Any]
    ) -> PairResult: ...


#: ``(unmasked, masked) -> (more, less)``: one number per pair and side.
SideValues = Callable[[Any, Any], tuple[Any, Any]]


@dataclass(frozen=True)
class PairMeasure(Measure):
    """A pair measure, whole: its record and how it is computed from the two passes.

    ``cache`` is the pass it reads, ``"unmasked"`` (the model once over each sentence)
    or ``"masked"`` (the masked copies); the length its decisions are checked against
    (:mod:`mgbias.pairs.structure`) is the sentence's token count for the unmasked pass
    and its count of modified tokens for the masked one.
    """

    #: The measure's result from the passes (:class:`PairCompute`).
    compute: PairCompute | None = None
    #: Each side's sentence score, higher = preferred (``{name}_more`` and
    #: ``{name}_less`` of the per-pair table, oriented by
    #: :func:`mgbias.measures.orientation.oriented_pair_scores`); None for a measure
    #: that scores the pair as a whole.
    sentence_scores: SideValues | None = None
    #: The values whose comparison decides each pair (the larger side wins), for a
    #: measure without sentence scores.
    decided_by: SideValues | None = None
    #: Its columns of the per-pair table beyond the sentence scores, as
    #: ``(unmasked, masked) -> {column: values}``.
    per_pair: Callable[[Any, Any], dict[str, Any]] | None = None
    #: Which edge flags (:data:`mgbias.measures.edges.EDGE_FLAGS`) make a pair one of
    #: its edge cases.
    edge_flags: tuple[str, ...] = ()
    #: Decimals the sentence scores are rounded to before they are compared (CPS:
    #: Nangia et al.'s 3); None: not rounded.
    round_to: int | None = None
    #: How the papers' tables print it: the score and its standard error times
    #: ``table_scale`` (S_JSD × 10³), with ``decimals`` decimals in the report's cells.
    table_scale: float = 1.0
    decimals: int = 2

    def __post_init__(self) -> None:
        if self.compute is None:
            raise ValueError(f"pair measure {self.name!r} has no compute")
        if self.cache not in ("unmasked", "masked"):
            raise ValueError(
                f"pair measure {self.name!r}: cache must be 'unmasked' or 'masked', "
                f"got {self.cache!r}"
            )
        if (self.sentence_scores is None) == (self.decided_by is None):
            raise ValueError(
                f"pair measure {self.name!r}: give sentence_scores or decided_by (one)"
            )

    @property
    def share(self) -> bool:
        """Whether it is a share of pairs (percent of pairs in which ``sent_more`` wins, 50:
        none), whose ties leave ``n`` under ``tie_rule="exclude"``, rather than a mean."""
        return self.neutral == 50.0

    def sides(self, unmasked: Any, masked: Any) -> tuple[Any, Any]:
        """``(more, less)``: the values whose comparison decides each pair."""
        values = self.sentence_scores if self.sentence_scores is not None else self.decided_by
        return values(unmasked, masked)

    def per_pair_columns(self, unmasked: Any, masked: Any) -> dict[str, Any]:
        """Its columns of the per-pair table, in order."""
        columns: dict[str, Any] = {}
        if self.sentence_scores is not None:
            more, less = self.sentence_scores(unmasked, masked)
            columns[f"{self.name}_more"], columns[f"{self.name}_less"] = more, less
        if self.per_pair is not None:
            columns.update(self.per_pair(unmasked, masked))
        return columns


#: The columns of one pair measure's result, in every table that has them
#: (:func:`mgbias.pairs.scoring.pair_measures`, ``mgbias score``'s summary, the workflow's
#: pair tables).
PAIR_RESULT_COLUMNS: tuple[str, ...] = (
    "measure",
    "score",
    "se",
    "p_value",
    "significant",
    "n",
    "n_edge",
    "n_ties",
    "n_clusters",
)

#: What the measure's structure rather than the model decides, beside each pair measure's
#: result (:func:`mgbias.pairs.structure.length_structure`): ``matched_score``,
#: ``matched_se``, ``matched_p_value`` and ``matched_n`` are the measure on the
#: length-matched pairs alone (equal token counts for AUL and AULA, equal modified-token
#: counts for the others); ``n_unequal`` the pairs of unequal length the measure decided
#: (not tied), ``length_share`` the percent of them in which the shorter sentence won,
#: ``length_p_value`` the exact binomial test of that share against 50, and
#: ``length_lean`` whether the decisions follow the length difference
#: (:func:`mgbias.pairs.structure.leans_on_length`).
PAIR_LENGTH_COLUMNS: tuple[str, ...] = (
    "matched_score",
    "matched_se",
    "matched_p_value",
    "matched_n",
    "n_unequal",
    "length_share",
    "length_p_value",
    "length_lean",
)

#: The columns of one pair measure in ``mgbias score``'s summary and the workflow's pair
#: tables: its result, then its length structure.
PAIR_SCORE_COLUMNS: tuple[str, ...] = (*PAIR_RESULT_COLUMNS, *PAIR_LENGTH_COLUMNS)

#: The columns of one MBE result (Kaneko et al. 2022, Eq. 2, its test and the Shf
#: baseline), in every table that has them (``mgbias mbe``'s summary, the workflow's MBE
#: table).
MBE_RESULT_COLUMNS: tuple[str, ...] = (
    "mbe",
    "p_value",
    "significant",
    "preferred",
    "shf",
    "shf_p_value",
    "n_male",
    "n_female",
    "n_comparisons",
    "weighting",
    "test",
    "n_permutations",
)
