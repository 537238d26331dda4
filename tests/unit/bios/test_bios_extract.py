"""The per-line rules of the bio extractor, one rejection rule at a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wetfiles import DE_BODY, DE_LINE, EN_BODY, EN_LINE, ES_BODY, ES_LINE, FR_BODY, FR_LINE

from mgbias.bios.extract import extract_line, extract_page, infer_gender, page_in_language
from mgbias.bios.rules import load_title_lexicon, rules_for
from mgbias.bios.wet import Page

EN = rules_for("en")


def test_english_positive_hand_checked() -> None:
    cand = extract_line(EN_LINE, EN, uri="http://x", path="f.wet.gz")
    assert cand is not None
    assert (cand.prefix, cand.raw_title, cand.title, cand.gender) == (
        "John Smith",
        "architect",
        "architect",
        "M",
    )
    assert cand.start_pos == EN_LINE.index(". He") + 1
    assert cand.body == EN_BODY
    assert (cand.uri, cand.path) == ("http://x", "f.wet.gz")


@pytest.mark.parametrize(
    ("lang", "line", "prefix", "title", "gender", "body"),
    [
        ("es", ES_LINE, "María López", "nurse", "F", ES_BODY),
        ("de", DE_LINE, "Peter Müller", "journalist", "M", DE_BODY),
        ("fr", FR_LINE, "Claire Martin", "architect", "F", FR_BODY),
    ],
)
def test_other_languages(lang, line, prefix, title, gender, body) -> None:
    cand = extract_line(line, rules_for(lang))
    assert cand is not None
    assert (cand.prefix, cand.title, cand.gender, cand.body) == (prefix, title, gender, body)


REJECTED = {
    "first person": EN_LINE + " I met him there.",
    "second person": EN_LINE + " You can reach him by mail.",
    "both genders": EN_LINE + " She is his partner.",
    "no gender marker": "John Smith is an architect in Boston. "
    + "Designed over forty public libraries and schools across New England, featured in several "
    + "national magazines, teaching design at a local college for twenty years.",
    "title and": EN_LINE.replace("American architect based", "architect and designer based"),
    "title comma": EN_LINE.replace("American architect based", "architect, designer based"),
    "skipped word with comma": EN_LINE.replace("an American architect", "a famous, architect"),
    "two skipped words": EN_LINE.replace("an American architect", "a very famous architect"),
    "not a title": EN_LINE.replace("American architect", "American gardener"),
    "title without word end": EN_LINE.replace("American architect", "American architects"),
    "too short": EN_LINE[:149],
    "too long": EN_LINE + " word" * 200,
    "body too short": "John Smith is an architect who designed over forty public libraries and "
    + "schools across New England, featured in several national magazines and teaching at a "
    + "local college. He rests in Boston with his dog.",
    "no sentence end": EN_LINE.replace(". He", ", he"),
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_each_rule_rejects(case: str) -> None:
    assert len(REJECTED[case]) >= 150 or case == "too short"
    assert extract_line(REJECTED[case], EN) is None


def test_pattern_within_40_characters_of_the_start() -> None:
    tail = " is an architect based in Boston. " + EN_BODY
    assert extract_line("x" * 40 + tail, EN).prefix == "x" * 40
    assert extract_line("x" * 41 + tail, EN) is None


def test_tab_after_title_truncates_before_length_check() -> None:
    cand = extract_line(EN_LINE + "\t" + "y" * 1000, EN)
    assert cand is not None and cand.raw == EN_LINE


def test_spanish_article_is_the_gender_marker() -> None:
    line = "Juan Pérez es un abogado de Sevilla. " + ES_BODY.replace("Ella", "Trabaja")
    line = line.replace("Trabaja ha trabajado", "Ha trabajado")
    cand = extract_line(line, rules_for("es"))
    assert cand is not None and (cand.title, cand.gender) == ("attorney", "M")
    assert infer_gender("es un y es una", rules_for("es")) is None


def test_french_conjunction_is_the_authors_y_unless_fixed() -> None:
    with_et = FR_LINE.replace("architecte à Paris", "architecte et urbaniste à Paris")
    with_y = FR_LINE.replace("architecte à Paris", "architecte y urbaniste à Paris")
    assert extract_line(with_et, rules_for("fr")) is not None
    assert extract_line(with_y, rules_for("fr")) is None
    fixed = rules_for("fr", french_conjunction_fix=True)
    assert extract_line(with_et, fixed) is None
    assert extract_line(with_y, fixed) is not None


def test_german_formal_sie_is_rejected_but_female_sie_counts() -> None:
    de = rules_for("de")
    assert infer_gender("Anna ist Lehrerin. Sie unterrichtet Mathematik.", de) == "F"
    assert infer_gender("Anna ist Lehrerin. Fragen Sie nach ihr.", de) is None


def test_page_language_from_header_else_marker() -> None:
    assert page_in_language(Page("u", ("spa", "eng"), "no marker"), EN)
    assert not page_in_language(Page("u", ("spa",), "the marker"), EN)
    assert page_in_language(Page("u", None, "at the office"), EN)
    assert not page_in_language(Page("u", None, "nothing here"), EN)
    assert not page_in_language(Page("u", None, EN_LINE), EN)  # EN_LINE has no "the"
    text = "the menu\n" + EN_LINE + "\nfooter"
    assert [c.prefix for c in extract_page(Page("u", None, text), EN)] == ["John Smith"]
    assert list(extract_page(Page("u", ("deu",), text), EN)) == []


def test_title_lexicon_file_and_the_authors_trailing_brace(tmp_path: Path) -> None:
    good = tmp_path / "freq_titles_es.json"
    good.write_text(json.dumps({"arquitecta": "architect", "pastor": "pastor"}) + "\n}\n")
    assert load_title_lexicon(good) == {"arquitecta": "architect", "pastor": "pastor"}
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="surface form -> title"):
        load_title_lexicon(bad)
    rules = rules_for("es", load_title_lexicon(good))
    assert extract_line(ES_LINE.replace("enfermera", "arquitecta"), rules).title == "architect"
    with pytest.raises(ValueError, match="no bio extraction rules"):
        rules_for("tr")
