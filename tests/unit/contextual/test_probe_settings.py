"""The probes' settings: one object, its defaults the configuration schema's."""

from __future__ import annotations

import inspect

import pytest

from mgbias.api.probes import probe
from mgbias.contextual.run import ProbeSettings
from mgbias.errors import InputError


def test_unset_settings_take_the_schema_defaults():
    settings = ProbeSettings.from_mapping(knn_k=5)
    assert settings.knn_k == 5
    assert (settings.runs, settings.n_train, settings.n_knn) == (10, 1000, 100)
    assert (settings.n_permutations, settings.n_bootstrap, settings.n_lda_train) == (
        100,
        1000,
        3000,
    )
    assert settings.experiments == tuple(range(1, 10))
    assert (settings.svm_gamma, settings.seed, settings.n_components) == ("scale", 0, 10)
    # a job's settings: the configuration section with its seed and word lists
    job = ProbeSettings.from_mapping(
        {"runs": 3, "seed": 7, "lists": "demo", "experiments": [5, 1, 5]}
    )
    assert (job.runs, job.seed, job.experiments) == (3, 7, (1, 5))


def test_an_unknown_setting_or_experiment_is_named():
    with pytest.raises(InputError, match=r"basta2020.probes: unknown probe settings \['knn'\]"):
        ProbeSettings.from_mapping({"knn": 3})
    with pytest.raises(InputError, match=r"mgbias.probe: unknown probe settings \['runz'\]"):
        ProbeSettings.from_mapping(where="mgbias.probe", runz=2)
    with pytest.raises(ValueError, match=r"experiments \[10\]: expected some of \[1, 2"):
        ProbeSettings.from_mapping(experiments=[1, 10])


def test_the_api_defaults_are_the_settings_defaults():
    defaults = ProbeSettings.from_mapping()
    parameters = inspect.signature(probe).parameters
    for name in ("runs", "seed", "n_train", "knn_k", "n_knn", "n_bootstrap"):
        assert parameters[name].default == getattr(defaults, name), name
    assert tuple(parameters["experiments"].default) == defaults.experiments
