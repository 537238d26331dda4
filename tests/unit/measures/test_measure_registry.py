"""The measure registry is the one list of measures: everything that names measures agrees."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from fixtures.workflow_rules import workflow_rules

from mgbias.cli.main import build_parser
from mgbias.config import schema_path
from mgbias.measures import pair
from mgbias.measures.measure import PairMeasure
from mgbias.measures.registry import by_name, measures, measures_markdown, table_order
from mgbias.pairs.scoring import parse_measures

REPO = Path(__file__).resolve().parents[3]


def test_docs_measures_md_is_generated_from_the_registry():
    assert (REPO / "docs/measures.md").read_text(encoding="utf-8") == measures_markdown(), (
        "docs/measures.md is out of date: python -m mgbias.measures.registry > docs/measures.md"
    )


def test_schema_cli_and_scoring_name_the_same_pair_measures():
    names = list(pair.names())
    assert names == ["aul", "aula", "cps", "sss", "sjsd", "bsjsd"]
    schema = yaml.safe_load(schema_path().read_text(encoding="utf-8"))
    entry = schema["properties"]["pair_measures"]
    assert entry["items"]["enum"] == entry["default"] == names
    score = build_parser().parse_args(["score", "--model", "m", "--data", "d"])
    assert parse_measures(score.measures) == names
    assert pair.by_cache("unmasked") | pair.by_cache("masked") == set(names)
    assert pair.by_cache("unmasked") == {"aul", "aula"}
    assert all(isinstance(m, PairMeasure) for m in pair.pair_measures())


def test_the_tables_orders_come_from_the_records():
    # Kaneko et al. (2023), Table 1's rows; the oriented measures are its pair measures
    assert table_order() == ("tbs", "sss", "cps", "aul", "aula", "mbe")
    assert pair.oriented() == ("sss", "cps", "aul", "aula")
    assert pair.pair_measure("cps").round_to == 3 and pair.pair_measure("sss").round_to is None


def test_a_pair_measure_record_is_complete():
    with pytest.raises(ValueError, match="give sentence_scores or decided_by"):
        PairMeasure(**{**_fields(pair.pair_measure("aul")), "sentence_scores": None})
    with pytest.raises(ValueError, match="cache must be 'unmasked' or 'masked'"):
        PairMeasure(**{**_fields(pair.pair_measure("aul")), "cache": "both"})
    with pytest.raises(ValueError, match="exists already"):
        pair.register(pair.pair_measure("aul"))


def _fields(measure) -> dict:
    import dataclasses

    return {field.name: getattr(measure, field.name) for field in dataclasses.fields(measure)}


@pytest.mark.parametrize("measure", measures(), ids=lambda m: m.name)
def test_every_entry_points_at_real_code_and_a_real_rule(measure):
    assert callable(measure.formula())
    assert measure.formula().__doc__, f"{measure.module}.{measure.function} has no docstring"
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
    assert "inbias" not in pair.names()


def test_a_toy_measure_declared_in_one_module_reaches_every_table(fixed_bert_dir, tmp_path):
    """docs/contributing.md's "Add a measure": a module (tests/fixtures/toy_measure.py)
    and its registration; the command line, the API, the per-pair table and the
    meta-evaluation of Kaneko et al. (2023) then carry it."""
    import pandas as pd
    from fixtures import toy_measure

    import mgbias
    from mgbias.finetune.meta_evaluation import meta_evaluation, run_scores
    from mgbias.measures.orientation import orient_pairs, oriented_pair_scores

    data = tmp_path / "pairs.csv"
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "he is", "he is a doctor", "he is a doctor"],
            "sent_less": ["she is a doctor", "she is a doctor", "she is", "she is a doctor"],
            "stereo_antistereo": ["stereo"] * 4,
            "bias_type": ["gender"] * 4,
        }
    ).to_csv(data, index=False)
    assert "short" not in pair.names()
    with pair.registered(toy_measure.MEASURE):
        score = build_parser().parse_args(["score", "--model", "m", "--data", "d"])
        assert parse_measures(score.measures)[-1] == "short"
        report = mgbias.score_pairs(fixed_bert_dir, data, device="cpu", seed=0)
        # by hand: sent_more is shorter in pair 2 only, longer in pair 3, tied in 1 and 4
        row = report.summary.set_index("measure").loc["short"]
        assert (row["score"], row["n"], row["n_ties"]) == (25.0, 4, 2)
        per_pair = report.per_pair
        assert (per_pair["short_more"] > per_pair["short_less"]).tolist() == [
            False, True, False, False
        ]  # fmt: skip
        assert any(line.startswith("SHORT 25") for line in report.verdicts)
        orientation = orient_pairs(per_pair.sent_more, per_pair.sent_less, {"he"}, {"she"})
        oriented = oriented_pair_scores(per_pair, orientation)
        assert oriented.measure.unique().tolist() == ["sss", "cps", "aul", "aula", "short"]
        runs = []
        for r in (0.0, 0.5, 1.0):
            scores = run_scores(oriented).assign(score=lambda frame, r=r: frame.score + r)
            run = {"language": "en", "corpus": "news", "model": "m", "run": f"r{r}", "r": r}
            runs.append(scores.assign(**run, seed=0))
        table = meta_evaluation(pd.concat(runs, ignore_index=True))
        assert table.measure.unique().tolist() == ["sss", "cps", "aul", "aula", "short"]
    assert "short" not in pair.names()
