"""Tables 1-4, 12 and 13 of Zhao et al. (2020) cut from a hand-made grid."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from mgbias.report.zhao2020_tables import (
    BLI_COLUMNS,
    INBIAS_COLUMNS,
    SPLIT_COLUMNS,
    TABLES,
    paper_languages,
    table1,
    table2,
    table3,
    table4,
    table12,
    table13,
    table_markdown,
)

NAN = float("nan")


def _row(src, tgt, inbias, p_value=NAN, bli=NAN, strong=NAN, weak=NAN, world="planted",
         se=NAN, ci=(NAN, NAN)):  # fmt: skip
    return {"world": world, "src": src, "tgt": tgt, "inbias": inbias, "inbias_se": se,
            "strong": strong, "weak": weak, "n": 20, "p_value": p_value, "significant": False,
            "bli_csls": bli, "bli_csls_low": ci[0], "bli_csls_high": ci[1], "bli_nn": bli / 2,
            "paper_used_published_alignment": False}  # fmt: skip


@pytest.fixture
def grid() -> pd.DataFrame:
    # languages deliberately out of the paper's order; (de, es) is missing
    rows = [
        _row("de", "de", 0.30),
        _row("en", "en", 0.10, strong=0.15, weak=0.05),
        _row("es", "es", 0.20),
        _row("en", "es", 0.08, 0.049, 80.0, 0.11, 0.04, se=0.012, ci=(70.14, 87.26)),
        _row("en", "de", 0.09, p_value=0.05, bli=70.0),
        _row("es", "en", 0.21, p_value=0.2, bli=86.4),
        _row("es", "de", 0.22, p_value=0.01, bli=72.4),
        _row("de", "en", 0.31, p_value=0.001, bli=76.3),
        _row("endeb", "endeb", 0.05, p_value=1e-9, strong=0.08, weak=0.01),
        _row("endeb", "es", 0.045, p_value=0.03, bli=84.1, strong=0.06, weak=0.02),
        _row("es", "endeb", 0.19, p_value=0.5, bli=86.1),
        _row("de", "endeb", 0.28, p_value=0.04, bli=76.3),
        _row("en", "es", 0.5, p_value=0.5, bli=10.0, world="balanced"),
    ]
    return pd.DataFrame(rows)


def _cell(table, row, col, world="planted"):
    found = table[(table.world == world) & (table.row == row) & (table.col == col)]
    assert len(found) == 1, (row, col)
    return found.iloc[0]


def test_languages_come_in_the_papers_order_without_endeb(grid):
    assert paper_languages(grid) == ["en", "es", "de"]
    assert paper_languages(pd.DataFrame({"src": ["tr", "fr", "en"], "tgt": ["it"] * 3})) == [
        "en", "fr", "it", "tr",
    ]  # fmt: skip


def test_table1_cells_land_in_their_row_and_column_with_stars_exactly_below_005(grid):
    table = table1(grid)
    assert list(table.columns) == INBIAS_COLUMNS
    planted = table[table.world == "planted"]
    assert len(planted) == 9 and len(table) == 18  # 3 x 3 per world
    assert planted[["row", "col"]].values.tolist()[:4] == [
        ["EN", "EN"], ["EN", "ES"], ["EN", "DE"], ["ES", "EN"],
    ]  # fmt: skip
    # source rows, target columns: ES aligned to EN is row ES, column EN
    assert _cell(table, "ES", "EN").inbias == 0.21 and _cell(table, "EN", "ES").inbias == 0.08
    assert _cell(table, "DE", "DE").inbias == 0.30  # the diagonal: the original space
    stars = {(r.row, r.col): r.star for r in planted.itertuples()}
    assert {cell for cell, star in stars.items() if star} == {
        ("EN", "ES"),
        ("ES", "DE"),
        ("DE", "EN"),
    }  # fmt: skip  (p = 0.049, 0.01, 0.001; not 0.05, 0.2 or an untested diagonal)
    missing = _cell(table, "DE", "ES")
    assert math.isnan(missing.inbias) and math.isnan(missing.p_value) and not missing.star
    assert pd.isna(missing.n) and _cell(table, "EN", "EN").n == 20
    published = {(r.row, r.col) for r in planted.itertuples() if r.paper_used_published_alignment}
    assert published == {("ES", "EN"), ("DE", "EN")}
    # a world holding one cell still gets the full grid, NaN elsewhere
    balanced = table[table.world == "balanced"]
    assert balanced.inbias.notna().sum() == 1 and _cell(table, "EN", "ES", "balanced").inbias == 0.5


def test_table2_has_an_empty_diagonal_and_bli_where_aligned(grid):
    table = table2(grid)
    assert list(table.columns) == BLI_COLUMNS
    assert _cell(table, "ES", "DE").bli_csls == 72.4 and _cell(table, "ES", "DE").bli_nn == 36.2
    assert _cell(table, "DE", "EN").bli_csls == 76.3
    for lang in ("EN", "ES", "DE"):
        assert math.isnan(_cell(table, lang, lang).bli_csls)
    assert math.isnan(_cell(table, "DE", "ES").bli_csls)  # not aligned: NaN, not 0


def test_table3_fills_the_endeb_row_column_and_diagonal_only(grid):
    table = table3(grid)
    planted = table[table.world == "planted"]
    assert list(dict.fromkeys(planted.row)) == ["ENDEB", "ES", "DE"]
    assert list(dict.fromkeys(planted.col)) == ["ENDEB", "ES", "DE"]
    assert _cell(table, "ENDEB", "ENDEB").inbias == 0.05 and _cell(table, "ENDEB", "ENDEB").star
    assert _cell(table, "ENDEB", "ES").inbias == 0.045 and _cell(table, "ENDEB", "ES").star
    assert math.isnan(_cell(table, "ENDEB", "DE").inbias)  # ENDEB->DE not in the grid
    assert _cell(table, "ES", "ENDEB").inbias == 0.19 and not _cell(table, "ES", "ENDEB").star
    assert _cell(table, "DE", "ENDEB").star and _cell(table, "ES", "ES").inbias == 0.20
    # the grid holds es -> de, but the paper's Table 3 leaves that cell empty
    assert math.isnan(_cell(table, "ES", "DE").inbias) and not _cell(table, "ES", "DE").star


def test_table4_is_endeb_to_and_from_each_language(grid):
    table = table4(grid)
    planted = table[table.world == "planted"]
    assert planted[["row", "col"]].values.tolist() == [
        ["ENDEB", "ES"], ["ENDEB", "DE"], ["ES", "ENDEB"], ["DE", "ENDEB"],
    ]  # fmt: skip
    assert planted.bli_csls.tolist()[0] == 84.1 and math.isnan(planted.bli_csls.tolist()[1])
    assert planted.bli_csls.tolist()[2:] == [86.1, 76.3]


def test_tables12_and_13_split_strong_and_weak_by_target(grid):
    t12 = table12(grid)
    assert list(t12.columns) == SPLIT_COLUMNS
    planted = t12[t12.world == "planted"]
    assert planted[["row", "col"]].values.tolist() == [
        ["Strong-gendered", "EN"], ["Strong-gendered", "ES"], ["Strong-gendered", "DE"],
        ["Weak-gendered", "EN"], ["Weak-gendered", "ES"], ["Weak-gendered", "DE"],
    ]  # fmt: skip
    assert planted.inbias.tolist()[:2] == [0.15, 0.11] and planted.inbias.tolist()[3:5] == [
        0.05, 0.04,
    ]  # fmt: skip
    assert math.isnan(_cell(t12, "Strong-gendered", "DE").inbias)  # en-de has no split
    t13 = table13(grid)
    assert _cell(t13, "Strong-gendered", "ENDEB").inbias == 0.08
    assert _cell(t13, "Weak-gendered", "ES").inbias == 0.02
    assert (t13.src == "endeb").all()


def test_markdown_prints_the_papers_layout_with_stars_daggers_and_dashes(grid):
    text = table_markdown("table1", table1(grid))
    assert text.startswith("# Zhao et al. (2020), Table 1")
    assert "## planted" in text and "## balanced" in text
    planted = text.split("## balanced")[0]
    lines = [line for line in planted.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["src \\ tgt", "EN", "ES", "DE"]
    cells = {
        line.strip("|").split("|")[0].strip(): [c.strip() for c in line.strip("|").split("|")[1:]]
        for line in lines[2:]
    }
    # ± the standard error where the grid has one, then the star
    assert cells["EN"] == ["0.1000", "0.0800 \u00b1 0.0120*", "0.0900"]
    assert cells["ES"] == ["0.2100\u2020", "0.2000", "0.2200*"]
    assert cells["DE"] == ["0.3100*\u2020", "-", "0.3000"]
    # the 95% Wilson interval where the grid has one, one decimal
    assert "| 80.00 (70.1-87.3) " in table_markdown("table2", table2(grid))
    assert "| 70.00 " in table_markdown("table2", table2(grid))
    assert "0.0450*" in table_markdown("table3", table3(grid))
    table4_text = table_markdown("table4", table4(grid)).split("## balanced")[0]
    assert "| ENDEB \u2192 X | 84.10 | -     |" in table4_text
    assert "| X \u2192 ENDEB | 86.10 | 76.30 |" in table4_text
    assert "Weak-gendered" in table_markdown("table12", table12(grid))
    assert set(TABLES) == {"table1", "table2", "table3", "table4", "table12", "table13"}
