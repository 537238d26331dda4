"""scripts/ holds the rules' job entry points and nothing else: every script is the
``script:`` of a rule, every rule's script exists (the command line lives in
``mgbias.cli.main``, not in scripts/), and a script is named after the rule that runs it,
or, where several rules run it, is listed in :data:`SHARED_SCRIPTS`. That such a script
names its rules in its docstring and that scripts stamp a job's wildcards into its records
one way (:func:`mgbias.workflow.runlog.wildcard_fields`) are rules of how source is
written: `make lint` checks them (tests/fixtures/source_rules.py)."""

from __future__ import annotations

from pathlib import Path

from fixtures.source_rules import breaches, measure_lists, wildcard_stamps
from fixtures.workflow_rules import script_name, workflow_rules

REPO = Path(__file__).resolve().parents[3]

#: The scripts that several rules run (one part or table per rule), by the rules that
#: run them; every other script is named after its one rule.
SHARED_SCRIPTS = {
    "basta2020_tables.py": {
        "basta2020_results", "basta2020_table1", "basta2020_tables2to5",
        "basta2020_pca_variance", "basta2020_layers", "basta2020_figure1",
        "basta2020_table6", "basta2020_table7", "basta2020_figure7", "basta2020_figure8",
        "basta2020_figure9",
    },
    "bios_tables.py": {
        "bios_table5", "bios_counts", "bios_monolingual", "bios_transfer", "bios_table10",
        "bios_table11",
    },
    "download.py": {
        "download_corpus", "download_monolingual", "download_pairs", "download_controlled",
        "download_basta2020", "download_zhao2020", "download_bios_titles",
        "download_bios_listing",
    },
    "inbias.py": {"zhao2020_inbias", "zhao2020_inbias_space"},
    "kaneko2023_figures.py": {"kaneko2023_figure2", "kaneko2023_figure3"},
    # one model per job, or every fine-tuned model of a Kaneko et al. (2023) grid
    "kaneko2023_probe.py": {"kaneko2023_probe", "kaneko2023_probe_grid"},
    "finetune_mlm.py": {"finetune_mlm", "kaneko2023_finetune_grid"},
    "score_pairs.py": {"score_pairs", "kaneko2023_score_pairs", "score_pairs_together"},
    "score_unmasked.py": {
        "score_unmasked", "kaneko2023_score_unmasked", "score_unmasked_together",
    },
    "pairs_table.py": {"pairs_scores", "pairs_by_model"},
    "steinborn_table.py": {"pairs_steinborn_table2", "pairs_steinborn_table3"},
    "zhao2020_tables.py": {
        "zhao2020_table1", "zhao2020_table2", "zhao2020_table3", "zhao2020_table4",
        "zhao2020_table12", "zhao2020_table13",
    },
}  # fmt: skip


def scripts_by_rule() -> dict[str, str]:
    """Rule name -> the file name of the script it runs, as Snakemake reads the rules
    (``use rule A as B`` runs A's script unless B names its own); rules without a script
    are left out."""
    return {name: script_name(rule) for name, rule in workflow_rules().items() if rule.script}


def rules_by_script() -> dict[str, set[str]]:
    """Script name -> the rules that run it."""
    found: dict[str, set[str]] = {}
    for rule, script in scripts_by_rule().items():
        found.setdefault(script, set()).add(rule)
    return found


def test_an_inherited_rule_runs_its_parents_script():
    scripts = scripts_by_rule()
    assert scripts["kaneko2023_score_pairs"] == scripts["score_pairs"] == "score_pairs.py"
    assert "all" not in scripts  # no script: left out


def test_every_script_is_run_by_a_rule_and_every_rules_script_exists():
    used = set(rules_by_script())
    present = {path.name for path in (REPO / "scripts").glob("*.py")}
    assert len(used) > 40
    assert not present - used, f"scripts no rule runs: {sorted(present - used)}"
    assert not used - present, f"rules run missing scripts: {sorted(used - present)}"


def test_each_script_is_named_after_its_rule_or_listed_as_shared():
    runs = rules_by_script()
    misnamed = {
        script: sorted(rules)
        for script, rules in runs.items()
        if script not in SHARED_SCRIPTS and rules != {script.removesuffix(".py")}
    }
    assert not misnamed, (
        f"scripts not named after the one rule that runs them: {misnamed} (rename the "
        "script to the rule's name, or list a script several rules run in SHARED_SCRIPTS)"
    )
    stale = {
        script: (sorted(rules), sorted(runs.get(script, set())))
        for script, rules in SHARED_SCRIPTS.items()
        if runs.get(script) != rules
    }
    assert not stale, f"SHARED_SCRIPTS (listed, run by) differ from rules/*.smk: {stale}"
    assert all(len(rules) > 1 for rules in SHARED_SCRIPTS.values())


def test_the_stamp_finder_sees_each_hand_written_spelling():
    source = (
        "a = {**dict(smk.wildcards.items()), 'n': 1}\n"
        "b = {'model': wildcards.model, 'n': smk.params.n}\n"
        "table.insert(0, 'lang', smk.wildcards.lang)\n"
        "c = {**wildcard_fields(smk.wildcards, 'model'), 'x': smk.params.x}\n"
        "frame = load(lang=wildcards.lang)\n"
    )
    assert wildcard_stamps(source) == [
        (1, "smk.wildcards.items()"),
        (2, "wildcards.model"),
        (3, "smk.wildcards.lang"),
    ]


def test_the_measure_list_finder_sees_lists_of_two_or_more_measure_names():
    source = (
        'ORDER = ["aul", "aula", "total"]\n'
        "def table(frame):\n"
        '    return {"cps": frame.cps, "sss": frame.sss}\n'
        'ONE = ("aula", "model")\n'
        'name = "aula"\n'
        'for pair in [("x", "cps"), ("y", "aul")]:\n'
        "    pass\n"
    )
    names = ["aul", "aula", "cps", "sss"]
    assert measure_lists(source, names) == [
        (1, "ORDER", ["aul", "aula"]),
        (3, "table", ["cps", "sss"]),
    ]


def test_restated_measure_lists_are_breaches_but_a_paper_s_own(tmp_path):
    package = tmp_path / "src" / "mgbias"
    for folder in ("measures", "report", "api"):
        (package / folder).mkdir(parents=True)
    (tmp_path / "scripts").mkdir()
    (package / "measures" / "registry.py").write_text('ORDER = ("aul", "aula")\n', "utf-8")
    (package / "report" / "pair_tables.py").write_text(
        'def steinborn_table2(frame):\n    return frame[["sjsd", "cps"]]\n', "utf-8"
    )
    (package / "api" / "scores.py").write_text(
        'SHOWN = ["aul", "aula"]\n\ndef show():\n    return {"cps": 1, "sss": 2}\n', "utf-8"
    )
    (tmp_path / "scripts" / "table.py").write_text('columns = ["sjsd", "bsjsd"]\n', "utf-8")
    found = breaches(tmp_path, {}, ["aul", "aula", "cps", "sss", "sjsd", "bsjsd"])
    hint = (
        " restates measures by name; derive the list from mgbias.measures.registry (or name "
        "the paper that chose it in tests/fixtures/source_rules.py's PAPERS_MEASURE_LISTS)"
    )
    assert found == [
        "scripts/table.py:1: ['sjsd', 'bsjsd']" + hint,
        "src/mgbias/api/scores.py:1: ['aul', 'aula']" + hint,
        "src/mgbias/api/scores.py:4: ['cps', 'sss']" + hint,
    ]


def test_make_lint_names_each_breach_of_the_source_rules(tmp_path):
    """`make lint` runs tests/fixtures/source_rules.py over the checkout; on a tree with
    one breach of each rule it names each, with its file and line."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "tests" / "unit").mkdir(parents=True)
    (tmp_path / "scripts" / "shared.py").write_text('"""Rules ``a``."""\n', "utf-8")
    (tmp_path / "scripts" / "mbe_pairs.py").write_text(
        '"""Reads caches."""\n\nrecord = {"lang": smk.wildcards.lang}\nimport torch\n', "utf-8"
    )
    (tmp_path / "tests" / "unit" / "test_x.py").write_text(
        "config = BertConfig(vocab_size=5)\n", "utf-8"
    )
    found = breaches(tmp_path, {"shared.py": {"a", "b"}, "mbe_pairs.py": {"mbe_pairs"}})
    assert found == [
        "scripts/shared.py:1: the docstring does not name the rules ['b']",
        "scripts/mbe_pairs.py:3: smk.wildcards.lang copies wildcards by hand; use "
        "mgbias.workflow.runlog.wildcard_fields(wildcards, *names)",
        "scripts/mbe_pairs.py:4: imports torch (reads caches only)",
        "tests/unit/test_x.py:1: BertConfig(...): build tiny BERTs with "
        "tests/fixtures/tiny_models.py (bert_config, build_model, fixed_bert, bert_from_config)",
    ]
    (tmp_path / "scripts" / "shared.py").write_text('"""Rules ``a`` and ``b``."""\n', "utf-8")
    assert len(breaches(tmp_path, {"shared.py": {"a", "b"}})) == 3


def test_the_shared_scripts_are_those_several_rules_run():
    assert {s for s, rules in rules_by_script().items() if len(rules) > 1} == set(SHARED_SCRIPTS)
