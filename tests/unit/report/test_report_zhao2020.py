"""The inBias table of Zhao et al. (2020) from per-space results."""

from __future__ import annotations

import math

from mgbias.report.zhao2020 import INBIAS_COLUMNS, inbias_markdown, inbias_table


def _result(value: float, weak: float | None) -> dict:
    return {"inbias": value, "variant": "averaged", "n": 20, "n_listed": 22, "strong": value,
            "weak": weak, "t_statistic": None, "p_value": None}  # fmt: skip


def test_one_row_per_space_in_the_given_order_and_markdown_by_world():
    results = {
        ("planted", "en"): _result(0.0917, 0.05),
        ("planted", "de"): _result(0.1868, None),
        ("balanced", "en"): _result(0.02, 0.01),
        ("balanced", "de"): _result(0.0633, None),
    }
    table = inbias_table(results)
    assert list(table.columns) == INBIAS_COLUMNS
    assert table[["world", "lang"]].values.tolist() == [
        ["planted", "en"], ["planted", "de"], ["balanced", "en"], ["balanced", "de"],
    ]  # fmt: skip
    assert math.isnan(table.loc[1, "weak"]) and table.loc[0, "weak"] == 0.05
    text = inbias_markdown(table)
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert lines[0].split("|")[1:4] == [" lang   ", "   planted ", "   balanced "]
    # x 100, two decimals, languages in the given order
    assert lines[2].split("|")[1:4] == [" en     ", "      9.17 ", "       2.00 "]
    assert lines[3].split("|")[1:4] == [" de     ", "     18.68 ", "       6.33 "]
