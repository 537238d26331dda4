"""The gendered sentence files between mining and scoring, with and without gender words."""

from __future__ import annotations

import pytest

from mgbias.errors import InputError
from mgbias.kaneko2022.sentences import (
    read_gender_words,
    read_gendered_sentences,
    write_gendered_sentences,
)


def test_sentences_and_their_gender_words_round_trip(tmp_path):
    path = tmp_path / "de.tsv"
    counts = write_gendered_sentences(
        path,
        ["Sie traf ihre Ex-Frau.\n", "a\tb"],
        ["Er ist da."],
        female_words=["ex wife|her|she\n", "she"],
        male_words=["he"],
    )
    assert counts == (2, 1)
    assert path.read_text(encoding="utf-8") == (
        "gender\tsentence\tgender_words\n"
        "female\tSie traf ihre Ex-Frau.\tex wife|her|she\n"
        'female\t"a\tb"\tshe\n'
        "male\tEr ist da.\the\n"
    )
    genders, sentences = read_gendered_sentences(path)
    assert list(genders) == ["female", "female", "male"]
    assert sentences == ["Sie traf ihre Ex-Frau.", "a\tb", "Er ist da."]
    assert read_gender_words(path) == ["ex wife|her|she", "she", "he"]


def test_a_file_without_gender_words_reads_as_before(tmp_path):
    path = tmp_path / "de.tsv"
    assert write_gendered_sentences(path, ["Sie ist da."], ["Er ist da."]) == (1, 1)
    assert path.read_text(encoding="utf-8") == (
        "gender\tsentence\nfemale\tSie ist da.\nmale\tEr ist da.\n"
    )
    assert read_gender_words(path) is None
    genders, sentences = read_gendered_sentences(path)
    assert list(genders) == ["female", "male"] and sentences == ["Sie ist da.", "Er ist da."]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "gender\tsentence\tgender_words\nfemale\tSie.\tshe\nmale\tEr.\n",
            r"bad.tsv:3: expected '<female\|male><TAB><sentence><TAB><gender words>', "
            r"found \['male', 'Er.'\]",
        ),
        (
            "gender\tsentence\tgender_words\nfemale\tSie.\t\n",
            r"bad.tsv:2: expected the gender words .*found an empty field",
        ),
        (
            "gender\tsentence\tgender_words\nfemale\tSie.\tshe\textra\n",
            r"bad.tsv:2: expected '<female\|male><TAB><sentence><TAB><gender words>'",
        ),
        (
            "gender\tsentence\nfemale\tSie.\tshe\n",
            r"bad.tsv:2: expected '<female\|male><TAB><sentence>', found",
        ),
        ("gender\tsentence\twords\nfemale\tSie.\tshe\n", r"bad.tsv:1: expected the header"),
    ],
)
def test_bad_rows_are_rejected_with_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.tsv"
    path.write_text(text, encoding="utf-8")
    for reader in (read_gendered_sentences, read_gender_words):
        with pytest.raises(InputError, match=message):
            reader(path)


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ({"female_words": ["she"]}, "expected both or neither"),
        (
            {"female_words": ["she"], "male_words": []},
            "male_words: ended after 0 entries, but male sentence 1 needs one",
        ),
        (
            {"female_words": ["she", "her"], "male_words": ["he"]},
            "female_words: more entries than the 1 female sentences",
        ),
        ({"female_words": ["she"], "male_words": ["\n"]}, "male_words entry 1: expected the"),
    ],
)
def test_writing_mismatched_words_fails_and_writes_nothing(tmp_path, words, message):
    path = tmp_path / "de.tsv"
    with pytest.raises(ValueError, match=message):
        write_gendered_sentences(path, ["Sie ist da."], ["Er ist da."], **words)
    assert list(tmp_path.iterdir()) == []
