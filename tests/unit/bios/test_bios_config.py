"""The ``bios`` section of the configuration: schema and checks."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mgbias.config import ConfigError, schema_path, validate_config

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def demo() -> dict:
    return yaml.safe_load((REPO / "config/demo-full.yaml").read_text(encoding="utf-8"))


def with_bios(config: dict, **changes) -> dict:
    config = copy.deepcopy(config)
    config["bios"].update(changes)
    return config


def test_demo_and_paper_sections_fill_defaults(demo):
    bios = validate_config(copy.deepcopy(demo), schema_path())["bios"]
    assert bios["max_files"] is None and bios["occupation_cap"] is None
    assert bios["french_conjunction_fix"] is False and bios["retries"] == 2
    paper = yaml.safe_load((REPO / "config/paper.yaml").read_text(encoding="utf-8"))
    assert len(validate_config(paper, schema_path())["bios"]["snapshots"]) == 16
    # the classifier grids: Tables 6/14 (4 languages x 5 spaces) and 10 (M-BERT in each),
    # 7-9/15-18 (30 runs) and 11 (EN -> ES, DE, FR on M-BERT)
    classifier = paper["bios"]["classifier"]
    # fp32, the authors' precision, stated where the paper's numbers are reproduced
    assert classifier["encoder"] == {"model": "mbert", "labels": "transfer", "precision": "fp32"}
    from mgbias.bios.encoder import PAPER_ENCODER

    assert paper["models"]["mbert"]["source"] == PAPER_ENCODER == "bert-base-multilingual-cased"
    assert sum(len(spaces) for spaces in classifier["monolingual"].values()) == 24
    assert all(spaces[-1] == "mbert" for spaces in classifier["monolingual"].values())
    runs = classifier["transfer"]["runs"]
    assert len(runs) == 33
    assert [r for r in runs if "mbert" in r] == [
        ["en", tgt, "mbert", "mbert"] for tgt in ("es", "de", "fr")
    ]
    assert classifier["transfer"]["share"] == 0.2 and classifier["transfer"]["full"] == ["de"]
    # the authors' French runs: the eight shared occupations without professor
    from mgbias.bios.experiment import FRENCH_TRANSFER_LABELS

    french = classifier["transfer"]["labels_by_language"]
    assert french == {"fr": list(FRENCH_TRANSFER_LABELS)}
    # the demo's encoder is its balanced-world MLM, cut to its 32 positions
    encoder = demo["bios"]["classifier"]["encoder"]
    assert encoder["model"] in demo["models"] and encoder["max_len"] == 32


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"snapshots": ["CC-MAIN-18-34"]}, "CC-MAIN"),
        ({"languages": ["it"]}, "it"),
        ({"wet_files_per_job": 0}, "wet_files_per_job"),
        ({"max_files": -1}, "max_files"),
        ({"names": None}, "blank NER pipeline"),
        ({"url": "https://data.commoncrawl.org"}, "not the demo mirror"),
        ({"url": "ftp://data.commoncrawl.org"}, "crawl root"),  # a local path is file://
        ({"spacy": {"it": "blank"}}, "it"),
        ({"demo_scale": 0}, "demo_scale"),
        ({"demo_ambiguous": 1.5}, "demo_ambiguous"),
        ({"classifier": {"epochs": 3}}, "epochs"),
        ({"classifier": {"variants": ["scrubbed-skewed"]}}, "scrubbed-skewed"),
        ({"classifier": {"monolingual": {"it": ["it"]}}}, "it"),
        ({"classifier": {"transfer": {"runs": [["en", "es", "en"]]}}}, "runs"),
        ({"classifier": {"transfer": {"share": 0}}}, "share"),
        ({"classifier": {"encoder": {"name": "mbert"}}}, "model"),
        ({"classifier": {"encoder": {"model": "mbert"}}}, "'mbert' is not a key of models"),
        (
            {
                "classifier": {
                    "encoder": {"model": "demo-balanced"},
                    "transfer": {"runs": [["en", "es", "en", "demo-balanced"]]},
                }
            },
            "mixes the encoder 'demo-balanced' with a static space",
        ),
        ({"classifier": {"encoder": {"model": "mbert", "layer": 2}}}, "layer"),
        ({"classifier": {"transfer": {"labels_by_language": {"it": ["poet"]}}}}, "it"),
    ],
)
def test_bad_sections_are_rejected_with_the_key(demo, changes, message):
    with pytest.raises(ConfigError, match=message):
        validate_config(with_bios(demo, **changes), schema_path())
