"""Tables of Zhao et al. (2020), "Gender Bias in Multilingual Embeddings and Cross-Lingual
Transfer": tidy frames from the per-space results and their Markdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from mgbias.report.tables import markdown

__all__ = [
    "GRID_COLUMNS",
    "INBIAS_COLUMNS",
    "grid_table",
    "inbias_markdown",
    "inbias_table",
    "published_alignment",
    "significant",
]

#: Columns of :func:`inbias_table`.
INBIAS_COLUMNS = ["world", "lang", "variant", "inbias", "se", "strong", "weak", "n", "n_listed"]


def inbias_table(results: Mapping[tuple[str, str], Mapping[str, Any]]) -> pd.DataFrame:
    """One row per space: ``{(world, lang): inBias JSON}`` (``scripts/inbias.py``) as a table.

    ``strong`` and ``weak`` are the means of the per-occupation scores over the
    strong- and weak-gendered pairs (NaN where a group is empty).
    """
    rows = [
        {"world": world, "lang": lang, **{key: result.get(key) for key in INBIAS_COLUMNS[2:]}}
        for (world, lang), result in results.items()
    ]
    table = pd.DataFrame(rows, columns=INBIAS_COLUMNS)
    for column in ("inbias", "se", "strong", "weak"):
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def inbias_markdown(table: pd.DataFrame) -> str:
    """inBias (x 100, as the paper prints it) and its standard error, with languages as
    rows and worlds as columns."""
    langs, worlds = list(dict.fromkeys(table["lang"])), list(dict.fromkeys(table["world"]))

    def pivot(values: str) -> pd.DataFrame:
        return (table.pivot(index="lang", columns="world", values=values) * 100).reindex(
            index=langs, columns=worlds
        )

    value, se = pivot("inbias"), pivot("se")
    cells = value.apply(lambda column: column.map("{:.2f}".format)) + se.apply(
        lambda column: column.map(lambda x: "" if pd.isna(x) else f" ± {x:.2f}")
    )
    variants = ", ".join(sorted(set(table["variant"].astype(str))))
    return (
        "# Zhao et al. (2020): inBias of the original spaces\n\n"
        f"inBias (Eq. 1, variant {variants}) x 100 of each language's own vectors, before any "
        "alignment, ± its standard error over the occupation pairs; higher = occupations "
        "further from gender parity.\n\n" + markdown(cells.reset_index()) + "\n"
    )


#: Columns of :func:`grid_table`.
GRID_COLUMNS = [
    "world",
    "src",
    "tgt",
    "inbias",
    "inbias_se",
    "strong",
    "weak",
    "n",
    "p_value",
    "significant",
    "bli_csls",
    "bli_csls_low",
    "bli_csls_high",
    "bli_nn",
    "paper_used_published_alignment",
]


def published_alignment(src: str, tgt: str) -> bool:
    """Whether Zhao et al. (2020) took ``src`` aligned to ``tgt`` from Joulin et al.'s
    (2018) published wiki.xx.align.vec (X->EN) instead of their own RCSLS run; the
    workflow computes it with the same RCSLS."""
    return tgt == "en" and src != "en"


def significant(p_value: Any, alpha: float = 0.05) -> bool:
    """The paper's ``*`` (Tables 1 and 3): a t-test p-value below ``alpha``; none
    (``None``/NaN: an original space, not tested) is never significant."""
    return p_value is not None and bool(float(p_value) < alpha)


def grid_table(
    inbias: Mapping[tuple[str, str, str], Mapping[str, Any]],
    bli: Mapping[tuple[str, str, str], Mapping[str, Any]],
    original: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """One row per (world, source space, target space) of Zhao et al.'s grid.

    ``original``: ``{(world, lang): inBias JSON}`` of the original spaces, the rows
    ``src == tgt == lang`` (the diagonal of Table 1; untested, p NaN) placed first per
    world. ``inbias``: ``{(world, src, tgt): inBias JSON}`` of the aligned spaces
    (``src == tgt``: a space itself, e.g. ENDEB); ``bli``: ``{(world, src, tgt): BLI
    JSON}`` of the alignments (absent for ``src == tgt``: BLI is NaN). ``significant``:
    the t-test against the original space gives p < ``alpha`` (the paper's stars).
    ``inbias_se``: inBias's standard error over the occupation pairs; ``bli_csls_low``
    and ``bli_csls_high``: the 95% Wilson interval of the CSLS accuracy.
    ``paper_used_published_alignment``: X->EN rows, which the paper took from the
    published wiki.xx.align.vec and the workflow computes with the same RCSLS.
    """
    cells: dict[tuple[str, str, str], Mapping[str, Any]] = {
        (world, lang, lang): result for (world, lang), result in (original or {}).items()
    }
    cells.update(inbias)
    rows = []
    for (world, src, tgt), result in cells.items():
        retrieval = bli.get((world, src, tgt), {})
        csls = retrieval.get("csls", {})
        p_value = result.get("p_value")
        rows.append(
            {
                "world": world,
                "src": src,
                "tgt": tgt,
                "inbias": result.get("inbias"),
                "inbias_se": result.get("se"),
                **{key: result.get(key) for key in ("strong", "weak", "n")},
                "p_value": p_value,
                "significant": significant(p_value, alpha),
                "bli_csls": csls.get("accuracy"),
                "bli_csls_low": csls.get("ci_low"),
                "bli_csls_high": csls.get("ci_high"),
                "bli_nn": retrieval.get("nn", {}).get("accuracy"),
                "paper_used_published_alignment": published_alignment(src, tgt),
            }
        )
    table = pd.DataFrame(rows, columns=GRID_COLUMNS)
    numeric = ("inbias", "inbias_se", "strong", "weak", "p_value")
    for column in (*numeric, "bli_csls", "bli_csls_low", "bli_csls_high", "bli_nn"):
        table[column] = pd.to_numeric(table[column], errors="coerce")
    order = {world: i for i, world in enumerate(dict.fromkeys(table["world"]))}
    return table.sort_values("world", key=lambda c: c.map(order), kind="stable", ignore_index=True)
