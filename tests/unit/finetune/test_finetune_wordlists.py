"""The word lists of bias-controlled fine-tuning (Kaneko et al. 2023, §3.1) and their
German, Spanish and French counterparts: exact English words, disjoint genders, whole-word
matching in every language, and coverage of the demo grammar's pronouns and person nouns."""

from __future__ import annotations

import pytest

from mgbias.demo.lexicon import FEMALE, MALE, PERSON_NOUNS, PRONOUNS
from mgbias.wordlists import load_gender_words, load_wordlist
from mgbias.wordlists.gender_words import gender_of

LANGUAGES = ("en", "de", "es", "fr")
# The paper's §3.1, typed from the PDF.
PAPER_FEMALE = "she woman female her wife mother girl sister daughter girlfriend".split()
PAPER_MALE = "he man male him his husband father boy brother son boyfriend".split()


def lists(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    return load_gender_words(f"kaneko2023_{lang}_female", f"kaneko2023_{lang}_male")


def test_english_lists_are_the_papers():
    assert load_wordlist("kaneko2023_en_female") == frozenset(PAPER_FEMALE)
    assert load_wordlist("kaneko2023_en_male") == frozenset(PAPER_MALE)
    assert (len(PAPER_FEMALE), len(PAPER_MALE)) == (10, 11)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_genders_are_disjoint_after_tokenising(lang):
    female, male = lists(lang)  # load_gender_words raises on a shared entry
    assert female and male
    # gender_of compiles the lists into tokens and raises if they share one.
    assert gender_of("", female, male) is None


@pytest.mark.parametrize(
    ("lang", "sentence", "expected"),
    [
        ("de", "Sie arbeitet als Ärztin.", "female"),
        ("de", "Mein Ehemann ist stark.", "male"),
        ("de", "Er besucht seine Schwester.", "both"),
        ("de", "Das Museum ist sehr sehenswert.", None),  # "sehenswert" contains no word
        ("es", "Él es amable.", "male"),
        ("es", "El tiempo es malo.", None),  # the article "el" is not the pronoun "él"
        ("es", "MI HERMANA es fuerte.", "female"),
        ("fr", "L'homme travaille en ville.", "male"),  # the elided article splits off
        ("fr", "Ma sœur est contente.", "female"),
        ("fr", "Ma soeur est contente.", "female"),
        ("fr", "Ma grand-mère est célèbre.", "female"),  # hyphen: matches "mère"
        ("fr", "Elle appelle son frère.", "both"),
        ("en", "The shepherd sings.", None),  # whole words only: not "she"
        ("en", "His girlfriend is tall.", "both"),
    ],
)
def test_whole_word_case_insensitive_matching(lang, sentence, expected):
    female, male = lists(lang)
    assert gender_of(sentence, female, male) == expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lists_cover_the_demo_pronouns_and_the_papers_person_nouns(lang):
    female, male = lists(lang)
    assert PRONOUNS[lang][FEMALE] in female and PRONOUNS[lang][MALE] in male
    paper_nouns = set(PAPER_FEMALE) | set(PAPER_MALE)
    covered = 0
    for noun in PERSON_NOUNS:
        if noun.en[0] not in paper_nouns:
            continue
        forms = getattr(noun, lang)
        for gender_index, words in ((0, male), (1, female)):
            form = forms[gender_index]
            spellings = (form.nominative, form.accusative) if lang == "de" else (form,)
            for spelling in spellings:
                assert spelling in words, (lang, spelling)
        covered += 1
    assert covered == 7  # man, boy, father, brother, son, husband, boyfriend and their pairs
