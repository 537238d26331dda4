"""The inBias table of Zhao et al. (2020) from per-space results."""

from __future__ import annotations

import math

from mgbias.report.zhao2020 import INBIAS_COLUMNS, inbias_markdown, inbias_table


def _result(value: float, weak: float | None, se: float | None = 0.004) -> dict:
    return {"inbias": value, "se": se, "variant": "averaged", "n": 20, "n_listed": 22,
            "strong": value, "weak": weak, "t_statistic": None, "p_value": None}  # fmt: skip


def test_one_row_per_space_in_the_given_order_and_markdown_by_world():
    results = {
        ("planted", "en"): _result(0.0917, 0.05),
        ("planted", "de"): _result(0.1868, None),
        ("balanced", "en"): _result(0.02, 0.01),
        ("balanced", "de"): _result(0.0633, None, se=None),
    }
    table = inbias_table(results)
    assert list(table.columns) == INBIAS_COLUMNS
    assert table[["world", "lang"]].values.tolist() == [
        ["planted", "en"], ["planted", "de"], ["balanced", "en"], ["balanced", "de"],
    ]  # fmt: skip
    assert math.isnan(table.loc[1, "weak"]) and table.loc[0, "weak"] == 0.05
    text = inbias_markdown(table)
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert [cell.strip() for cell in lines[0].split("|")[1:4]] == ["lang", "planted", "balanced"]
    # x 100, two decimals, ± the standard error (none where there is none), languages in
    # the given order
    assert [cell.strip() for cell in lines[2].split("|")[1:4]] == [
        "en",
        "9.17 ± 0.40",
        "2.00 ± 0.40",
    ]
    assert [cell.strip() for cell in lines[3].split("|")[1:4]] == ["de", "18.68 ± 0.40", "6.33"]


def test_grid_table_marks_significance_bli_and_the_published_x_en_alignments():
    from mgbias.report.zhao2020 import GRID_COLUMNS, grid_table

    def inbias(value, p_value):
        return {**_result(value, value / 2), "p_value": p_value}

    def bli(csls):
        interval = {"ci_low": csls - 5, "ci_high": csls + 6}
        return {"csls": {"accuracy": csls, **interval}, "nn": {"accuracy": csls / 2}}

    table = grid_table(
        {
            ("planted", "es", "en"): inbias(0.15, 0.01),
            ("planted", "en", "es"): inbias(0.0917, 0.5),
            ("planted", "endeb", "endeb"): inbias(0.0075, 1e-20),
            ("balanced", "en", "es"): inbias(0.02, 0.049999),
        },
        {("planted", "es", "en"): bli(6.5), ("planted", "en", "es"): bli(22.7)},
        original={
            ("planted", "en"): _result(0.0917, 0.05),
            ("balanced", "en"): _result(0.02, 0.01),
        },
    )
    assert list(table.columns) == GRID_COLUMNS
    # originals first (the diagonal), rows grouped by world in first-seen order
    assert table[["world", "src", "tgt"]].values.tolist() == [
        ["planted", "en", "en"], ["planted", "es", "en"], ["planted", "en", "es"],
        ["planted", "endeb", "endeb"], ["balanced", "en", "en"], ["balanced", "en", "es"],
    ]  # fmt: skip
    assert table["significant"].tolist() == [False, True, False, True, False, True]
    assert math.isnan(table["p_value"][0])  # an original space is not tested
    assert table["paper_used_published_alignment"].tolist() == [False, True] + [False] * 4
    assert table["bli_csls"].tolist()[1:3] == [6.5, 22.7] and math.isnan(table["bli_csls"][3])
    assert math.isnan(table["bli_csls"][0]) and table["bli_nn"].tolist()[2] == 22.7 / 2
    # the uncertainty of each: inBias's standard error, BLI's 95% interval
    assert table["inbias_se"].tolist() == [0.004] * 6
    assert table["bli_csls_low"].tolist()[1:3] == [1.5, 17.7]
    assert table["bli_csls_high"].tolist()[1:3] == [12.5, 28.7]
    assert math.isnan(table["bli_csls_low"][0])


def test_significant_is_p_below_alpha_and_never_for_a_missing_p():
    from mgbias.report.zhao2020 import significant

    assert significant(0.049999) and not significant(0.05) and not significant(0.2)
    assert not significant(None) and not significant(float("nan"))
    assert significant(0.09, alpha=0.1)
