"""Planning of the pair benchmarks' tables and downloads (mgbias.workflow.pairs)."""

from __future__ import annotations

import copy

from mgbias.config import validate_config
from mgbias.workflow import pairs

BASE = {
    "languages": ["de", "fr"],
    "worlds": ["real"],
    "corpora": {"TED2020": {"url": "https://example.org/{pair}.zip"}},
    "models": {"m": {"source": "org/m"}},
    "pair_datasets": {
        "crows": {"url": "https://example.org/crows_{lang}.csv", "languages": ["en"]},
        "multi": {"url": "https://example.org/multi/{lang}.csv", "languages": ["en", "de"]},
    },
}


def configured(**changes) -> dict:
    config = copy.deepcopy(BASE)
    config.update(copy.deepcopy(changes))
    return validate_config(config)


def test_downloads_every_file_of_every_dataset_in_its_languages():
    assert pairs.downloads(configured()) == [
        "data/raw/pairs/crows/en/crows_en.csv",
        "data/raw/pairs/multi/en/en.csv",
        "data/raw/pairs/multi/de/de.csv",
    ]
    assert pairs.downloads(configured(pair_datasets={})) == []


def test_targets_the_tables_and_the_paper_tables_of_scored_datasets():
    config = configured(pair_tables={"steinborn_table2": "multi"})
    assert pairs.targets(config) == [
        "results/tables/pairs_scores.csv",
        "results/tables/pairs_by_model.csv",
        "results/tables/pairs_steinborn_table2.csv",
    ]
    # a German-only model is scored on multi's de, on none of crows (en): the paper
    # table of crows is left out
    models = {"m": {"source": "org/m", "languages": ["de"]}}
    config = configured(models=models, pair_tables={"steinborn_table2": "crows"})
    assert pairs.targets(config) == [
        "results/tables/pairs_scores.csv",
        "results/tables/pairs_by_model.csv",
    ]


def test_no_table_without_a_scored_pair():
    # a French-only model meets no dataset's language
    models = {"m": {"source": "org/m", "languages": ["fr"]}}
    assert pairs.targets(configured(models=models)) == []
    assert pairs.targets(configured(pair_datasets={})) == []
