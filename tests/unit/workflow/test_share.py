"""The DVC sharing recipe's checks that need no DVC run: params.yaml and dvc.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mgbias.workflow.layout import OUTPUTS
from mgbias.workflow.share import (
    ShareError,
    configfile,
    create_missing_outputs,
    stage_outputs,
    use,
    workdir,
)

REPO = Path(__file__).resolve().parents[3]


def test_the_checkout_names_a_valid_configuration_and_persistent_outputs():
    assert configfile(REPO) == "config/config.yaml"
    pipeline = yaml.safe_load((REPO / "dvc.yaml").read_text())
    outs = [out for stage in pipeline["stages"].values() for out in stage["outs"]]
    assert outs and all(next(iter(out.values()))["persist"] is True for out in outs)
    assert stage_outputs(REPO) == [next(iter(out)).removeprefix("${workdir}/") for out in outs]
    # every place the workflow writes results to (mgbias.workflow.layout) is shared
    shared = stage_outputs(REPO)
    for output in OUTPUTS.values():
        assert any(output.template.startswith(out + "/") for out in shared), output.template


def test_params_without_a_configfile_is_an_error_naming_the_key(tmp_path):
    (tmp_path / "params.yaml").write_text("seed: 1\n")
    with pytest.raises(ShareError, match=r"params.yaml: expected a key 'configfile'"):
        configfile(tmp_path)
    (tmp_path / "params.yaml").write_text("configfile: config/missing.yaml\n")
    with pytest.raises(ShareError, match=r"'config/missing.yaml' does not exist"):
        configfile(tmp_path)


def checkout(root: Path, workdir: str | None = None) -> Path:
    """``root`` with a configuration file (its ``workdir`` when given) named by params.yaml."""
    (root / "config").mkdir(parents=True, exist_ok=True)
    extra = f"workdir: {workdir}\n" if workdir else ""
    (root / "config" / "c.yaml").write_text(f"languages: [de]\n{extra}")
    use(root, "config/c.yaml")
    return root


def test_outputs_a_configuration_does_not_produce_are_created_empty(tmp_path):
    checkout(tmp_path)
    (tmp_path / "dvc.yaml").write_text(
        yaml.safe_dump(
            {
                "stages": {
                    "a": {"cmd": "true", "outs": [{"models": {"persist": True}}]},
                    "b": {"cmd": "true", "outs": ["results/tables"]},
                }
            }
        )
    )
    (tmp_path / "results/tables").mkdir(parents=True)
    assert create_missing_outputs(tmp_path) == ["models"]
    assert (tmp_path / "models").is_dir()


def test_a_templated_out_is_refused_but_the_workdir(tmp_path):
    checkout(tmp_path, "runs/a")
    outs = ["${workdir}/results/tables", "${workdir}/results/${x}"]
    (tmp_path / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"a": {"outs": outs}}}))
    with pytest.raises(ShareError, match=r"'runs/a/results/\$\{x\}' must be a path, with"):
        stage_outputs(tmp_path)
    (tmp_path / "dvc.yaml").write_text(yaml.safe_dump({"stages": {"a": {"outs": outs[:1]}}}))
    assert stage_outputs(tmp_path) == ["runs/a/results/tables"]
    assert create_missing_outputs(tmp_path) == ["runs/a/results/tables"]
    assert (tmp_path / "runs/a/results/tables").is_dir()


def test_params_yaml_is_written_from_the_configuration_and_must_keep_its_workdir(tmp_path):
    checkout(tmp_path, "runs/mine")
    params = yaml.safe_load((tmp_path / "params.yaml").read_text())
    assert params == {"configfile": "config/c.yaml", "workdir": "runs/mine"}
    assert workdir(tmp_path) == "runs/mine"
    assert use(tmp_path, "config/c.yaml") is False  # unchanged: not rewritten
    # the configuration moved its results: params.yaml no longer names their folder
    (tmp_path / "config" / "c.yaml").write_text("languages: [de]\nworkdir: runs/other\n")
    with pytest.raises(
        ShareError,
        match=r"params.yaml: workdir 'runs/mine', but config/c.yaml "
        r"keeps its results in 'runs/other'; .* push --config config/c.yaml",
    ):
        workdir(tmp_path)
    assert use(tmp_path, tmp_path / "config" / "c.yaml") is True  # an absolute path inside
    assert workdir(tmp_path) == "runs/other"
    with pytest.raises(ShareError, match="not inside the checkout"):
        use(tmp_path, tmp_path.parent / "elsewhere.yaml")
    # a configuration without the key keeps its results in the checkout itself
    (tmp_path / "config" / "d.yaml").write_text("languages: [de]\n")
    use(tmp_path, "config/d.yaml")
    assert workdir(tmp_path) == "."


def test_mgbias_share_command_runs_the_recipe_and_reports_refusals(tmp_path, capsys):
    from mgbias.cli.main import main

    # a folder that is no checkout is named as such, before anything else
    assert main(["share", "push", "--root", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"mgbias share: {tmp_path} holds no dvc.yaml: not an mgbias checkout; run this in "
        "the repository's root (or give it with --root)\n"
    )
    (tmp_path / "dvc.yaml").write_text("stages: {}\n")
    assert main(["share", "pull", "--root", str(tmp_path)]) == 1
    assert "dvc.lock: missing; nothing has been pushed" in capsys.readouterr().err
    assert main(["share", "push", "--root", str(tmp_path), "--force"]) == 1
    assert "--force applies to pull only" in capsys.readouterr().err
    (tmp_path / "dvc.lock").write_text("schema: '2.0'\n")
    assert main(["share", "pull", "--root", str(tmp_path), "--config", "c.yaml"]) == 1
    assert "--config applies to push only" in capsys.readouterr().err
