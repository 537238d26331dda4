"""Every rule's code inputs are its script's import closure, and a change to any of
them makes Snakemake plan the rule.

One dry run with ``--forceall`` lists every job's inputs: the library files
among them must be exactly the closure of the rule's script (conditional
modules aside). Then real edits of a completed tiny run show Snakemake
acting on them, for the modules whose hand-written lists had drifted.
"""

from __future__ import annotations

import re

import pytest
from snakerun import REPO, checked, copy_workflow, planned_job_inputs, planned_jobs, snakemake

from mgbias.code_inputs import import_closure

pytestmark = pytest.mark.workflow

#: Modules a rule runs only for some jobs (rules/score.smk: only_for).
CONDITIONAL = {
    (rule, "perturb.py"): lambda wildcards: wildcards["variant"] == "perturbed"
    for rule in ("score_pairs", "kaneko2023_score_pairs")
}


def rule_scripts() -> dict[str, str]:
    """Rule name -> script, from the rule files (``use rule A as B`` inherits A's)."""
    scripts: dict[str, str] = {}
    for path in sorted((REPO / "rules").glob("*.smk")):
        text = path.read_text()
        for block in re.split(r"(?m)^(?=rule |checkpoint |use rule )", text):
            name = re.match(r"(?:rule|checkpoint) (\w+):", block)
            script = re.search(r'script:\s*\n\s*"\.\./scripts/(\w+\.py)"', block)
            if name and script:
                scripts[name[1]] = script[1]
            inherited = re.match(r"use rule (\w+) as (\w+)", block)
            if inherited:
                scripts[inherited[2]] = scripts[inherited[1]]
    return scripts


def test_every_jobs_code_inputs_are_its_scripts_import_closure(tmp_path):
    workdir = copy_workflow(tmp_path / "run")
    # the full demo configuration plans every rule
    result = checked(snakemake(workdir, "-n", "--forceall", config="config/demo-full.yaml"))
    scripts = rule_scripts()
    src = workdir / "src"
    seen = set()
    for rule, wildcards, inputs in planned_job_inputs(result.stdout):
        if rule not in scripts:
            continue
        seen.add(rule)
        closure = {
            str(path.relative_to(workdir.resolve()))
            for path in import_closure(workdir / "scripts" / scripts[rule], src)
        }
        for (conditional_rule, module), applies in CONDITIONAL.items():
            if conditional_rule == rule and not applies(wildcards):
                closure.discard(f"src/mgbias/{module}")
        declared = {path for path in inputs if path.startswith("src/mgbias/")}
        declared -= {path for path in declared if not path.endswith(".py")}  # word lists
        assert declared == closure, (rule, wildcards, sorted(declared ^ closure))
    # a dry run cannot plan the jobs behind the bios checkpoint (the bios workflow test
    # runs them); the demo downloads nothing for Zhao et al. (2020), §3 (the paper's
    # configuration does: tests/integration/test_zhao2020_downloads.py) nor any title
    # lexicon (tests/integration/test_bios_workflow.py downloads one); its corpora are moses
    # zips, not text files of one's own (tests/workflow/test_own_model.py packs those)
    not_planned = {
        "download_corpus_files",
        "download_bios_shard",
        "bios_extract",
        "download_zhao2020",
        "download_bios_titles",
    }
    assert seen == set(scripts) - not_planned, sorted(set(scripts) - seen)


@pytest.mark.parametrize(
    ("module", "rules"),
    [
        ("mlm/scores.py", {"score_pairs", "score_unmasked", "pair_measures", "mbe"}),
        ("mlm/unmasked_cache.py", {"score_unmasked", "mbe"}),
        ("kaneko2022/sentences.py", {"mbe", "mine_gendered"}),
    ],
)
def test_a_change_to_a_once_forgotten_module_plans_its_rules(tiny_copy, module, rules):
    path = tiny_copy / "src/mgbias" / module
    path.write_text(path.read_text() + "\n# a change\n")
    planned = {rule for rule, _ in planned_jobs(checked(snakemake(tiny_copy, "-n")).stdout)}
    assert rules <= planned, sorted(rules - planned)
    assert "train_mlm" not in planned
