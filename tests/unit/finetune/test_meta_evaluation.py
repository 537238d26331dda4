"""Table 1 of Kaneko et al. (2023): correlations with r, checked against scipy and by hand."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mgbias.finetune.meta_evaluation import (
    REPORTED_TABLE1,
    TABLE1_COLUMNS,
    check_runs,
    correlation_with_r,
    meta_evaluation,
    reported_table1,
    run_scores,
    table1,
)
from mgbias.report.kaneko2023 import table1_markdown

GRID = np.round(np.linspace(0.0, 1.0, 11), 1)


def test_correlations_equal_scipy_on_synthetic_scores():
    rng = np.random.default_rng(7)
    scores = 50 + 20 * GRID + rng.normal(0, 5, GRID.size)
    result = correlation_with_r(GRID, scores)
    pearson, spearman = stats.pearsonr(GRID, scores), stats.spearmanr(GRID, scores)
    assert result["pearson"] == pytest.approx(pearson.statistic, rel=1e-12)
    assert result["pearson_p"] == pytest.approx(pearson.pvalue, rel=1e-12)
    assert result["spearman"] == pytest.approx(spearman.statistic, rel=1e-12)
    assert result["spearman_p"] == pytest.approx(spearman.pvalue, rel=1e-12)
    assert (result["n_r"], result["n_runs"]) == (11, 11)
    # Correlation with the order 0..10 of the models equals correlation with r.
    order = correlation_with_r(np.arange(11), scores)
    assert order["pearson"] == pytest.approx(result["pearson"], rel=1e-9)


def test_repeats_at_one_r_are_averaged_first():
    # Seeds at r = 0.5 average to 50: the points are (0, 40), (0.5, 50), (1, 70).
    r = [0.0, 0.5, 0.5, 1.0]
    scores = [40.0, 45.0, 55.0, 70.0]
    result = correlation_with_r(r, scores)
    expected = stats.pearsonr([0.0, 0.5, 1.0], [40.0, 50.0, 70.0])
    assert result["pearson"] == pytest.approx(expected.statistic, rel=1e-12)
    assert (result["n_r"], result["n_runs"]) == (3, 4)
    assert result["spearman"] == pytest.approx(1.0)


def test_fewer_than_three_r_or_a_constant_score_give_nan_with_a_warning():
    with pytest.warns(UserWarning, match=r"\(x\): 2 distinct value\(s\) of r; at least 3"):
        result = correlation_with_r([0.0, 1.0, 1.0], [1.0, 2.0, 3.0], label="x")
    assert math.isnan(result["pearson"]) and math.isnan(result["spearman_p"])
    with pytest.warns(UserWarning, match="the score is the same at every r"):
        assert math.isnan(correlation_with_r(GRID[:4], [5.0] * 4)["pearson"])
    with pytest.warns(UserWarning, match=r"1 NaN score\(s\) dropped \(r = \[0.3\]\)"):
        result = correlation_with_r(GRID[:4], [1.0, 2.0, 4.0, math.nan])
    assert result["n_r"] == 3 and result["pearson"] == pytest.approx(
        stats.pearsonr(GRID[:3], [1.0, 2.0, 4.0]).statistic
    )
    with pytest.raises(ValueError, match="r holds NaN"):
        correlation_with_r([math.nan, 0.0, 1.0], [1.0, 2.0, 3.0])


def _scores() -> pd.DataFrame:
    """Two models x one corpus x two languages; planted: aula rises with r, tbs falls."""
    rows = []
    for language in ("en", "de"):
        for model in ("bert", "albert"):
            for seed in (0, 1):
                for r in GRID:
                    run = f"{model}-{language}-{r}-{seed}"
                    noise = 0.5 * seed + (1.0 if model == "albert" else 0.0)
                    for measure, direction, score in (
                        ("aula", "male", 40 + 20 * r + noise),
                        ("aula", "stereo", 55 - 2 * r * r),
                        ("tbs", "male", -r * r + noise),
                    ):
                        rows.append(
                            (language, "news", model, run, r, seed, measure, direction, score)
                        )
        # The original model (r missing) must be ignored.
        rows.append((language, "news", "bert", f"orig-{language}", math.nan, 0, "aula", "male", 99))
    columns = ["language", "corpus", "model", "run", "r", "seed", "measure", "direction", "score"]
    return pd.DataFrame(rows, columns=columns)


def test_meta_evaluation_groups_and_planted_signs():
    table = meta_evaluation(_scores())
    assert list(table.columns) == TABLE1_COLUMNS
    assert len(table) == 2 * 2 * 3 and (table["source"] == "computed").all()
    assert (table["n_r"] == 11).all() and (table["n_runs"] == 22).all()
    male_aula = table[(table.measure == "aula") & (table.direction == "male")]
    np.testing.assert_allclose(male_aula["pearson"], 1.0)
    tbs = table[table.measure == "tbs"]
    assert (tbs["spearman"] == -1.0).all()
    # Table 1's order: tbs before aula within a group.
    first = table[(table.language == "de") & (table.model == "albert")]
    assert first["measure"].tolist() == ["tbs", "aula", "aula"]
    with pytest.raises(ValueError, match=r"lack column\(s\) \['direction'\]"):
        meta_evaluation(_scores().drop(columns="direction"))


def test_reported_values_are_carried_as_reported():
    reported = reported_table1()
    assert (reported["source"] == "reported").all()
    ha = reported[reported.corpus == "HA"].set_index(["model", "measure"])["auc"]
    assert ha[("bert-base-uncased", "aula")] == 0.71 and ha[("albert-base-v2", "sss")] == 0.53
    assert ("bert-base-uncased", "tbs") not in ha.index  # "–" in the paper
    news = reported[reported.corpus == "news"].set_index(["model", "measure"])["pearson"]
    assert news[("albert-base-v2", "aula")] == 0.60
    assert len(reported) == 2 * (5 + 5 + 4)
    assert REPORTED_TABLE1["bert-base-uncased"]["book"]["tbs"] == 0.09
    combined = table1(_scores())
    assert set(combined["source"]) == {"computed", "reported"}


def test_markdown_has_the_paper_layout():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = table1_markdown(table1(_scores()))
    assert "## en: Pearson, male-oriented scores" in text
    assert "| measure   | albert news   | bert news   |" in text
    lines = text.splitlines()
    start = lines.index("## en: Pearson, male-oriented scores")
    # Rows in Table 1's order; the planted signs; ‡ for p < 0.05.
    assert lines[start + 4].startswith("| tbs       | -0.96 ‡")
    assert lines[start + 5].startswith("| aula      | 1.00 ‡")
    header = next(line for line in lines if "bert-base-uncased HA" in line)
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    assert columns[1:4] == ["albert-base-v2 news", "albert-base-v2 book", "albert-base-v2 HA"]
    aula = next(line for line in lines[lines.index(header) :] if line.startswith("| aula"))
    assert [cell.strip() for cell in aula.strip("|").split("|")][1:] == [
        "0.60", "0.42", "0.57", "0.42", "0.34", "0.71",
    ]  # fmt: skip


def test_runs_are_checked():
    runs = check_runs({"m0": {"model": "bert", "corpus": "news", "language": "en", "r": 0.0}})
    assert runs.iloc[0].to_dict() == {
        "language": "en", "corpus": "news", "model": "bert", "run": "m0", "r": 0.0, "seed": 0,
    }  # fmt: skip
    original = check_runs([{"run": "b", "model": "b", "corpus": "-", "language": "en", "r": None}])
    assert math.isnan(original.iloc[0]["r"])
    with pytest.raises(ValueError, match=r"r = 1.5 is outside \[0, 1\]"):
        check_runs({"m": {"model": "b", "corpus": "c", "language": "en", "r": 1.5}})
    with pytest.raises(ValueError, match=r"lacks \['corpus'\]"):
        check_runs({"m": {"model": "b", "language": "en", "r": 0.5}})
    record = {"run": "m", "model": "b", "corpus": "c", "language": "en", "r": 0.5}
    with pytest.raises(ValueError, match=r"listed twice: \['m'\]"):
        check_runs([record, record])


def test_run_scores_stack_tbs_and_pair_scores():
    pairs = pd.DataFrame(
        {
            "measure": ["aul", "aul"],
            "direction": ["male", "stereo"],
            "score": [60.0, 45.0],
            "n": [10, 12],
            "n_unorientable": [2, 0],
        }
    )
    stacked = run_scores(pairs, {"tbs": -0.25, "n_targets": 21})
    assert stacked["measure"].tolist() == ["tbs", "aul", "aul"]
    assert stacked.iloc[0][["score", "n"]].tolist() == [-0.25, 21]
    # MBE: the mean score over the run's corpora, one row, last
    with_mbe = run_scores(pairs, None, [{"score": 40.0}, {"score": 55.0}])
    assert with_mbe["measure"].tolist() == ["aul", "aul", "mbe"]
    assert with_mbe.iloc[2][["direction", "score", "n"]].tolist() == ["male", 47.5, 2]
    assert run_scores(pairs, None, []).equals(run_scores(pairs))
    with pytest.raises(ValueError, match="no pair scores, TBS summary or MBE result"):
        run_scores()


def test_spearman_p_is_exact_for_few_values_of_r():
    """With 5 values of r, a perfectly monotone score is 2 of the 120 orderings (p = 1/60),
    where scipy's t approximation gives far less; 11 values keep scipy's p."""
    from mgbias.finetune.meta_evaluation import spearman_test

    rho, p = spearman_test(np.arange(5.0), np.array([0.1, 0.2, 0.3, 0.4, 0.5]))
    assert rho == pytest.approx(1.0) and p == pytest.approx(2 / 120)
    assert stats.spearmanr(np.arange(5.0), np.arange(5.0)).pvalue < 1e-6
