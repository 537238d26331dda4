"""Pair-measure tables: every score in one long table, measures x models, and
Steinborn et al. (2022) Tables 2 and 3.

The long table (``results/tables/pairs_scores.csv``) has one row per (model,
dataset, variant, language, measure) with ``score``, ``se``, ``p_value``,
``significant``, ``n``, ``n_edge`` and ``n_ties`` in the units of
:func:`mgbias.pairs.scoring.pair_measures`: percent of pairs in which
``sent_more`` is preferred, the raw mean for ``sjsd``; beside them the measure's length
structure (:data:`~mgbias.measures.registry.PAIR_LENGTH_COLUMNS`: the score on the
length-matched pairs, and whether the decisions on pairs of unequal length follow the
length, :mod:`mgbias.pairs.structure`). Every printed score
carries its bootstrap standard error and, when its test rejects "no
preference" (``p_value < alpha``; the sign test against 50, the t-test
against 0 for S_JSD), the mark :data:`SIGNIFICANT`. The paper tables
print S_JSD x 10^-3 as the paper does (``sjsd_x1e3``: the score divided by
10^-3, i.e. times its record's ``table_scale``, :data:`~mgbias.measures.sjsd.TABLE_SCALE`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd

from mgbias.measures import pair
from mgbias.measures.measure import PAIR_LENGTH_COLUMNS, PAIR_SCORE_COLUMNS
from mgbias.mlm.baseline import BASELINE_MEANING, BASELINE_SUFFIX
from mgbias.report.tables import markdown

__all__ = [
    "PAIR_COLUMNS",
    "STEINBORN_TABLES",
    "baseline_note",
    "chance_marks",
    "length_cells",
    "matched_cells",
    "measures_by_model",
    "measures_by_model_markdown",
    "pair_scores_markdown",
    "read_pair_scores",
    "steinborn_table2",
    "steinborn_table2_markdown",
    "steinborn_table3",
    "steinborn_table3_markdown",
]

PAIR_COLUMNS = ["model", "dataset", "variant", "lang", *PAIR_SCORE_COLUMNS, "model_id"]

#: Mark of a score whose test rejects "no preference" (as in the MBE tables).
SIGNIFICANT = " ‡"

#: How to read the mark, repeated under every table.
SIGNIFICANCE_NOTE = (
    "‡ = p < alpha: exact sign test of the untied pairs against no preference (S_JSD: "
    "one-sample t-test of the pair scores against 0); where n_clusters > 0, the cluster "
    "sign-flip test with the dataset's clusters (e.g. its target words) as units."
)
#: Mark of a measure whose decisions on pairs of unequal length follow the length
#: (``length_lean``, :func:`mgbias.pairs.structure.leans_on_length`).
LENGTH_LEAN = " §"

#: How to read the length columns of the Markdown tables.
LENGTH_NOTE = (
    "matched = the measure on the length-matched pairs only (equal token counts for aul "
    "and aula, equal modified-token counts for the others), its p-value and pairs; "
    "length = among the decided pairs of unequal length, the percent won by the shorter "
    "sentence, its exact binomial p-value against 50% and pairs; § = the decisions follow "
    "the length (p < alpha and at most 40% or at least 60%): the measure's length "
    "artifact, not the model, may decide the score."
)
KEYS = ["dataset", "variant", "lang", "measure"]
VARIANT_ORDER = ["original", "perturbed"]


def read_pair_scores(paths: Iterable[str | Path]) -> pd.DataFrame:
    """Concatenate per-job measure CSVs into the long table, in a fixed order."""
    frames = []
    for path in paths:
        frame = pd.read_csv(path, keep_default_na=False)
        missing = [column for column in PAIR_COLUMNS if column not in frame.columns]
        if missing:
            raise ValueError(f"{path}: missing column(s) {missing}; expected {PAIR_COLUMNS}")
        frame = frame[PAIR_COLUMNS]
        # a measure without length-matched or unequal pairs has empty (NaN) cells there
        numbers = [c for c in PAIR_LENGTH_COLUMNS if c not in ("matched_n", "n_unequal")]
        numbers.remove("length_lean")
        frames.append(
            frame.assign(**{c: pd.to_numeric(frame[c].replace("", math.nan)) for c in numbers})
        )
    if not frames:
        raise ValueError("no pair measure files to tabulate")
    return _sorted(pd.concat(frames, ignore_index=True))


def _order_key(column: pd.Series) -> pd.Series:
    """Sort measures and variants in the papers' order, everything else as is."""
    ranks = {"measure": list(pair.names()), "variant": VARIANT_ORDER}.get(column.name)
    if ranks is None:
        return column
    return column.map({name: index for index, name in enumerate(ranks)})


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(
        ["dataset", "model", "variant", "lang", "measure"], key=_order_key, ignore_index=True
    )


def _tested(value: float, p_value: float, n: int, digits: str = ".4g") -> str:
    """``"50.6 (p = 0.74, 846)"``; ``"–"`` without pairs."""
    return "–" if not n else f"{value:{digits}} (p = {p_value:.2g}, {n})"


def matched_cells(frame: pd.DataFrame) -> list[str]:
    """Per row, the length-matched score with its p-value and pairs."""
    return [
        _tested(score, p_value, n)
        for score, p_value, n in zip(
            frame.matched_score, frame.matched_p_value, frame.matched_n, strict=True
        )
    ]


def length_cells(frame: pd.DataFrame) -> list[str]:
    """Per row, the shorter sentence's share of the decided unequal pairs, its p-value and
    pairs, marked :data:`LENGTH_LEAN` where the decisions follow the length."""
    return [
        _tested(share, p_value, n, ".1f") + (LENGTH_LEAN if n and _is_true(lean) else "")
        for share, p_value, n, lean in zip(
            frame.length_share,
            frame.length_p_value,
            frame.n_unequal,
            frame.length_lean,
            strict=True,
        )
    ]


def _cell(score: float, se: float, digits: int, significant: bool = False) -> str:
    return f"{score:.{digits}f} ± {se:.{digits}f}{SIGNIFICANT if significant else ''}"


def _is_true(value) -> bool:
    """``significant`` read back from CSV may be a bool or the text "True"."""
    return value is True or str(value) == "True"


def chance_marks(frame: pd.DataFrame, alpha: float) -> list[str]:
    """Per model, how many of its tests are marked, against how many chance alone marks.

    Each test marks a model with no preference with probability ``alpha``, so among ``n``
    tests about ``n * alpha`` are marked by chance alone; the bound is the count that
    ``n`` independent tests exceed with probability at most 0.01 (binomial; tests on the
    same pairs, e.g. one dataset in several layouts, are not independent, and then
    repeat one another's marks). A control model is read against this, not against none.

    Parameters
    ----------
    frame
        The long table (:func:`read_pair_scores`), ``significant`` decided at ``alpha``.
    alpha
        The tests' significance level (``pair_alpha``).

    Returns
    -------
    list of str
        One sentence per model, in the table's order of models.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    from scipy.stats import binom  # here: importing scipy.stats takes seconds on some nodes

    lines = []
    for model, rows in frame.groupby("model", sort=False):
        n = len(rows)
        marked = sum(_is_true(value) for value in rows.significant)
        bound = int(binom.ppf(0.99, n, alpha))
        lines.append(
            f"{model}: {marked} of {n} tests marked (p < {alpha:g}); a model with no "
            f"preference has about {n * alpha:.1f} marked by chance alone (at most {bound} "
            "in 99 of 100 tables, were its tests independent)."
        )
    return lines


def _chance_block(frame: pd.DataFrame, alpha: float | None) -> list[str]:
    if alpha is None:
        return []
    return ["", "Marks and chance:", "", *(f"- {line}" for line in chance_marks(frame, alpha))]


def baseline_note(frame: pd.DataFrame) -> list[str]:
    """How to read the rows of structural baselines (models named ``<model>~random``,
    :func:`mgbias.workflow.structural_baselines`), when the table has any."""
    baselines = [m for m in dict.fromkeys(frame.model) if str(m).endswith(BASELINE_SUFFIX)]
    if not baselines:
        return []
    models = ", ".join(f"{b} of {b.removesuffix(BASELINE_SUFFIX)}" for b in baselines)
    return [
        "",
        f"Structural baselines ({models}): a randomly initialised copy of the model, same",
        f"config and tokenizer, scored on the same pairs: {BASELINE_MEANING}.",
    ]


def pair_scores_markdown(frame: pd.DataFrame, alpha: float | None = None) -> str:
    """The long table, preceded by how to read its units and, given the tests' ``alpha``,
    each model's marks against chance (:func:`chance_marks`)."""
    return "\n".join(
        [
            "# Pair measures",
            "",
            "Percent of pairs in which the stereotypical sentence (sent_more) is preferred",
            "for aul, aula, cps, sss and bsjsd (50 = no preference); sjsd is the raw mean",
            "S_JSD (Steinborn et al. 2022, Eq. 2; negative = sent_more preferred).",
            "se = seeded bootstrap standard error over pairs (over clusters where",
            "n_clusters > 0); p_value = exact sign test against 50 on the untied pairs",
            "(sjsd: t-test against 0), or where n_clusters > 0 the cluster sign-flip test",
            "with the dataset's clusters (e.g. its target words) as units; n_edge = pairs",
            "the measure scores by its edge-case rule (no shared or modified token);",
            "n_ties = pairs of n whose two sentences score the same (counted in n, not as",
            "a win).",
            LENGTH_NOTE,
            *baseline_note(frame),
            *_chance_block(frame, alpha),
            "",
            _long_markdown(frame),
            "",
        ]
    )


def _long_markdown(frame: pd.DataFrame) -> str:
    """The long table with its length columns as two cells, ``matched`` and ``length``."""
    shown = frame.drop(columns=list(PAIR_LENGTH_COLUMNS))
    at = list(shown.columns).index("model_id")
    shown.insert(at, "length", length_cells(frame))
    shown.insert(at, "matched", matched_cells(frame))
    return markdown(shown, floatfmt=".4g")


def measures_by_model(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (dataset, variant, language, measure), one score column per model."""
    table = frame.pivot_table(index=KEYS, columns="model", values="score", aggfunc="first")
    table.columns.name = None
    table = table.reset_index()
    return table.sort_values(KEYS, key=_order_key, ignore_index=True)


def measures_by_model_markdown(frame: pd.DataFrame, alpha: float | None = None) -> str:
    """Measures x models with standard errors, one block per dataset, variant and language;
    given the tests' ``alpha``, each model's marks against chance (:func:`chance_marks`)."""
    parts = [
        "# Pair measures by model",
        "",
        "score ± bootstrap SE; percent of pairs preferring sent_more, except sjsd (raw mean,",
        "negative = sent_more preferred).",
        SIGNIFICANCE_NOTE,
        "Each block's second table: the scores on the length-matched pairs. " + LENGTH_NOTE,
        *baseline_note(frame),
        *_chance_block(frame, alpha),
    ]
    cells = frame.assign(
        matched=matched_cells(frame),
        length=length_cells(frame),
        cell=[
            _cell(score, se, pair.pair_measure(measure).decimals, _is_true(significant))
            for score, se, measure, significant in zip(
                frame.score, frame.se, frame.measure, frame.significant, strict=True
            )
        ],
    )
    for (dataset, variant, lang), block in cells.groupby(["dataset", "variant", "lang"]):
        parts += ["", f"## {dataset} ({variant}), {lang}", "", _pivot(block, "cell")]
        parts += [
            "",
            "Length structure (matched score; the shorter sentence's share of the unequal pairs):",
            "",
        ]
        joined = block.assign(both=block.matched + "; " + block.length)
        parts.append(_pivot(joined, "both"))
    return "\n".join(parts + [""])


def _pivot(block: pd.DataFrame, values: str) -> str:
    """One block's ``values`` as measures x models, in Markdown."""
    pivot = block.pivot(index="measure", columns="model", values=values)
    pivot = pivot.reindex([m for m in pair.names() if m in pivot.index]).reset_index()
    pivot.columns.name = None
    return markdown(pivot)


def _measure(frame: pd.DataFrame, measure: str, prefix: str) -> pd.DataFrame:
    """``score``, ``se`` and ``p_value`` of one measure keyed by (model, lang), renamed
    with ``prefix``; ``{prefix}_significant`` is the job's decision at its alpha."""
    rows = frame.loc[
        frame.measure == measure, ["model", "lang", "score", "se", "p_value", "significant"]
    ]
    scale = pair.pair_measure(measure).table_scale
    if scale != 1.0:
        rows = rows.assign(score=rows.score * scale, se=rows.se * scale)
    rows = rows.assign(significant=[_is_true(value) for value in rows.significant])
    return rows.rename(
        columns={
            "score": prefix,
            "se": f"{prefix}_se",
            "p_value": f"{prefix}_p_value",
            "significant": f"{prefix}_significant",
        }
    )


def _cells(table: pd.DataFrame, prefix: str, digits: int) -> list[str]:
    return [
        _cell(score, se, digits, significant)
        for score, se, significant in zip(
            table[prefix], table[f"{prefix}_se"], table[f"{prefix}_significant"], strict=True
        )
    ]


def _select(frame: pd.DataFrame, dataset: str, variant: str, measures: list[str]) -> pd.DataFrame:
    rows = frame.loc[(frame.dataset == dataset) & (frame.variant == variant)]
    if rows.empty:
        raise ValueError(
            f"no pair scores of dataset {dataset!r} ({variant}); datasets present: "
            f"{sorted(frame.dataset.unique())}"
        )
    missing = [m for m in measures if m not in set(rows.measure)]
    if missing:
        raise ValueError(
            f"dataset {dataset!r} ({variant}) has no {missing} scores; add them to pair_measures"
        )
    return rows


def _join(parts: list[pd.DataFrame]) -> pd.DataFrame:
    table = parts[0]
    for part in parts[1:]:
        table = table.merge(part, on=["model", "lang"], how="outer", validate="one_to_one")
    return table.sort_values(["model", "lang"], ignore_index=True)


def steinborn_table2(frame: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """Steinborn et al. (2022) Table 2: S_JSD x 10^-3, CPS and binarized S_JSD ± SE.

    One row per (model, language) of ``dataset`` (unperturbed).
    """
    rows = _select(frame, dataset, "original", ["sjsd", "cps", "bsjsd"])
    return _join(
        [
            _measure(rows, "sjsd", "sjsd_x1e3"),
            _measure(rows, "cps", "cps"),
            _measure(rows, "bsjsd", "bsjsd"),
        ]
    )


def steinborn_table2_markdown(table: pd.DataFrame, dataset: str) -> str:
    """Table 2 as the paper prints it (Model, Lang., S_JSD x 10^-3, CPS, B. S_JSD)."""
    shown = pd.DataFrame(
        {
            "Model": table.model,
            "Lang.": table.lang.str.capitalize(),
            "S_JSD × 10⁻³": _cells(table, "sjsd_x1e3", 2),
            "CPS": _cells(table, "cps", 0),
            "B. S_JSD": _cells(table, "bsjsd", 0),
        }
    )
    return "\n".join(
        [
            f"# Steinborn et al. (2022), Table 2 — {dataset}",
            "",
            "CPS and binarized S_JSD: percent of pairs preferring the stereotypical sentence;",
            "S_JSD × 10⁻³ (negative = stereotypical sentence preferred). ± = bootstrap SE.",
            SIGNIFICANCE_NOTE,
            "",
            markdown(shown),
            "",
        ]
    )


def steinborn_table3(frame: pd.DataFrame, dataset: str) -> pd.DataFrame:
    """Steinborn et al. (2022) Table 3: S_JSD x 10^-3 and CPS ± SE, unperturbed and perturbed.

    One row per (model, language) of ``dataset``; the perturbed sentences lost
    their final character.
    """
    parts = []
    for variant, tag in (("original", "unperturbed"), ("perturbed", "perturbed")):
        rows = _select(frame, dataset, variant, ["sjsd", "cps"])
        parts += [
            _measure(rows, "sjsd", f"{tag}_sjsd_x1e3"),
            _measure(rows, "cps", f"{tag}_cps"),
        ]
    return _join(parts)


def steinborn_table3_markdown(table: pd.DataFrame, dataset: str) -> str:
    """Table 3 as the paper prints it (S'_JSD and CPS, unperturbed | perturbed)."""
    shown = {"Model": table.model, "Lang.": table.lang.str.capitalize()}
    for tag, label in (("unperturbed", "Unperturbed"), ("perturbed", "Perturbed")):
        shown[f"{label} S'_JSD"] = _cells(table, f"{tag}_sjsd_x1e3", 2)
        shown[f"{label} CPS"] = _cells(table, f"{tag}_cps", 1)
    return "\n".join(
        [
            f"# Steinborn et al. (2022), Table 3 — {dataset}",
            "",
            "S'_JSD = S_JSD × 10⁻³; CPS in percent; ± = bootstrap SE. Perturbed: every",
            "sentence lost its final character.",
            SIGNIFICANCE_NOTE,
            "",
            markdown(pd.DataFrame(shown)),
            "",
        ]
    )


STEINBORN_TABLES: dict[int, tuple[Callable, Callable]] = {
    2: (steinborn_table2, steinborn_table2_markdown),
    3: (steinborn_table3, steinborn_table3_markdown),
}
