"""Gender preservation in translation (Kaneko et al. 2022, Figure 2)."""

import pandas as pd
import pytest

from mgbias.kaneko2022.preservation import (
    PRESERVATION_COLUMNS,
    gender_preservation,
    preservation_rows,
    pronoun_patterns,
    pronoun_translations,
)
from mgbias.report.figures import preservation_figure

FEMALE = frozenset({"she", "her", "woman"})
MALE = frozenset({"he", "his", "man"})


def test_counts_only_mined_sentences_with_the_english_pronoun_by_hand():
    pairs = [
        ("He is a doctor .", "Er ist Arzt ."),  # male, he, preserved
        ("he reads .", "liest ."),  # male, he, dropped
        ("The man reads .", "Der Mann liest ."),  # male, no "he": not counted
        ("She sings .", "Sie singt ."),  # female, she, preserved
        ("she and he sing .", "sie und er singen ."),  # both genders: not mined
        ("She runs .", ""),  # empty target: not mined
        ("It rains .", "Es regnet ."),  # neutral
        ("She says it .", "Erde ist rund ."),  # female; "er" inside a word is no match
    ]
    counts = gender_preservation(pairs, FEMALE, MALE, pronoun_patterns("de"))
    assert counts.to_dict() == {
        "n_male": 2,
        "n_male_preserved": 1,
        "n_female": 2,
        "n_female_preserved": 1,
    }


def test_japanese_kanojo_never_counts_as_kare():
    patterns = pronoun_patterns("ja")
    pairs = [("He is a doctor .", "彼女は医者です。"), ("She is a doctor .", "彼女は医者です。")]
    counts = gender_preservation(pairs, FEMALE, MALE, patterns)
    assert (counts.n_male, counts.n_male_preserved) == (1, 0)
    assert (counts.n_female, counts.n_female_preserved) == (1, 1)
    assert patterns["male"].search("彼は医者です。")


def test_matching_is_whole_word_and_case_insensitive_for_spaced_scripts():
    patterns = pronoun_patterns("fr")
    assert patterns["male"].search("Il travaille.") and not patterns["male"].search("ville")
    assert patterns["female"].search("ELLE lit") and not patterns["female"].search("elles")


def test_every_shipped_language_compiles_and_indonesian_has_no_entry():
    languages = sorted(pronoun_translations())
    assert languages == ["ar", "de", "es", "fr", "ja", "pt", "ru", "zh"]
    for lang in languages:
        assert set(pronoun_patterns(lang)) == {"male", "female"}
    with pytest.raises(ValueError, match="no translations of 'he'/'she' for 'id'.*'de'"):
        pronoun_patterns("id")
    with pytest.raises(ValueError, match="'xx': expected keys script"):
        pronoun_patterns("xx", {"xx": {"he": ["a"], "she": ["b"]}})


def test_rows_give_percentages_and_nan_without_sentences(tmp_path):
    record = {
        "world": "w",
        "corpus": "GlobalVoices",
        "lang": "de",
        "n_male": 8,
        "n_male_preserved": 6,
        "n_female": 0,
        "n_female_preserved": 0,
    }
    rows = pd.DataFrame(preservation_rows(record), columns=PRESERVATION_COLUMNS)
    assert rows.set_index("gender").loc["male", "pct"] == 75.0
    assert pd.isna(rows.set_index("gender").loc["female", "pct"])
    preservation_figure(rows, tmp_path / "figure.png")
    assert (tmp_path / "figure.png").read_bytes().startswith(b"\x89PNG")
