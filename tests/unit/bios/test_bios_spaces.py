"""The classifier's spaces (mgbias.bios.spaces): imported in any order in a fresh
interpreter, and without torch for the planner; one statement of the training defaults
(mgbias.bios.training). Which bios module may import which is checked by `make lint`
(the ``bios-*`` contracts of ``[tool.importlinter]`` in pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

import mgbias.bios
from mgbias.bios.experiment import ClassifierSettings
from mgbias.bios.spaces import VectorSpace, as_space, load_space
from mgbias.bios.training import TrainSettings

BIOS = Path(mgbias.bios.__file__).parent
MODULES = ("mgbias.bios.spaces", "mgbias.bios.encoder", "mgbias.bios.experiment")


def python(code: str) -> subprocess.CompletedProcess:
    """``code`` run by a fresh interpreter importing this mgbias."""
    env = {**os.environ, "PYTHONPATH": str(BIOS.parents[1])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


@pytest.mark.parametrize("order", [MODULES, MODULES[::-1]], ids=["forward", "backward"])
def test_the_modules_import_in_either_order_in_a_fresh_interpreter(order):
    code = (
        "import importlib, sys\n"
        f"for name in {list(order)!r}:\n"
        "    importlib.import_module(name)\n"
        "from mgbias.bios.spaces import EncoderSpace, VectorSpace, as_space, load_space\n"
        "from mgbias.bios.experiment import run_classifier, run_transfer\n"
        "from mgbias.bios.encoder import FrozenEncoder\n"
        "print('ok')\n"
    )
    result = python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_experiment_the_spaces_and_the_encoder_settings_import_without_torch():
    """The workflow's planner reads the experiment's and the encoder's settings (every
    dry run); torch stays unloaded."""
    code = (
        "import sys\n"
        "import mgbias.bios.experiment, mgbias.bios.spaces, mgbias.bios.training\n"
        "from mgbias.workflow.bios import encoder, is_encoder\n"
        "config = {'bios': {'classifier': {'encoder': {'model': 'mbert', 'name': 'M'}}}}\n"
        "assert encoder(config).max_pieces == 120 and is_encoder(config, 'M')\n"
        "print('torch' in sys.modules)\n"
    )
    result = python(code)
    assert result.stdout.strip() == "False", result.stderr


def test_a_space_of_a_path_or_a_space_and_a_rules_vectors(tmp_path):
    path = tmp_path / "v.vec"
    path.write_text("1 3\nthe 1 2 3\n", encoding="utf-8")
    space = as_space(path)
    assert isinstance(space, VectorSpace) and space.dim == 3 and str(space) == str(path)
    assert as_space(space) is space

    class Inputs:
        vectors = str(path)

    assert load_space(None, Inputs(), "vectors").path == str(path)


def test_the_training_defaults_are_stated_once():
    settings = ClassifierSettings()
    for field in fields(TrainSettings):
        if field.name != "seed":
            assert getattr(settings, field.name) == field.default, field.name
    assert settings.train_settings(3) == TrainSettings(seed=3)
    from mgbias.bios.classifier import TrainSettings as Imported

    assert Imported is TrainSettings
