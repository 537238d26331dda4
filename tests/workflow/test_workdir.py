"""A configuration keeps its own results: its ``workdir`` holds everything its run
writes, so that a second configuration run in the same checkout leaves the first's
results as they were, and its own local paths still name the files they name from the
checkout (:func:`mgbias.workflow.config_locations.relocate`)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import yaml
from snakerun import checked, snakemake

from mgbias.workflow import layout

pytestmark = pytest.mark.workflow

CONFIG = "tests/configs/tiny.yaml"
DATASET = "multilingual_crows_pairs"


def tree_digest(root: Path) -> dict[str, str]:
    """sha256 of every file below the folders a run writes."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for top in ("data", "models", "results", "logs")
        for path in sorted((root / top).rglob("*"))
        if path.is_file()
    }


def test_a_second_configuration_leaves_the_first_ones_results_byte_identical(tiny_copy):
    run = tiny_copy
    before = tree_digest(run)
    assert any(name.startswith("results/") for name in before)

    # another configuration: the tiny one with another seed (another demo world), its
    # own workdir, and its pairs from a file of the checkout given by a relative path
    second = yaml.safe_load((run / CONFIG).read_text())
    second["seed"] = 7
    second["workdir"] = "runs/second"
    own = run / "own" / "pairs_de.csv"
    own.parent.mkdir()
    mirrored = layout.path("demo_multilingual_crows_pairs", lang="de")
    shutil.copyfile(run / mirrored, own)
    second["pair_datasets"][DATASET]["url"] = "own/pairs_{lang}.csv"
    (run / "second.yaml").write_text(yaml.safe_dump(second))
    world = layout.path("demo_world", world="planted")
    pairs = layout.path("raw_pairs", dataset=DATASET, lang="de", filename="pairs_de.csv")
    checked(snakemake(run, world, pairs, config="second.yaml"))

    ran = run / "runs" / "second"
    # the second run wrote its own files, which would have replaced the first's
    assert (ran / world).read_bytes() != (run / world).read_bytes()
    assert (ran / pairs).read_bytes() == own.read_bytes()
    assert (ran / ".snakemake").is_dir()
    # its records name its configuration file as its jobs see it, from the workdir
    record = json.loads((ran / f"{world}.provenance.json").read_text())
    digest = hashlib.sha256((run / "second.yaml").read_bytes()).hexdigest()
    assert record["config_files"] == {"../../second.yaml": digest}
    # and nothing of the first run changed, nor what Snakemake knows of it
    assert tree_digest(run) == before
    plan = checked(snakemake(run, "-n"))
    assert "Nothing to be done" in plan.stdout + plan.stderr
