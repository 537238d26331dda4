"""Planning of the bias-controlled fine-tunings' inputs and the meta-evaluation
(mgbias.workflow.kaneko2023); the grid itself: tests/unit/workflow/test_kaneko2023_planning.py."""

from __future__ import annotations

import copy

from mgbias.config import validate_config
from mgbias.workflow import kaneko2023
from mgbias.workflow.core import kaneko2023_models, model_entries

BASE = {
    "languages": ["de"],
    "worlds": ["real"],
    "corpora": {"TED2020": {"url": "https://example.org/{pair}.zip"}},
    "models": {"base": {"source": "org/base"}},
    "pair_datasets": {
        "gender_pairs": {"url": "https://example.org/pairs_{lang}.csv", "languages": ["en"]}
    },
}

SECTION = {
    "sources": {"news": {"url": "https://example.org/news.{lang}.gz"}},
    "base_models": ["base"],
    "languages": ["en"],
    "wordlists": {"en": {"female": ["she"], "male": ["he"]}},
    "ratios": [0.0, 1.0],
    "pair_dataset": "gender_pairs",
    "finetune": {"epochs": 2},
}


def configured(**changes) -> dict:
    """A validated configuration with ``kaneko2023``, its models added as the workflow
    adds them (rules/common.smk)."""
    config = copy.deepcopy(BASE)
    config["kaneko2023"] = {**copy.deepcopy(SECTION), **changes}
    validate_config(config)
    config["models"].update(kaneko2023_models(config))
    return config


def test_without_the_section_nothing_is_planned_and_settings_are_the_schemas():
    config = validate_config(copy.deepcopy(BASE))
    assert kaneko2023.targets(config) == []
    assert kaneko2023.sources(config) == []
    assert kaneko2023.mbe_results(config) == {}
    assert kaneko2023.run_inputs(config, "pairs_per_pair") == []
    section = kaneko2023.section(config)
    assert section["threads"] == 1 and section["n_per_gender"] == 1000
    assert section["orientation"] == {} and section["top_k"] == 5


def test_targets_sources_and_word_lists():
    config = configured()
    assert kaneko2023.targets(config) == [
        "results/tables/kaneko2023_table1.csv",
        "results/tables/kaneko2023_mined.csv",
        "results/figures/kaneko2023_figure2.png",
        "results/figures/kaneko2023_figure3.png",
    ]
    assert kaneko2023.sources(config) == ["news"]
    assert kaneko2023.controlled_url(config, "news", "en") == "https://example.org/news.en.gz"
    assert kaneko2023.wordlists(config, "en") == {"female": ["she"], "male": ["he"]}


def test_the_orienting_word_lists_are_orientations_else_the_languages_own():
    assert kaneko2023.orienting_wordlists(validate_config(copy.deepcopy(BASE))) == {}
    assert kaneko2023.orienting_wordlists(configured()) == {
        "en": {"female": ["she"], "male": ["he"]}
    }
    names = {"female": ["she", "en_female_names"], "male": ["he", "en_male_names"]}
    assert kaneko2023.orienting_wordlists(configured(orientation={"en": names})) == {"en": names}


def test_a_fine_tuning_reads_its_mixture_and_dev_sets_and_its_repeats_seed():
    config = configured(repeats=2)
    model = "base-news-en-r100-s1"
    assert kaneko2023.finetuning(config, model) == {
        "base": "base",
        "source": "news",
        "lang": "en",
        "rate": "r100",
        "repeat": 1,
    }
    # a hub base model: no directory to wait for
    assert kaneko2023.finetune_inputs(config, model) == {
        "text": "data/mined/controlled/news/en/r100_s1.txt",
        "dev": [
            "data/mined/controlled/news/en/dev_female.txt",
            "data/mined/controlled/news/en/dev_male.txt",
        ],
    }
    # repeat 1 trains with seed + 1 (FineTuneConfig's default 42 without one)
    assert kaneko2023.finetune_settings(config, model) == {"epochs": 2, "seed": 43}
    assert kaneko2023.finetune_settings(config, "base-news-en-r100-s0") == {"epochs": 2}


def test_a_trained_base_model_is_an_input_of_its_fine_tunings():
    config = copy.deepcopy(BASE)
    config["monolingual"] = {"url": "https://example.org/{world}/{lang}.gz"}
    config["models"]["base"] = {"train": {"world": "real"}}
    config["kaneko2023"] = copy.deepcopy(SECTION)
    validate_config(config)
    config["models"].update(kaneko2023_models(config))
    inputs = kaneko2023.finetune_inputs(config, "base-news-en-r000-s0")
    assert inputs["base"] == "models/base"


def test_the_meta_evaluation_reads_every_run_in_run_order():
    config = configured()
    assert kaneko2023.run_inputs(config, "pairs_per_pair") == [
        "results/pairs/per_pair/base-news-en-r000-s0/gender_pairs/original/en.csv",
        "results/pairs/per_pair/base-news-en-r100-s0/gender_pairs/original/en.csv",
        "results/pairs/per_pair/base/gender_pairs/original/en.csv",  # the original model
    ]
    assert kaneko2023.run_inputs(config, "kaneko2023_probe_summary") == [
        "results/kaneko2023/probe/base-news-en-r000-s0/en/summary.json",
        "results/kaneko2023/probe/base-news-en-r100-s0/en/summary.json",
        "results/kaneko2023/probe/base/en/summary.json",
    ]
    # no kaneko2023.mbe: no MBE results, one (empty) entry per run
    assert kaneko2023.mbe_results(config) == {
        "base-news-en-r000-s0": [],
        "base-news-en-r100-s0": [],
        "base-news-en-original": [],
    }


def test_a_grid_is_one_job_whose_outputs_follow_its_models():
    wordlists = {**SECTION["wordlists"], "de": {"female": ["sie"], "male": ["er"]}}
    config = configured(
        languages=["en", "de"], ratios=[0.0, 0.5, 1.0], repeats=2, wordlists=wordlists
    )
    assert kaneko2023.base_models(config) == ["base"]
    tags = ["r000-s0", "r000-s1", "r050-s0", "r050-s1", "r100-s0", "r100-s1"]
    assert kaneko2023.grid_tags(config) == tags
    models = kaneko2023.grid_models(config, "base", "news", "de")
    assert models == [f"base-news-de-{tag}" for tag in tags]
    assert kaneko2023.grid_model_dirs(config, "base", "news", "de") == [
        f"models/{model}" for model in models
    ]
    outputs = kaneko2023.grid_outputs(config, "kaneko2023_probe_summary")
    # filled in with a grid's wildcards, the outputs are its models' paths, in model order
    filled = [path.format(base="base", source="news", lang="de") for path in outputs]
    assert filled == [f"results/kaneko2023/probe/{model}/de/summary.json" for model in models]
    pairs = kaneko2023.grid_outputs(config, "score_pairs_masked")
    assert pairs[0] == (
        "results/score/pairs/{base}-{source}-{lang}-r000-s0/{dataset}/{variant}/{lang}"
        ".masked.parquet"
    )
    entries = model_entries(config, models[:1] + ["base"])
    assert [entry["model_id"] for entry in entries] == [f"models/{models[0]}", "org/base"]


def test_without_the_section_no_grid():
    config = validate_config(copy.deepcopy(BASE))
    assert kaneko2023.base_models(config) == [] and kaneko2023.grid_tags(config) == []
    assert kaneko2023.grid_outputs(config, "score_mined") == []
