"""The API's keyword defaults are the workflow's settings (the configuration schema's).

A function of ``mgbias.api`` that takes a setting of the workflow under the same meaning
defaults to the schema's value, so that ``mgbias.score_pairs(model, data)`` and a
workflow job of the default configuration compute the same thing; the command line's
defaults are read from the schema itself (``mgbias.cli.options.setting``).
"""

from __future__ import annotations

import inspect

import pytest

import mgbias
from mgbias.workflow.schema import key_default

SCORING = {
    "batch_size": "scoring.batch_size",
    "max_length": "scoring.max_length",
    "device": "scoring.device",
    "precision": "scoring.precision",
    "allow_unk": "scoring.allow_unk",
}

#: API function -> {parameter: the setting it stands for}
SETTINGS = {
    "score_pairs": {"tie_rule": "pair_tie_rule", "alpha": "pair_alpha", **SCORING},
    "mbe": {
        "weighting": "mbe.weighting",
        "permutations": "mbe.permutations",
        "alpha": "mbe.alpha",
        "test": "mbe.test",
        "chunk_size": "mbe.chunk_size",
        **SCORING,
    },
    "probe": {
        **{
            name: f"basta2020.probes.{name}"
            for name in ("runs", "n_train", "knn_k", "n_knn", "n_bootstrap")
        },
        **{
            name: f"basta2020.vectors.{name}"
            for name in (
                "n_pca_sentences",
                "max_per_word",
                "pooling",
                "dtype",
                "batch_size",
                "layers",
                "device",
                "precision",
            )
        },
        **{name: f"basta2020.static.{name}" for name in ("n_biased", "n_extended", "top_n")},
    },
}


@pytest.mark.parametrize("function", SETTINGS)
def test_api_defaults_are_the_settings_defaults(function):
    parameters = inspect.signature(getattr(mgbias, function)).parameters
    for name, key in SETTINGS[function].items():
        assert parameters[name].default == key_default(key), (function, name, key)
    if function == "score_pairs":  # a setting of each pair dataset
        default = key_default("pair_datasets.*.cluster")
        assert parameters["cluster"].default == default
    if function == "probe":
        experiments = parameters["experiments"].default
        assert list(experiments) == key_default("basta2020.probes.experiments")


#: The steps the API and the workflow's scripts share, and the measures' own defaults
#: (the paper's formula, which the workflow's default selects): (module, function) ->
#: {parameter: the setting it stands for}
STEPS = {
    ("mgbias.contextual.steps", "vectors_for_plan"): {
        name: f"basta2020.vectors.{name}"
        for name in ("layers", "pooling", "dtype", "batch_size", "precision")
    },
    ("mgbias.contextual.steps", "plan_corpus"): {
        name: f"basta2020.vectors.{name}" for name in ("n_pca_sentences", "max_per_word")
    },
    ("mgbias.contextual.steps", "static_lists"): {
        name: f"basta2020.static.{name}" for name in ("n_biased", "n_extended", "top_n")
    },
    ("mgbias.embeddings.steps", "bli_files"): {
        "k": "zhao2020.bli.k",
        **{name: f"zhao2020.bli.{name}" for name in ("maxload", "center", "device")},
    },
    ("mgbias.embeddings.steps", "inbias_files"): {
        name: f"zhao2020.inbias.{name}" for name in ("variant", "authors_split", "paired")
    },
    **{
        ("mgbias.finetune.mixture", function): {
            "sampling": "kaneko2023.sampling",
            "rounding": "kaneko2023.rounding",
        }
        for function in ("mixture_indices", "write_mixture")
    },
    ("mgbias.finetune.mixture", "mixture_sizes"): {"rounding": "kaneko2023.rounding"},
    ("mgbias.measures.mbe", "mbe_score"): {
        "weighting": "mbe.weighting",
        "chunk_size": "mbe.chunk_size",
        "alpha": "mbe.alpha",
        "test": "mbe.test",
        "n_permutations": "mbe.permutations",
    },
}


@pytest.mark.parametrize("where", STEPS, ids=lambda where: where[1])
def test_shared_steps_default_to_the_settings(where):
    import importlib

    module, function = where
    parameters = inspect.signature(getattr(importlib.import_module(module), function)).parameters
    for name, key in STEPS[where].items():
        assert parameters[name].default == key_default(key), (function, name, key)
    if function == "bli_files":
        assert list(parameters["retrievals"].default) == key_default("zhao2020.bli.retrievals")
