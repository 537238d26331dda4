"""Every table of the tiny run has a provenance record, and the report shows them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pandas as pd
import pytest
import yaml
from fixtures.seed_records import check_seed_records
from snakerun import checked, snakemake

from mgbias.provenance import SUMMARY_COLUMNS, mgbias_version
from mgbias.workflow import layout

pytestmark = pytest.mark.workflow

REPO = Path(__file__).resolve().parents[2]
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tables(run: Path) -> list[Path]:
    return sorted((run / "results" / "tables").iterdir())


def record_of(run: Path, table: Path) -> dict:
    relative = table.relative_to(run).as_posix()
    record = layout.provenance_record(relative)
    assert record is not None, f"{relative}: no provenance record in mgbias.workflow.layout"
    return json.loads((run / record).read_text(encoding="utf-8"))


def test_every_table_has_a_record_naming_its_bytes(tiny_run):
    assert tables(tiny_run)
    for table in tables(tiny_run):
        relative = table.relative_to(tiny_run).as_posix()
        record = record_of(tiny_run, table)
        assert record["rule"] == layout.matching_output(relative).rule
        written = {p: digest for files in record["outputs"].values() for p, digest in files.items()}
        assert written[relative] == sha256(table), relative
        assert record["mgbias"]["version"] == mgbias_version()
        assert record["started"] <= record["finished"]
        assert not ISO_TIME.search(table.read_text(encoding="utf-8")), f"{relative} holds a time"


def test_pair_table_records_hold_the_models_weights_and_the_pair_data(tiny_run):
    record = record_of(tiny_run, tiny_run / "results/tables/pairs_scores.csv")
    model = record["models"]["demo-planted"]
    weights = tiny_run / "models/demo-planted/model.safetensors"
    assert model["weights"] == {"model.safetensors": sha256(weights)}
    (data_path,) = record["data"]
    assert data_path.startswith("data/raw/pairs/multilingual_crows_pairs/de/")
    assert record["data"][data_path] == sha256(tiny_run / data_path)
    assert record["settings"]["pair_tie_rule"] and record["settings"]["pair_alpha"]
    assert record["settings"]["scoring"]["device"] == "auto"
    config = tiny_run / "tests/configs/tiny.yaml"
    assert record["config_files"] == {"tests/configs/tiny.yaml": sha256(config)}
    inputs = record["inputs"]["results"]
    assert inputs and all(digest == sha256(tiny_run / p) for p, digest in inputs.items())
    mbe = record_of(tiny_run, tiny_run / "results/tables/mbe_scores.csv")
    assert {"demo-planted", "demo-balanced"} <= set(mbe["models"])


def test_summary_lists_every_record(tiny_run):
    summary = pd.read_csv(tiny_run / layout.path("provenance_summary"))
    assert list(summary.columns) == SUMMARY_COLUMNS
    records = sorted((tiny_run / layout.PROVENANCE_TABLES).glob("*.json"))
    assert sorted(summary.rule) == sorted(path.stem for path in records)
    pairs = summary.set_index("rule").loc["pairs_scores"]
    weights = sha256(tiny_run / "models/demo-planted/model.safetensors")
    assert f"demo-planted:model.safetensors={weights}" in pairs.weights_sha256
    assert (summary.mgbias_version == mgbias_version()).all()


def test_outputs_have_the_umask_mode(tiny_run):
    """The run was started by this test session; its files got the session's umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    for path in [*tables(tiny_run), *(tiny_run / layout.PROVENANCE_TABLES).glob("*.json")]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


def test_report_has_the_provenance_page(tiny_copy):
    checked(snakemake(tiny_copy, "--report", "report.html", timeout=600))
    html = (tiny_copy / "report.html").read_text(encoding="utf-8")
    assert "summary.csv" in html and "Provenance" in html


def test_each_seeded_job_records_the_seed_it_used(tiny_run):
    root = yaml.safe_load((tiny_run / "tests/configs/tiny.yaml").read_text())["seed"]
    seen = check_seed_records(tiny_run, root)
    assert {"demo_world", "demo_pairs", "train_mlm", "pair_measures", "mbe"} <= seen
