"""Basta et al. (2020), grammatical gender (Spanish, French, German): Tables 6-7 and
Figures 1, 7-9 from probe rows and summaries."""

from __future__ import annotations

import pandas as pd
import pytest

from mgbias.report.basta2020_grammatical_gender import (
    TABLE6_COLUMNS,
    direction_figure,
    figure_layer,
    grammatical_gender_pca_figure,
    layer_results,
    profession_figure,
    table6,
    table6_markdown,
    table7,
    table7_markdown,
)
from mgbias.workflow.core import basta2020_grammatical_jobs

JOB = {"model": "enc", "world": "planted", "domain": "news-es", "lang": "es"}


def _row(layer, experiment, measure, mean, lo=None, hi=None, n=10, runs=1):
    lo = mean if lo is None else lo
    hi = mean if hi is None else hi
    return {**JOB, "layer": layer, "experiment": experiment, "measure": measure, "mean": mean,
            "min": lo, "max": hi, "range": hi - lo, "n_items": n, "n_runs": runs}  # fmt: skip


def _frame():
    rows = []
    for layer, shift in (("0", 0.0), ("2", 0.01), ("concat", 0.02)):
        for direction in ("semantic", "grammatical"):
            for forms, value, n in (("female", 0.12, 83), ("male", 0.057, 85), ("all", 0.098, 201)):
                rows.append(
                    _row(layer, "direct_bias_forms", f"{direction}_{forms}", value + shift, n=n)
                )
        rows.append(_row(layer, "clustering_lists", "semantic", 0.8448, 0.8, 0.9, 27, 3))
        rows.append(_row(layer, "clustering_lists", "grammar", 0.9327, 0.9, 0.95, 25, 3))
        rows.append(_row(layer, "classification_lists", "semantic", 0.9425, 0.9, 1.0, 27, 3))
        rows.append(_row(layer, "classification_lists", "grammar", 0.9905, 0.98, 1.0, 25, 3))
        rows.append(_row(layer, "directions", "lda_held_out", 0.55, 0.45, 0.65, 577, 3))
        rows.append(_row(layer, "directions", "dot_pca_grammatical", -0.14))
        for k in range(1, 11):
            rows.append(_row(layer, "pca", f"pc{k}", 0.36 if k == 1 else 0.064))
    english = {**_row("2", "pca", "pc1", 0.5), "domain": "ted", "lang": "en"}
    return pd.DataFrame(rows + [english])


def test_table6_tidy_and_markdown_shows_last_layer_and_concat():
    table = table6(_frame())
    assert tuple(table.columns) == TABLE6_COLUMNS
    assert len(table) == 3 * 2 * 3
    hit = table[(table.layer == "2") & (table.direction == "semantic") & (table.forms == "female")]
    assert hit.direct_bias.item() == pytest.approx(0.13) and hit.n_occurrences.item() == 83
    markdown = table6_markdown(table)
    assert "semantic direction, layer 2 | semantic direction, concat" in markdown
    assert "layer 0" not in markdown
    assert "| Female-version of professions | 0.1300 | 0.1400 | 0.1300 | 0.1400 | 83 |" in markdown
    assert "| Male and female together | 0.1080 |" in markdown
    with pytest.raises(ValueError, match="no Exp. 7 rows"):
        table6(_frame()[lambda f: f.experiment == "pca"])


def test_table7_in_percent_with_range_and_lda_note():
    table = table7(_frame())
    lists = table[table.list != ""]
    assert set(lists.experiment) == {"clustering", "classification"}
    assert set(table[table.list == ""].experiment) == {"lda_held_out", "dot_pca_grammatical"}
    markdown = table7_markdown(table)
    assert "| Semantic biased words | 94.25 (10.00) | 84.48 (10.00) | 27 |" in markdown
    assert "| Grammar biased words | 99.05 (2.00) | 93.27 (5.00) | 25 |" in markdown
    assert "LDA accuracy on held-out noun types: 55.00 % (45.00-65.00)" in markdown
    assert "<d_pca, d_g>: -0.140" in markdown
    assert markdown.count("## ") == 2  # layer 2 and the concatenation


def test_grammatical_gender_figures_write_pngs(tmp_path):
    grammatical_gender_pca_figure(_frame(), tmp_path / "f7.png")
    assert (tmp_path / "f7.png").stat().st_size > 0
    with pytest.raises(ValueError, match="no Spanish"):
        grammatical_gender_pca_figure(_frame()[lambda f: f.experiment == "pca"], tmp_path / "x.png")
    projections = {
        "nouns": {"casa": {"n": 3, "semantic": 0.1, "grammatical": -0.4, "masculine": False},
                  "libro": {"n": 2, "semantic": -0.1, "grammatical": 0.5, "masculine": True}},
        "professions": {"médica": {"n": 2, "semantic": 0.2, "grammatical": -0.3, "form": "female"},
                        "médico": {"n": 2, "semantic": 0.1, "grammatical": 0.3, "form": "male"}},
    }  # fmt: skip
    summary = {
        "layers": {"1": {"grammatical_gender": {}},
                   "2": {"grammatical_gender": {"projections": projections}},
                   "concat": {"grammatical_gender": {}}},
        "profession_counts": {"médico": 5, "médica": 2},
    }  # fmt: skip
    assert figure_layer(summary) == "2"
    with pytest.raises(ValueError, match="no layer"):
        figure_layer({"layers": {"2": {}}})
    for kind in ("nouns", "professions"):
        direction_figure([JOB], [summary], tmp_path / f"{kind}.png", kind)
        assert (tmp_path / f"{kind}.png").stat().st_size > 0
    with pytest.raises(ValueError, match="kind 'x'"):
        direction_figure([JOB], [summary], tmp_path / "x.png", "x")
    profession_figure([JOB], [summary], tmp_path / "f1.png")
    assert (tmp_path / "f1.png").stat().st_size > 0
    with pytest.raises(ValueError, match="no 'profession_counts'"):
        profession_figure([JOB], [{"layers": {}}], tmp_path / "f1.png")


def test_summaries_written_before_the_rename_are_still_read(tmp_path):
    # one release of fallback: Exp. 6-9 under the layer's old key "spanish"
    projections = {"nouns": {"casa": {"n": 1, "semantic": 0.1, "grammatical": -0.4,
                                      "masculine": False}}}  # fmt: skip
    old = {"layers": {"1": {"spanish": {}}, "3": {"spanish": {"projections": projections}},
                      "concat": {"spanish": {}}, "4": {"pca": {}}}}  # fmt: skip
    assert figure_layer(old) == "3"
    assert layer_results(old["layers"]["3"]) == {"projections": projections}
    assert layer_results(old["layers"]["4"]) is None
    # the new key wins where a summary holds both
    both = {"grammatical_gender": {"directions": 1}, "spanish": {"directions": 2}}
    assert layer_results(both) == {"directions": 1}
    direction_figure([JOB], [old], tmp_path / "nouns.png", "nouns")
    assert (tmp_path / "nouns.png").stat().st_size > 0


def test_grammatical_jobs_are_the_spanish_ones():
    config = {
        "worlds": ["planted"],
        "models": {"enc": {}},
        "basta2020": {
            "models": ["enc"],
            "domains": {"ted": {"lang": "en", "url": "file://a/{world}/t.gz"},
                        "news-es": {"lang": "es", "url": "file://a/{world}/n.gz"}},
        },
    }  # fmt: skip
    assert [j["domain"] for j in basta2020_grammatical_jobs(config)] == ["news-es"]
