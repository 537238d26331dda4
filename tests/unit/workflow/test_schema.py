"""The schema's defaults, read by the planners from one place (mgbias.workflow.schema):
a configuration that was not validated plans as the validated one does."""

from __future__ import annotations

import copy

import pytest

from mgbias.config import validate_config
from mgbias.workflow.core import (
    allows_untrained_head,
    kaneko2023_grid,
    mbe_table3_jobs,
    pair_variants,
)
from mgbias.workflow.schema import filled_entry, filled_section, load_schema, section_defaults


def test_an_entry_reads_the_schemas_defaults_under_its_own_keys():
    models = load_schema()["properties"]["models"]["additionalProperties"]["properties"]
    filled = filled_entry({"source": "m", "mbe": False}, "models")
    assert filled["mbe"] is False  # its own value wins
    assert filled["pairs"] is models["pairs"]["default"] is True
    assert filled["allow_untrained_head"] is False and filled["structural_baseline"] is False
    assert "revision" not in filled  # no default: absent as before
    assert filled_entry({"url": "u"}, "pair_datasets")["perturb"] is False


def test_a_section_reads_the_schemas_defaults_and_a_copy_of_them():
    filled = filled_section({"kaneko2023": {"repeats": 3}}, "kaneko2023")
    assert filled["repeats"] == 3
    assert filled["ratios"] == [0.0, 0.25, 0.5, 0.75, 1.0]
    filled["ratios"].append(2.0)  # the caller's own copy
    assert section_defaults("kaneko2023")["ratios"] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert filled_section({}, "mbe_table3")["lang"] == "en"


@pytest.fixture
def raw_config():
    return {
        "languages": ["de"],
        "worlds": ["real"],
        "models": {"m": {"source": "some/model"}},
        "corpora": {"TED2020": {"url": "https://example.org/{pair}.txt.zip"}},
        "pair_datasets": {"cp": {"url": "https://example.org/{lang}.csv", "languages": ["en"]}},
        "kaneko2023": {
            "sources": {"news": {"url": "https://example.org/{lang}.gz"}},
            "base_models": ["m"],
            "languages": ["de"],
            "wordlists": {
                "de": {"female": ["kaneko2023_de_female"], "male": ["kaneko2023_de_male"]}
            },
            "pair_dataset": "cp",
        },
        "mbe_table3": {"datasets": ["cp"], "models": ["m"]},
    }


def test_planners_given_a_raw_configuration_plan_as_after_validation(raw_config):
    validated = validate_config(copy.deepcopy(raw_config))
    for config in (raw_config, validated):
        assert [job["r"] for job in kaneko2023_grid(config)] == [0.0, 0.25, 0.5, 0.75, 1.0]
        assert pair_variants(config, "cp") == ["original"]
        assert not allows_untrained_head(config, "m")
        assert mbe_table3_jobs(config) == [{"model": "m", "dataset": "cp", "lang": "en"}]
    assert kaneko2023_grid(raw_config) == kaneko2023_grid(validated)


def test_the_bios_grid_reads_the_schemas_defaults_raw_or_validated():
    from mgbias.workflow import bios

    section = {
        "languages": ["en", "es"],
        "snapshots": ["CC-MAIN-2018-34"],
        "classifier": {
            "monolingual": {"en": ["en"]},
            "transfer": {"runs": [["en", "es", "en", "es"]]},
        },
    }
    raw = {"seed": 7, "worlds": ["real"], "bios": section}
    validated = {"seed": 7, "worlds": ["real"], "bios": filled_section(raw, "bios")}
    validated["bios"]["classifier"] = {
        **section_defaults("bios.classifier"),
        **section["classifier"],
    }
    for config in (raw, validated):
        assert bios.classifier_variants(config) == [("scrubbed", "original")]
        assert bios.classifier_experiments(config) == [("real", "en", "en", "scrubbed", "original")]
        assert len(bios.classifier_seeds(config, "real", "en")) == 1  # runs: 1
        assert [run[-2:] for run in bios.transfer_experiments(config)] == [("scrubbed", "original")]
        assert bios.transfer_settings(config)["labels_by_language"] == {}
    without = {"seed": 7, "worlds": ["real"], "bios": {**section, "classifier": {}}}
    assert bios.classifier_experiments(without) == [] and bios.transfer_experiments(without) == []


def test_a_repeat_is_seeded_from_the_fine_tunings_own_default_seed():
    from mgbias.finetune.train import FineTuneConfig
    from mgbias.workflow.kaneko2023 import repeat_settings

    unseeded = {"kaneko2023": {"finetune": {"epochs": 1}}}
    assert repeat_settings(unseeded, 0) == {"epochs": 1}  # repeat 0 as configured
    assert repeat_settings(unseeded, 2)["seed"] == FineTuneConfig().seed + 2
    seeded = {"kaneko2023": {"finetune": {"seed": 5}}}
    assert repeat_settings(seeded, 1)["seed"] == 6
    assert repeat_settings({}, 1) == {"seed": FineTuneConfig().seed + 1}


def test_a_keys_stated_default_is_the_one_validation_fills_in():
    from mgbias.workflow.schema import key_default

    for key in (
        "mbe.permutations",
        "scoring.batch_size",
        "basta2020.probes.knn_k",
        "zhao2020.bli.k",
    ):
        section, _, name = key.rpartition(".")
        assert key_default(key) == section_defaults(section)[name], key
    with pytest.raises(KeyError, match="no default for 'kaneko2023.sources'"):
        key_default("kaneko2023.sources")  # required: no default
    with pytest.raises(KeyError, match="'mbe.nope'"):
        key_default("mbe.nope")
