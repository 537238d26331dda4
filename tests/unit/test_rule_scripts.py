"""scripts/ holds the rules' job entry points and nothing else: every script is the
``script:`` of a rule, every rule's script exists (the command line lives in
``mgbias.cli``, not in scripts/), and a script is named after the rule that runs it,
or, where several rules run it, is listed in :data:`SHARED_SCRIPTS` and names them in
its docstring. Scripts stamp a job's wildcards into its records one way,
:func:`mgbias.runlog.wildcard_fields`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = re.compile(r'^\s+script:\s*\n\s+"\.\./scripts/([\w.]+)"', re.M)
RULE = re.compile(r"^(?:rule|checkpoint) (\w+):", re.M)
USE_RULE = re.compile(r"^use rule (\w+) as (\w+)", re.M)

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


def scripts_by_rule(texts: list[str]) -> dict[str, str]:
    """Rule name -> the script it runs (``script: "../scripts/NAME"``), over rule files.

    A rule's block runs from its ``rule``/``checkpoint``/``use rule`` line to the next
    line that starts in column 0. ``use rule A as B`` runs A's script unless B's block
    names its own. Rules without a script are left out.
    """
    own: dict[str, str | None] = {}
    parents: dict[str, str] = {}
    for text in texts:
        blocks = re.split(r"\n(?=\S)", text)
        for block in blocks:
            script = SCRIPT.search(block)
            if match := RULE.match(block):
                own[match.group(1)] = script.group(1) if script else None
            elif match := USE_RULE.match(block):
                parent, name = match.groups()
                parents[name] = parent
                own[name] = script.group(1) if script else None
    found = {}
    for name in own:
        rule = name
        while own[rule] is None and rule in parents:
            rule = parents[rule]
        if own[rule] is not None:
            found[name] = own[rule]
    return found


def rule_texts() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((REPO / "rules").glob("*.smk"))]


def rules_by_script(texts: list[str]) -> dict[str, set[str]]:
    """Script name -> the rules that run it."""
    found: dict[str, set[str]] = {}
    for rule, script in scripts_by_rule(texts).items():
        found.setdefault(script, set()).add(rule)
    return found


def test_the_parser_reads_rules_checkpoints_and_inherited_rules():
    text = (
        'rule a:\n    input:\n        x=1,\n    script:\n        "../scripts/a.py"\n\n\n'
        '# a comment\ncheckpoint b:\n    script:\n        "../scripts/shared.py"\n\n\n'
        "use rule b as c with:\n    output:\n        'c.txt',\n\n\n"
        "use rule c as d with:\n    params:\n        x=2,\n\n\n"
        'use rule a as e with:\n    script:\n        "../scripts/e.py"\n\n\n'
        "rule f:\n    shell:\n        'true'\n"
    )
    assert scripts_by_rule([text]) == {
        "a": "a.py", "b": "shared.py", "c": "shared.py", "d": "shared.py", "e": "e.py",
    }  # fmt: skip
    assert rules_by_script([text])["shared.py"] == {"b", "c", "d"}


def test_every_script_is_run_by_a_rule_and_every_rules_script_exists():
    used = set(rules_by_script(rule_texts()))
    present = {path.name for path in (REPO / "scripts").glob("*.py")}
    assert len(used) > 40
    assert not present - used, f"scripts no rule runs: {sorted(present - used)}"
    assert not used - present, f"rules run missing scripts: {sorted(used - present)}"


def test_each_script_is_named_after_its_rule_or_listed_as_shared():
    runs = rules_by_script(rule_texts())
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
    ``line N: code``. :func:`mgbias.runlog.wildcard_fields` is the one way to do it."""

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
        "mgbias.runlog.wildcard_fields(wildcards, *names)"
    )
