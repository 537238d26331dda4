"""Kaneko, Bollegala & Okazaki (2023), Table 1 as Markdown.

The long table (:func:`mgbias.finetune.meta_evaluation.table1`) has one row per
(language, corpus, base model, measure, direction) with Pearson's and
Spearman's correlation of the score with the male rate r and their
p-values, then the paper's values (``source = "reported"``). The Markdown
prints it as the paper does: measures as rows, one column per (model, corpus);
a correlation whose p-value is below alpha carries the mark ‡.
"""

from __future__ import annotations

import math

import pandas as pd

from mgbias.measures.registry import table_order
from mgbias.report.tables import markdown

__all__ = ["table1_markdown"]

SIGNIFICANT = " ‡"
CORPUS_ORDER = {"news": 0, "book": 1}


def _cell(value: float, p_value: float, alpha: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    mark = SIGNIFICANT if isinstance(p_value, float) and p_value < alpha else ""
    return f"{value:.2f}{mark}"


def _corpus_rank(corpus: str) -> int:
    """The paper's column order within a model: news, book, other corpora, then HA."""
    return CORPUS_ORDER.get(corpus, len(CORPUS_ORDER) if corpus != "HA" else len(CORPUS_ORDER) + 1)


def _pivot(block: pd.DataFrame, value: str, alpha: float) -> pd.DataFrame:
    p_column = f"{value}_p" if f"{value}_p" in block.columns else None
    cells = block.assign(
        column=block["model"].astype(str) + " " + block["corpus"].astype(str),
        cell=[
            _cell(v, float(p) if p_column else math.nan, alpha)
            for v, p in zip(
                block[value], block[p_column] if p_column else [math.nan] * len(block), strict=True
            )
        ],
    )
    pivot = cells.pivot(index="measure", columns="column", values="cell")
    ranked = table_order()
    order = [m for m in ranked if m in pivot.index] + sorted(
        m for m in pivot.index if m not in ranked
    )
    pairs = cells[["model", "corpus", "column"]].drop_duplicates()
    pairs = pairs.assign(rank=[_corpus_rank(corpus) for corpus in pairs["corpus"]])
    columns = pairs.sort_values(["model", "rank", "corpus"])["column"].tolist()
    pivot = pivot.reindex(index=order, columns=columns).fillna("–").reset_index()
    pivot.columns.name = None
    return pivot


def table1_markdown(table: pd.DataFrame, *, alpha: float = 0.05) -> str:
    """Table 1 of Kaneko et al. (2023): computed correlations per language, then the paper's.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`mgbias.finetune.meta_evaluation.table1`.
    alpha : float
        Level of the ‡ mark (two-sided p-value of the coefficient).
    """
    computed = table[table["source"] == "computed"]
    reported = table[table["source"] == "reported"]
    parts = [
        "# Kaneko, Bollegala & Okazaki (2023), Table 1: correlation of each measure with r",
        "",
        "Each model was fine-tuned on a share r of male sentences (the rest female); a good",
        "bias measure follows r. Cells: correlation over the grid of r of the score with r",
        "(repeats at one r averaged first). Scores rise with r when they measure male bias:",
        "TBS as is (> 0: male); SSS, CPS, AUL and AULA as % of the oriented pairs in which the",
        "male sentence is preferred (`male`) or, as their papers define them, % of all pairs in",
        "which the stereotypical sentence is preferred (`stereo`).",
        f"‡ = two-sided p < {alpha:g}. – = not computable (fewer than 3 values of r, a",
        "constant score) or not reported.",
    ]
    for language, block in computed.groupby("language", sort=True):
        for direction, label in (("male", "male-oriented"), ("stereo", "% stereotypical")):
            rows = block[block["direction"] == direction]  # TBS has the male direction only
            if rows.empty:
                continue
            for statistic in ("pearson", "spearman"):
                parts += [
                    "",
                    f"## {language}: {statistic.capitalize()}, {label} scores",
                    "",
                    markdown(_pivot(rows, statistic, alpha)),
                ]
    if not reported.empty:
        shown = reported.assign(
            value=reported["pearson"].where(reported["corpus"] != "HA", reported["auc"]),
        )
        parts += [
            "",
            "## Reported in the paper (English; news = News Crawl 2021, book = BookCorpus)",
            "",
            "Pearson correlation with r; HA = AUC of the meta-evaluation with human annotations",
            "(Kaneko & Bollegala), not comparable in magnitude with the correlations (the",
            "paper's footnote 5).",
            "",
            markdown(_pivot(shown, "value", alpha)),
        ]
    parts += ["", "## All columns", "", markdown(table, floatfmt=".4g"), ""]
    return "\n".join(parts)
