"""Tests for mgbias.wordlists: shipped lists, file parsing, gender unions."""

from __future__ import annotations

import pytest

from mgbias.wordlists import available, load_gender_words, load_wordlist

SHIPPED = [
    "en_female",
    "en_female_names",
    "en_male",
    "en_male_names",
    *(
        f"kaneko2023_{lang}_{gender}"
        for lang in ("de", "en", "es", "fr")
        for gender in ("female", "male")
    ),
]


def test_available_lists_the_shipped_files():
    assert available() == SHIPPED


def test_bolukbasi_lists_have_the_expected_sizes_and_words():
    female = load_wordlist("en_female")
    male = load_wordlist("en_male")
    # gn_glove lists: 223 lines each; after removing repeats and the two swapped pairs.
    assert len(female) == 203
    assert len(male) == 208
    assert {"she", "her", "hers", "herself", "woman", "mother", "queen", "mrs."} <= female
    assert {"he", "his", "him", "himself", "man", "father", "king", "mr."} <= male
    assert "hair_salon" in female and "ballet_dancer" in male
    # The swapped source pairs are corrected, not copied.
    assert "brides" in female and "brides" not in male
    assert "grooms" in male and "grooms" not in female
    assert "maternity" in female and "paternity" in male


def test_shipped_lists_are_lowercase_and_pairwise_disjoint():
    lists = {name: load_wordlist(name) for name in SHIPPED}
    for name, words in lists.items():
        assert all(word == word.lower() and word.strip() == word for word in words), name
    female = lists["en_female"] | lists["en_female_names"]
    male = lists["en_male"] | lists["en_male_names"]
    assert not female & male
    assert not lists["en_female_names"] & (lists["en_female"] | lists["en_male"])
    assert not lists["en_male_names"] & (lists["en_female"] | lists["en_male"])
    assert len(lists["en_female_names"]) >= 100 and len(lists["en_male_names"]) >= 100


def test_load_from_path_skips_comments_and_blank_lines_and_lowercases(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("# header: my source\n\nQueen\n  duchess  \n# trailing comment\nqueen\n")
    assert load_wordlist(path) == frozenset({"queen", "duchess"})
    assert load_wordlist(str(path)) == frozenset({"queen", "duchess"})


def test_entry_with_whitespace_names_file_and_line(tmp_path):
    path = tmp_path / "bad_list.txt"
    path.write_text("# comment\nwoman\nhair salon\n")
    with pytest.raises(ValueError, match=r"bad_list\.txt, line 3: entry 'hair salon'"):
        load_wordlist(path)


def test_missing_file_names_it_and_lists_shipped_names(tmp_path):
    missing = tmp_path / "nowhere.txt"
    with pytest.raises(FileNotFoundError, match=r"nowhere\.txt.*en_female"):
        load_wordlist(missing)
    with pytest.raises(FileNotFoundError, match="en_femal'"):
        load_wordlist("en_femal")


def test_gender_words_are_unions_of_the_named_lists():
    female, male = load_gender_words(["en_female", "en_female_names"], ["en_male", "en_male_names"])
    assert female == load_wordlist("en_female") | load_wordlist("en_female_names")
    assert male == load_wordlist("en_male") | load_wordlist("en_male_names")
    assert "mary" in female and "john" in male
    # A single name is one list, not a sequence of characters.
    assert load_gender_words("en_female", "en_male") == (
        load_wordlist("en_female"),
        load_wordlist("en_male"),
    )


def test_overlap_raises_by_default_naming_the_words(tmp_path):
    extra = tmp_path / "extra_female.txt"
    extra.write_text("he\nking\nempress\n")
    with pytest.raises(ValueError, match=r"2 word\(s\) in both.*: he, king"):
        load_gender_words(["en_female", extra], ["en_male"])


def test_overlap_drop_removes_words_from_both_with_a_warning(tmp_path):
    extra = tmp_path / "extra_female.txt"
    extra.write_text("he\nking\nempress\n")
    with pytest.warns(UserWarning, match="he, king"):
        female, male = load_gender_words(["en_female", extra], ["en_male"], on_overlap="drop")
    assert "he" not in female and "he" not in male
    assert "king" not in female and "king" not in male
    assert male == load_wordlist("en_male") - {"he", "king"}
    assert female == load_wordlist("en_female")


def test_unknown_overlap_policy_is_rejected():
    with pytest.raises(ValueError, match="on_overlap must be 'error' or 'drop'"):
        load_gender_words(["en_female"], ["en_male"], on_overlap="keep")
