"""Every command-line option that is also a setting defaults to the setting's default.

A setting's default lives in one place: the configuration schema (the workflow's keys),
:class:`mgbias.finetune.settings.FineTuneConfig` (fine-tuning), :class:`RCSLSConfig`
(alignment) or the measure's own module (inBias). ``mgbias`` run with an option left out
must compute what the workflow computes with the key left out.
"""

from __future__ import annotations

import argparse
import dataclasses
import re

import pytest

from mgbias.cli.main import build_parser
from mgbias.embeddings.rcsls_config import RCSLSConfig
from mgbias.finetune.settings import FineTuneConfig
from mgbias.measures.inbias import STRONG_PAIRS_EN
from mgbias.workflow.schema import key_default, section_defaults


def schema(key: str):
    section, _, name = key.rpartition(".")
    return section_defaults(section)[name]


#: (command, option dest) -> the setting's default.
SETTINGS = {
    **{(command, "batch_size"): schema("scoring.batch_size") for command in ("score", "tbs")},
    **{(command, "device"): schema("scoring.device") for command in ("score", "tbs", "mbe")},
    **{(command, "precision"): schema("scoring.precision") for command in ("score", "tbs", "mbe")},
    ("mbe", "batch_size"): schema("scoring.batch_size"),
    ("score", "tie_rule"): key_default("pair_tie_rule"),
    ("score", "alpha"): key_default("pair_alpha"),
    ("score", "cluster"): key_default("pair_datasets.*.cluster"),
    ("mbe", "weighting"): schema("mbe.weighting"),
    ("mbe", "permutations"): schema("mbe.permutations"),
    ("mbe", "alpha"): schema("mbe.alpha"),
    ("mix-gendered-text", "sampling"): schema("kaneko2023.sampling"),
    ("mix-gendered-text", "rounding"): schema("kaneko2023.rounding"),
    ("probe", "experiments"): ",".join(map(str, schema("basta2020.probes.experiments"))),
    **{
        ("probe", key): schema(f"basta2020.probes.{key}")
        for key in ("runs", "n_train", "knn_k", "n_knn", "n_bootstrap")
    },
    **{
        ("probe", key): schema(f"basta2020.static.{key}")
        for key in ("n_biased", "n_extended", "top_n")
    },
    **{
        ("probe", key): schema(f"basta2020.vectors.{key}")
        for key in (
            "layers",
            "n_pca_sentences",
            "max_per_word",
            "pooling",
            "dtype",
            "batch_size",
            "device",
            "precision",
        )
    },  # fmt: skip
    ("bli", "knn"): schema("zhao2020.bli.k"),
    ("bli", "maxload"): schema("zhao2020.bli.maxload"),
    ("bli", "center"): schema("zhao2020.bli.center"),
    ("bli", "retrieval"): schema("zhao2020.bli.retrievals")[0],
    ("bli", "device"): schema("zhao2020.bli.device"),
    ("inbias", "variant"): schema("zhao2020.inbias.variant"),
    ("inbias", "n_strong"): STRONG_PAIRS_EN,
    **{
        ("align", field.name): field.default
        for field in dataclasses.fields(RCSLSConfig)
        if field.name
        in ("knn", "lr", "niter", "maxneg", "maxsup", "maxload", "batchsize", "sgd", "center")
        + ("seed", "device")
    },
}
#: ``mgbias finetune``'s options default to None (FineTuneConfig fills them in); their
#: help shows FineTuneConfig's default: option dest -> field.
FINETUNE_HELP = {
    "lr": "learning_rate",
    "epochs": "epochs",
    "batch_size": "batch_size",
    "devices": "devices",
    "gradient_accumulation": "gradient_accumulation",
    "seed": "seed",
    "checkpoint_every": "checkpoint_every",
    "precision": "precision",
    "deterministic": "deterministic",
    "group_by_length": "group_by_length",
    "compile": "compile",
}


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def option(command: str, dest: str) -> argparse.Action:
    (found,) = [a for a in commands()[command]._actions if a.dest == dest]
    return found


@pytest.mark.parametrize(("command", "dest"), sorted(SETTINGS))
def test_an_option_defaults_to_its_settings_default(command, dest):
    assert option(command, dest).default == SETTINGS[command, dest]


def test_the_fine_tuning_options_show_the_settings_defaults():
    paper = FineTuneConfig()
    for dest, field in FINETUNE_HELP.items():
        action = option("finetune", dest)
        assert action.default is None, dest  # FineTuneConfig fills the value in
        shown = re.search(r"\(default: ([^;)]+)", action.help)[1]
        value = getattr(paper, field)
        if isinstance(value, bool):
            expected = "on" if value else "off"
        else:
            expected = f"{value:g}" if isinstance(value, float) else str(value)
        assert shown == expected, (dest, shown, value)
    description = commands()["finetune"].description
    assert f"lr {paper.learning_rate:g}, {paper.epochs} epochs" in description
    assert f"seed {paper.seed})" in description
