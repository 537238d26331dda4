"""The layout: every output path is defined once, follows the convention that
its first directories name its rule file, and docs/outputs.md lists them."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

import pytest

from mgbias import layout
from mgbias.layout import OUTPUTS, matching_output, outputs_markdown, rule_file

REPO = Path(__file__).resolve().parents[2]


def rules_by_file() -> dict[str, set[str]]:
    """Rule file name -> the rules it defines (``rule X:`` and ``use rule A as X``)."""
    found = {}
    for path in sorted((REPO / "rules").glob("*.smk")):
        text = path.read_text(encoding="utf-8")
        names = re.findall(r"^(?:rule|checkpoint) (\w+):", text, re.M)
        names += re.findall(r"^use rule \w+ as (\w+)", text, re.M)
        found[path.name] = set(names)
    return found


def test_docs_outputs_md_is_generated_from_the_layout():
    assert (REPO / "docs/outputs.md").read_text(encoding="utf-8") == outputs_markdown(), (
        "docs/outputs.md is out of date: python -m mgbias.layout > docs/outputs.md"
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


def test_rule_files_spell_no_output_path_themselves():
    """Outputs and inputs come from mgbias.layout; only log and benchmark paths
    (logs/<rule>/...) are written in the rule files."""
    for path in [REPO / "Snakefile", *sorted((REPO / "rules").glob("*.smk"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"[\"'](data|models|results)/", line), f"{path.name}:{number}"


def test_convention_examples():
    assert rule_file("data/demo/mirror/x") == "demo.smk"
    assert rule_file("data/raw/pairs/x") == "download.smk"
    assert rule_file("data/mined/x") == "mine.smk"
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
