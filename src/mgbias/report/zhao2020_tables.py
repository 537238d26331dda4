"""Tables 1-4, 12 and 13 of Zhao et al. (2020) in the paper's shapes, from the grid.

Each table is one pure function of the tidy grid (:func:`mgbias.report.zhao2020.grid_table`:
one row per world, source space and target space) returning a tidy frame with one row
per cell of the paper's table (``row`` and ``col`` are the paper's labels: EN, ES, DE,
FR, ENDEB). A cell the paper prints as "-" or the grid does not hold has NaN values,
never 0. :func:`table_markdown` renders any of them per world in the paper's layout.

- Table 1: inBias (Eq. 1), source language x target space; the diagonal is the
  original space, an off-diagonal cell the source aligned to the target by RCSLS;
  ``star``: the t-test against the original space gives p < 0.05.
- Table 2: BLI accuracy (%, CSLS with k = 10), same grid; the diagonal is "-".
- Table 3: inBias with ENDEB (hard-debiased EN): the ENDEB row (ENDEB itself and
  ENDEB aligned to each language, tested against *original EN*), and per other
  language its original space and its alignment to ENDEB.
- Table 4: BLI with ENDEB: ENDEB->X and X->ENDEB.
- Tables 12 and 13: the Table 1 EN row and the Table 3 ENDEB row split into the
  strong-gendered pairs (masculine and feminine English forms differ) and the weak ones.

Cells whose target is EN (X->EN): the paper used the published ``wiki.xx.align.vec``;
here they are computed with the same RCSLS (``paper_used_published_alignment``; a
dagger in the Markdown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from mgbias.report.tables import markdown
from mgbias.report.zhao2020 import published_alignment, significant

__all__ = [
    "BLI_COLUMNS",
    "DEBIASED",
    "INBIAS_COLUMNS",
    "SPLIT_COLUMNS",
    "TABLES",
    "paper_languages",
    "table1",
    "table12",
    "table13",
    "table2",
    "table3",
    "table4",
    "table_markdown",
]

#: The hard-debiased English space (the paper's ENDEB).
DEBIASED = "endeb"
#: The paper's order of languages in its tables.
PAPER_ORDER = ("en", "es", "de", "fr")

#: Columns of Tables 1 and 3.
INBIAS_COLUMNS = [
    "world", "row", "col", "src", "tgt", "inbias", "inbias_se", "n", "p_value", "star",
    "paper_used_published_alignment",
]  # fmt: skip
#: Columns of Tables 2 and 4.
BLI_COLUMNS = [
    "world", "row", "col", "src", "tgt", "bli_csls", "bli_csls_low", "bli_csls_high",
    "bli_nn", "paper_used_published_alignment",
]  # fmt: skip
#: Columns of Tables 12 and 13.
SPLIT_COLUMNS = ["world", "row", "col", "src", "tgt", "inbias"]

STRONG, WEAK = "Strong-gendered", "Weak-gendered"

#: A cell: the paper's (row, col) labels, the grid's (src, tgt) spaces, and whether the
#: paper fills it (False: "-", NaN values).
Cell = tuple[str, str, str, str, bool]


def label(space: str) -> str:
    """The paper's name of a space: ``en`` -> EN, ``endeb`` -> ENDEB."""
    return space.upper()


def paper_languages(grid: pd.DataFrame) -> list[str]:
    """The languages of the grid (ENDEB excluded) in the paper's order (EN, ES, DE, FR),
    then any others alphabetically."""
    spaces = set(grid["src"]) | set(grid["tgt"])
    spaces.discard(DEBIASED)
    known = [lang for lang in PAPER_ORDER if lang in spaces]
    return known + sorted(spaces - set(PAPER_ORDER))


def _worlds(grid: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(grid["world"]))


def _cells_frame(grid: pd.DataFrame, cells: Sequence[Cell], values: Sequence[str]) -> pd.DataFrame:
    """One row per world and cell: world, row, col, src, tgt, ``values`` looked up in
    ``grid`` (NaN where the paper leaves the cell empty or the grid has no such space)
    and paper_used_published_alignment."""
    indexed = grid.set_index(["world", "src", "tgt"])
    rows = []
    for world in _worlds(grid):
        for row, col, src, tgt, filled in cells:
            found = filled and (world, src, tgt) in indexed.index
            record = indexed.loc[(world, src, tgt)] if found else {}
            rows.append(
                {
                    "world": world,
                    "row": row,
                    "col": col,
                    "src": src,
                    "tgt": tgt,
                    **{value: record[value] if found else np.nan for value in values},
                    "paper_used_published_alignment": published_alignment(src, tgt),
                }
            )
    frame = pd.DataFrame(rows)
    for value in values:
        frame[value] = pd.to_numeric(frame[value], errors="coerce")
    return frame


def _inbias_cells(grid: pd.DataFrame, cells: Sequence[Cell], alpha: float) -> pd.DataFrame:
    frame = _cells_frame(grid, cells, ["inbias", "inbias_se", "n", "p_value"])
    frame["n"] = frame["n"].astype("Int64")
    frame["star"] = [significant(p, alpha) for p in frame["p_value"]]
    return frame[INBIAS_COLUMNS]


def _bli_cells(grid: pd.DataFrame, cells: Sequence[Cell]) -> pd.DataFrame:
    return _cells_frame(grid, cells, ["bli_csls", "bli_csls_low", "bli_csls_high", "bli_nn"])[
        BLI_COLUMNS
    ]


def _square(languages: Sequence[str], diagonal: bool) -> list[Cell]:
    return [(label(r), label(c), r, c, diagonal or r != c) for r in languages for c in languages]


def table1(grid: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Table 1: inBias before (diagonal) and after alignment (row: source language,
    column: target space), ``star`` where the t-test against the original space gives
    p < ``alpha``."""
    return _inbias_cells(grid, _square(paper_languages(grid), diagonal=True), alpha)


def table2(grid: pd.DataFrame) -> pd.DataFrame:
    """Table 2: BLI accuracy (%) of each alignment, source by target; diagonal NaN ("-")."""
    return _bli_cells(grid, _square(paper_languages(grid), diagonal=False))


def _others(grid: pd.DataFrame) -> list[str]:
    return [lang for lang in paper_languages(grid) if lang != "en"]


def _debiased_cells(grid: pd.DataFrame) -> list[Cell]:
    """Table 3's layout: rows and columns (ENDEB, ES, DE, FR); the ENDEB row, the ENDEB
    column and the diagonal are filled, the rest is "-"."""
    spaces = [DEBIASED, *_others(grid)]
    return [
        (label(r), label(c), r, c, DEBIASED in (r, c) or r == c) for r in spaces for c in spaces
    ]


def table3(grid: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Table 3: inBias with ENDEB. The ENDEB row's cells (ENDEB itself, ENDEB->X) are
    tested against original EN, the X->ENDEB cells against original X (the grid's
    p-values, ``scripts/inbias.py``'s reference scores)."""
    return _inbias_cells(grid, _debiased_cells(grid), alpha)


def table4(grid: pd.DataFrame) -> pd.DataFrame:
    """Table 4: BLI accuracy (%) of ENDEB->X (row ENDEB) and X->ENDEB (column ENDEB)."""
    others = _others(grid)
    cells = [(label(DEBIASED), label(c), DEBIASED, c, True) for c in others]
    cells += [(label(r), label(DEBIASED), r, DEBIASED, True) for r in others]
    return _bli_cells(grid, cells)


def _split(grid: pd.DataFrame, source: str) -> pd.DataFrame:
    """Strong- and weak-gendered inBias (rows) of ``source`` in its own space and aligned
    to each other language (columns, the paper's labels), per world."""
    targets = [source, *[lang for lang in _others(grid) if lang != source]]
    cells = [(label(t), label(t), source, t, True) for t in targets]
    frame = _cells_frame(grid, cells, ["strong", "weak"])
    frame = frame.melt(
        id_vars=["world", "col", "src", "tgt"],
        value_vars=["strong", "weak"],
        var_name="row",
        value_name="inbias",
    )
    frame["row"] = frame["row"].map({"strong": STRONG, "weak": WEAK})
    order = {world: i for i, world in enumerate(_worlds(grid))}
    frame = frame.sort_values(
        ["world", "row"], key=lambda c: c.map(order) if c.name == "world" else c, kind="stable"
    )
    return frame[SPLIT_COLUMNS].reset_index(drop=True)


def table12(grid: pd.DataFrame) -> pd.DataFrame:
    """Table 12: EN inBias by category, in ``en`` and ``en-X`` (columns EN, ES, DE, FR)."""
    return _split(grid, "en")


def table13(grid: pd.DataFrame) -> pd.DataFrame:
    """Table 13: ENDEB inBias by category, in ENDEB and ``endeb-X`` (ENDEB, ES, DE, FR)."""
    return _split(grid, DEBIASED)


def _inbias_text(row) -> str:
    if pd.isna(row.inbias):
        return "-"
    star = "*" if row.star else ""
    se = "" if pd.isna(row.inbias_se) else f" \u00b1 {row.inbias_se:.4f}"
    return f"{row.inbias:.4f}{se}{star}{_dagger(row)}"


def _bli_text(row) -> str:
    if pd.isna(row.bli_csls):
        return "-"
    low, high = row.bli_csls_low, row.bli_csls_high
    interval = "" if pd.isna(low) or pd.isna(high) else f" ({low:.1f}-{high:.1f})"
    return f"{row.bli_csls:.2f}{interval}{_dagger(row)}"


def _split_text(row) -> str:
    return "-" if pd.isna(row.inbias) else f"{row.inbias:.4f}{_dagger(row)}"


def _dagger(row) -> str:
    published = getattr(row, "paper_used_published_alignment", False)
    return "\u2020" if published is True or published == "True" else ""


#: Per table: title, the note under it and how a cell is printed.
TABLES: dict[str, tuple[Callable[..., pd.DataFrame], str, str, Callable]] = {
    "table1": (
        table1,
        "Table 1: inBias before and after alignment",
        "Rows: source language; columns: target space (the diagonal: the original "
        "monolingual space). `± x`: the standard error over the occupation pairs. `*`: the "
        "per-occupation scores differ from the original space's (t-test, p < 0.05).",
        _inbias_text,
    ),
    "table2": (
        table2,
        "Table 2: BLI accuracy (%) of the aligned spaces",
        "CSLS retrieval (k = 10) on the test dictionary, with its 95% Wilson interval; "
        "rows: source, columns: target.",
        _bli_text,
    ),
    "table3": (
        table3,
        "Table 3: inBias before and after alignment with ENDEB",
        "ENDEB: English after hard debiasing. The ENDEB row (ENDEB itself and ENDEB "
        "aligned to each language) is tested against original EN, the ENDEB column "
        "against each language's original space; `± x`: the standard error over the "
        "occupation pairs; `*`: p < 0.05.",
        _inbias_text,
    ),
    "table4": (
        table4,
        "Table 4: BLI accuracy (%) with ENDEB",
        "ENDEB \u2192 X: ENDEB aligned to language X; X \u2192 ENDEB: language X aligned "
        "to ENDEB. CSLS retrieval (k = 10), with its 95% Wilson interval.",
        _bli_text,
    ),
    "table12": (
        table12,
        "Table 12: EN inBias by word category",
        "Strong-gendered: the pairs whose English masculine and feminine forms differ; "
        "weak-gendered: one English form. Columns: EN and EN aligned to each language.",
        _split_text,
    ),
    "table13": (
        table13,
        "Table 13: ENDEB inBias by word category",
        "As Table 12 for ENDEB and ENDEB aligned to each language.",
        _split_text,
    ),
}


def _from_and_to(block: pd.DataFrame) -> pd.DataFrame:
    """Table 4's two blocks as two rows, ENDEB -> X and X -> ENDEB, by language X."""
    endeb = label(DEBIASED)
    from_endeb = block["row"] == endeb
    return block.assign(
        row=np.where(from_endeb, f"{endeb} \u2192 X", f"X \u2192 {endeb}"),
        col=block["col"].where(from_endeb, block["row"]),
    )


def table_markdown(name: str, table: pd.DataFrame) -> str:
    """The Markdown of table ``name`` (a key of :data:`TABLES`): per world, the paper's
    rows by columns; "-" for an empty cell, `\u2020` for X->EN (computed here; the paper
    used the published aligned vectors)."""
    _, title, note, text = TABLES[name]
    if table.get("paper_used_published_alignment", pd.Series(dtype=bool)).astype(bool).any():
        note += (
            " `\u2020`: X->EN, which the paper took from the published wiki.xx.align.vec "
            "and which is computed here with the same RCSLS."
        )
    parts = [f"# Zhao et al. (2020), {title}\n\n{note}\n"]
    for world in _worlds(table):
        block = table[table["world"] == world]
        if name == "table4":
            block = _from_and_to(block)
        rows = list(dict.fromkeys(block["row"]))
        cols = list(dict.fromkeys(block["col"]))
        cells = pd.DataFrame("-", index=rows, columns=cols)
        for row in block.itertuples():
            cells.loc[row.row, row.col] = text(row)
        corner = "src \\ tgt" if name in ("table1", "table2", "table3") else ""
        frame = cells.reset_index().rename(columns={"index": corner})
        parts.append(f"\n## {world}\n\n" + markdown(frame, disable_numparse=True) + "\n")
    return "".join(parts)
