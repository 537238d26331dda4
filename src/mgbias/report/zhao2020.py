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
    "grid_markdown",
    "grid_table",
    "inbias_markdown",
    "inbias_table",
]

#: Columns of :func:`inbias_table`.
INBIAS_COLUMNS = ["world", "lang", "variant", "inbias", "strong", "weak", "n", "n_listed"]


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
    for column in ("inbias", "strong", "weak"):
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def inbias_markdown(table: pd.DataFrame) -> str:
    """inBias (x 100, as the paper prints it) with languages as rows and worlds as columns."""
    pivot = table.pivot(index="lang", columns="world", values="inbias") * 100
    pivot = pivot.reindex(index=list(dict.fromkeys(table["lang"])))
    pivot = pivot[list(dict.fromkeys(table["world"]))]
    variants = ", ".join(sorted(set(table["variant"].astype(str))))
    return (
        "# Zhao et al. (2020): inBias of the original spaces\n\n"
        f"inBias (Eq. 1, variant {variants}) x 100 of each language's own vectors, before any "
        "alignment; higher = occupations further from gender parity.\n\n"
        + markdown(pivot.reset_index())
        + "\n"
    )


#: Columns of :func:`grid_table`.
GRID_COLUMNS = [
    "world",
    "src",
    "tgt",
    "inbias",
    "strong",
    "weak",
    "n",
    "p_value",
    "significant",
    "bli_csls",
    "bli_nn",
    "paper_used_published_alignment",
]


def grid_table(
    inbias: Mapping[tuple[str, str, str], Mapping[str, Any]],
    bli: Mapping[tuple[str, str, str], Mapping[str, Any]],
    alpha: float = 0.05,
) -> pd.DataFrame:
    """One row per (world, source space, target space) of Zhao et al.'s grid.

    ``inbias``: ``{(world, src, tgt): inBias JSON}`` of the aligned spaces (``src == tgt``:
    a space itself, e.g. ENDEB); ``bli``: ``{(world, src, tgt): BLI JSON}`` of the
    alignments (absent for ``src == tgt``: BLI is NaN). ``significant``: the t-test
    against the original space gives p < ``alpha`` (the paper's stars).
    ``paper_used_published_alignment``: X->EN rows, which the paper took from the
    published wiki.xx.align.vec and the workflow computes with the same RCSLS.
    """
    rows = []
    for (world, src, tgt), result in inbias.items():
        retrieval = bli.get((world, src, tgt), {})
        p_value = result.get("p_value")
        rows.append(
            {
                "world": world,
                "src": src,
                "tgt": tgt,
                **{key: result.get(key) for key in ("inbias", "strong", "weak", "n")},
                "p_value": p_value,
                "significant": p_value is not None and float(p_value) < alpha,
                "bli_csls": retrieval.get("csls", {}).get("accuracy"),
                "bli_nn": retrieval.get("nn", {}).get("accuracy"),
                "paper_used_published_alignment": tgt == "en" and src != "en",
            }
        )
    table = pd.DataFrame(rows, columns=GRID_COLUMNS)
    for column in ("inbias", "strong", "weak", "p_value", "bli_csls", "bli_nn"):
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def grid_markdown(table: pd.DataFrame) -> str:
    """Per world: inBias x 100 (``*``: significant change from the original space) and
    BLI CSLS accuracy (%), source spaces as rows and target spaces as columns."""
    parts = [
        "# Zhao et al. (2020): inBias and BLI of the aligned spaces (Tables 1-4)\n\n"
        "inBias (Eq. 1) x 100 of the source language's words in the source space aligned "
        "to the target space by RCSLS; `*`: different from the original space (t-test, "
        "p < 0.05). `endeb`: English after hard debiasing (a row's own column: ENDEB "
        "itself, tested against original English). BLI: CSLS (k = 10) accuracy in %. "
        "`\u2020`: X->EN, which the paper took from the published aligned vectors.\n"
    ]
    for world in dict.fromkeys(table["world"]):
        rows = table[table["world"] == world]
        spaces = list(dict.fromkeys([*rows["src"], *rows["tgt"]]))
        inbias_cells = pd.DataFrame("", index=spaces, columns=spaces)
        bli_cells = pd.DataFrame("", index=spaces, columns=spaces)
        for row in rows.itertuples():
            mark = "*" if row.significant else ""
            dagger = "\u2020" if row.paper_used_published_alignment else ""
            inbias_cells.loc[row.src, row.tgt] = f"{row.inbias * 100:.2f}{mark}{dagger}"
            if pd.notna(row.bli_csls):
                bli_cells.loc[row.src, row.tgt] = f"{row.bli_csls:.2f}{dagger}"
        for title, cells in (("inBias x 100", inbias_cells), ("BLI CSLS %", bli_cells)):
            frame = cells.reset_index().rename(columns={"index": "src \\ tgt"})
            parts.append(f"\n## {world}: {title}\n\n" + markdown(frame) + "\n")
    return "".join(parts)
