"""A configured model without a trained MLM head: its scoring job fails, unless allowed.

The model is a BERT encoder saved without its MLM head; the workflow is asked
for one pair cache only (download_pairs and score_pairs run), first as
configured by default, then with the model's ``allow_untrained_head: true``.
"""

from __future__ import annotations

import pandas as pd
import pytest
import yaml
from snakerun import checked, copy_workflow, snakemake
from transformers import BertConfig, BertModel

from mgbias.mlm.wordpiece import build_bert_tokenizer

pytestmark = pytest.mark.workflow

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "she", "he", "is", "a", "doctor"]
TARGET = "results/score/pairs/headless/toy/original/en.unmasked.parquet"
LOG = "logs/score_pairs/headless/toy/original/en.log"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    workdir = copy_workflow(tmp_path_factory.mktemp("headless") / "run")
    model = workdir / "models" / "encoder-only"
    BertModel(
        BertConfig(
            vocab_size=len(VOCAB),
            hidden_size=8,
            num_hidden_layers=1,
            num_attention_heads=1,
            intermediate_size=16,
            max_position_embeddings=16,
        )
    ).save_pretrained(model)
    build_bert_tokenizer(VOCAB, model_max_length=16).save_pretrained(model)
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
    config = yaml.safe_load((workdir / "config" / "tiny.yaml").read_text())
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
