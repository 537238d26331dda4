"""Planning of Kaneko et al. (2022)'s Table 3, Figure 2 and Tables 4-6
(mgbias.workflow.mbe). Named apart from tests/unit/measures/test_mbe.py: pytest imports
test files by their base name."""

from __future__ import annotations

import copy

import pytest

from mgbias.config import validate_config
from mgbias.workflow import mbe

BASE = {
    "languages": ["de", "es"],
    "worlds": ["real"],
    "corpora": {"TED2020": {"url": "https://example.org/{pair}.zip"}},
    "models": {"m": {"source": "org/m"}, "n": {"source": "org/n"}},
    "pair_datasets": {
        "pairs": {"url": "https://example.org/pairs_{lang}.csv", "languages": ["en", "es"]},
        "mt": {"url": "https://example.org/mt/{lang}.csv", "languages": ["es"]},
    },
}


def configured(**sections) -> dict:
    config = copy.deepcopy(BASE)
    config.update(copy.deepcopy(sections))
    return validate_config(config)


def test_without_the_sections_nothing_is_planned():
    config = configured()
    assert mbe.table3_targets(config) == []
    assert mbe.figure2_targets(config) == []
    assert mbe.translations_targets(config) == []
    # rule all's list: Tables 1 and 2 only (the corpora are configured)
    assert mbe.targets(config) == mbe.tables12_targets(config) != []
    assert mbe.translation_measures(config) == [] and mbe.translated_results(config) == []
    # Table 3's word lists: the mining's
    assert mbe.table3_wordlists(config) == config["wordlists"]
    # its settings: the schema's defaults
    section = mbe.table3_section(config)
    assert section["original"] == "eq3" and section["lang"] == "en"
    assert section["models"] == [] and section["bias_controlled"] is False


def test_table3_targets_inputs_and_word_lists():
    lists = {"female": ["she"], "male": ["he"]}
    config = configured(mbe_table3={"datasets": ["pairs"], "models": ["m"], "wordlists": lists})
    assert mbe.table3_targets(config) == [
        "results/tables/mbe_table3.csv",
        "results/tables/mbe_table3_models.csv",
    ]
    assert mbe.table3_wordlists(config) == lists
    assert mbe.table3_section(config)["original"] == "eq3"
    male = configured(mbe_table3={"datasets": ["pairs"], "original": "male"})
    assert mbe.table3_section(male)["original"] == "male"
    assert mbe.pairs_inputs(config, "m", "pairs", "en") == {
        "data": "data/raw/pairs/pairs/en/pairs_en.csv",
        "unmasked": "results/score/pairs/m/pairs/original/en.unmasked.parquet",
        "measures": "results/pairs/measures/m/pairs/original/en.csv",
        "per_pair": "results/pairs/per_pair/m/pairs/original/en.csv",
    }


def test_figure2_targets_with_the_section():
    config = configured(mbe_figure2={})
    assert mbe.figure2_targets(config) == [
        "results/figures/mbe_figure2.png",
        "results/tables/mbe_figure2.csv",
    ]


TRANSLATIONS = {"es": {"models": ["m", "n"], "ht": "pairs", "english": "pairs", "mt": "mt"}}


def test_translations_measures_results_and_inputs():
    config = configured(mbe_translations=TRANSLATIONS)
    assert mbe.translations_targets(config) == ["results/tables/mbe_translations.csv"]
    # HT then MT, each for every model
    assert mbe.translation_measures(config) == [
        "results/pairs/measures/m/pairs/original/es.csv",
        "results/pairs/measures/n/pairs/original/es.csv",
        "results/pairs/measures/m/mt/original/es.csv",
        "results/pairs/measures/n/mt/original/es.csv",
    ]
    assert mbe.translated_results(config) == [
        "results/mbe/translated/m/pairs/es.json",
        "results/mbe/translated/n/pairs/es.json",
    ]
    assert mbe.translated_english(config, "es", "pairs") == "pairs"
    assert mbe.translated_inputs(config, "m", "pairs", "es") == {
        "data": "data/raw/pairs/pairs/es/pairs_es.csv",
        "english": "data/raw/pairs/pairs/en/pairs_en.csv",
        "unmasked": "results/score/pairs/m/pairs/original/es.unmasked.parquet",
    }
    assert mbe.native_names_ht(config, "es") == "data/raw/pairs/pairs/es/pairs_es.csv"


def test_a_dataset_without_english_originals_or_a_language_without_an_entry_is_an_error():
    config = configured(mbe_translations=TRANSLATIONS)
    with pytest.raises(ValueError, match="no entry for 'es' names 'mt'"):
        mbe.translated_english(config, "es", "mt")
    with pytest.raises(ValueError, match="no entry for 'de'"):
        mbe.native_names_ht(config, "de")
