"""Planning of the demo world (mgbias.workflow.demo). Named apart from tests/unit/demo:
pytest imports test files by their base name."""

from __future__ import annotations

import copy

from mgbias.config import validate_config
from mgbias.workflow import demo

BASE = {
    "languages": ["de", "es"],
    "corpora": {
        "TED2020": {"url": "file://data/demo/mirror/{world}/OPUS-TED2020/v1/moses/{pair}.zip"},
        "Other": {"url": "https://example.org/{pair}.zip"},
    },
    "monolingual": {"url": "https://example.org/{world}/{lang}.gz"},
    "models": {"m": {"source": "org/m"}},
}
DEMO = {
    "n_parallel": 300,
    "planted": {"male_ratio": 3.0, "occupation_bias": 0.9},
    "balanced": {"male_ratio": 1.0, "occupation_bias": 0.5},
}


def configured(**demo_section) -> dict:
    config = copy.deepcopy(BASE)
    config["worlds"] = ["planted", "balanced"]
    config["demo"] = {**copy.deepcopy(DEMO), **demo_section}
    return validate_config(config)


def test_the_section_with_the_schemas_defaults_also_without_it():
    section = demo.section(configured())
    assert section["n_parallel"] == 300 and section["n_monolingual"] == 20000
    assert section["n_pairs"] == 200 and section["english_pair_marking"] is False
    assert section["mt_flip"] == 0.0
    assert demo.section(configured(mt_flip=0.3, n_pairs=20))["mt_flip"] == 0.3
    without = demo.section(validate_config(copy.deepcopy(BASE)))
    assert without["n_pairs"] == 200 and without["mt_flip"] == 0.0
    assert without["n_parallel"] == 4000


def test_world_files_are_the_opus_corpora_it_knows_then_the_news_crawl():
    config = configured()
    # "Other" is no OPUS corpus of the demo: not written
    assert demo.world_files(config, "planted") == [
        "data/demo/mirror/planted/OPUS-TED2020/v1/moses/de-en.txt.zip",
        "data/demo/mirror/planted/OPUS-TED2020/v1/moses/en-es.txt.zip",
        "data/demo/mirror/planted/news-crawl/en/news.2021.en.shuffled.deduped.gz",
        "data/demo/mirror/planted/news-crawl/de/news.2021.de.shuffled.deduped.gz",
        "data/demo/mirror/planted/news-crawl/es/news.2021.es.shuffled.deduped.gz",
    ]
    # the rule's output patterns keep the wildcard
    assert demo.world_files(config, "{world}")[0] == (
        "data/demo/mirror/{world}/OPUS-TED2020/v1/moses/de-en.txt.zip"
    )


def test_a_worlds_settings_are_the_sizes_and_its_own_entry_only():
    config = configured(mt_flip=0.3)
    settings = demo.world_settings(config, "planted")
    assert settings == {
        "n_parallel": 300,
        "n_monolingual": 20000,
        "planted": config["demo"]["planted"],
    }
    assert settings["planted"]["male_ratio"] == 3.0
    # another world's entry and the settings downstream of the worlds are left out
    assert "balanced" not in settings and "mt_flip" not in settings


def test_pair_files_english_first_each_benchmark():
    assert demo.pair_files(configured()) == [
        "data/demo/mirror/benchmarks/crows_pairs_en.csv",
        "data/demo/mirror/benchmarks/stereoset_en.json",
        "data/demo/mirror/benchmarks/multilingual_crows_pairs_en.csv",
        "data/demo/mirror/benchmarks/crows_pairs_de.csv",
        "data/demo/mirror/benchmarks/stereoset_de.json",
        "data/demo/mirror/benchmarks/multilingual_crows_pairs_de.csv",
        "data/demo/mirror/benchmarks/crows_pairs_es.csv",
        "data/demo/mirror/benchmarks/stereoset_es.json",
        "data/demo/mirror/benchmarks/multilingual_crows_pairs_es.csv",
    ]
