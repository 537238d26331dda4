"""The layout: every output path is defined once, follows the convention that
its first directories name its rule file, and docs/outputs.md lists them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
from fixtures.workflow_rules import rule_file as defining_file
from fixtures.workflow_rules import workflow_rules

from mgbias.workflow import layout
from mgbias.workflow.layout import (
    OUTPUTS,
    clean_targets,
    matching_output,
    outputs_markdown,
    rule_file,
    top_folder,
)

REPO = Path(__file__).resolve().parents[3]


def rules_by_file() -> dict[str, set[str]]:
    """Rule file name -> the rules it defines, as Snakemake reads them."""
    found: dict[str, set[str]] = {}
    for name, rule in workflow_rules().items():
        found.setdefault(defining_file(rule), set()).add(name)
    return found


def test_docs_outputs_md_is_generated_from_the_layout():
    assert (REPO / "docs/outputs.md").read_text(encoding="utf-8") == outputs_markdown(), (
        "docs/outputs.md is out of date: python -m mgbias.workflow.layout > docs/outputs.md"
    )


@pytest.mark.parametrize("output", OUTPUTS.values(), ids=lambda o: o.key)
def test_each_path_is_written_by_a_rule_of_the_file_its_prefix_names(output):
    defined = rules_by_file()
    for rule in output.rules:
        assert rule in defined[rule_file(output.template)], (
            f"{output.template}: written by {rule}, which is not in "
            f"rules/{rule_file(output.template)}"
        )


@pytest.mark.parametrize("output", OUTPUTS.values(), ids=lambda o: o.key)
def test_tables_and_figures_are_named_after_their_rule(output):
    parts = PurePosixPath(output.template).parts
    if parts[:2] in (("results", "tables"), ("results", "figures")):
        assert parts[2].split(".", 1)[0] == output.rule


def test_every_rule_output_is_a_path_of_the_layout():
    """Outputs come from mgbias.workflow.layout (rules write only log and benchmark paths,
    logs/<rule>/..., themselves): each output a rule declares, its wildcards' constraints
    aside, is a path of the layout (a template, or one with some of its wildcards
    filled in)."""
    for name, rule in workflow_rules().items():
        for declared in rule.output:
            template = re.sub(r"\{(\w+),[^}]*\}", r"{\1}", str(declared))
            found = matching_output(template)
            assert found is not None, f"rule {name}: output {declared} is not in the layout"
            assert name in found.rules, f"rule {name}: output {declared} is {found.key}'s"


def test_convention_examples():
    assert rule_file("data/demo/mirror/x") == "demo.smk"
    assert rule_file("data/raw/pairs/x") == "download.smk"
    assert rule_file("data/mined/x") == "mine.smk"
    assert rule_file("data/mined/templates/{lang}.csv") == "mine.smk"
    # a paper's own mined datasets: data/mined/<family>/ (the family's rule file)
    assert rule_file("data/mined/bios/datasets/{lang}.jsonl") == "bios.smk"
    assert rule_file("data/mined/basta2020/{world}/{domain}.txt") == "basta2020.smk"
    assert rule_file("models/{model}") == "models.smk"
    assert rule_file("results/score/pairs/x") == "score.smk"
    assert rule_file("results/tables/mbe_scores.csv") == "mbe.smk"
    assert rule_file("results/figures/mbe_figure.png") == "mbe.smk"
    with pytest.raises(ValueError, match="follows no layout convention"):
        rule_file("output/x.csv")


def test_path_formats_the_template_and_rejects_wrong_wildcards():
    assert layout.path("mbe_result", model="m", world="w", corpus="c", lang="de") == (
        "results/mbe/m/w/c/de.json"
    )
    with pytest.raises(ValueError, match=r"expected wildcards \['corpus', 'lang', 'model'"):
        layout.path("mbe_result", model="m")
    with pytest.raises(KeyError, match="no output 'nope'"):
        layout.template("nope")


def test_matching_output_finds_the_template_of_a_concrete_path():
    assert matching_output("results/score/pairs/m/d/original/en.masked.parquet").key == (
        "score_pairs_masked"
    )
    assert matching_output("results/elsewhere.csv") is None
    # {filename} matches a checksum's path too: the template with more literal text wins
    assert matching_output("data/raw/pairs/d/en/x.csv").key == "raw_pairs"
    assert matching_output("data/raw/pairs/d/en/x.csv.sha256").key == "raw_pairs_checksum"


def under(path: str, folders: list[str]) -> bool:
    return any(path == folder or path.startswith(folder + "/") for folder in folders)


def test_clean_results_removes_the_top_folder_of_every_path():
    """``make clean-results`` removes what ``python -m mgbias.workflow.layout --clean-targets``
    prints: a new path under data/, models/ or results/ cannot be missed."""
    targets = clean_targets()
    templates = [output.template for output in OUTPUTS.values()]
    assert {template.split("/")[0] for template in templates} == {"data", "models", "results"}
    missed = [t for t in templates if not (under(top_folder(t), targets) and under(t, targets))]
    assert not missed


def test_clean_targets_are_the_layouts_folders_and_logs():
    targets = clean_targets()
    assert targets == sorted(set(targets)) and "logs" in targets
    assert not any(under(t, [o for o in targets if o != t]) for t in targets)
    # the folders a hand-written list once missed
    for folder in ("results/bios", "results/zhao2020", "results/kaneko2023", "results/basta2020"):
        assert folder in targets
    assert under("models/vectors/w/en.vec", targets) and under("models/demo-planted", targets)
    # downloads and mined text are the workflow's (rules/download.smk, rules/mine.smk)
    assert {"data/demo", "data/raw", "data/mined"} <= set(targets)


def test_datasets_are_under_data_and_results_hold_what_is_computed_on_them():
    """Every dataset mined from the downloads (the gendered sentences, the bios of
    Zhao et al. 2020 and their splits, the probe corpora of Basta et al. 2020) is under
    data/mined/, which the DVC data stage owns whole (dvc.yaml)."""
    keys = ["mined_sentences", "bios_plan", "bios_shard", "bios_dataset", "bios_split"]
    keys += ["basta2020_corpus", "controlled_mixture", "template_pairs"]
    assert [top_folder(OUTPUTS[key].template) for key in keys] == ["data/mined"] * len(keys)
    assert OUTPUTS["bios_dataset"].template == "data/mined/bios/datasets/{lang}.jsonl"
    assert OUTPUTS["basta2020_corpus"].template == "data/mined/basta2020/{world}/{domain}.txt"
    # the classifier's runs and the probes' vectors are computed: results/
    for key in ["bios_classifier", "bios_finetune", "basta2020_vectors", "basta2020_probes"]:
        assert OUTPUTS[key].template.startswith("results/"), key


def test_clean_targets_keep_tracked_files_and_ones_own_data():
    targets = clean_targets()
    assert "data" not in targets and "results" not in targets
    kept = ["data/.gitkeep", "results/.gitkeep", "data/my_corpus/de-en.de", "config/config.yaml"]
    listed = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=False
    )
    if listed.returncode == 0:
        kept += listed.stdout.splitlines()
    assert not [path for path in kept if under(path, targets)]


def test_top_folder_stops_at_a_wildcard():
    assert top_folder("results/tables/mbe_scores.csv") == "results/tables"
    assert top_folder("data/demo/mirror/{world}/world.json") == "data/demo"
    assert top_folder("models/{model}") == "models"
    assert top_folder("models/vectors/{world}/{lang}.vec") == "models/vectors"
    with pytest.raises(ValueError, match="a wildcard right below results/"):
        top_folder("results/{family}/x.csv")


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_clean_results_removes_the_targets_and_nothing_else(tmp_path):
    (tmp_path / "src").symlink_to(REPO / "src", target_is_directory=True)
    made = ["data/raw/real/TED2020/de-en.txt.zip", "models/vectors/w/en.vec", "logs/mbe/x.log"]
    made += ["data/mined/bios/shards/x.jsonl", "results/bios/classifier/x.json"]
    made += ["results/tables/mbe_scores.csv"]
    kept = ["data/.gitkeep", "data/my_corpus/de-en.de", "results/.gitkeep", ".snakemake/x"]
    for name in made + kept:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    result = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-f",
            str(REPO / "Makefile"),
            "clean-results",
            f"PYTHON={sys.executable}",
        ],
        cwd=tmp_path,
        # run from `make test`, a sub-make would print "Entering directory" lines
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["rm", "-rf", *clean_targets()]
    assert not [name for name in made if (tmp_path / name).exists()]
    assert [name for name in kept if (tmp_path / name).exists()] == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == [".snakemake", "data", "results", "src"]
