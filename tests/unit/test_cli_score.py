"""`mgbias score`: every pair measure of a saved model on a CrowS-Pairs CSV, by hand.

The model is the fixed-weight BERT of test_aula_fixed_model (every weight 0,
MLM-head bias = chosen log-probabilities), saved in Hugging Face format. Its
predictions ignore context, so masking changes nothing and:
  AUL, AULA: "he ..." beats "she ..." (p(he) = .3 > p(she) = .2)  -> 100 %
  SSS: the modified token he vs she                              -> 100 %
  CPS: the shared tokens score the same on both sides: all ties   -> 0 % (ties are not wins)
  S_JSD: equal distances on both sides                           -> 0.0; binarized: ties -> 0 %
"""

from __future__ import annotations

import pandas as pd
import pytest
import torch
from transformers import BertConfig, BertForMaskedLM

from mgbias.cli import main
from mgbias.mlm.train import build_bert_tokenizer

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "she", "he", "is", "a", "doctor"]
PROBABILITIES = [0.05, 0.05, 0.05, 0.05, 0.05, 0.2, 0.3, 0.1, 0.1, 0.05]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fixed-bert")
    model = BertForMaskedLM(
        BertConfig(
            vocab_size=len(VOCAB),
            hidden_size=4,
            num_hidden_layers=1,
            num_attention_heads=1,
            intermediate_size=8,
            max_position_embeddings=16,
        )
    )
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.zero_()
        model.cls.predictions.bias.copy_(torch.log(torch.tensor(PROBABILITIES)))
    model.save_pretrained(directory)
    build_bert_tokenizer(VOCAB, model_max_length=16).save_pretrained(directory)
    return directory


@pytest.fixture()
def crows_csv(tmp_path):
    path = tmp_path / "crows.csv"
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "he is", "he is a doctor"],
            "sent_less": ["she is a doctor", "she is", "she is"],
            "stereo_antistereo": ["stereo", "antistereo", "stereo"],
            "bias_type": ["gender", "gender", "race-color"],
        }
    ).to_csv(path, index=False)
    return path


def test_score_by_hand(model_dir, crows_csv, tmp_path, capsys):
    out = tmp_path / "scores.csv"
    code = main(
        [
            "score",
            "--model",
            str(model_dir),
            "--data",
            str(crows_csv),
            "--output",
            str(out),
            "--device",
            "cpu",
        ]
    )
    assert code == 0
    table = pd.read_csv(out)
    assert list(table.columns) == ["measure", "score", "se", "n"]
    scores = dict(zip(table.measure, table.score, strict=True))
    assert scores == pytest.approx(
        {"aul": 100.0, "aula": 100.0, "cps": 0.0, "sss": 100.0, "sjsd": 0.0, "bsjsd": 0.0},
        abs=1e-9,
    )
    assert (table.n == 2).all()  # the race-color row is filtered out (--bias-type gender)
    assert "cps" in capsys.readouterr().out


def test_score_rejects_unknown_measure(model_dir, crows_csv, capsys):
    assert (
        main(
            ["score", "--model", str(model_dir), "--data", str(crows_csv), "--measures", "aula,xyz"]
        )
        == 2
    )
    assert "unknown measure(s) ['xyz']" in capsys.readouterr().err


def test_score_missing_data_file_is_named(model_dir, tmp_path, capsys):
    missing = tmp_path / "nope.csv"
    assert main(["score", "--model", str(model_dir), "--data", str(missing)]) == 2
    assert "nope.csv: no such pair dataset file" in capsys.readouterr().err
