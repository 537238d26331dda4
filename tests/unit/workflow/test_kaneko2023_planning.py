"""Planning the bias-controlled fine-tunings (Kaneko et al. 2023) from the configuration."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mgbias.config import ConfigError, validate_config
from mgbias.workflow.core import (
    evaluation_jobs,
    kaneko2023_grid,
    kaneko2023_mbe_jobs,
    kaneko2023_models,
    kaneko2023_runs,
    mbe_table3_jobs,
    mbe_table_jobs,
    model_is_trained,
    pair_jobs,
    rate_tag,
)
from mgbias.workflow.kaneko2023 import repeat_settings

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture()
def demo_config() -> dict:
    config = yaml.safe_load((REPO / "config/demo-full.yaml").read_text(encoding="utf-8"))
    return validate_config(config)


def test_rate_tags_are_hundredths_and_other_rates_are_refused():
    assert [rate_tag(r) for r in (0, 0.1, 0.25, 1.0)] == ["r000", "r010", "r025", "r100"]
    with pytest.raises(ValueError, match=r"0.125 is not a multiple of 0.01"):
        rate_tag(0.125)


def test_the_demo_grid_is_one_fine_tuning_per_language_and_rate(demo_config):
    grid = kaneko2023_grid(demo_config)
    assert len(grid) == 4 * 5  # languages x rates (one base model, one source, one repeat)
    assert grid[0] == {
        "model": "demo-balanced-news-en-r000-s0",
        "base": "demo-balanced",
        "source": "news",
        "lang": "en",
        "r": 0.0,
        "rate": "r000",
        "repeat": 0,
    }
    assert len({job["model"] for job in grid}) == len(grid)
    models = kaneko2023_models(demo_config)
    entry = models["demo-balanced-news-fr-r075-s0"]
    assert entry["languages"] == ["fr"] and model_is_trained(entry)
    # config/demo-full.yaml asks for MBE on the balanced world's TED2020 sentences
    assert entry["mbe"] is True
    assert entry["worlds"] == ["balanced"] and entry["corpora"] == ["TED2020"]
    del demo_config["kaneko2023"]["mbe"]
    entry = kaneko2023_models(demo_config)["demo-balanced-news-fr-r075-s0"]
    assert entry["mbe"] is False and "worlds" not in entry and "corpora" not in entry


def test_mbe_scores_each_run_in_its_language_only_within_the_section_s_scope(demo_config):
    table_jobs = mbe_table_jobs(demo_config)
    demo_config["models"].update(kaneko2023_models(demo_config))
    runs = {run["run"]: run for run in kaneko2023_runs(demo_config)}
    fine_tuned = kaneko2023_mbe_jobs(demo_config, runs["demo-balanced-news-de-r050-s0"])
    assert fine_tuned == [
        {
            "model": "demo-balanced-news-de-r050-s0",
            "world": "balanced",
            "corpus": "TED2020",
            "lang": "de",
        }
    ]
    # the original is the base model, evaluated everywhere: only the section's scope is read
    original = kaneko2023_mbe_jobs(demo_config, runs["demo-balanced-news-fr-original"])
    assert original == [
        {"model": "demo-balanced", "world": "balanced", "corpus": "TED2020", "lang": "fr"}
    ]
    # English is the pivot, not a target language of the corpora: no MBE
    assert kaneko2023_mbe_jobs(demo_config, runs["demo-balanced-news-en-r050-s0"]) == []
    # the fine-tuned models are scored (15: de, es, fr x 5 rates) but stay out of the MBE table
    planned = {job["model"] for job in evaluation_jobs(demo_config)}
    assert len(planned - {"demo-planted", "demo-balanced"}) == 15
    assert mbe_table_jobs(demo_config) == table_jobs
    del demo_config["kaneko2023"]["mbe"]
    assert kaneko2023_mbe_jobs(demo_config, runs["demo-balanced-news-de-r050-s0"]) == []


def test_repeats_and_a_source_s_own_languages_shape_the_grid(demo_config):
    section = demo_config["kaneko2023"]
    section["repeats"] = 2
    section["sources"]["book"] = {"url": "file://book.txt", "languages": ["en"]}
    grid = kaneko2023_grid(demo_config)
    assert len(grid) == (4 + 1) * 5 * 2
    assert {job["lang"] for job in grid if job["source"] == "book"} == {"en"}


def test_each_repeat_fine_tunes_with_its_own_seed_and_repeat_0_keeps_the_configured_one(
    demo_config,
):
    finetune = demo_config["kaneko2023"]["finetune"]
    assert repeat_settings(demo_config, 0) == finetune
    assert repeat_settings(demo_config, 2) == {**finetune, "seed": 44}
    del finetune["seed"]
    assert repeat_settings(demo_config, 0) == finetune  # no seed key added
    assert repeat_settings(demo_config, 1)["seed"] == 43  # the default 42 + 1


def test_mbe_table3_jobs_take_the_listed_models_then_the_english_grid(demo_config):
    jobs = mbe_table3_jobs(demo_config)
    models = [job["model"] for job in jobs if job["dataset"] == "crows_pairs"]
    assert models == [f"demo-balanced-news-en-r{r:03d}-s0" for r in (0, 25, 50, 75, 100)]
    assert {job["dataset"] for job in jobs} == {"crows_pairs", "stereoset"}
    demo_config["mbe_table3"]["models"] = ["demo-planted"]
    assert mbe_table3_jobs(demo_config)[0]["model"] == "demo-planted"
    del demo_config["mbe_table3"]
    assert mbe_table3_jobs(demo_config) == []


def test_runs_list_every_fine_tuning_then_the_original_per_language(demo_config):
    runs = kaneko2023_runs(demo_config)
    assert len(runs) == 20 + 4
    assert runs[0]["run"] == "demo-balanced-news-en-r000-s0" and runs[0]["r"] == 0.0
    originals = [run for run in runs if run["r"] is None]
    assert [run["language"] for run in originals] == ["de", "en", "es", "fr"]
    assert all(run["scored"] == "demo-balanced" for run in originals)
    assert originals[0]["run"] == "demo-balanced-news-de-original"
    assert len({run["run"] for run in runs}) == len(runs)


def test_fine_tuned_models_stay_out_of_the_pair_tables(demo_config):
    before = pair_jobs(demo_config)
    demo_config["models"].update(kaneko2023_models(demo_config))
    assert pair_jobs(demo_config) == before


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.update(base_models=["nope"]), r"kaneko2023.base_models': 'nope'"),
        (lambda s: s.update(pair_dataset="nope"), r"kaneko2023.pair_dataset': 'nope'"),
        (lambda s: s["wordlists"].pop("de"), r"kaneko2023.wordlists': no word lists for \['de'\]"),
        (lambda s: s.update(ratios=[0.125]), r"kaneko2023.ratios': 0.125"),
        (lambda s: s.update(mbe={"worlds": ["nope"]}), r"kaneko2023.mbe.worlds': 'nope'"),
        (lambda s: s.update(mbe={"corpora": ["nope"]}), r"kaneko2023.mbe.corpora': 'nope'"),
        (lambda s: s.update(mbe={"world": ["balanced"]}), r"kaneko2023.mbe"),
        (
            lambda s: s["sources"]["news"].update(url="file://one.txt"),
            r"kaneko2023.sources.news.url': one file for several languages",
        ),
    ],
)
def test_bad_sections_are_refused_naming_the_key(edit, message):
    config = yaml.safe_load((REPO / "config/demo-full.yaml").read_text(encoding="utf-8"))
    config = copy.deepcopy(config)
    edit(config["kaneko2023"])
    with pytest.raises(ConfigError, match=message):
        validate_config(config)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda c: c["mbe_table3"].update(datasets=["nope"]), r"mbe_table3.datasets': 'nope'"),
        (lambda c: c["mbe_table3"].update(models=["nope"]), r"mbe_table3.models': 'nope'"),
        (lambda c: c.pop("kaneko2023"), r"mbe_table3.bias_controlled': true needs"),
        (lambda c: c["mbe_table3"].update(lang="english"), r"mbe_table3.lang"),
    ],
)
def test_bad_mbe_table3_sections_are_refused_naming_the_key(edit, message):
    config = yaml.safe_load((REPO / "config/demo-full.yaml").read_text(encoding="utf-8"))
    edit(config)
    with pytest.raises(ConfigError, match=message):
        validate_config(config)


def test_a_grids_fine_tunings_are_one_job_only_with_finetune_per_grid(demo_config):
    from mgbias.workflow import kaneko2023

    demo_config["models"].update(kaneko2023_models(demo_config))
    models = kaneko2023.grid_models(demo_config, "demo-balanced", "news", "de")
    demo_config["kaneko2023"]["finetune_per_grid"] = False
    assert set(models) <= set(kaneko2023.per_model_finetunings(demo_config))
    assert kaneko2023.grid_finetune_bases(demo_config) == []  # the grid rule matches nothing
    demo_config["kaneko2023"]["finetune_per_grid"] = True
    assert kaneko2023.per_model_finetunings(demo_config) == []
    assert kaneko2023.grid_finetune_bases(demo_config) == ["demo-balanced"]
    inputs = kaneko2023.grid_finetune_inputs(demo_config, "demo-balanced", "news", "de")
    each = [kaneko2023.finetune_inputs(demo_config, model) for model in models]
    assert inputs["text"] == [entry["text"] for entry in each]  # one D_r per model, in order
    assert inputs["dev"] == each[0]["dev"] and inputs["base"] == "models/demo-balanced"
    settings = kaneko2023.grid_finetune_settings(demo_config, "demo-balanced", "news", "de")
    assert settings == [kaneko2023.finetune_settings(demo_config, model) for model in models]
    assert (
        len({setting.get("seed") for setting in settings}) == demo_config["kaneko2023"]["repeats"]
    )
