"""Pair tables: the long table, measures x models, Steinborn et al. Tables 2 and 3, by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from mgbias.report.pair_tables import (
    chance_marks,
    measures_by_model,
    measures_by_model_markdown,
    pair_scores_markdown,
    read_pair_scores,
    steinborn_table2,
    steinborn_table2_markdown,
    steinborn_table3,
    steinborn_table3_markdown,
)


def rows(model, dataset, variant, lang, values):
    return [
        {
            "model": model,
            "dataset": dataset,
            "variant": variant,
            "lang": lang,
            "measure": measure,
            "score": score,
            "se": se,
            # a score more than 2 SE from no preference is marked significant
            "p_value": 0.01 if abs(score - (0 if measure == "sjsd" else 50)) > 2 * se else 0.5,
            "significant": abs(score - (0 if measure == "sjsd" else 50)) > 2 * se,
            "n": 10,
            "n_edge": 0,
            "n_ties": 0,
            "n_clusters": 0,
            # B. S_JSD's decisions follow the length; AULA has no length-matched pair
            "matched_score": float("nan") if measure == "aula" else score - 1,
            "matched_se": float("nan") if measure == "aula" else se,
            "matched_p_value": float("nan") if measure == "aula" else 0.74,
            "matched_n": 0 if measure == "aula" else 6,
            "n_unequal": 4,
            "length_share": 98.6 if measure == "bsjsd" else 50.0,
            "length_p_value": 1e-5 if measure == "bsjsd" else 1.0,
            "length_lean": measure == "bsjsd",
            "model_id": f"hub/{model}",
        }
        for measure, (score, se) in values.items()
    ]


@pytest.fixture()
def scores(tmp_path) -> pd.DataFrame:
    records = (
        rows("xlmr", "mcp", "original", "de", {"sjsd": (-0.002, 0.0015), "cps": (51, 3)})
        + rows("xlmr", "mcp", "original", "de", {"bsjsd": (50, 3), "aula": (60, 2)})
        + rows("mbert", "mcp", "original", "en", {"cps": (57, 3), "sjsd": (-5e-5, 1e-3)})
        + rows("mbert", "mcp", "original", "en", {"bsjsd": (50, 3)})
        + rows("mbert", "mcp", "perturbed", "en", {"cps": (55.6, 1.3), "sjsd": (-3e-3, 1e-3)})
    )
    paths = []
    # one file per job, written in a shuffled order: the table sorts them
    for index, (_, block) in enumerate(
        pd.DataFrame(records).groupby(["model", "variant", "lang"], sort=False)
    ):
        path = tmp_path / f"{index}.csv"
        block.to_csv(path, index=False)
        paths.append(path)
    return read_pair_scores(reversed(paths))


def test_long_table_order_follows_dataset_model_variant_lang_and_measure_order(scores):
    assert list(scores.model) == ["mbert"] * 5 + ["xlmr"] * 4
    assert list(scores.variant[:5]) == ["original"] * 3 + ["perturbed"] * 2
    # measures in the papers' order, not alphabetical
    assert list(scores.measure[:3]) == ["cps", "sjsd", "bsjsd"]
    assert list(scores.measure[5:]) == ["aula", "cps", "sjsd", "bsjsd"]


def test_measures_by_model_has_one_column_per_model(scores):
    table = measures_by_model(scores)
    assert list(table.columns) == ["dataset", "variant", "lang", "measure", "mbert", "xlmr"]
    de_cps = table[(table.lang == "de") & (table.measure == "cps")]
    assert de_cps.xlmr.item() == 51 and pd.isna(de_cps.mbert.item())


def test_steinborn_table2_scales_sjsd_by_1e3_and_keeps_cps_and_bsjsd_in_percent(scores):
    table = steinborn_table2(scores, "mcp")
    assert list(table.model) == ["mbert", "xlmr"]
    xlmr = table.iloc[1]
    assert xlmr.sjsd_x1e3 == pytest.approx(-2.0)
    assert xlmr.sjsd_x1e3_se == pytest.approx(1.5)
    assert (xlmr.cps, xlmr.cps_se, xlmr.bsjsd) == (51, 3, 50)
    text = steinborn_table2_markdown(table, "mcp")
    assert "| xlmr    | De      | -2.00 ± 1.50" in text
    assert "-0.05 ± 1.00" in text  # mBERT En, as the paper's first row
    # mBERT En CPS 57 ± 3 is significant (p = 0.01), xlmr De CPS 51 ± 3 is not
    assert "57 ± 3 ‡" in text and "51 ± 3   |" in text and "‡ = p < alpha" in text
    assert bool(table.iloc[0].cps_significant) and not table.iloc[1].cps_significant
    assert table.iloc[0].cps_p_value == 0.01


def test_steinborn_table3_pairs_unperturbed_with_perturbed(scores):
    table = steinborn_table3(scores.loc[scores.model == "mbert"], "mcp")
    row = table.iloc[0]
    assert row.unperturbed_cps == 57 and row.perturbed_cps == 55.6
    assert row.perturbed_sjsd_x1e3 == pytest.approx(-3.0)
    assert "55.6 ± 1.3" in steinborn_table3_markdown(table, "mcp")


def test_missing_variant_or_measure_is_an_error_naming_it(scores):
    with pytest.raises(ValueError, match=r"'mcp' \(perturbed\)"):
        steinborn_table3(scores.loc[scores.model == "xlmr"], "mcp")
    with pytest.raises(ValueError, match="no pair scores of dataset 'other'"):
        steinborn_table2(scores, "other")
    without_bsjsd = scores.loc[scores.measure != "bsjsd"]
    with pytest.raises(ValueError, match=r"no \['bsjsd'\] scores"):
        steinborn_table2(without_bsjsd, "mcp")


def test_read_pair_scores_names_the_file_missing_a_column(tmp_path):
    path = tmp_path / "bad.csv"
    pd.DataFrame({"model": ["m"], "score": [1.0]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match="bad.csv: missing column"):
        read_pair_scores([path])


def test_each_models_marks_are_set_against_what_chance_alone_marks(scores):
    """mbert: CPS 57 ± 3, perturbed CPS 55.6 ± 1.3 and S_JSD -3e-3 ± 1e-3 are marked, 3 of
    5; xlmr: AULA 60 ± 2, 1 of 4. At alpha 0.05 chance marks 0.25 and 0.2 of them, and
    5 or 4 independent tests exceed 2 marks with probability 0.0012 and 0.0005, 1 mark
    with 0.023 and 0.014 (> 0.01), so the bound is 2 for both."""
    assert chance_marks(scores, 0.05) == [
        "mbert: 3 of 5 tests marked (p < 0.05); a model with no preference has about 0.2 "
        "marked by chance alone (at most 2 in 99 of 100 tables, were its tests independent).",
        "xlmr: 1 of 4 tests marked (p < 0.05); a model with no preference has about 0.2 "
        "marked by chance alone (at most 2 in 99 of 100 tables, were its tests independent).",
    ]
    # 162 tests, as the full demo's control: about 8.1 by chance, at most 15
    many = pd.concat([scores.iloc[[0]]] * 162, ignore_index=True).assign(significant=False)
    assert "0 of 162 tests marked" in chance_marks(many, 0.05)[0]
    assert "about 8.1 marked by chance alone (at most 15 in 99" in chance_marks(many, 0.05)[0]
    with pytest.raises(ValueError, match="alpha must be in"):
        chance_marks(scores, 5)


def test_both_markdown_tables_end_their_notes_with_the_marks_given_alpha(scores):
    for write in (pair_scores_markdown, measures_by_model_markdown):
        assert "Marks and chance" not in write(scores)
        text = write(scores, 0.05)
        assert "- mbert: 3 of 5 tests marked" in text and "- xlmr: 1 of 4" in text
        assert text.index("Marks and chance") < text.index("| ")
    assert "cluster sign-flip test" in pair_scores_markdown(scores)


def test_both_markdown_tables_carry_the_length_matched_score_and_the_lean(scores):
    assert scores.matched_score.isna().tolist() == (scores.measure == "aula").tolist()
    long = pair_scores_markdown(scores)
    assert "| matched " in long and "| length " in long
    # mbert's original English CPS: score 57, matched 56 on 6 pairs
    (line,) = [
        row for row in long.splitlines() if "| cps " in row and "| en " in row and "orig" in row
    ]
    assert "| 56 (p = 0.74, 6) " in line and "| 50.0 (p = 1, 4) " in line
    (line,) = [row for row in long.splitlines() if "| aula " in row]
    assert "| – " in line
    assert long.count("98.6 (p = 1e-05, 4) §") == 2
    by_model = measures_by_model_markdown(scores)
    assert (
        "Length structure (matched score; the shorter sentence's share of the unequal pairs):"
        in by_model
    )
    assert "| bsjsd     | 49 (p = 0.74, 6); 98.6 (p = 1e-05, 4) §" in by_model
