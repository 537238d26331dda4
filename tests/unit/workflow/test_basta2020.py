"""Planning of the contextual-embedding probes (mgbias.workflow.basta2020); the job
lists themselves: tests/unit/contextual."""

from __future__ import annotations

import copy

from mgbias.config import validate_config
from mgbias.seeds import derive_seed
from mgbias.workflow import basta2020

BASE = {
    "languages": ["es"],
    "worlds": ["real"],
    "corpora": {"TED2020": {"url": "https://example.org/{pair}.zip"}},
    "models": {"m": {"source": "org/m"}},
}

ENGLISH = {"lang": "en", "url": "https://example.org/{world}/en.txt"}
SPANISH = {"lang": "es", "url": "https://example.org/{world}/es.txt"}


def configured(domains: dict, **changes) -> dict:
    config = copy.deepcopy(BASE)
    config["basta2020"] = {"models": ["m"], "domains": copy.deepcopy(domains), **changes}
    return validate_config(config)


def test_without_the_section_nothing_is_planned_and_settings_are_the_schemas():
    config = validate_config(copy.deepcopy(BASE))
    assert basta2020.targets(config) == []
    assert basta2020.jobs(config) == [] and basta2020.grammatical_jobs(config) == []
    assert basta2020.domains(config) == []
    assert basta2020.section(config)["lists"] == "shipped"
    assert basta2020.section(config)["max_lines"] == 0


def test_english_domains_plan_the_tables_of_exp_1_to_5():
    config = configured({"news": ENGLISH})
    assert basta2020.domains(config) == ["news"]
    assert basta2020.jobs(config) == [
        {"model": "m", "world": "real", "domain": "news", "lang": "en"}
    ]
    assert basta2020.targets(config) == [
        "results/tables/basta2020_results.csv",
        "results/tables/basta2020_table1.csv",
        "results/tables/basta2020_tables2to5.md",
        "results/figures/basta2020_pca_variance.png",
        "results/figures/basta2020_layers.png",
        "results/figures/basta2020_clusters.png",
        "results/figures/basta2020_figure1.png",
    ]


def test_a_spanish_domain_adds_tables_6_7_and_figures_7_to_9():
    config = configured({"news": ENGLISH, "es-news": SPANISH}, spacy={"es": "es_core_news_sm"})
    assert basta2020.grammatical_jobs(config) == [
        {"model": "m", "world": "real", "domain": "es-news", "lang": "es"}
    ]
    assert basta2020.targets(config)[-5:] == [
        "results/tables/basta2020_table6.csv",
        "results/tables/basta2020_table7.csv",
        "results/figures/basta2020_figure7.png",
        "results/figures/basta2020_figure8.png",
        "results/figures/basta2020_figure9.png",
    ]


def test_settings_of_a_probe_job():
    config = configured(
        {"news": ENGLISH, "es-news": SPANISH},
        spacy={"es": "es_core_news_sm"},
        lists="demo",
        probes={"runs": 3},
    )
    vectors = basta2020.settings(config, "vectors", "m", "real", "es-news")
    # the schema's defaults of basta2020.vectors, the lists, the pipeline, the seed
    assert vectors["layers"] == "all" and vectors["batch_size"] == 64
    assert vectors["lists"] == "demo" and vectors["spacy"] == "es_core_news_sm"
    assert vectors["seed"] == derive_seed(12345, "basta2020", "vectors", "m", "real", "es-news")
    probes = basta2020.settings(config, "probes", "m", "real", "news")
    assert probes["runs"] == 3 and probes["n_train"] == 1000
    assert "spacy" not in probes
    assert "spacy" not in basta2020.settings(config, "vectors", "m", "real", "news")


def test_static_vectors_from_zhao2020_or_a_file():
    static = {"n_biased": 10, "n_extended": 20, "top_n": 5}
    config = configured({"news": ENGLISH}, static={"vectors": {"en": "en.vec"}, **static})
    assert basta2020.static_input(config, "real", "news") == {"static": "en.vec"}
    settings = basta2020.settings(config, "vectors", "m", "real", "news")
    assert {key: settings[key] for key in static} == static
    config["zhao2020"] = {"languages": ["en"], "vectors": {"train": {}}}
    config["basta2020"]["static"]["vectors"] = "zhao2020"
    assert basta2020.static_input(config, "real", "news") == {
        "static": "models/vectors/real/en.vec"
    }
    assert basta2020.static_input(configured({"news": ENGLISH}), "real", "news") == {}


def test_lists_of_a_domains_language():
    config = configured({"news": ENGLISH})
    files = basta2020.lists(config, "news", "src/mgbias")
    assert "src/mgbias/wordlists/data/en_female.txt" in files
    assert all(path.startswith("src/mgbias/") for path in files)
