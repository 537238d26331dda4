"""The structural baseline: a randomly initialised copy of a masked LM, scored like it.

``random_copy`` (mgbias.mlm.baseline) is seeded and pure; ``score_pairs(...,
structural_baseline=...)`` scores the same pairs with the copy, and its rows are those of
scoring the copy directly; ``mgbias score --structural-baseline`` prints them beside the
model's and writes both to ``--output``; the workflow plans ``<model>~random`` jobs where
a model asks for its baseline.
"""

from __future__ import annotations

import pandas as pd
import pytest
import torch

import mgbias
from mgbias.cli.main import main
from mgbias.mlm.baseline import random_copy


def _weights(model) -> dict[str, bytes]:
    return {name: t.detach().cpu().numpy().tobytes() for name, t in model.state_dict().items()}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A seeded tiny BERT with eager attention, saved, and loaded as mgbias loads it."""
    from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer

    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer), attn_implementation="eager", seed=5)
    directory = save_pretrained(model, tokenizer, tmp_path_factory.mktemp("tiny-bert"))
    return directory, mgbias.load_model(directory, device="cpu")


@pytest.fixture()
def pairs_csv(tmp_path):
    path = tmp_path / "pairs.csv"
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "the man works here", "he is a nurse", "he is"],
            "sent_less": ["she is a doctor", "the woman works here", "she is a nurse", "she"],
            "stereo_antistereo": ["stereo", "stereo", "antistereo", "stereo"],
            "bias_type": ["gender", "gender", "gender", "age"],
        }
    ).to_csv(path, index=False)
    return path


def test_random_copy_is_seeded_new_and_changes_nothing_else(tiny):
    _, handle = tiny
    before, state = _weights(handle.model), torch.random.get_rng_state()
    first, again, other = (random_copy(handle.model, s) for s in (1, 1, 2))
    assert _weights(first) == _weights(again)  # same seed: the same bytes
    assert _weights(first).keys() == before.keys()
    changed = [name for name in before if _weights(first)[name] != before[name]]
    assert "bert.encoder.layer.0.attention.self.query.weight" in changed
    assert "cls.predictions.transform.dense.weight" in changed
    assert _weights(other) != _weights(first)
    # neither the model nor torch's global random state moved
    assert _weights(handle.model) == before
    assert torch.equal(torch.random.get_rng_state(), state)
    assert not first.training and type(first) is type(handle.model)
    assert first.config.to_dict() == handle.model.config.to_dict()
    assert first.config._attn_implementation == "eager"  # AULA reads attention weights
    assert next(first.parameters()).dtype == torch.float32
    with pytest.raises(ValueError, match="structural baseline seed must be a non-negative"):
        random_copy(handle.model, -1)


def test_random_copy_keeps_the_dtype(tiny):
    _, handle = tiny
    half = random_copy(handle.model, 0).to(torch.bfloat16)
    assert next(random_copy(half, 0).parameters()).dtype == torch.bfloat16


def test_score_pairs_baseline_equals_scoring_the_random_copy(tiny, pairs_csv):
    _, handle = tiny
    report = mgbias.score_pairs(handle, pairs_csv, seed=3, structural_baseline=7, bias_type="all")
    copy = mgbias.MaskedLM(
        model=random_copy(handle.model, 7), tokenizer=handle.tokenizer, name="copy"
    )
    direct = mgbias.score_pairs(copy, pairs_csv, seed=3, bias_type="all")
    baseline = report.baseline
    assert report.baseline_seed == 7 and baseline.seed == 3
    assert baseline.model == f"{handle.name}~random" and baseline.data == str(pairs_csv)
    pd.testing.assert_frame_equal(
        baseline.summary.drop(columns="verdict"), direct.summary.drop(columns="verdict")
    )
    # the same words, of the random copy: "the random copy prefers ...", never the model
    said = direct.summary.verdict.str.replace("the model", "the random copy")
    said = said.str.replace("this model", "this random copy")
    assert baseline.summary.verdict.tolist() == said.tolist()
    pd.testing.assert_frame_equal(baseline.per_pair, direct.per_pair)
    # the model's tokenizer: the same tokens shared and modified in every pair
    counts = ["n_shared", "n_modified_more", "n_modified_less"]
    pd.testing.assert_frame_equal(baseline.per_pair[counts], report.per_pair[counts])
    # the copy is another model: its sentence scores are not the model's
    assert not baseline.per_pair["aul_more"].equals(report.per_pair["aul_more"])
    # True: the weights' seed is the bootstrap's
    same = mgbias.score_pairs(handle, pairs_csv, seed=7, structural_baseline=True)
    assert same.baseline_seed == 7
    gender = direct.summary[direct.summary.bias_type == "gender"].reset_index(drop=True)
    pd.testing.assert_frame_equal(
        same.baseline.summary.drop(columns=["se", "matched_se", "verdict"]),
        gender.drop(columns=["se", "matched_se", "verdict"]),
    )
    assert mgbias.score_pairs(handle, pairs_csv).baseline is None


def test_report_prints_the_baseline_beside_each_score(tiny, pairs_csv):
    _, handle = tiny
    report = mgbias.score_pairs(handle, pairs_csv, measures="aula,sss", structural_baseline=4)
    lines = str(report).splitlines()
    own, random = report.summary.iloc[1], report.baseline.summary.iloc[1]
    assert lines[-1] == (
        f"structural baseline (random copy, seed 4): SSS {random.score:.4g} "
        f"(p = {random.p_value:.2g}; the model: {own.score:.4g}, p = {own.p_value:.2g}): "
        "what the measure gives with no learned knowledge"
    )
    assert lines[-2].startswith("structural baseline (random copy, seed 4): AULA ")
    assert lines[-3] == "" and lines[-4] == report.summary.verdict.iloc[1]
    every = mgbias.score_pairs(
        handle, pairs_csv, measures="sss", structural_baseline=4, bias_type="all"
    )
    assert [line.split(":")[0] for line in str(every).splitlines()[-3:]] == [
        "gender",
        "age",
        "all",
    ]


@pytest.mark.parametrize("value", [-1, 1.5, "yes", None])
def test_a_bad_baseline_seed_is_refused_before_the_model_loads(pairs_csv, value):
    with pytest.raises(ValueError, match="structural_baseline must be a non-negative integer"):
        mgbias.score_pairs("no/such-model", pairs_csv, structural_baseline=value)


def test_cli_prints_the_baseline_and_writes_both_runs(tiny, pairs_csv, tmp_path, capsys):
    directory, handle = tiny
    out = tmp_path / "scores.csv"
    args = ["score", "--model", str(directory), "--data", str(pairs_csv), "--device", "cpu"]
    assert main([*args, "--seed", "2", "--structural-baseline", "--output", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    baseline = [line for line in printed if line.startswith("structural baseline")]
    assert len(baseline) == 6 and baseline[3].startswith(
        "structural baseline (random copy, seed 2): SSS "
    )
    table = pd.read_csv(out)
    assert list(table.columns[:3]) == ["run", "bias_type", "measure"]
    assert table.run.tolist() == ["model"] * 6 + ["structural_baseline"] * 6
    api = mgbias.score_pairs(handle, pairs_csv, seed=2, structural_baseline=True)
    written = table[table.run == "structural_baseline"].drop(columns="run")
    assert written.score.tolist() == pytest.approx(api.baseline.summary.score.tolist())
    assert written.p_value.tolist() == pytest.approx(api.baseline.summary.p_value.tolist())
    # without the option: the model's rows only, no run column
    assert main([*args, "--output", str(out)]) == 0
    assert "structural baseline" not in capsys.readouterr().out
    assert "run" not in pd.read_csv(out).columns


def test_planner_adds_a_baseline_model_where_asked():
    from mgbias.workflow.core import model_entries, model_input, pair_jobs, structural_baselines

    config = {
        "seed": 11,
        "languages": ["de"],
        "models": {
            "hub": {"source": "org/bert", "revision": "v1", "structural_baseline": True},
            "own": {"train": {"world": "planted"}, "structural_baseline": True},
            "plain": {"source": "org/other"},
        },
        "pair_datasets": {"cp": {"url": "https://x.org/cp.csv", "languages": ["en"]}},
    }
    before = [job["model"] for job in pair_jobs(config)]
    assert before == ["hub", "own", "plain"]  # not yet added: nothing changes
    baselines = structural_baselines(config)
    assert list(baselines) == ["hub~random", "own~random"]
    config["models"].update(baselines)
    assert [job["model"] for job in pair_jobs(config)] == [
        "hub",
        "hub~random",
        "own",
        "own~random",
        "plain",
    ]
    hub, own = model_entries(config, ["hub~random", "own~random"])
    assert hub["model_id"] == "org/bert" and hub["revision"] == "v1"
    assert own["model_id"] == "models/own" and model_input(config, "own~random") == ["models/own"]
    assert hub["structural_baseline_seed"] != own["structural_baseline_seed"]
    assert "structural_baseline_seed" not in model_entries(config, ["hub"])[0]
    assert not baselines["hub~random"]["mbe"]  # a baseline of the pair measures only
    # off (the default): no baseline
    config["models"] = {"hub": {"source": "org/bert"}, "plain": {"source": "org/other"}}
    assert structural_baselines(config) == {}


def test_a_listing_dataset_scores_the_baselines_of_the_models_it_lists():
    from mgbias.workflow.core import pair_jobs, structural_baselines

    config = {
        "seed": 0,
        "languages": ["en"],
        "models": {"a": {"structural_baseline": True}, "b": {"structural_baseline": True}},
        "pair_datasets": {"cp": {"url": "https://x.org/cp.csv", "models": ["b"]}},
    }
    config["models"]["a"]["source"] = config["models"]["b"]["source"] = "org/m"
    config["models"].update(structural_baselines(config))
    assert [job["model"] for job in pair_jobs(config)] == ["b", "b~random"]


def test_pair_tables_say_what_a_baseline_row_is():
    from mgbias.measures.measure import PAIR_LENGTH_COLUMNS
    from mgbias.report.pair_tables import measures_by_model_markdown, pair_scores_markdown

    row = {"dataset": "cp", "variant": "original", "lang": "en", "measure": "sss", "se": 1.0}
    row.update({column: float("nan") for column in PAIR_LENGTH_COLUMNS}, length_lean=False)
    row.update(p_value=0.5, n=10, n_edge=0, n_ties=0, n_clusters=0, model_id="hub/m")
    frame = pd.DataFrame(
        [
            {**row, "model": "m", "score": 61.0, "significant": True},
            {**row, "model": "m~random", "score": 46.0, "significant": False},
        ]
    )
    note = "Structural baselines (m~random of m): a randomly initialised copy of the model, same"
    assert note in pair_scores_markdown(frame).splitlines()
    assert note in measures_by_model_markdown(frame).splitlines()
    assert "Structural baselines" not in pair_scores_markdown(frame[frame.model == "m"])


def test_a_workflow_job_loads_the_random_copy_of_a_baseline_entry(tiny):
    from mgbias.mlm.load import entry_fields, load_each

    directory, handle = tiny
    base = {"model_id": str(directory), "revision": None, "allow_untrained_head": False}
    entries = [{**base, "model": "m"}, {**base, "model": "m~random", "structural_baseline_seed": 9}]
    (_, model, tokenizer), (entry, copy, same) = list(load_each(entries, device="cpu"))
    assert _weights(model) == _weights(handle.model)
    assert _weights(copy) == _weights(random_copy(handle.model, 9))
    assert same.get_vocab() == tokenizer.get_vocab()
    assert entry_fields(entry, copy) == {
        "model": "m~random",
        "model_id": str(directory),
        "revision": None,
        "structural_baseline_seed": 9,
    }
    assert "structural_baseline_seed" not in entry_fields(entries[0], model)


def test_a_baseline_verdict_speaks_of_the_random_copy():
    from mgbias.measures.registry import verdict

    said = verdict("sss", 70.0, 0.001, sample="40 pairs", subject="the random copy")
    assert (
        said == "SSS 70 (p = 0.001, 40 pairs): the random copy prefers the stereotypical sentence"
    )
    tied = verdict("cps", 50.0, 1.0, n_ties=30, n_compared=40, subject="the random copy")
    assert (
        tied
        == "CPS: 30 of 40 pairs tied: the measure could not decide for this random copy and data"
    )
    assert "the model prefers" in verdict("sss", 70.0, 0.001)
