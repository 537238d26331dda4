"""The bios rules (Zhao et al. 2020, §4-5) on the demo crawl, and the paper's plan at scale.

One run of the tiny config with a one-language, one-snapshot bios section (two WET
files, one per job: two shards; the planted bios x 24, half of each group without their
place of work): the dataset equals the planted bios, Table 5 and the counts equal the
planted counts, the classifier on unscrubbed skewed bios has a larger |Diff| than on
scrubbed balanced ones, Table 10 comes from a frozen (random, character-level) encoder
saved as a local model, and a lost shard reruns alone. The paper plan reads
generated ``wet.paths.gz`` listings of 64,000 files for each of the 16 snapshots.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from fixtures.seed_records import check_seed_records
from snakerun import checked, copy_workflow, planned_jobs, snakemake

from mgbias.workflow import layout

REPO = Path(__file__).resolve().parents[2]
SNAPSHOT = "CC-MAIN-2018-34"
TARGETS = ["bios_table5", "bios_counts", "bios_figure2"]
CLASSIFIER_TABLES = ["bios_monolingual", "bios_table10"]
SCALE = 24


def save_character_encoder(directory: Path) -> Path:
    """A seeded random 2-layer BERT (hidden 16, 64 positions) over single characters (a
    WordPiece vocabulary of letters and ``##`` letters: no bio word is unknown), saved as a
    local model: the frozen encoder of Tables 10 and 11 at no training cost."""
    from fixtures.tiny_models import build_model, save_pretrained

    from mgbias.mlm.wordpiece import build_bert_tokenizer

    characters = "abcdefghijklmnopqrstuvwxyzäöüßéèàç0123456789_.,;:'-()"
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *characters]
    vocab += [f"##{c}" for c in characters]
    tokenizer = build_bert_tokenizer(vocab, model_max_length=64)
    return save_pretrained(build_model("bert", len(vocab), seed=3), tokenizer, directory)


@pytest.fixture(scope="module")
def bios_run(tmp_path_factory) -> Path:
    workdir = copy_workflow(tmp_path_factory.mktemp("bios") / "run")
    config = yaml.safe_load((workdir / "tests/configs/tiny.yaml").read_text())
    save_character_encoder(workdir / "encoder")
    config["models"]["chars"] = {"source": "encoder", "mbe": False}
    config["bios"] = {
        "url": "file://data/demo/mirror/commoncrawl",
        "snapshots": [SNAPSHOT],
        "languages": ["de"],
        "wet_files_per_job": 1,
        "demo_files": 2,
        "spacy": {"de": "blank"},
        "names": "demo",
        "figure2_min": 4,
        # the shipped lexicon, by URL: downloaded and checksummed like the authors' ones
        "titles": {"de": "file://src/mgbias/bios/data/titles_de.json"},
        "demo_scale": SCALE,
        "demo_ambiguous": 0.5,
        "classifier": {
            **{"min_df": 2, "rows": 300, "hidden": 16, "batch_size": 16, "normalize": True},
            **{"max_epochs": 30, "min_epochs": 2, "patience": 5, "runs": 3},
            "worlds": ["planted"],
            # Table 10 on the character encoder: its first 8 characters (Table 11's
            # transfer would need a second language's bios: test_bios_scripts.py runs it)
            "encoder": {"model": "chars", "max_pieces": 8, "max_len": 10},
            "monolingual": {"de": ["de", "chars"]},
            "variants": ["raw-original", "scrubbed-balanced"],
            # the encoder's runs keep the transfer labels (the paper's eight by default)
            "transfer": {"labels": ["journalist", "nurse"]},
        },
    }
    (workdir / "bios.yaml").write_text(yaml.safe_dump(config))
    checked(snakemake(workdir, *TARGETS, *CLASSIFIER_TABLES, config="bios.yaml"))
    return workdir


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_dataset_is_the_planted_bios(bios_run):
    planted = json.loads((bios_run / "data/demo/bios/planted.json").read_text())["planted"]
    expected = sorted((p["name"], p["title"], p["gender"]) for p in planted if p["lang"] == "de")
    rows = [json.loads(line) for line in open(bios_run / "data/mined/bios/datasets/de.jsonl")]
    assert sorted((r["name"], r["title"], r["gender"]) for r in rows) == expected
    assert len(rows) == 8 * SCALE
    # the two shards each hold one WET file and their own share of the bios
    shards = sorted((bios_run / f"data/mined/bios/shards/de/{SNAPSHOT}").glob("*.jsonl"))
    assert [p.name for p in shards] == ["00000.jsonl", "00001.jsonl"]
    assert all(p.read_text().strip() for p in shards)


def test_a_title_lexicon_given_by_url_is_downloaded_and_read(bios_run):
    lexicon = bios_run / "data/raw/bios/titles/de.json"
    assert lexicon.read_bytes() == (REPO / "src/mgbias/bios/data/titles_de.json").read_bytes()
    assert lexicon.with_name("de.json.sha256").read_text().split()[1] == "de.json"
    log = (bios_run / f"logs/bios_extract/de/{SNAPSHOT}/00000.log").read_text()
    assert "data/raw/bios/titles/de.json" in log


def test_each_seeded_bios_job_records_the_seeds_it_used(bios_run):
    root = yaml.safe_load((bios_run / "bios.yaml").read_text())["seed"]
    seen = check_seed_records(bios_run, root)
    assert {"bios_plan", "download_bios_shard", "bios_dataset", "bios_split"} <= seen
    assert "bios_classifier" in seen
    record = next(bios_run.glob("results/bios/classifier/**/*.provenance.json"))
    assert len(json.loads(record.read_text())["seed"]) == 3  # one per run


def test_table5_and_counts_are_the_planted_counts(bios_run):
    assert read_csv(bios_run / "results/tables/bios_table5.csv") == [
        {"lang": "de", "occupations": "2", "instances": "192", "female": "96", "male": "96"}
    ]
    counts = read_csv(bios_run / "results/tables/bios_counts.csv")
    assert [(r["title"], r["female"], r["male"], r["total"]) for r in counts] == [
        ("journalist", "24", "72", "96"),
        ("nurse", "72", "24", "96"),
    ]
    assert [r["figure2"] for r in counts] == ["True", "True"]  # figure2_min: 4
    png = (bios_run / "results/figures/bios_figure2.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000


def test_an_unparsable_wet_file_fails_its_extraction_job_alone(bios_run, tmp_path):
    """A WET file that downloads (valid gzip) but is no WARC fails only the extraction of
    its shard, naming the file; the other shard's extraction runs (``--keep-going``)."""
    run = tmp_path / "run"
    shutil.copytree(bios_run, run, symlinks=True)
    manifest = json.loads((run / f"data/raw/bios/shards/{SNAPSHOT}/00001.json").read_text())
    (entry,) = manifest["files"]
    served = run / "data/demo/mirror/commoncrawl" / entry["path"]
    served.write_bytes(gzip.compress(b"this is no WARC record\n" * 50))
    for path in [
        f"data/raw/bios/shards/{SNAPSHOT}/00001.json",
        f"data/raw/bios/{entry['path']}",
        f"data/raw/bios/{entry['path']}.sha256",
        f"data/mined/bios/shards/de/{SNAPSHOT}/00000.jsonl",
        f"data/mined/bios/shards/de/{SNAPSHOT}/00001.jsonl",
    ]:
        (run / path).unlink()
    shards = [f"data/mined/bios/shards/de/{SNAPSHOT}/0000{i}.jsonl" for i in (0, 1)]
    result = snakemake(run, "--keep-going", *shards, config="bios.yaml")
    assert result.returncode != 0
    log = (run / f"logs/bios_extract/de/{SNAPSHOT}/00001.log").read_text()
    assert "not a WARC/WET file" in log and entry["path"].rsplit("/", 1)[1] in log
    assert (run / f"data/mined/bios/shards/de/{SNAPSHOT}/00000.jsonl").read_text().strip()
    assert not (run / f"data/mined/bios/shards/de/{SNAPSHOT}/00001.jsonl").exists()


def classifier_result(run: Path, text: str, sampling: str, space: str = "de") -> dict:
    path = run / f"results/bios/classifier/planted/de/{space}/{text}-{sampling}.json"
    return json.loads(path.read_text())


def test_split_is_60_20_20_by_title(bios_run):
    split = json.loads((bios_run / "data/mined/bios/splits/de.json").read_text())
    rows = {
        r["id"]: r for r in map(json.loads, open(bios_run / "data/mined/bios/datasets/de.jsonl"))
    }
    assert sorted(i for part in split.values() for i in part) == sorted(rows)
    for part, n in [("train", 58), ("dev", 19), ("test", 19)]:  # 96 per title
        titles = [rows[i]["title"] for i in split[part]]
        assert (titles.count("nurse"), titles.count("journalist")) == (n, n), part


def test_classifier_gap_is_larger_on_unscrubbed_skewed_than_scrubbed_balanced(bios_run):
    skewed = classifier_result(bios_run, "raw", "original")
    fair = classifier_result(bios_run, "scrubbed", "balanced")
    assert [run["seed"] for run in skewed["runs"]] == [run["seed"] for run in fair["runs"]]
    assert len(skewed["runs"]) == 3
    # unscrubbed, "sie"/"er" tells the skewed occupation of the ambiguous bios; scrubbed,
    # a female and a male bio of one occupation are one text
    assert skewed["metrics"]["diff"] > fair["metrics"]["diff"] + 20
    # balanced: train and dev repeat the minority gender (12 of 48 per title) to parity
    assert fair["runs"][0]["n"]["train"] > skewed["runs"][0]["n"]["train"] == 116
    assert fair["runs"][0]["n"]["test"] == skewed["runs"][0]["n"]["test"] == 38
    # the per-occupation TPRs behind |Diff| (run 0)
    tpr = [
        r
        for r in read_csv(bios_run / "results/bios/classifier/planted/de/de/raw-original.tpr.csv")
        if r["run"] == "0"
    ]
    assert [r["title"] for r in tpr] == ["journalist", "nurse"]
    diff = sum(abs(float(r["tpr_male"]) - float(r["tpr_female"])) for r in tpr) / 2
    assert diff == pytest.approx(skewed["runs"][0]["metrics"]["diff"])
    table = read_csv(bios_run / "results/tables/bios_monolingual.csv")
    assert [(r["text"], r["sampling"], r["table"]) for r in table] == [
        ("raw", "original", ""),
        ("scrubbed", "balanced", ""),
    ]
    assert float(table[0]["diff"]) == pytest.approx(skewed["metrics"]["diff"], abs=0.01)
    assert (
        "|  | de | raw | original |"
        in (bios_run / "results/tables/bios_monolingual.md").read_text()
    )
    assert not list((bios_run / "results/bios/classifier").rglob("*.pt"))


def test_table_10_comes_from_the_frozen_encoder(bios_run):
    """The character encoder's space, per variant (Table 10), from the seeds of the static
    runs; the static table has none of its rows."""
    table10 = read_csv(bios_run / "results/tables/bios_table10.csv")
    assert [(r["table"], r["lang"], r["encoder"], r["text"], r["sampling"]) for r in table10] == [
        ("", "de", "chars", "raw", "original"),
        ("", "de", "chars", "scrubbed", "balanced"),
    ]
    result = classifier_result(bios_run, "raw", "original", "chars")
    assert result["settings"]["encoder"]["source"] == "encoder"
    assert result["settings"]["encoder"]["occupations"] == ["journalist", "nurse"]
    run = result["runs"][0]
    assert (run["training"]["encoder"], run["training"]["max_pieces"]) == ("chars", 8)
    assert run["n"] == {"train": 116, "dev": 38, "test": 38}
    assert [r["seed"] for r in result["runs"]] == [
        r["seed"] for r in classifier_result(bios_run, "raw", "original")["runs"]
    ]
    tpr = read_csv(bios_run / "results/bios/classifier/planted/de/chars/raw-original.tpr.csv")
    diff = sum(abs(float(r["tpr_male"]) - float(r["tpr_female"])) for r in tpr if r["run"] == "0")
    assert diff / 2 == pytest.approx(run["metrics"]["diff"])
    assert float(table10[0]["diff"]) == pytest.approx(result["metrics"]["diff"], abs=0.01)
    assert (
        "**chars (planted; raw, original)**"
        in (bios_run / "results/tables/bios_table10.md").read_text()
    )
    static = read_csv(bios_run / "results/tables/bios_monolingual.csv")
    assert {r["space"] for r in static} == {"de"}
    assert not list((bios_run / "results/bios").rglob("*.pt"))


def test_downloads_are_checksummed_and_a_failed_shard_reruns_alone(bios_run):
    manifest = json.loads((bios_run / f"data/raw/bios/shards/{SNAPSHOT}/00001.json").read_text())
    (entry,) = manifest["files"]
    wet = bios_run / "data/raw/bios" / entry["path"]
    assert wet.with_name(wet.name + ".sha256").read_text().split()[0] == entry["sha256"]
    # the state a failed download of shard 1 leaves: shard 0 done, nothing downstream
    os.remove(bios_run / f"data/raw/bios/shards/{SNAPSHOT}/00001.json")
    os.remove(wet)
    os.remove(bios_run / f"data/mined/bios/shards/de/{SNAPSHOT}/00001.jsonl")
    os.remove(bios_run / "data/mined/bios/datasets/de.jsonl")
    for table in ["bios_table5.csv", "bios_table5.md", "bios_counts.csv"]:
        os.remove(bios_run / "results/tables" / table)
    os.remove(bios_run / "results/figures/bios_figure2.png")
    dry = checked(snakemake(bios_run, "-n", *TARGETS, config="bios.yaml")).stdout
    jobs = planned_jobs(dry)
    assert ("download_bios_shard", {"snapshot": SNAPSHOT, "shard": "00001"}) in jobs
    assert ("bios_extract", {"lang": "de", "snapshot": SNAPSHOT, "shard": "00001"}) in jobs
    assert not [w for rule, w in jobs if w.get("shard") == "00000"]
    assert {rule for rule, _ in jobs} == {
        "download_bios_shard",
        "bios_extract",
        "bios_dataset",
        "bios_table5",
        "bios_counts",
        "bios_figure2",
    }


def test_paper_plan_of_16_full_snapshots_is_one_job_per_shard(tmp_path):
    from mgbias.bios.ccpaths import make_shards, read_listing, select_files, write_listing
    from mgbias.corpora.checksums import sha256_file, write_sidecar

    section = yaml.safe_load((REPO / "config/paper.yaml").read_text())["bios"]
    assert len(section["snapshots"]) == 16
    n_files = 64_000  # a full 2017-2018 snapshot's WET files (the most of the 16)
    for snapshot in section["snapshots"]:
        stamp = snapshot[8:].replace("-", "")
        listing = tmp_path / f"data/raw/bios/crawl-data/{snapshot}/wet.paths.gz"
        write_listing(
            listing,
            [
                f"crawl-data/{snapshot}/segments/15{stamp}{i // 640:04d}.{i % 100:02d}/wet/"
                f"CC-MAIN-{stamp}-{i:05d}.warc.wet.gz"
                for i in range(n_files)
            ],
        )
        write_sidecar(listing, sha256_file(listing))
    time.sleep(1.0)  # the plans (what the checkpoint writes) are newer than the listings
    for snapshot in section["snapshots"]:
        listing = tmp_path / f"data/raw/bios/crawl-data/{snapshot}/wet.paths.gz"
        chosen = select_files(read_listing(listing, snapshot), None, 0, snapshot)
        shards = make_shards(snapshot, chosen, section["wet_files_per_job"])
        plan = tmp_path / f"data/mined/bios/plan/{snapshot}.json"
        plan.parent.mkdir(parents=True, exist_ok=True)
        plan.write_text(json.dumps({"snapshot": snapshot, "shards": len(shards)}))
        # the checkpoint's job record (its seed), so that the checkpoint counts as done
        record = layout.JOB_RECORDS["bios_plan"].template.format(snapshot=snapshot)
        (tmp_path / record).write_text("{}")
    # (how long the plan takes is the machine's, not the test's: benchmarks/workflow.py)
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("snakemake")),
            *("-n", "-q", "rules", "-s", str(REPO / "Snakefile")),
            *("--directory", str(tmp_path), "--configfile", str(REPO / "config/paper.yaml")),
            *("--cores", "2", "bios_table5", "bios_counts"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    stats = result.stdout.split("Job stats:")[1]
    per_snapshot = -(-n_files // section["wet_files_per_job"])
    counts = {m[1]: int(m[2]) for m in re.finditer(r"^(\w+)\s+(\d+)$", stats, re.M)}
    assert counts["download_bios_shard"] == 16 * per_snapshot
    assert counts["bios_extract"] == 16 * per_snapshot * 4
