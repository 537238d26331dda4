"""`mgbias score`: every pair measure of a saved model on a CrowS-Pairs CSV, by hand.

The model is the fixed-weight BERT of tests/fixtures/tiny_models.py (every
weight 0, MLM-head bias = chosen log-probabilities), saved in Hugging Face
format (fixture ``fixed_bert_dir``). Its predictions ignore context, so
masking changes nothing and:
  AUL, AULA: "he ..." beats "she ..." (p(he) = .3 > p(she) = .2)  -> 100 %
  SSS: the modified token he vs she                              -> 100 %
  CPS: the shared tokens score the same on both sides: all ties   -> 0 % (ties are not wins)
  S_JSD: equal distances on both sides                           -> 0.0; binarized: ties -> 0 %
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import pandas as pd
import pytest
import torch
import yaml

from mgbias.cli.main import main

REPO = Path(__file__).resolve().parents[3]


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


def test_score_by_hand(fixed_bert_dir, crows_csv, tmp_path, capsys):
    out = tmp_path / "scores.csv"
    code = main(
        [
            "score",
            "--model",
            str(fixed_bert_dir),
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
    assert list(table.columns) == [
        "bias_type",
        "measure",
        "score",
        "se",
        "p_value",
        "significant",
        "n",
        "n_edge",
        "n_ties",
        "n_clusters",
        "matched_score",
        "matched_se",
        "matched_p_value",
        "matched_n",
        "n_unequal",
        "length_share",
        "length_p_value",
        "length_lean",
        "verdict",
    ]
    assert set(table.bias_type) == {"gender"}
    scores = dict(zip(table.measure, table.score, strict=True))
    assert scores == pytest.approx(
        {"aul": 100.0, "aula": 100.0, "cps": 0.0, "sss": 100.0, "sjsd": 0.0, "bsjsd": 0.0},
        abs=1e-9,
    )
    assert (table.n == 2).all()  # the race-color row is filtered out (--bias-type gender)
    assert "cps" in capsys.readouterr().out


def test_score_refuses_a_model_without_mlm_head(encoder_only_dir, crows_csv, capsys, caplog):
    command = [
        "score",
        "--model",
        str(encoder_only_dir),
        "--data",
        str(crows_csv),
        "--device",
        "cpu",
    ]
    assert main(command) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (error,) = [line for line in captured.err.splitlines() if line.startswith("mgbias:")]
    assert error.startswith(
        f"mgbias: {encoder_only_dir}: 6 weight(s) of BertForMaskedLM are not in the checkpoint"
    )
    assert "cls.predictions.transform.dense.weight" in error
    assert "pass --allow-untrained-head" in error
    assert "Traceback" not in captured.err

    caplog.clear()  # only the second run's records (a run before may have logged)
    with caplog.at_level(logging.WARNING, logger="mgbias"):
        assert main([*command, "--allow-untrained-head"]) == 0
    assert "| sjsd" in capsys.readouterr().out
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "mgbias.mlm.load"]
    assert "EVERY SCORE OF THIS MODEL IS NOISE" in warning


def test_score_names_a_model_that_cannot_be_loaded(crows_csv, tmp_path, capsys):
    missing = tmp_path / "no-such-model"
    assert main(["score", "--model", str(missing), "--data", str(crows_csv)]) == 2
    err = capsys.readouterr().err
    assert f"mgbias: '{missing}' is not a local directory (no such path)" in err
    assert "Traceback" not in err


def test_score_rejects_unknown_measure(fixed_bert_dir, crows_csv, capsys):
    assert (
        main(
            [
                "score",
                "--model",
                str(fixed_bert_dir),
                "--data",
                str(crows_csv),
                "--measures",
                "aula,xyz",
            ]
        )
        == 2
    )
    assert "unknown measure(s) ['xyz']" in capsys.readouterr().err


def test_score_missing_data_file_is_named(fixed_bert_dir, tmp_path, capsys):
    missing = tmp_path / "nope.csv"
    assert main(["score", "--model", str(fixed_bert_dir), "--data", str(missing)]) == 2
    assert "nope.csv: no such file" in capsys.readouterr().err


@pytest.fixture()
def served_config(crows_csv, tmp_path):
    """A configuration naming a CrowS-Pairs file served over HTTP on 127.0.0.1."""
    import shutil

    from httpmirror import Misbehaviour, serve_directory

    served = tmp_path / "served"
    served.mkdir()
    shutil.copy(crows_csv, served / "crows_en.csv")
    config = yaml.safe_load((REPO / "tests" / "configs" / "tiny.yaml").read_text())
    misbehaviour = Misbehaviour()
    with serve_directory(served, misbehaviour=misbehaviour) as base_url:
        config["pair_datasets"] = {"toy_pairs": {"url": f"{base_url}/crows_{{lang}}.csv"}}
        config["pair_tables"] = {}
        conf_dir = tmp_path / "conf"
        conf_dir.mkdir()
        (conf_dir / "my.yaml").write_text(yaml.safe_dump(config))
        yield conf_dir / "my.yaml", misbehaviour


def test_score_a_named_dataset_downloads_it_once_and_scores_it_like_the_file(
    fixed_bert_dir, crows_csv, served_config, tmp_path
):
    config_path, misbehaviour = served_config
    cache = tmp_path / "cache"
    named = ["score", "--model", str(fixed_bert_dir), "--data", "toy_pairs", "--lang", "en"]
    named += ["--config", str(config_path), "--cache-dir", str(cache), "--device", "cpu"]
    for attempt in range(2):
        assert main([*named, "--output", str(tmp_path / f"named{attempt}.csv")]) == 0
    assert misbehaviour.requests == ["crows_en.csv"], "the second run must use the cache"
    cached = cache / "data/raw/pairs/toy_pairs/en/crows_en.csv"
    assert cached.read_bytes() == crows_csv.read_bytes()
    assert (cache / "data/raw/pairs/toy_pairs/en/crows_en.csv.sha256").is_file()
    direct = ["score", "--model", str(fixed_bert_dir), "--data", str(crows_csv), "--device", "cpu"]
    assert main([*direct, "--output", str(tmp_path / "direct.csv")]) == 0
    expected = pd.read_csv(tmp_path / "direct.csv")
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "named1.csv"), expected)

    # a cached file that no longer matches its recorded digest is refused
    cached.write_text(cached.read_text() + "tampered\n")
    assert main([*named, "--output", str(tmp_path / "named2.csv")]) == 2


def test_score_named_dataset_errors_name_the_choices(fixed_bert_dir, served_config, capsys):
    config_path, _ = served_config
    base = ["score", "--model", str(fixed_bert_dir), "--config", str(config_path)]
    assert main([*base, "--data", "toy_pairs", "--lang", "ja"]) == 2
    assert "toy_pairs has no language 'ja'" in capsys.readouterr().err
    assert main([*base, "--data", "other"]) == 2
    assert "nor one of the pair datasets of" in (err := capsys.readouterr().err)
    assert "named datasets: ['toy_pairs']" in err


@pytest.fixture()
def edge_csv(tmp_path):
    """Pairs the formulas do not foresee, with the fixed model's numbers:

    0. "he is" / "he is a": sent_more has no modified token (SSS: 0 > log .1);
    1. "he" / "she": no shared token (CPS tie, S_JSD 0);
    2. identical sentences (a tie everywhere);
    3. an ordinary pair (SSS: log .3 > log .2; CPS tie).
    """
    path = tmp_path / "edges.csv"
    pd.DataFrame(
        {
            "id": ["p0", "p1", "p2", "p3"],
            "sent_more": ["he is", "he", "he is a doctor", "he is a doctor"],
            "sent_less": ["he is a", "she", "he is a doctor", "she is a doctor"],
            "stereo_antistereo": ["stereo", "antistereo", "stereo", "stereo"],
            "bias_type": ["gender"] * 4,
        }
    ).to_csv(path, index=False)
    return path


def test_score_edge_pairs_per_pair_and_tie_rules(fixed_bert_dir, edge_csv, tmp_path):
    out, per_pair = tmp_path / "scores.csv", tmp_path / "pairs.csv"
    args = ["score", "--model", str(fixed_bert_dir), "--data", str(edge_csv), "--device", "cpu"]
    assert main([*args, "--output", str(out), "--per-pair", str(per_pair)]) == 0
    table = pd.read_csv(out).set_index("measure")
    assert table.loc["sss", "score"] == pytest.approx(75.0)
    assert table.loc["sss", "n_edge"] == 2 and table.loc["sss", "n"] == 4
    assert table.loc["cps", "score"] == 0.0 and table.loc["cps", "n_edge"] == 2
    assert table.loc["sjsd", "score"] == pytest.approx(0.0, abs=1e-9)
    assert table.loc["aul", "n_edge"] == 1  # the identical pair
    # the fixed model ignores context: every CPS and S_JSD pair ties; SSS ties on the
    # identical pair only (its other edge, no modified token, scores 0 > log .1)
    assert table.loc["cps", "n_ties"] == 4 and table.loc["sjsd", "n_ties"] == 4
    assert table.loc["sss", "n_ties"] == 1 and table.loc["bsjsd", "n_ties"] == 4
    assert table.loc["cps", "verdict"] == (
        "CPS: 4 of 4 pairs tied: the measure could not decide for this model and data"
    )
    # sign test of 3 wins, 0 losses: 2 / 8
    assert table.loc["sss", "p_value"] == pytest.approx(0.25)
    assert not table["significant"].any()

    rows = pd.read_csv(per_pair, keep_default_na=False)
    assert rows["pair_id"].tolist() == ["p0", "p1", "p2", "p3"]
    assert rows["sent_less"].tolist()[0] == "he is a"
    assert rows["sss_more"].tolist() == pytest.approx(
        [0.0, math.log(0.3), 0.0, math.log(0.3)], rel=1e-5
    )
    assert rows["sss_less"].tolist() == pytest.approx(
        [math.log(0.1), math.log(0.2), 0.0, math.log(0.2)], rel=1e-5
    )
    assert rows["n_shared"].tolist() == [2, 0, 4, 3]
    assert rows["no_modified_more"].tolist() == [True, False, True, False]
    assert rows["no_shared"].tolist() == [False, True, False, False]
    assert rows["identical"].tolist() == [False, False, True, False]
    assert rows["stereo_antistereo"].tolist()[1] == "antistereo"

    excluded = tmp_path / "excluded.csv"
    assert main([*args, "--output", str(excluded), "--tie-rule", "exclude"]) == 0
    table = pd.read_csv(excluded).set_index("measure")
    assert table.loc["sss", "score"] == pytest.approx(100.0) and table.loc["sss", "n"] == 2
    # CPS: the edge pairs go, and so do the ordinary pairs' ties
    assert table.loc["cps", "n"] == 0 and math.isnan(table.loc["cps", "score"])
    assert table.loc["sjsd", "n"] == 2


def test_score_rejects_a_bad_alpha(fixed_bert_dir, edge_csv, capsys):
    args = ["score", "--model", str(fixed_bert_dir), "--data", str(edge_csv), "--alpha", "1.5"]
    assert main(args) == 2
    assert "argument --alpha: must lie strictly between 0 and 1, got 1.5" in capsys.readouterr().err


def test_score_with_clusters_tests_the_clusters(fixed_bert_dir, tmp_path, capsys):
    # six pairs "he ..." vs "she ...": the model prefers "he" in AUL, AULA and SSS
    # (p(he) > p(she)), so every pair is a win. As 6 independent pairs the sign test
    # gives 2/64; as 2 clusters of 3 pairs (target words) the sign flips give 2/4.
    data = tmp_path / "clustered.csv"
    pd.DataFrame(
        {
            "sent_more": [f"he is a {word}" for word in ["doctor"] * 3 + ["nurse"] * 3],
            "sent_less": [f"she is a {word}" for word in ["doctor"] * 3 + ["nurse"] * 3],
            "stereo_antistereo": ["stereo"] * 6,
            "bias_type": ["gender"] * 6,
            "target": ["doctor"] * 3 + ["nurse"] * 3,
        }
    ).to_csv(data, index=False)
    common = ["score", "--model", str(fixed_bert_dir), "--data", str(data), "--measures", "aul,sss"]
    common += ["--allow-unk"]  # "nurse" is the fixed BERT's [UNK]: 6 of 48 pieces
    plain, clustered = tmp_path / "plain.csv", tmp_path / "clustered_scores.csv"
    assert main([*common, "--cluster", "none", "--output", str(plain)]) == 0
    assert main([*common, "--cluster", "target", "--output", str(clustered)]) == 0
    plain_table = pd.read_csv(plain).set_index("measure")
    table = pd.read_csv(clustered).set_index("measure")
    assert table["score"].tolist() == plain_table["score"].tolist() == [100.0, 100.0]
    assert plain_table["p_value"].tolist() == pytest.approx([2 / 64, 2 / 64])
    assert plain_table["n_clusters"].tolist() == [0, 0]
    assert table["p_value"].tolist() == pytest.approx([0.5, 0.5])
    assert table["n_clusters"].tolist() == [2, 2]
    assert not table["significant"].any()
    assert table.loc["aul", "verdict"] == (
        "AUL 100 (p = 0.5, 6 pairs in 2 clusters): 2 clusters cannot give p below alpha = "
        "0.05 (at best p = 0.5): the test, not the model, decides"
    )
    assert "(p = 0.031, 6 pairs)" in plain_table.loc["aul", "verdict"]
    record = (clustered.parent / (clustered.name + ".provenance.json")).read_text()
    assert '"cluster": "target"' in record
    capsys.readouterr()
    assert main([*common, "--cluster", "occupation"]) == 2
    error = capsys.readouterr().err
    assert "no column 'occupation' to cluster the pairs by" in error and "target" in error
    # the default (auto): the target words, as they repeat; the pairs where none repeats
    auto = tmp_path / "auto.csv"
    assert main([*common, "--output", str(auto)]) == 0
    assert pd.read_csv(auto)[["p_value", "n_clusters"]].equals(
        table[["p_value", "n_clusters"]].reset_index(drop=True)
    )
    record = (auto.parent / (auto.name + ".provenance.json")).read_text()
    assert '"cluster": "target"' in record
    distinct = pd.read_csv(data)
    distinct["target"] = [f"t{i}" for i in range(6)]
    distinct.to_csv(data, index=False)
    assert main([*common, "--output", str(auto)]) == 0
    assert pd.read_csv(auto)["n_clusters"].tolist() == [0, 0]
    assert pd.read_csv(auto)["p_value"].tolist() == pytest.approx([2 / 64, 2 / 64])


def test_precision_fp32_writes_the_bytes_of_no_precision(fixed_bert_dir, crows_csv, tmp_path):
    written = {}
    for name, extra in (("default", []), ("fp32", ["--precision", "fp32"])):
        out, per_pair = tmp_path / f"{name}.csv", tmp_path / f"{name}-pairs.csv"
        command = ["score", "--model", str(fixed_bert_dir), "--data", str(crows_csv),
                   "--device", "cpu", "--output", str(out),
                   "--per-pair", str(per_pair)]  # fmt: skip
        assert main([*command, *extra]) == 0
        written[name] = (out.read_bytes(), per_pair.read_bytes())
    assert written["default"] == written["fp32"]


@pytest.mark.parametrize("command", ["score", "mbe", "tbs", "probe"])
def test_precision_fp16_on_the_cpu_is_refused_before_the_model_loads(
    command, crows_csv, tmp_path, capsys
):
    text, female = tmp_path / "text.txt", tmp_path / "female.txt"
    text.write_text("he is here .\n", encoding="utf-8")
    female.write_text("she is here .\n", encoding="utf-8")
    inputs = {
        "score": ["--data", str(crows_csv)],
        "mbe": ["--male", str(text), "--female", str(female)],
        "tbs": [],
        "probe": ["--text", str(text)],
    }[command]
    missing = tmp_path / "no-such-model"  # loading it would fail with another message
    argv = [command, "--model", str(missing), *inputs, "--device", "cpu", "--precision", "fp16"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "mgbias: --precision fp16 needs a CUDA device; use bf16 or fp32" in err
    assert "Traceback" not in err and "not an existing directory" not in err


@pytest.mark.skipif(torch.cuda.is_available(), reason="with CUDA, auto runs fp16 there")
def test_precision_fp16_with_device_auto_without_cuda_is_refused_before_loading(
    crows_csv, tmp_path, capsys
):
    argv = ["score", "--model", str(tmp_path / "no-such-model"), "--data", str(crows_csv),
            "--precision", "fp16"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "mgbias: precision fp16 needs a CUDA device, but the model runs on cpu" in err


def test_bf16_scores_and_records_its_precision(fixed_bert_dir, crows_csv, tmp_path):
    """The fixed BERT's predictions are its head's bias alone, which bf16 rounds: the
    verdicts stay those of test_score_by_hand."""
    out = tmp_path / "scores.csv"
    argv = ["score", "--model", str(fixed_bert_dir), "--data", str(crows_csv),
            "--device", "cpu", "--precision", "bf16", "--output", str(out)]  # fmt: skip
    assert main(argv) == 0
    scores = dict(zip(*[pd.read_csv(out)[column] for column in ("measure", "score")], strict=True))
    assert scores == pytest.approx(
        {"aul": 100.0, "aula": 100.0, "cps": 0.0, "sss": 100.0, "sjsd": 0.0, "bsjsd": 0.0},
        abs=1e-9,
    )
    record = json.loads((tmp_path / "scores.csv.provenance.json").read_text(encoding="utf-8"))
    assert record["precision"] == "bf16"
