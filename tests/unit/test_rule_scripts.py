"""scripts/ holds the rules' job entry points and nothing else: every script is the
``script:`` of a rule, every rule's script exists (the command line lives in
``mgbias.cli.main``, not in scripts/), and a script is named after the rule that runs it,
or, where several rules run it, is listed in :data:`SHARED_SCRIPTS` and names them in
its docstring. Scripts stamp a job's wildcards into its records one way,
:func:`mgbias.workflow.runlog.wildcard_fields`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fixtures.workflow_rules import script_name, workflow_rules

REPO = Path(__file__).resolve().parents[2]

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
    "score_pairs.py": {"score_pairs", "kaneko2023_score_pairs"},
    "score_unmasked.py": {"score_unmasked", "kaneko2023_score_unmasked"},
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


@pytest.mark.parametrize("script", sorted(SHARED_SCRIPTS))
def test_a_shared_script_names_its_rules_in_its_docstring(script):
    doc = ast.get_docstring(ast.parse((REPO / "scripts" / script).read_text(encoding="utf-8")))
    missing = sorted(rule for rule in SHARED_SCRIPTS[script] if f"``{rule}``" not in (doc or ""))
    assert not missing, f"scripts/{script}: its docstring does not name the rules {missing}"


def wildcard_stamps(source: str) -> list[str]:
    """The places in a script's ``source`` that copy wildcards into a record by hand:
    ``dict(<...>wildcards.items())``, a dict literal's value ``<...>wildcards.NAME`` and
    an argument ``<...>wildcards.NAME`` of an ``insert`` call (a table column), each as
    ``line N: code``. :func:`mgbias.workflow.runlog.wildcard_fields` is the one way to do it."""

    def is_wildcards(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "wildcards") or (
            isinstance(node, ast.Attribute) and node.attr == "wildcards"
        )

    def is_field(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and is_wildcards(node.value)

    found: list[ast.expr] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            hits = [value for value in node.values if is_field(value)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            hits = [
                arg
                for arg in node.args
                if node.func.id == "dict"
                and isinstance(arg, ast.Call)
                and is_field(arg.func)
                and arg.func.attr == "items"
            ]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            hits = [arg for arg in node.args if node.func.attr == "insert" and is_field(arg)]
        else:
            hits = []
        found += hits
    found.sort(key=lambda hit: (hit.lineno, hit.col_offset))
    return [f"line {hit.lineno}: {ast.unparse(hit)}" for hit in found]


def test_the_stamp_finder_sees_each_hand_written_spelling():
    source = (
        "a = {**dict(smk.wildcards.items()), 'n': 1}\n"
        "b = {'model': wildcards.model, 'n': smk.params.n}\n"
        "table.insert(0, 'lang', smk.wildcards.lang)\n"
        "c = {**wildcard_fields(smk.wildcards, 'model'), 'x': smk.params.x}\n"
        "frame = load(lang=wildcards.lang)\n"
    )
    assert wildcard_stamps(source) == [
        "line 1: smk.wildcards.items()",
        "line 2: wildcards.model",
        "line 3: smk.wildcards.lang",
    ]


def test_scripts_stamp_wildcards_into_records_one_way():
    stamps = {
        path.name: found
        for path in sorted((REPO / "scripts").glob("*.py"))
        if (found := wildcard_stamps(path.read_text(encoding="utf-8")))
    }
    assert not stamps, (
        f"scripts copying wildcards into records by hand: {stamps}; use "
        "mgbias.workflow.runlog.wildcard_fields(wildcards, *names)"
    )
