"""`mgbias mbe` gives the workflow's MBE numbers on the tiny demo run.

The session's completed tiny run (tests/configs/tiny.yaml) mined its male and
female sentences into ``data/mined/{world}/{corpus}/{lang}.tsv``, trained the
demo models and wrote one MBE result per (model, world, corpus, language) into
``results/tables/mbe_scores.csv``. The command line, given the same mined file
(``--sentences``, with its gender words as the test's units), the trained model
and the rule's settings and seed, must print and write the same MBE, p-value
and Shf.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from mgbias.seeds import derive_seed

pytestmark = pytest.mark.workflow

CONFIG = "tests/configs/tiny.yaml"


def test_cli_gives_the_workflow_mbe(tiny_run, tmp_path):
    config = yaml.safe_load((tiny_run / CONFIG).read_text())
    table = pd.read_csv(tiny_run / "results/tables/mbe_scores.csv")
    job = table.sort_values(["model", "world", "corpus", "lang"]).iloc[0]
    mined = tiny_run / f"data/mined/{job.world}/{job.corpus}/{job.lang}.tsv"
    # the seed the job used, from its own record (the workflow derives one per job)
    result = f"results/mbe/{job.model}/{job.world}/{job.corpus}/{job.lang}.json"
    record = json.loads((tiny_run / f"{result}.provenance.json").read_text())
    seed = record["seed"]
    assert seed == derive_seed(config["seed"], "mbe", job.model, job.world, job.corpus, job.lang)
    output = tmp_path / "mbe.csv"
    command = [
        str(Path(sys.executable).with_name("mgbias")),
        "mbe",
        "--model",
        str(tiny_run / "models" / job.model),
        "--sentences",
        str(mined),
        "--weighting",
        config["mbe"]["weighting"],
        "--permutations",
        str(config["mbe"]["permutations"]),
        "--seed",
        str(seed),
        "--batch-size",
        str(config["scoring"]["batch_size"]),
        "--device",
        "cpu",
        "--output",
        str(output),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    cli = pd.read_csv(output).iloc[0]
    for column in ("mbe", "p_value", "shf", "shf_p_value"):
        np.testing.assert_allclose(cli[column], job[column], rtol=1e-5, err_msg=column)
    for column in ("n_male", "n_female", "n_comparisons", "weighting", "test", "preferred"):
        assert cli[column] == job[column], column
    assert result.stdout.startswith(f"MBE {job.mbe:.4g} (p = {job.p_value:.2g}, ")
    # the workflow's units: the gender words of the mined file
    assert job.cluster == "gender_words" and cli["n_clusters"] == job.n_clusters
    assert f"in {job.n_clusters} gender-word groups" in result.stdout
