"""Configuration files as a user writes them: lines in messages, warnings, strictness,
worlds without a demo, local paths; through check-config, score --config and Snakemake."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from snakerun import run_snakemake

from mgbias.cli.main import main
from mgbias.config import (
    ConfigError,
    as_url,
    check_config_file,
    config_warnings,
    load_config,
    validate_config,
)
from mgbias.workflow.core import configured_worlds, evaluation_jobs, known_worlds, pair_jobs

REPO = Path(__file__).resolve().parents[2]

# languages: [de] with an English-only benchmark: the model declares German only
GERMAN_ONLY = """\
languages: [de]
models:
  my-model:
    source: some-org/some-model
    languages: [de]
corpora:
  TED2020:
    url: "https://object.pouta.csc.fi/OPUS-TED2020/v1/moses/{pair}.txt.zip"
pair_datasets:
  crows_pairs: {benchmark: crows_pairs}
"""


def write(tmp_path: Path, text: str, name: str = "c.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_invalid_value_names_the_line_of_its_key(tmp_path):
    path = write(
        tmp_path, GERMAN_ONLY.replace("languages: [de]\nmodels", "languages: [de, qq]\nmodels")
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}:1: key 'languages.1': unknown language code 'qq'")


def test_unknown_key_names_its_own_line(tmp_path):
    path = write(
        tmp_path,
        GERMAN_ONLY.replace("    languages: [de]\n", "    languages: [de]\n    revison: v1\n"),
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}:6: invalid configuration: unknown key 'revison'")


def test_a_cross_reference_error_names_its_line(tmp_path):
    text = GERMAN_ONLY + "pair_tables: {steinborn_table2: nowhere}\n"
    with pytest.raises(ConfigError, match=r"c\.yaml:11: key 'pair_tables\.steinborn_table2'"):
        load_config(write(tmp_path, text))


def test_model_meeting_no_dataset_in_its_languages_warns_with_lines(tmp_path):
    path = write(tmp_path, GERMAN_ONLY)
    config, warnings = check_config_file(path)
    assert pair_jobs(config) == []  # German only: never scored on the English pairs
    assert warnings == [
        f"{path}:5: model 'my-model' is never scored on pair dataset 'crows_pairs': its "
        "languages ['de'] and the dataset's ['en'] have none in common",
        f"{path}:10: pair dataset 'crows_pairs' (en) is scored by no model; no pair table "
        "is made of it",
    ]
    with pytest.raises(ConfigError, match=r"2 warning\(s\), errors with --strict"):
        check_config_file(path, strict=True)


def test_without_declared_languages_the_model_scores_english_pairs(tmp_path):
    config, warnings = check_config_file(
        write(tmp_path, GERMAN_ONLY.replace("    languages: [de]\n", ""))
    )
    assert warnings == []
    assert [(j["model"], j["dataset"], j["lang"]) for j in pair_jobs(config)] == [
        ("my-model", "crows_pairs", "en")
    ]


def test_language_without_model_and_model_without_corpus_warn(tmp_path):
    text = GERMAN_ONLY.replace("languages: [de]\nmodels", "languages: [de, it]\nmodels")
    text = text.replace("    languages: [de]\n", "    languages: [it]\n")
    text = text.replace('{pair}.txt.zip"', '{pair}.txt.zip"\n    languages: [de]')
    text = text.split("pair_datasets:")[0]
    config, warnings = check_config_file(write(tmp_path, text))
    assert evaluation_jobs(config) == []
    where = tmp_path / "c.yaml"
    assert warnings == [
        f"{where}:5: model 'my-model' meets no parallel corpus in its languages ['it'] "
        "(corpora ['TED2020']); it gets no MBE score (mbe: false says it scores pair "
        "datasets only)",
        f"{where}:1: language 'de' has no model: no model is scored in it (no corpus or "
        "pair dataset of a model covers it)",
        f"{where}:1: language 'it' has no model: no model is scored in it (no corpus or "
        "pair dataset of a model covers it)",
    ]


def test_missing_local_model_directory_warns_but_a_hub_id_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = GERMAN_ONLY.replace("    languages: [de]\n", "")
    assert check_config_file(write(tmp_path, text))[1] == []  # org/name: a hub id
    missing = text.replace("some-org/some-model", "./models/mine")
    (warning,) = check_config_file(write(tmp_path, missing))[1]
    assert warning.startswith(
        f"{tmp_path / 'c.yaml'}:4: model 'my-model': source './models/mine': no such directory"
    )
    (tmp_path / "models" / "mine").mkdir(parents=True)
    assert check_config_file(write(tmp_path, missing))[1] == []


def test_worlds_default_to_real_without_a_demo(tmp_path):
    config = load_config(write(tmp_path, GERMAN_ONLY))
    assert config["worlds"] == ["real"]
    assert {job["world"] for job in evaluation_jobs(config)} == {"real"}


def test_planners_take_real_as_the_world_of_a_config_without_worlds():
    config = {"languages": ["de"], "models": {"m": {"source": "x"}}, "corpora": {"c": {}}}
    assert configured_worlds(config) == known_worlds(config) == ["real"]
    assert evaluation_jobs(config) == [{"model": "m", "world": "real", "corpus": "c", "lang": "de"}]


def test_a_demo_needs_its_worlds(tmp_path):
    text = GERMAN_ONLY + "demo: {planted: {male_ratio: 3.0}}\n"
    with pytest.raises(ConfigError, match=r"c\.yaml:11: key 'worlds': required with a 'demo'"):
        load_config(write(tmp_path, text))


def test_local_paths_become_file_urls(tmp_path):
    text = GERMAN_ONLY.replace(
        '    url: "https://object.pouta.csc.fi/OPUS-TED2020/v1/moses/{pair}.txt.zip"',
        '    files: "data/mine/{pair}.{lang}"',
    ).replace("{benchmark: crows_pairs}", "{url: /srv/pairs/crows.csv, languages: [en]}")
    config = validate_config(yaml.safe_load(text))  # no files: check-config looks for them
    assert config["corpora"]["TED2020"] == {"files": "file://data/mine/{pair}.{lang}", "codes": {}}
    assert config["pair_datasets"]["crows_pairs"]["url"] == "file:///srv/pairs/crows.csv"
    assert as_url("file://x/y") == "file://x/y" and as_url("https://h/a") == "https://h/a"


def test_a_corpus_has_a_url_or_files(tmp_path):
    text = GERMAN_ONLY.replace('{pair}.txt.zip"', '{pair}.txt.zip"\n    files: x/{lang}')
    with pytest.raises(
        ConfigError, match=r"c\.yaml:7: key 'corpora\.TED2020': expected exactly one"
    ):
        load_config(write(tmp_path, text))


def test_config_warnings_of_the_shipped_configs_are_none():
    for name in (
        "config/config.yaml",
        "config/demo-full.yaml",
        "config/paper.yaml",
        "config/examples/own-model.yaml",
    ):
        assert config_warnings(load_config(REPO / name)) == [], name


def test_check_config_exit_status_and_messages(tmp_path, capsys):
    good = write(tmp_path, GERMAN_ONLY.replace("    languages: [de]\n", ""), "good.yaml")
    assert main(["check-config", str(good)]) == 0
    warned = write(tmp_path, GERMAN_ONLY, "warned.yaml")
    assert main(["check-config", str(warned)]) == 0
    err = capsys.readouterr().err
    assert f"mgbias: warning: {warned}:5: model 'my-model' is never scored" in err
    assert main(["check-config", "--strict", str(warned)]) == 2
    assert "warned.yaml:10: pair dataset 'crows_pairs'" in capsys.readouterr().err
    broken = write(tmp_path, "languages: [de\nworlds: [x]\n", "broken.yaml")
    assert main(["check-config", str(broken)]) == 2
    assert capsys.readouterr().err == (
        f"mgbias: {broken}:2:7: expected ',' or ']', but got ':' (while parsing a flow "
        "sequence at line 1)\n"
    )
    twice = write(tmp_path, GERMAN_ONLY + "languages: [fr]\n", "twice.yaml")
    assert main(["check-config", str(twice)]) == 2
    assert (
        "twice.yaml:11:1: duplicate key 'languages' (first given at line 1)"
        in capsys.readouterr().err
    )


def test_score_with_a_broken_config_exits_2_naming_the_place(tmp_path, capsys):
    broken = write(tmp_path, "pair_datasets:\n  mine: {url: x.csv\n", "broken.yaml")
    status = main(["score", "--model", "unused", "--data", "mine", "--config", str(broken)])
    assert status == 2
    assert capsys.readouterr().err.startswith(f"mgbias: {broken}:3:1: ")


def snakemake_dry_run(tmp_path: Path, config: Path) -> subprocess.CompletedProcess:
    command = ["-n", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path)]
    command += ["--configfile", str(config), "--cores", "1"]
    return run_snakemake(command, cwd=REPO, timeout=300)


def test_workflow_warns_once_and_plans_no_empty_pair_table(tmp_path):
    result = snakemake_dry_run(tmp_path, write(tmp_path, GERMAN_ONLY))
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert output.count("model 'my-model' is never scored on pair dataset 'crows_pairs'") == 1
    assert "\nmgbias: warning: c.yaml:5: model 'my-model'" in output  # relative to the run
    assert "rule pairs_scores:" not in output and "rule score_pairs:" not in output
    assert "rule mbe:" in output


def test_workflow_refuses_a_duplicate_key_that_snakemake_accepts(tmp_path):
    config = write(tmp_path, GERMAN_ONLY + "languages: [fr]\n")
    result = snakemake_dry_run(tmp_path, config)
    assert result.returncode == 1
    assert "mgbias: c.yaml:11:1: duplicate key 'languages' (first given at line 1)" in result.stderr
    assert "Traceback" not in result.stderr and 'File "' not in result.stderr


def test_a_syntax_error_snakemake_reads_first_is_placed_by_check_config(tmp_path, capsys):
    """Snakemake parses ``--configfile`` itself before the Snakefile runs, and stops at a
    syntax error with its own message and no line; check-config gives the place."""
    config = write(
        tmp_path, GERMAN_ONLY.replace("languages: [de]\nmodels", "languages: [de\nmodels")
    )
    result = snakemake_dry_run(tmp_path, config)
    assert result.returncode == 1
    assert "Config file is not valid JSON or YAML" in result.stdout + result.stderr
    assert main(["check-config", str(config)]) == 2
    assert capsys.readouterr().err.startswith(f"mgbias: {config}:2:7: ")


def test_settings_a_job_reads_are_checked_with_their_class_at_their_lines(tmp_path):
    """A misspelt fine-tuning setting, a bad fastText setting and a model's training
    settings that cannot build its BERT are named before any job runs, each at its line."""
    text = (REPO / "config" / "config.yaml").read_text(encoding="utf-8")
    changes = {
        "    seed: 42\n  pair_dataset": "    seed: 42\n    learning_rte: 0.1\n  pair_dataset",
        "train: {dim: 50, epoch: 20,": "train: {dim: 50, epoch: 0,",
        "      dropout: 0.0\n": "      dropout: 0.0\n      hidden_size: 9\n",
    }
    for old, new in changes.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = write(tmp_path, text)
    lines = text.splitlines()
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    errors = [str(error) for error in caught.value.errors]
    assert len(errors) == 3, errors
    finetune, model, vectors = sorted(errors, key=lambda e: e.split(": key ")[1])
    line = lines.index("    learning_rte: 0.1") + 1
    assert finetune.startswith(
        f"{path}:{line}: key 'kaneko2023.finetune.learning_rte': unknown key; expected among "
        "['adam_beta1',"
    ), finetune
    assert finetune.endswith("(FineTuneConfig)")
    line = next(i for i, text in enumerate(lines, 1) if "epoch: 0" in text)
    assert vectors == (
        f"{path}:{line}: key 'zhao2020.vectors.train': SkipgramConfig.epoch must be an "
        "integer >= 1, got 0"
    )
    line = lines.index("  probe-planted-en:") + 2  # its train: key
    assert model == (
        f"{path}:{line}: key 'models.probe-planted-en.train': MLMTrainingConfig.hidden_size "
        "(9) must be divisible by num_attention_heads (2)"
    )
    # the shipped configs pass the same checks
    for name in ("config.yaml", "demo-full.yaml", "paper.yaml"):
        load_config(REPO / "config" / name)
