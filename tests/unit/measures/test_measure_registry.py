"""The measure registry is the one list of measures: everything that names measures agrees."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from fixtures.workflow_rules import workflow_rules

from mgbias.cli.main import build_parser
from mgbias.config import schema_path
from mgbias.measures.registry import MEASURES, PAIR_MEASURES, by_name, measures_markdown
from mgbias.pairs.scoring import MASKED, UNMASKED, parse_measures
from mgbias.report.pair_tables import MEASURE_ORDER

REPO = Path(__file__).resolve().parents[3]


def test_docs_measures_md_is_generated_from_the_registry():
    assert (REPO / "docs/measures.md").read_text(encoding="utf-8") == measures_markdown(), (
        "docs/measures.md is out of date: python -m mgbias.measures.registry > docs/measures.md"
    )


def test_schema_cli_report_and_scoring_name_the_same_pair_measures():
    schema = yaml.safe_load(schema_path().read_text(encoding="utf-8"))
    entry = schema["properties"]["pair_measures"]
    assert entry["items"]["enum"] == list(PAIR_MEASURES)
    assert entry["default"] == list(PAIR_MEASURES)
    score = build_parser().parse_args(["score", "--model", "m", "--data", "d"])
    assert parse_measures(score.measures) == list(PAIR_MEASURES)
    assert MEASURE_ORDER == list(PAIR_MEASURES)
    assert UNMASKED | MASKED == set(PAIR_MEASURES) and not UNMASKED & MASKED


@pytest.mark.parametrize("measure", MEASURES, ids=lambda m: m.name)
def test_every_entry_points_at_real_code_and_a_real_rule(measure):
    assert callable(measure.load())
    assert measure.load().__doc__, f"{measure.module}.{measure.function} has no docstring"
    assert measure.rule in workflow_rules(), measure.rule
    assert by_name(measure.name) is measure


def test_unknown_names_are_rejected_naming_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown measure 'xyz'; expected one of \['aul'"):
        by_name("xyz")
    with pytest.raises(ValueError, match="expected a comma-separated list of aul, aula"):
        parse_measures("aula,xyz")


def test_inbias_lists_the_variants_the_code_and_the_schema_accept():
    from mgbias.measures.inbias import VARIANTS

    schema = yaml.safe_load(schema_path().read_text(encoding="utf-8"))
    entry = schema["properties"]["zhao2020"]["properties"]["inbias"]["properties"]["variant"]
    variants = [name for name, _ in by_name("inbias").variants]
    assert variants == list(VARIANTS) == entry["enum"]
    assert variants[0] == entry["default"] == "averaged"  # Eq. 1 as printed
    assert "inbias" not in PAIR_MEASURES
