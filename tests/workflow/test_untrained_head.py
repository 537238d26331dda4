"""A configured model without a trained MLM head: its scoring job fails, unless allowed.

The model is a BERT encoder saved without its MLM head (fixture
``encoder_only_dir``); the workflow is asked
for one pair cache only (download_pairs and score_pairs run), first as
configured by default, then with the model's ``allow_untrained_head: true``.
"""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
import yaml
from snakerun import checked, copy_workflow, snakemake

pytestmark = pytest.mark.workflow

TARGET = "results/score/pairs/headless/toy/original/en.unmasked.parquet"
LOG = "logs/score_pairs/headless/toy/original/en.log"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, encoder_only_dir):
    workdir = copy_workflow(tmp_path_factory.mktemp("headless") / "run")
    shutil.copytree(encoder_only_dir, workdir / "models" / "encoder-only")
    (workdir / "data" / "toy").mkdir(parents=True)
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "he is"],
            "sent_less": ["she is a doctor", "she is"],
            "stereo_antistereo": ["stereo", "antistereo"],
            "bias_type": ["gender", "gender"],
        }
    ).to_csv(workdir / "data" / "toy" / "crows_en.csv", index=False)
    return workdir


def write_config(workdir, **model_keys) -> str:
    config = yaml.safe_load((workdir / "tests" / "configs" / "tiny.yaml").read_text())
    config["models"] = {"headless": {"source": "models/encoder-only", "mbe": False, **model_keys}}
    config["pair_datasets"] = {"toy": {"url": "file://data/toy/crows_{lang}.csv"}}
    config["pair_tables"] = {}
    name = "config/headless.yaml"
    (workdir / name).write_text(yaml.safe_dump(config))
    return name


def test_headless_model_job_fails_naming_the_weights_unless_allowed(workdir):
    failed = snakemake(workdir, TARGET, config=write_config(workdir))
    assert failed.returncode != 0
    assert not (workdir / TARGET).exists()
    log = (workdir / LOG).read_text()
    assert "UntrainedHeadError: models/encoder-only: 6 weight(s) of BertForMaskedLM" in log
    assert "cls.predictions.transform.dense.weight" in log
    assert "allow_untrained_head: true" in log

    checked(snakemake(workdir, TARGET, config=write_config(workdir, allow_untrained_head=True)))
    assert (workdir / TARGET).is_file()
    warnings = [line for line in (workdir / LOG).read_text().splitlines() if " WARNING " in line]
    assert any(
        "mgbias.mlm.load: models/encoder-only: 6 weight(s)" in line
        and "EVERY SCORE OF THIS MODEL IS NOISE" in line
        for line in warnings
    ), warnings
