"""The DVC sharing recipe's checks that need no DVC run: params.yaml and dvc.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mgbias.layout import OUTPUTS
from mgbias.share import ShareError, configfile, create_missing_outputs, stage_outputs

REPO = Path(__file__).resolve().parents[2]


def test_the_checkout_names_a_valid_configuration_and_persistent_outputs():
    assert configfile(REPO) == "config/config.yaml"
    pipeline = yaml.safe_load((REPO / "dvc.yaml").read_text())
    outs = [out for stage in pipeline["stages"].values() for out in stage["outs"]]
    assert outs and all(next(iter(out.values()))["persist"] is True for out in outs)
    assert stage_outputs(REPO) == [next(iter(out)) for out in outs]
    # every place the workflow writes results to (mgbias.layout) is shared
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


def test_outputs_a_configuration_does_not_produce_are_created_empty(tmp_path):
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


def test_a_templated_out_is_refused(tmp_path):
    (tmp_path / "dvc.yaml").write_text(
        yaml.safe_dump({"stages": {"a": {"cmd": "true", "outs": ["results/${x}"]}}})
    )
    with pytest.raises(ShareError, match="must be a plain path"):
        stage_outputs(tmp_path)


def test_mgbias_share_command_runs_the_recipe_and_reports_refusals(tmp_path, capsys):
    from mgbias.cli import main

    assert main(["share", "pull", "--root", str(tmp_path)]) == 1
    assert "dvc.lock: missing; nothing has been pushed" in capsys.readouterr().err
    assert main(["share", "push", "--root", str(tmp_path), "--force"]) == 1
    assert "--force applies to pull only" in capsys.readouterr().err
