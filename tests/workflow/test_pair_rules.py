"""Pair benchmark rules on the tiny demo: measures from caches, CLI equals workflow.

Each check works on a private copy of the session's completed tiny run
(tests/configs/tiny.yaml: the demo multilingual CrowS-Pairs file in German,
unperturbed and perturbed, scored by the planted demo model).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from snakerun import checked, planned_jobs, snakemake

from mgbias.measures import pair
from mgbias.seeds import derive_seed

pytestmark = pytest.mark.workflow

CONFIG = "tests/configs/tiny.yaml"
DATASET = "multilingual_crows_pairs"
DATA = f"data/raw/pairs/{DATASET}/de/multilingual_crows_pairs_de.csv"
N_PAIR_JOBS = 1 * 2 * 1  # models x variants x languages
MEASURES_ONLY = Counter(
    {
        "pair_measures": N_PAIR_JOBS,
        "pairs_scores": 1,
        "pairs_by_model": 1,
        "pairs_steinborn_table2": 1,
        "pairs_steinborn_table3": 1,
        "provenance_summary": 1,
        "all": 1,
    }
)


def plan(workdir: Path, config: str = CONFIG) -> Counter:
    return Counter(
        rule for rule, _ in planned_jobs(checked(snakemake(workdir, "-n", config=config)).stdout)
    )


def caches(workdir: Path) -> dict[str, tuple[bytes, int]]:
    """Every pair cache by path: its bytes and modification time."""
    return {
        str(path.relative_to(workdir)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted((workdir / "results/score/pairs").rglob("*.parquet"))
    }


def write_config(workdir: Path, measures: list[str]) -> str:
    config = yaml.safe_load((workdir / CONFIG).read_text())
    config["pair_measures"] = measures
    name = "config/measures.yaml"
    (workdir / name).write_text(yaml.safe_dump(config))
    return name


def measures_in(workdir: Path) -> set[str]:
    table = pd.read_csv(workdir / "results/tables/pairs_scores.csv")
    return set(table.measure)


def test_pair_tables_hold_every_model_variant_and_measure(tiny_run):
    scores = pd.read_csv(tiny_run / "results/tables/pairs_scores.csv")
    assert len(scores) == N_PAIR_JOBS * 6
    assert set(scores.model) == {"demo-planted"}
    assert set(scores.variant) == {"original", "perturbed"}
    assert (scores.n == 20).all()
    table2 = pd.read_csv(tiny_run / "results/tables/pairs_steinborn_table2.csv")
    assert list(table2.columns[:3]) == ["model", "lang", "sjsd_x1e3"]
    planted = scores[
        (scores.model == "demo-planted")
        & (scores.variant == "original")
        & (scores.measure == "sjsd")
    ]
    row = table2[table2.model == "demo-planted"].iloc[0]
    assert row.sjsd_x1e3 == pytest.approx(planted.score.item() * 1e3, rel=1e-5)
    table3 = pd.read_csv(tiny_run / "results/tables/pairs_steinborn_table3.csv")
    assert {"unperturbed_cps", "perturbed_cps", "perturbed_sjsd_x1e3_se"} <= set(table3.columns)


def test_a_second_measure_reruns_measures_and_tables_but_never_the_model(tiny_copy):
    before = caches(tiny_copy)
    assert len(before) == 2 * N_PAIR_JOBS

    first = write_config(tiny_copy, ["cps", "sjsd", "bsjsd"])
    assert plan(tiny_copy, first) == MEASURES_ONLY
    checked(snakemake(tiny_copy, config=first))
    assert measures_in(tiny_copy) == {"cps", "sjsd", "bsjsd"}

    second = write_config(tiny_copy, ["cps", "sjsd", "bsjsd", "aula"])
    assert plan(tiny_copy, second) == MEASURES_ONLY
    checked(snakemake(tiny_copy, config=second))
    assert measures_in(tiny_copy) == {"cps", "sjsd", "bsjsd", "aula"}

    # the caches were neither rewritten nor touched: no model ran
    assert caches(tiny_copy) == before


def test_code_of_one_pair_measure_changed_reruns_only_measure_jobs(tiny_copy):
    module = tiny_copy / "src/mgbias/measures/sjsd.py"
    module.write_text(module.read_text() + '\n_CHANGED = "the S_JSD code"\n')
    counts = plan(tiny_copy)
    assert counts["pair_measures"] == N_PAIR_JOBS
    assert not {"score_pairs", "score_unmasked", "train_mlm"} & set(counts)

    module = tiny_copy / "src/mgbias/pairs/perturb.py"
    module.write_text(module.read_text() + '\n_CHANGED = "the perturbation"\n')
    counts = plan(tiny_copy)
    assert counts["score_pairs"] == 1, "only the perturbed variant is rescored"
    assert "train_mlm" not in counts


@pytest.mark.parametrize("variant", ["original", "perturbed"])
def test_cli_gives_the_workflow_numbers(tiny_run, tmp_path, variant):
    config = yaml.safe_load((tiny_run / CONFIG).read_text())
    model = "demo-planted"
    measures = f"results/pairs/measures/{model}/{DATASET}/{variant}/de.csv"
    # the seed the job used, from its own record (the workflow derives one per job)
    record = json.loads((tiny_run / f"{measures}.provenance.json").read_text())
    seed = record["seed"]
    assert seed == record["params"]["seed"]
    assert seed == derive_seed(config["seed"], "pair_measures", model, DATASET, variant, "de")
    assert seed != config["seed"]
    output, per_pair = tmp_path / "cli.csv", tmp_path / "per_pair.csv"
    command = [
        str(Path(sys.executable).with_name("mgbias")),
        "score",
        "--model",
        str(tiny_run / "models" / model),
        "--data",
        str(tiny_run / DATA),
        "--lang",
        "de",
        "--seed",
        str(seed),
        "--device",
        "cpu",
        "--output",
        str(output),
        "--per-pair",
        str(per_pair),
        *(["--perturb"] if variant == "perturbed" else []),
        # the workflow's clusters (tests/configs/tiny.yaml: the demo's occupations)
        *(
            ["--cluster", cluster]
            if (cluster := config["pair_datasets"][DATASET].get("cluster"))
            else []
        ),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    cli = pd.read_csv(output)
    workflow = pd.read_csv(tiny_run / measures)
    assert list(cli.measure) == list(workflow.measure) == list(pair.names())
    np.testing.assert_allclose(cli.score, workflow.score, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(cli.se, workflow.se, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(cli.p_value, workflow.p_value, rtol=1e-6, atol=1e-12)
    assert list(cli.n) == list(workflow.n)
    assert list(cli.n_edge) == list(workflow.n_edge)
    # the per-pair tables agree too, joined by the dataset's pair ids
    cli_pairs = pd.read_csv(per_pair, keep_default_na=False)
    workflow_pairs = pd.read_csv(
        tiny_run / f"results/pairs/per_pair/{model}/{DATASET}/{variant}/de.csv",
        keep_default_na=False,
    )
    pd.testing.assert_frame_equal(cli_pairs, workflow_pairs, check_exact=False, rtol=1e-6)
    data = pd.read_csv(tiny_run / DATA, keep_default_na=False)
    assert cli_pairs.pair_id.astype(str).tolist() == data.ID.astype(str).tolist()


def test_per_pair_table_gives_the_measures(tiny_run):
    """SSS and binarized S_JSD recomputed from the per-pair sums equal the job's scores."""
    model, variant = "demo-planted", "original"
    measures = pd.read_csv(
        tiny_run / f"results/pairs/measures/{model}/{DATASET}/{variant}/de.csv"
    ).set_index("measure")
    rows = pd.read_csv(tiny_run / f"results/pairs/per_pair/{model}/{DATASET}/{variant}/de.csv")
    assert len(rows) == measures.loc["sss", "n"]
    sss = 100 * np.mean(rows.sss_more > rows.sss_less)
    assert sss == pytest.approx(measures.loc["sss", "score"], abs=100 / len(rows))
    bsjsd = 100 * np.mean(rows.jsd_more < rows.jsd_less)
    assert bsjsd == pytest.approx(measures.loc["bsjsd", "score"], abs=100 / len(rows))
    assert rows.sjsd.mean() == pytest.approx(measures.loc["sjsd", "score"], rel=1e-4, abs=1e-8)
