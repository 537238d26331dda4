"""The demo world's ``mirrored`` knob: a control whose corpora are exactly balanced."""

from __future__ import annotations

import collections

import pytest

from mgbias.demo import OCCUPATIONS, WorldSpec, balanced, monolingual_corpus, parallel_corpus
from mgbias.demo.lexicon import SUBJECT_NAME, english_gendered_vocabulary, first_names, render
from mgbias.wordlists.genders import FEMALE, MALE

LANGUAGES = ("de", "es", "fr")
GENDER_WORDS = english_gendered_vocabulary()
OTHER = {MALE: FEMALE, FEMALE: MALE}


def mirrored(seed=11, **overrides):
    values = {"n_parallel": 401, "n_monolingual": 1201, "mirrored": True}
    values.update(overrides)
    return balanced(seed, **values)


def test_without_the_knob_a_world_keeps_its_bytes():
    plain = balanced(11, n_parallel=401, n_monolingual=1201)
    off = balanced(11, n_parallel=401, n_monolingual=1201, mirrored=False)
    assert "mirrored" not in off.to_dict() and mirrored().to_dict()["mirrored"] is True
    for lang in LANGUAGES:
        assert monolingual_corpus(off, lang) == monolingual_corpus(plain, lang)
        assert parallel_corpus(off, "TED2020", lang) == parallel_corpus(plain, "TED2020", lang)


def twins(meanings):
    """(meaning, twin) for every gendered meaning; each must be followed by its twin."""
    pairs, index = [], 0
    while index < len(meanings):
        meaning = meanings[index]
        if meaning.gender is None:
            index += 1
            continue
        pairs.append((meaning, meanings[index + 1]))
        index += 2
    return pairs


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_every_gendered_sentence_is_followed_by_its_twin_of_the_other_gender(lang):
    sentences, meanings = monolingual_corpus(mirrored(), lang)
    assert len(sentences) == len(meanings) == 1201  # odd: one more sentence without gender
    pairs = twins(meanings)
    assert len(pairs) > 400
    for meaning, twin in pairs:
        assert twin.gender == OTHER[meaning.gender]
        kept = ("subject_kind", "predicate_kind", "frame_index", "slot_index", "modifier_index")
        assert [getattr(twin, field) for field in kept] == [
            getattr(meaning, field) for field in kept
        ]
        if meaning.subject_kind != SUBJECT_NAME:
            assert twin.subject_index == meaning.subject_index
        english, english_twin = render(meaning, "en").split(), render(twin, "en").split()
        assert len(english) == len(english_twin)
        changed = [(a, b) for a, b in zip(english, english_twin, strict=True) if a != b]
        assert changed, (english, english_twin)
        for word, twin_word in changed:  # only gender words change, each to the other gender
            # (the subject's, or in a relation the other person's: "her nephew", "his niece")
            gender = MALE if word in GENDER_WORDS[MALE] else FEMALE
            assert word in GENDER_WORDS[gender], (english, english_twin)
            assert twin_word in GENDER_WORDS[OTHER[gender]], (english, english_twin)


def test_names_are_drawn_from_the_twins_own_list():
    _, meanings = monolingual_corpus(mirrored(n_monolingual=4000), "en")
    names = collections.Counter(
        (m.gender, m.subject_index) for m in meanings if m.subject_kind == SUBJECT_NAME
    )
    for gender in (MALE, FEMALE):
        used = {index for g, index in names if g == gender}
        assert max(used) < len(first_names(gender))
        assert len(used) > 0.8 * len(first_names(gender))  # the whole list, not a prefix


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_occupation_form_appears_as_often_in_both_genders(lang):
    """What the control is for: every gendered occupation form and every gender word is
    as frequent as its counterpart, so no gender-occupation association is in the text
    by chance (without the knob the counts differ by a few percent)."""
    for corpus in ("monolingual", "TED2020"):
        if corpus == "monolingual":
            sentences, _ = monolingual_corpus(mirrored(), lang)
        else:
            _, sentences, _ = parallel_corpus(mirrored(), corpus, lang)
        words = collections.Counter(word for sentence in sentences for word in sentence.split())
        for occupation in OCCUPATIONS:
            male_form, female_form = getattr(occupation, lang)
            if male_form != female_form:
                assert words[male_form] == words[female_form] > 0, (corpus, occupation)
    plain, _ = monolingual_corpus(balanced(11, n_monolingual=1201), lang)
    words = collections.Counter(word for sentence in plain for word in sentence.split())
    assert any(words[m] != words[f] for m, f in (getattr(o, lang) for o in OCCUPATIONS))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"male_ratio": 2.0}, "needs male_ratio 1, occupation_bias 0.5 and neutral_share > 0"),
        ({"occupation_bias": 0.9}, "got male_ratio 1.0, occupation_bias 0.9"),
        ({"neutral_share": 0.0}, "neutral_share 0.0"),
        ({"mirrored": "yes"}, "mirrored must be true or false, got 'yes'"),
    ],
)
def test_a_mirrored_world_that_cannot_be_balanced_is_rejected(changes, message):
    values = {"name": "x", "seed": 1, "languages": ("de",), "mirrored": True}
    values.update(changes)
    with pytest.raises(ValueError, match=message):
        WorldSpec(**values)
