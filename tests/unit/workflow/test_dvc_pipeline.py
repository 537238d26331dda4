"""dvc.yaml is derived from the workflow's output paths and is current.

(:mod:`mgbias.workflow.dvc_pipeline`)
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from mgbias.workflow import dvc_pipeline, layout
from mgbias.workflow.layout import Output

REPO = Path(__file__).resolve().parents[3]


def commands(text: str, stage: str) -> list[list[str]]:
    cmd = yaml.safe_load(text)["stages"][stage]["cmd"]
    return [shlex.split(part) for part in cmd.split("&&")]


def omitted(text: str, stage: str) -> set[str]:
    """The rules a stage's Snakemake command leaves out (``--omit-from``)."""
    first = commands(text, stage)[0]
    return set(first[first.index("--omit-from") + 1 :]) if "--omit-from" in first else set()


def test_dvc_yaml_is_generated_from_the_layout():
    assert (REPO / "dvc.yaml").read_text() == dvc_pipeline.dvc_yaml(), (
        "dvc.yaml is stale: python -m mgbias.workflow.dvc_pipeline > dvc.yaml"
    )


def test_each_stage_runs_the_dag_without_the_rules_of_the_stages_after_it():
    text = dvc_pipeline.dvc_yaml()
    models = {"train_mlm", "finetune_mlm", "train_vectors", "zhao2020_align", "zhao2020_debias"}
    scores = {"score_pairs", "score_unmasked", "kaneko2023_score_pairs"}
    scores |= {"kaneko2023_score_unmasked", "basta2020_vectors"}
    tables = {"pair_measures", "mbe", "mine_counts", "bios_classifier", "basta2020_probes"}
    data = {"download_corpus", "mine_gendered", "download_pairs", "native_name_pairs"}
    data |= {"demo_world", "bios_plan", "bios_split", "basta2020_corpus"}
    assert models | scores | tables <= omitted(text, "data")
    assert not data & omitted(text, "data")
    assert scores | tables <= omitted(text, "models")
    assert not (data | models) & omitted(text, "models")
    assert omitted(text, "scores") == {
        rule for _, _, rules in dvc_pipeline.stage_layout()[3:] for rule in rules
    }
    assert tables <= omitted(text, "scores") and not scores & omitted(text, "scores")
    assert omitted(text, "tables") == set()  # the whole DAG
    pipeline = yaml.safe_load(text)["stages"]
    outs = {stage: [next(iter(o)) for o in spec["outs"]] for stage, spec in pipeline.items()}
    # every out is below the configuration's workdir (a DVC variable of params.yaml)
    assert all(out.startswith("${workdir}/") for stage in outs.values() for out in stage)
    assert outs["scores"] == ["${workdir}/results/score", "${workdir}/results/basta2020/vectors"]
    assert "${workdir}/results/basta2020/probes" in outs["tables"]
    # each stage depends on the code and on every earlier stage's outs
    earlier = [*outs["data"], *outs["models"], *outs["scores"]]
    assert pipeline["tables"]["deps"] == [*dvc_pipeline.CODE, *earlier]


def _with_output(monkeypatch, output: Output) -> None:
    monkeypatch.setattr(layout, "OUTPUTS", {**layout.OUTPUTS, output.key: output})


def test_a_new_rule_joins_the_stage_of_its_path(monkeypatch):
    template = replace(layout.OUTPUTS["pairs_measures"], key="x", also=())
    _with_output(monkeypatch, replace(template, template="models/{model}.extra", rule="new_one"))
    text = dvc_pipeline.dvc_yaml()
    assert "new_one" in omitted(text, "data")
    assert "new_one" not in omitted(text, "models")


def test_a_new_results_folder_is_an_out_of_the_tables_stage(monkeypatch):
    template = replace(layout.OUTPUTS["pairs_measures"], key="x", also=())
    _with_output(monkeypatch, replace(template, template="results/newpaper/{lang}.csv"))
    text = dvc_pipeline.dvc_yaml()
    outs = [next(iter(o)) for o in yaml.safe_load(text)["stages"]["tables"]["outs"]]
    assert "${workdir}/results/newpaper" in outs
    assert "${workdir}/results/newpaper" in commands(text, "tables")[-1]  # made empty if absent


def test_a_new_data_folder_without_a_stage_is_an_error_naming_it(monkeypatch):
    template = replace(layout.OUTPUTS["pairs_measures"], key="x", also=())
    _with_output(monkeypatch, replace(template, template="data/fresh/{lang}.txt", rule="r"))
    with pytest.raises(ValueError, match=r"data/fresh/\{lang\}.txt \(rule r\): no DVC stage"):
        dvc_pipeline.dvc_yaml()


def test_the_command_prints_the_file(capsys):
    assert dvc_pipeline.main([]) == 0
    assert capsys.readouterr().out == dvc_pipeline.dvc_yaml()
