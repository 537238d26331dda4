"""Tables 4 and 5 of Kaneko et al. (2022): HT, MT and Tmp with Diff = method − HT."""

import copy
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mgbias.config import ConfigError, validate_config
from mgbias.kaneko2022.translations import (
    aligned_genders,
    translations_markdown,
    translations_table,
)
from mgbias.workflow.core import mbe_translated_jobs, mbe_translation_jobs, pair_jobs

REPO = Path(__file__).resolve().parents[3]


def record(model, method, score, p=0.5, ties=0):
    row = {
        "lang": "ja",
        "model": model,
        "method": method,
        "dataset": {"HT": "ht", "MT": "mt", "MBE": "ht", "Tmp": "tmp"}[method],
        "score": score,
        "p_value": p,
        "significant": p < 0.05,
        "n": 262,
    }
    return row if method == "MBE" else {**row, "n_ties": ties}


def test_diff_is_the_signed_difference_to_ht_and_rows_follow_the_papers_order():
    records = [
        record("large", "Tmp", 88.31, 0.001),
        record("base", "HT", 52.67),
        record("base", "Tmp", 40.0, 0.01),
        record("large", "HT", 60.0),
        record("base", "MT", 55.0),
    ]
    table = translations_table(records)
    assert list(zip(table.method, table.model, strict=True)) == [
        ("HT", "base"),
        ("HT", "large"),
        ("MT", "base"),
        ("Tmp", "base"),
        ("Tmp", "large"),
    ]
    diff = table.set_index(["method", "model"])["diff"]
    assert pd.isna(diff[("HT", "base")])
    assert diff[("MT", "base")] == pytest.approx(55.0 - 52.67)
    assert diff[("Tmp", "base")] == pytest.approx(40.0 - 52.67)
    assert diff[("Tmp", "large")] == pytest.approx(28.31)
    text = translations_markdown(table)
    assert "## ja" in text and "88.31 ‡" in text and "28.31" in text


def test_ties_are_shown_for_eq3_rows_and_left_empty_for_mbe():
    """A translation that loses the gender makes a pair's sentences identical: a tie,
    in Eq. 3's denominator but never preferred, so MT reads lower with no preference."""
    table = translations_table(
        [record("m", "HT", 48.33), record("m", "MT", 35.33, ties=88), record("m", "MBE", 50.0)]
    )
    ties = table.set_index("method")["n_ties"]
    assert ties["MT"] == 88 and ties["HT"] == 0 and pd.isna(ties["MBE"])
    text = translations_markdown(table)
    assert re.search(r"\| MT +\| m +\| +35\.33 \| +88 \| +-13\.00 \|", text), text
    assert re.search(r"\| MBE +\| m +\| +50\.00 \| +\| +1\.67 \|", text), text
    assert "ties = pairs whose two sentences score the same" in text


def test_mbe_rows_sit_between_mt_and_tmp():
    table = translations_table(
        [record("m", "Tmp", 70.0), record("m", "MBE", 55.0), record("m", "HT", 52.0)]
    )
    assert list(table.method) == ["HT", "MBE", "Tmp"]
    assert table.set_index("method").loc["MBE", "diff"] == pytest.approx(3.0)


def test_translated_sentences_take_the_gender_of_their_english_originals():
    english = [("he is a doctor .", "she is a doctor ."), ("it rains .", "she and he sing .")]
    translated = [("彼は医者です。", "彼女は医者です。"), ("雨です。", "二人は歌う。")]
    female, male = frozenset({"she"}), frozenset({"he"})
    genders = aligned_genders(english, translated, female, male)
    assert genders == ["male", "female", None, "both"]
    with pytest.raises(ValueError, match="a.csv and b.json: 2 English pairs but 1 translated"):
        aligned_genders(english, translated[:1], female, male, what="a.csv and b.json")


def test_a_model_without_ht_or_an_unknown_method_is_an_error():
    with pytest.raises(ValueError, match=r"no HT score for \[\('ja', 'base'\)\]"):
        translations_table([record("base", "Tmp", 50.0)])
    with pytest.raises(ValueError, match=r"unknown method\(s\) \['XX'\]"):
        translations_table(
            [record("base", "HT", 50.0), {**record("base", "HT", 1), "method": "XX"}]
        )


@pytest.fixture()
def paper_config() -> dict:
    config = yaml.safe_load((REPO / "config/paper.yaml").read_text(encoding="utf-8"))
    return validate_config(config)


def test_jobs_cover_every_method_and_model_and_models_score_only_their_languages(paper_config):
    jobs = mbe_translation_jobs(paper_config)
    # ja: 4 models x (HT, Tmp, HT_name); ru: 2 x (HT, Tmp, HT_name)
    assert len(jobs) == 4 * 3 + 2 * 3
    assert {job["method"] for job in jobs} == {"HT", "Tmp", "HT_name"}
    mbe = mbe_translated_jobs(paper_config)
    assert len(mbe) == 4 + 2 and {job["english"] for job in mbe} == {"crows_pairs_gender"}
    assert {"lang": "ru", "method": "Tmp", "dataset": "template_pairs",
            "model": "rubert-base-cased"} in jobs  # fmt: skip
    templates = [job for job in pair_jobs(paper_config) if job["dataset"] == "template_pairs"]
    assert {(job["model"], job["lang"]) for job in templates} == {
        (model, "ja") for model in paper_config["mbe_translations"]["ja"]["models"]
    } | {(model, "ru") for model in paper_config["mbe_translations"]["ru"]["models"]}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s["ja"].update(models=["nope"]), r"mbe_translations.ja.models': 'nope'"),
        (lambda s: s["ja"].update(mt="nope"), r"mbe_translations.ja.mt': 'nope'"),
        (lambda s: s["ru"].pop("ht"), r"mbe_translations"),
        (lambda s: s["ja"].update(names="nope"), r"mbe_translations.ja.names': 'nope'"),
        (
            lambda s: s.update(ko=dict(s["ja"])),
            r"mbe_translations.ko.names': no native names for 'ko'",
        ),
    ],
)
def test_bad_sections_are_refused_naming_the_key(edit, message):
    config = yaml.safe_load((REPO / "config/paper.yaml").read_text(encoding="utf-8"))
    config = copy.deepcopy(config)
    edit(config["mbe_translations"])
    with pytest.raises(ConfigError, match=message):
        validate_config(config)
