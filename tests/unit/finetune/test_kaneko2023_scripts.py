"""The Kaneko et al. (2023) scripts end to end on three tiny saved BERTs, and `mgbias tbs`.

The scripts are run as Snakemake runs them (a ``snakemake`` object in their
globals); the CLI must write the same bytes as the probe script.
"""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from fixtures.tiny_models import build_model, save_pretrained

from mgbias.cli.main import main
from mgbias.finetune.meta_evaluation import TABLE1_COLUMNS, correlation_with_r
from mgbias.kaneko2022.sentences import write_gendered_sentences
from mgbias.mlm.wordpiece import build_bert_tokenizer

REPO = Path(__file__).resolve().parents[3]
VOCAB = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "he", "she", "is", "a", "an", "doctor",
    "engineer", "nur", "##se", "alter", "ego", ".", "man", "woman", "works", "here", "the",
]  # fmt: skip
SENTENCE = "[MASK] works here."
R_GRID = [0.0, 0.5, 1.0]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("kaneko2023")
    tokenizer = build_bert_tokenizer(VOCAB, model_max_length=32)
    models = []
    for seed in range(len(R_GRID)):
        model = build_model(
            "bert", len(VOCAB), 32, seed=seed, num_hidden_layers=1, initializer_range=0.5
        )
        models.append(save_pretrained(model, tokenizer, root / f"model{seed}"))
    targets = root / "targets.txt"
    targets.write_text("doctor\nengineer\nnurse\nalter_ego\n", encoding="utf-8")
    pairs = root / "pairs.csv"
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor.", "the woman works here.", "she is a nurse.", "he is."],
            "sent_less": ["she is a doctor.", "the man works here.", "he is a nurse.", "he is."],
            "stereo_antistereo": ["stereo", "antistereo", "stereo", "stereo"],
            "bias_type": ["gender"] * 4,
        }
    ).to_csv(pairs, index=False)
    return SimpleNamespace(root=root, models=models, targets=targets, pairs=pairs)


class _Wildcards(dict):
    """A job's wildcards as the scripts read them: by attribute, and as ``items()``."""

    __getattr__ = dict.__getitem__


#: The scoring jobs' ``params.scoring`` (the configuration's ``scoring`` section).
SCORING = {
    "device": "cpu",
    "batch_size": 8,
    "max_length": None,
    "precision": "fp32",
    "allow_unk": False,
}


def _run_script(name: str, wildcards: dict | None = None, **sections) -> None:
    snakemake = SimpleNamespace(
        log=[None],
        threads=1,
        wildcards=_Wildcards(wildcards or {}),
        **{key: SimpleNamespace(**value) for key, value in sections.items()},
    )
    runpy.run_path(str(REPO / "scripts" / name), init_globals={"snakemake": snakemake})


def _entry(workspace, index: int) -> dict:
    return {
        "model": f"m{index}",
        "model_id": str(workspace.models[index]),
        "revision": None,
        "allow_untrained_head": False,
    }


def _probe(workspace, index: int) -> dict[str, Path]:
    out = {name: workspace.root / f"probe{index}.{name}" for name in ("targets", "summary", "top")}
    _run_script(
        "kaneko2023_probe.py",
        params={
            "models": [_entry(workspace, index)],
            "scoring": SCORING,
            "lang": "en",
            "targets": str(workspace.targets),
            "templates": None,
            "sentence": SENTENCE,
            "female": None,
            "male": None,
            "k": 3,
        },
        output={key: str(path) for key, path in out.items()},
    )
    return out


def test_a_grid_job_writes_the_bytes_of_one_job_per_model(workspace, tmp_path):
    # rules kaneko2023_probe_grid / kaneko2023_score_pairs / kaneko2023_score_unmasked run
    # the one-model scripts over a grid's models in one process
    indices = range(len(R_GRID))
    single = [_probe(workspace, index) for index in indices]
    grid = {name: [tmp_path / f"grid{i}.{name}" for i in indices] for name in single[0]}
    _run_script(
        "kaneko2023_probe.py",
        params={
            "models": [_entry(workspace, index) for index in indices],
            "scoring": SCORING,
            "lang": "en", "targets": str(workspace.targets), "templates": None,
            "sentence": SENTENCE, "female": None, "male": None, "k": 3,
        },
        output={name: [str(path) for path in paths] for name, paths in grid.items()},
    )  # fmt: skip
    for index in indices:
        for name, path in single[index].items():
            assert grid[name][index].read_bytes() == path.read_bytes(), (index, name)
    assert len({path.read_bytes() for path in grid["summary"]}) == len(R_GRID)

    scoring = SCORING
    sentences = tmp_path / "sentences.csv"
    write_gendered_sentences(
        sentences, ["she is a nurse.", "the woman works."], ["he is a doctor.", "the man works."]
    )

    def score(script, models, outputs, **inputs):
        wildcards = {"dataset": "pairs", "variant": "original", "lang": "en"}
        _run_script(
            script,
            params={"models": models, "scoring": scoring, "bias_type": "gender"},
            input=inputs,
            output=outputs,
            wildcards=wildcards,
        )

    models = [_entry(workspace, index) for index in indices]
    one = [
        {key: tmp_path / f"one{index}.{key}.parquet" for key in ("unmasked", "masked")}
        for index in indices
    ]
    for index in indices:
        outputs = {key: str(path) for key, path in one[index].items()}
        score("score_pairs.py", models[index : index + 1], outputs, data=str(workspace.pairs))
    many = {key: [tmp_path / f"many{i}.{key}.parquet" for i in indices] for key in one[0]}
    outputs = {key: [str(path) for path in paths] for key, paths in many.items()}
    score("score_pairs.py", models, outputs, data=str(workspace.pairs))
    for index in indices:
        for key, path in one[index].items():
            assert many[key][index].read_bytes() == path.read_bytes(), (index, key)

    for index in indices:
        output = {"cache": str(tmp_path / f"mined{index}.parquet")}
        score("score_unmasked.py", models[index : index + 1], output, sentences=str(sentences))
    output = {"cache": [str(tmp_path / f"mined-grid{i}.parquet") for i in indices]}
    score("score_unmasked.py", models, output, sentences=str(sentences))
    for index in indices:
        single_cache = (tmp_path / f"mined{index}.parquet").read_bytes()
        assert (tmp_path / f"mined-grid{index}.parquet").read_bytes() == single_cache, index


def test_cli_tbs_writes_the_same_bytes_as_the_probe_script(workspace, tmp_path, capsys):
    script = _probe(workspace, 0)
    out = {name: tmp_path / f"cli.{name}" for name in ("targets", "summary", "top")}
    code = main(
        [
            "tbs", "--model", str(workspace.models[0]), "--lang", "en",
            "--targets", str(workspace.targets), "--sentence", SENTENCE, "--top-k", "3",
            "--output", str(out["targets"]), "--summary", str(out["summary"]),
            "--top", str(out["top"]), "--device", "cpu", "--batch-size", "8",
        ]
    )  # fmt: skip
    assert code == 0
    for name in ("targets", "summary", "top"):
        assert out[name].read_bytes() == script[name].read_bytes(), name
    summary = json.loads(out["summary"].read_text())
    assert summary["n_targets"] == 4 and summary["male_word"] == "he"
    assert (
        f"TBS {summary['tbs']:.6g} ± {summary['tbs_se']:.2g} over 4 targets"
        in capsys.readouterr().out
    )
    table = pd.read_csv(out["targets"])
    assert table["target"].tolist() == ["doctor", "engineer", "nurse", "alter ego"]
    assert table.loc[2, "text"] == "[MASK] is a nurse." and table.loc[3, "n_target_tokens"] == 2


def test_cli_tbs_rejects_bad_input(workspace, capsys):
    assert main(["tbs", "--model", str(workspace.models[0]), "--lang", "xx"]) == 2
    assert "no template for language 'xx'" in capsys.readouterr().err
    command = ["tbs", "--model", str(workspace.models[0]), "--female", "en_female"]
    assert main(command) == 2
    assert "give both --female-words and --male-words" in capsys.readouterr().err


# Three random models can tie on a measure with few pairs: its correlation is NaN, with a warning.
@pytest.mark.filterwarnings("ignore:correlation_with_r")
def test_table_and_figure_scripts_on_a_grid(workspace):
    probes, per_pair, runs = [], [], []
    for index, r in enumerate(R_GRID):
        probes.append(_probe(workspace, index))
        path = workspace.root / f"per_pair{index}.csv"
        command = ["score", "--model", str(workspace.models[index]), "--data",
                   str(workspace.pairs), "--per-pair", str(path), "--device", "cpu"]  # fmt: skip
        assert main(command) == 0
        per_pair.append(path)
        runs.append({"run": f"m{index}", "model": "tiny", "corpus": "demo", "language": "en",
                     "r": r})  # fmt: skip
    runs.append({"run": "base", "model": "tiny", "corpus": "demo", "language": "en", "r": None})
    probes.append(probes[0])
    per_pair.append(per_pair[0])
    out = {
        name: workspace.root / f"table1.{name}"
        for name in ("table", "markdown", "scores", "orientation")
    }
    # MBE results of the fine-tuned runs on two corpora each (the original has none)
    mbe_scores = {"m0": (40.0, 42.0), "m1": (50.0, 49.0), "m2": (65.0, 61.0)}
    mbe = {}
    for run, values in mbe_scores.items():
        mbe[run] = []
        for corpus, value in zip(("c1", "c2"), values, strict=True):
            path = workspace.root / f"mbe_{run}_{corpus}.json"
            path.write_text(json.dumps({"score": value, "corpus": corpus}), encoding="utf-8")
            mbe[run].append(str(path))
    _run_script(
        "kaneko2023_table1.py",
        input={
            "per_pair": [str(p) for p in per_pair],
            "probes": [str(p["summary"]) for p in probes],
            "mbe": [path for paths in mbe.values() for path in paths],
        },
        params={
            "runs": runs,
            "mbe": mbe,
            "wordlists": {"en": {"female": ["en_female"], "male": ["en_male"]}},
            "tie_rule": "neutral",
            "alpha": 0.05,
        },
        output={key: str(path) for key, path in out.items()},
    )
    table = pd.read_csv(out["table"])
    assert list(table.columns) == TABLE1_COLUMNS
    computed = table[table.source == "computed"]
    assert sorted(set(computed.measure)) == ["aul", "aula", "cps", "mbe", "sss", "tbs"]
    assert (computed.n_r == 3).all()
    scores = pd.read_csv(out["scores"])
    tbs = scores[scores.measure == "tbs"]
    assert tbs["run"].tolist() == ["m0", "m1", "m2", "base"]
    expected = correlation_with_r(R_GRID, tbs["score"].iloc[:3])["pearson"]
    assert computed.set_index("measure").loc["tbs", "pearson"] == pytest.approx(expected, abs=1e-6)
    mbe_means = [sum(values) / 2 for values in mbe_scores.values()]  # 41, 49.5, 63
    expected = correlation_with_r(R_GRID, mbe_means)["pearson"]
    assert computed.set_index("measure").loc["mbe", "pearson"] == pytest.approx(expected, abs=1e-6)
    assert scores[scores.measure == "mbe"]["score"].tolist() == pytest.approx(mbe_means)
    orientation = pd.read_csv(out["orientation"])
    assert orientation.loc[0, ["n_pairs", "male_more", "male_less", "no_gender_word"]].tolist() == [
        4, 1, 2, 1,
    ]  # fmt: skip
    assert "## en: Pearson, male-oriented scores" in out["markdown"].read_text(encoding="utf-8")

    figures = {
        name: workspace.root / name
        for name in ("fig2_table.csv", "fig2.png", "fig3_table.csv", "fig3.png")
    }
    for figure in (2, 3):
        _run_script(
            "kaneko2023_figures.py",
            input={
                "probes": [str(p["summary"]) for p in probes],
                "tops": [str(p["top"]) for p in probes],
            },
            params={"runs": runs, "figure": figure},
            output={
                "table": str(figures[f"fig{figure}_table.csv"]),
                "figure": str(figures[f"fig{figure}.png"]),
            },
        )
    fig2 = pd.read_csv(figures["fig2_table.csv"])
    assert len(fig2) == 4 and np.isnan(fig2.loc[0, "r"])
    summary0 = json.loads(probes[1]["summary"].read_text())
    assert fig2.loc[fig2.r == 0.5, "p_male"].item() == pytest.approx(summary0["p_male"], rel=1e-5)
    fig3 = pd.read_csv(figures["fig3_table.csv"], keep_default_na=False)
    assert len(fig3) == 4 * 3 and set(fig3.gender_class) <= {"male", "female", "neither"}
    assert figures["fig2.png"].read_bytes().startswith(b"\x89PNG")
    assert figures["fig3.png"].read_bytes().startswith(b"\x89PNG")


def test_a_fine_tuning_grid_job_writes_the_weights_and_records_of_one_job_per_model(
    workspace, tmp_path
):
    # rule kaneko2023_finetune_grid (kaneko2023.finetune_per_grid) runs finetune_mlm.py
    # over a grid's models in one process: each model as its own job would have it
    from safetensors.torch import load_file

    texts = []
    for index, sentence in enumerate(["he is a doctor .", "she is a nurse ."]):
        path = tmp_path / f"d_r{index}.txt"
        path.write_text(f"{sentence}\nthe man works here .\n" * 4, encoding="utf-8")
        texts.append(str(path))
    dev = tmp_path / "dev.txt"
    dev.write_text("the woman works here .\n", encoding="utf-8")
    settings = [
        {"epochs": 1, "batch_size": 2, "devices": 1, "line_by_line": True, "seed": 42 + index}
        for index in range(2)
    ]
    shared = {"model": str(workspace.models[0]), "revision": None, "device": "cpu"}
    shared["allow_untrained_head"] = False

    def run(names, text, dev_files, output, finetune, wildcards):
        records = [f"{path}.provenance.json" for path in output]
        snakemake = SimpleNamespace(
            log=[None],
            threads=1,
            rule="finetune_mlm",
            wildcards=_Wildcards(wildcards),
            params=_Wildcards(finetune=finetune, models=names, **shared),
            input=_Wildcards(text=text, dev=dev_files),
            output=_Wildcards(
                model=output if len(output) > 1 else output[0],
                provenance=records if len(output) > 1 else records[0],
            ),
        )
        script = str(REPO / "scripts" / "finetune_mlm.py")
        runpy.run_path(script, init_globals={"snakemake": snakemake})

    singles = [str(tmp_path / f"single{index}") for index in range(2)]
    for index in range(2):
        run(
            f"m{index}",
            texts[index],
            [str(dev)],
            [singles[index]],
            settings[index],
            {"model": f"m{index}"},
        )
    grid = [str(tmp_path / f"grid{index}") for index in range(2)]
    run(["m0", "m1"], texts, [str(dev)], grid, settings, {"base": "b", "source": "s", "lang": "en"})
    for index in range(2):
        single = load_file(Path(singles[index]) / "model.safetensors")
        many = load_file(Path(grid[index]) / "model.safetensors")
        assert single.keys() == many.keys()
        assert all((single[key] == many[key]).all() for key in single), index
        record = json.loads(Path(f"{grid[index]}.provenance.json").read_text())
        assert record["seed"] == 42 + index
        assert record["wildcards"] == {
            "base": "b",
            "source": "s",
            "lang": "en",
            "model": f"m{index}",
        }
        assert record["params"]["finetune"] == settings[index]
        assert list(record["outputs"]) == ["model"]
    first = load_file(Path(grid[0]) / "model.safetensors")
    second = load_file(Path(grid[1]) / "model.safetensors")
    assert any((first[key] != second[key]).any() for key in first)  # its own D_r and seed
