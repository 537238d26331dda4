"""A configuration's local paths keep naming their files when its run moves into its
``workdir`` (:func:`mgbias.workflow.config_locations.relocate`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mgbias.config import load_schema
from mgbias.workflow.config_locations import relocate
from mgbias.workflow.core import local_file_of_url


def own_config() -> dict:
    return {
        "languages": ["de"],
        "models": {
            "here": {"source": "mine/bert"},  # an existing directory, one slash
            "dotted": {"source": "./mine/bert"},
            "hub": {"source": "google-bert/bert-base-cased"},
            "home": {"source": "~/bert"},
            "absolute": {"source": "/srv/bert"},
            "trained": {"train": {"world": "planted"}},
        },
        "pair_datasets": {
            "own": {"url": "file://pairs/own_{lang}.csv"},
            "bare": {"url": "pairs/bare_{lang}.csv"},
            "remote": {"url": "https://example.org/p_{lang}.csv"},
            "rooted": {"url": "file:///srv/p_{lang}.csv"},
            # written by a rule of the workflow: the run's own, below its workdir
            "demo": {
                "url": "file://data/demo/mirror/benchmarks/multilingual_crows_pairs_{lang}.csv"
            },
        },
    }


def test_each_relative_local_path_names_the_same_file_from_the_workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine" / "bert").mkdir(parents=True)
    (tmp_path / "pairs").mkdir()
    for name in ("own_de.csv", "bare_de.csv"):
        (tmp_path / "pairs" / name).write_text("sent_more,sent_less\n")
    config = own_config()

    changed = relocate(config, load_schema(), "runs/mine")

    assert sorted(changed) == [
        "models.dotted.source",
        "models.here.source",
        "pair_datasets.bare.url",
        "pair_datasets.own.url",
    ]
    models, pairs = config["models"], config["pair_datasets"]
    assert models["here"]["source"] == models["dotted"]["source"] == "../../mine/bert"
    assert pairs["own"]["url"] == "file://../../pairs/own_{lang}.csv"
    assert pairs["bare"]["url"] == "file://../../pairs/bare_{lang}.csv"
    untouched = own_config()
    for name in ("hub", "home", "absolute", "trained"):
        assert models[name] == untouched["models"][name]
    for name in ("remote", "rooted", "demo"):
        assert pairs[name] == untouched["pair_datasets"][name]
    # read from the workdir, as the jobs read them, they are the same files
    (tmp_path / "runs" / "mine").mkdir(parents=True)
    os.chdir(tmp_path / "runs" / "mine")
    assert Path(models["here"]["source"]).samefile(tmp_path / "mine" / "bert")
    own = local_file_of_url(pairs["own"]["url"].format(lang="de"))
    assert Path(own).samefile(tmp_path / "pairs" / "own_de.csv")


def test_the_checkout_as_workdir_changes_nothing():
    config = own_config()
    assert relocate(config, load_schema(), ".") == []
    assert relocate(config, load_schema(), "./") == []
    assert config == own_config()


def test_a_workdir_outside_the_checkout_is_refused_naming_the_key():

    from mgbias.config import ConfigError, validate_config  # noqa: PLC0415

    for outside in ("../elsewhere", "/srv/runs", "~/runs", "runs/../../x"):
        config = {"languages": ["de"], "models": {"m": {"source": "org/bert"}}, "workdir": outside}
        with pytest.raises(
            ConfigError, match=r"key 'workdir': .* is not a folder inside the checkout"
        ):
            validate_config(config)
    config = {"languages": ["de"], "models": {"m": {"source": "org/bert"}}}
    validate_config(config)
    assert config["workdir"] == "."
