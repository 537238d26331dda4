"""Incremental reruns: after a change, Snakemake plans exactly the affected jobs.

One completed run of the tiny demo world is copied for each check, a change
is made, and the jobs of ``snakemake -n`` are compared with the expected set.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from snakerun import checked, planned_jobs, snakemake

from mgbias.demo.world import WorldSpec, write_world
from mgbias.mlm.unmasked_cache import COLUMNS, read_score_cache

pytestmark = pytest.mark.workflow

N_MBE = 2 * 2 * 1 * 2  # models x worlds x corpora x languages of tests/configs/tiny.yaml


@pytest.fixture()
def run_copy(tiny_copy) -> Path:
    return tiny_copy


def plan(workdir: Path, config: str = "tests/configs/tiny.yaml") -> list[tuple[str, dict]]:
    return planned_jobs(checked(snakemake(workdir, "-n", config=config)).stdout)


def rules_of(jobs) -> Counter:
    return Counter(rule for rule, _ in jobs)


def test_rerun_nothing_changed_nothing_to_do(run_copy):
    result = checked(snakemake(run_copy, "-n"))
    assert "Nothing to be done" in result.stdout + result.stderr
    assert planned_jobs(result.stdout) == []


def test_rerun_one_language_corpus_changed_reruns_only_that_language(run_copy):
    # A new version of the German TED2020 corpus of the planted world appears.
    other = write_world(
        WorldSpec(name="planted", seed=99, languages=("de",), n_parallel=300, n_monolingual=100),
        run_copy / "other",
        corpora=("TED2020",),
    )
    new_zip = next(p for p in other if p.name == "de-en.txt.zip")
    target = run_copy / "data/demo/mirror/planted/OPUS-TED2020/v1/moses/de-en.txt.zip"
    shutil.copyfile(new_zip, target)

    jobs = plan(run_copy)
    assert rules_of(jobs) == Counter(
        {
            "download_corpus": 1,
            "mine_gendered": 1,
            "score_unmasked": 2,
            "mbe": 2,
            "mine_counts": 1,
            "mbe_scores": 1,
            "mbe_figure": 1,
            "provenance_summary": 1,
            "all": 1,
        }
    )
    for rule, wildcards in jobs:
        if rule in {"mine_gendered", "score_unmasked", "mbe"}:
            assert (wildcards["world"], wildcards["corpus"], wildcards["lang"]) == (
                "planted",
                "TED2020",
                "de",
            ), (rule, wildcards)
    assert ("download_corpus", {"world": "planted", "corpus": "TED2020", "pair": "de-en"}) in jobs


def test_rerun_measure_parameter_changed_reruns_no_model_job(run_copy):
    config = yaml.safe_load((run_copy / "tests/configs/tiny.yaml").read_text())
    config["mbe"]["weighting"] = "dot"
    # written back with sorted keys: the key order must not matter
    (run_copy / "config/dot.yaml").write_text(yaml.safe_dump(config, sort_keys=True))

    jobs = plan(run_copy, config="config/dot.yaml")
    n_results = N_MBE
    assert rules_of(jobs) == Counter(
        {"mbe": n_results, "mbe_scores": 1, "mbe_figure": 1, "provenance_summary": 1, "all": 1}
    )


def test_rerun_pinning_another_files_checksum_reruns_nothing(run_copy):
    # a download job's params hold its own file's pinned sha256, not every pinned one:
    # pinning a file no job reads (or adding a benchmark, which pins its files) reruns no
    # download and so nothing after one (before, every download and every job after it)
    config = yaml.safe_load((run_copy / "tests/configs/tiny.yaml").read_text())
    config["checksums"] = {"https://example.org/other.csv": "a" * 64}
    (run_copy / "config/pinned.yaml").write_text(yaml.safe_dump(config, sort_keys=True))

    assert plan(run_copy, config="config/pinned.yaml") == []


def test_rerun_a_further_world_and_a_model_trained_on_it_rerun_no_other_job(run_copy):
    # a probe world (Basta et al. 2020) and a probe-only model trained on its English
    # text: the existing worlds, models and scores are not planned again
    config = yaml.safe_load((run_copy / "tests/configs/tiny.yaml").read_text())
    config["demo"]["planted_probe"] = {
        "male_ratio": 1.0,
        "occupation_bias": 0.9,
        "occupation_subject_share": 0.6,
        "gender_free_occupation_share": 0.1,
    }
    train = {"world": "planted_probe", "languages": ["en"], "steps": 5}
    config["models"]["probe"] = {"train": train, "mbe": False, "pairs": False}
    (run_copy / "config/probe.yaml").write_text(yaml.safe_dump(config, sort_keys=True))

    assert plan(run_copy, config="config/probe.yaml") == []
    result = checked(snakemake(run_copy, "-n", "models/probe", config="config/probe.yaml"))
    jobs = planned_jobs(result.stdout)
    assert rules_of(jobs) == Counter({"demo_world": 1, "download_monolingual": 1, "train_mlm": 1})
    assert ("demo_world", {"world": "planted_probe"}) in jobs
    assert ("download_monolingual", {"world": "planted_probe", "lang": "en"}) in jobs


def test_rerun_code_of_one_measure_changed_reruns_only_that_measure(run_copy):
    module = run_copy / "src/mgbias/measures/mbe.py"
    module.write_text(module.read_text() + '\n_CHANGED = "the MBE code"\n')

    jobs = plan(run_copy)
    assert rules_of(jobs) == Counter(
        {"mbe": N_MBE, "mbe_scores": 1, "mbe_figure": 1, "provenance_summary": 1, "all": 1}
    )


def test_rerun_code_of_the_scoring_engine_changed_rescores_but_does_not_retrain(run_copy):
    module = run_copy / "src/mgbias/mlm/unmasked.py"
    module.write_text(module.read_text() + '\n_CHANGED = "the engine"\n')

    counts = rules_of(plan(run_copy))
    assert counts["score_unmasked"] == N_MBE and counts["mbe"] == N_MBE
    assert "train_mlm" not in counts and "mine_gendered" not in counts


def test_models_scored_together_take_one_job_per_sentence_set_and_score_as_alone(run_copy):
    # `scoring.together`: both models of a sentence set in one job, which writes each
    # model's scores as its own job did; switching it on reruns their scoring once (a
    # job's models and inputs change) and nothing upstream (the tiny world's pairs are
    # scored for one model only: left out here)
    config = yaml.safe_load((run_copy / "tests/configs/tiny.yaml").read_text())
    config["scoring"]["together"] = ["demo-planted", "demo-balanced"]
    for section in ("pair_datasets", "pair_tables"):
        config.pop(section)
    (run_copy / "config/together.yaml").write_text(yaml.safe_dump(config, sort_keys=True))
    counts = rules_of(plan(run_copy, config="config/together.yaml"))
    assert counts["score_unmasked_together"] == N_MBE // 2 and counts["mbe"] == N_MBE
    assert not {"score_unmasked", "train_mlm", "mine_gendered", "demo_world"} & set(counts)

    caches = [
        Path("results/score/mined", model, "planted/TED2020/de.parquet")
        for model in config["scoring"]["together"]
    ]
    alone = [_score_cache(run_copy / path) for path in caches]
    result = checked(snakemake(run_copy, *map(str, caches), config="config/together.yaml"))
    item = {"world": "planted", "corpus": "TED2020", "lang": "de"}
    assert planned_jobs(result.stdout + result.stderr) == [("score_unmasked_together", item)]
    for path, (table, metadata) in zip(caches, alone, strict=True):
        assert _score_cache(run_copy / path) == (table, metadata), path


def _score_cache(path: Path) -> tuple[dict, dict]:
    """A score cache's columns (as lists) and its metadata (the model, the input's hash)."""
    return pq.read_table(path, columns=list(COLUMNS)).to_pydict(), read_score_cache(path)[1]
