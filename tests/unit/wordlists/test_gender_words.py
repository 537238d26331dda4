"""The gender-word matcher: whole-word, case-insensitive word-list entries in a sentence
(Kaneko et al. 2022, §3, Step 1; Kaneko et al. 2023, §2)."""

from __future__ import annotations

import pytest

from mgbias.wordlists.gender_words import (
    check_word_lists,
    english_tokens,
    gender_of,
    gender_words_of,
)

FEMALE = frozenset({"she", "her", "woman", "wife"})
MALE = frozenset({"he", "his", "man", "husband"})


def test_english_tokens_split_on_non_word_characters():
    assert english_tokens("She's an ex-wife, isn't she?") == [
        "she",
        "s",
        "an",
        "ex",
        "wife",
        "isn",
        "t",
        "she",
    ]
    assert english_tokens("HER_name: Zoë, 2 cats") == ["her", "name", "zoë", "2", "cats"]
    assert english_tokens("...") == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("He is a doctor.", "male"),
        ("SHE left", "female"),
        ("The man and his wife", "both"),
        ("Hello.", None),
        ("The shepherd sheltered them.", None),  # "she" only inside words
        ("Hence, the manual helps.", None),  # "he", "man" only inside words
        ("She's here.", "female"),  # apostrophe splits "she's"
        ("Ask her-", "female"),
        ('He said: "she won\'t"', "both"),
        ("", None),
    ],
)
def test_gender_of(sentence, expected):
    assert gender_of(sentence, FEMALE, MALE) == expected


def test_word_list_entries_are_case_insensitive_and_may_span_tokens():
    female = frozenset({"Mary", "ex_wife"})
    male = frozenset({"John"})
    assert gender_of("mary sang", female, male) == "female"
    assert gender_of("His ex-wife called.", female, male) == "female"
    assert gender_of("His ex wife called.", female, male) == "female"
    assert gender_of("an ex, a wife", female, male) is None  # tokens not consecutive
    assert gender_of("JOHN and Mary", female, male) == "both"


@pytest.mark.parametrize(
    ("sentence", "female", "expected"),
    [
        ("She met her ex-wife.", {"she", "her", "ex-wife"}, ("female", ("ex wife", "her", "she"))),
        ("She met her ex_wife.", {"she", "her", "ex_wife"}, ("female", ("ex wife", "her", "she"))),
        ("She, she and SHE", FEMALE, ("female", ("she",))),  # unique
        ("The man and his wife", FEMALE, ("both", ("his", "man", "wife"))),
        ("He is a man.", FEMALE, ("male", ("he", "man"))),
        ("The shepherd sheltered them.", FEMALE, (None, ())),
        ("an ex, a wife", {"ex-wife"}, (None, ())),  # tokens not consecutive
        ("", FEMALE, (None, ())),
    ],
)
def test_gender_words_of(sentence, female, expected):
    assert gender_words_of(sentence, frozenset(female), MALE) == expected


def test_gender_words_of_agrees_with_gender_of_on_every_short_sentence():
    # Every sequence of up to 4 tokens over a vocabulary that forms the unigram and
    # bigram entries of both lists: 2,801 sentences.
    female, male = frozenset({"she", "ex-wife"}), frozenset({"he", "ma'am"})
    vocabulary = ["she", "ex", "wife", "he", "ma", "am", "x"]
    sentences = [""]
    frontier = [""]
    for _ in range(4):
        frontier = [f"{prefix} {token}" for prefix in frontier for token in vocabulary]
        sentences += frontier
    assert len(sentences) == 1 + 7 + 49 + 343 + 2401
    seen = set()
    for sentence in sentences:
        gender, words = gender_words_of(sentence, female, male)
        assert gender == gender_of(sentence, female, male), sentence
        assert (gender is None) == (words == ()), sentence
        assert list(words) == sorted(set(words)), sentence
        for word in words:
            assert f" {word} " in f" {sentence} ".replace("-", " "), (sentence, word)
        seen.add(gender)
    assert seen == {None, "female", "male", "both"}
    both = ("both", ("ex wife", "he", "ma am"))
    assert gender_words_of("x ma am he ex wife", female, male) == both


def test_overlapping_word_lists_are_rejected():
    with pytest.raises(ValueError, match="share 1 entries.*: her"):
        gender_of("x", frozenset({"she", "her"}), frozenset({"HER", "he"}))
    with pytest.raises(ValueError, match="entry '--' contains no letters"):
        gender_of("x", frozenset({"--"}), MALE)
    # the same check, before any sentence is read
    with pytest.raises(ValueError, match="share 1 entries.*: her"):
        check_word_lists(frozenset({"she", "her"}), frozenset({"HER", "he"}))
    check_word_lists(FEMALE, MALE)
