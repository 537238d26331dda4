"""Template pairs (Tmp) in the demo's languages (Kaneko et al. 2022, §5.2, Tables 4-5).

The paper fills templates such as "[Gender]は[Occupation]です。" with five gender pairs
(he/she, man/woman, father/mother, brother/sister, uncle/aunt) and a list of
occupations. In German, Spanish and French the occupation agrees with the subject
(er ist Arzt / sie ist Ärztin), so one template string per language would be
ungrammatical; the demo renders the same design through its own grammar instead: the
five subjects × the lexicon's occupations × its occupation frames, without modifiers,
each as a male and a female sentence that differ only in the subject's gender and what
agrees with it. The male sentence is S_s (``sent_more``), as for the paper's templates.
"""

from __future__ import annotations

from mgbias.demo.lexicon import (
    CATEGORY_FEMALE,
    CATEGORY_MALE,
    LANGUAGES,
    OCCUPATION_FRAMES,
    OCCUPATIONS,
    PERSON_NOUNS,
    PREDICATE_OCCUPATION,
    SUBJECT_NOUN,
    SUBJECT_PRONOUN,
    Meaning,
    render,
)
from mgbias.wordlists.genders import FEMALE, MALE

#: The paper's gender pairs besides the pronouns, by their English male noun.
TEMPLATE_NOUNS = ("man", "father", "brother", "uncle")


def template_subjects() -> list[tuple[str, int]]:
    """(kind, index) of the five subjects: the pronoun, then man, father, brother, uncle."""
    index = {noun.en[0]: i for i, noun in enumerate(PERSON_NOUNS)}
    missing = [noun for noun in TEMPLATE_NOUNS if noun not in index]
    if missing:
        raise ValueError(f"the demo lexicon has no person noun(s) {missing}")
    return [(SUBJECT_PRONOUN, 0)] + [(SUBJECT_NOUN, index[noun]) for noun in TEMPLATE_NOUNS]


def _meaning(gender: str, subject: tuple[str, int], occupation: int, frame: int) -> Meaning:
    category = CATEGORY_MALE if gender == MALE else CATEGORY_FEMALE
    kind, index = subject
    return Meaning(category, gender, kind, index, PREDICATE_OCCUPATION, frame, occupation, -1)


def demo_template_pairs(lang: str) -> list[tuple[str, str]]:
    """``(male sentence, female sentence)`` for every subject × occupation × frame.

    Raises
    ------
    ValueError
        For a language the demo grammar does not render.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"no demo language {lang!r}; expected one of {list(LANGUAGES)}")
    pairs = []
    for subject in template_subjects():
        for occupation in range(len(OCCUPATIONS)):
            for frame in range(OCCUPATION_FRAMES):
                male = render(_meaning(MALE, subject, occupation, frame), lang)
                female = render(_meaning(FEMALE, subject, occupation, frame), lang)
                pairs.append((male, female))
    return pairs


def demo_template_labels(lang: str) -> dict[str, list[str]]:
    """What each pair of :func:`demo_template_pairs` shares with others, in the same
    order (:func:`mgbias.kaneko2022.template_pairs.template_labels`): ``target``, the
    occupation's English name, and ``gender_pair``, the subject's English words
    ("he/she", "man/woman", ...)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no demo language {lang!r}; expected one of {list(LANGUAGES)}")
    cells = [
        (occupation.en, _subject_words(subject))
        for subject in template_subjects()
        for occupation in OCCUPATIONS
        for _frame in range(OCCUPATION_FRAMES)
    ]
    return {
        "target": [occupation for occupation, _ in cells],
        "gender_pair": [words for _, words in cells],
    }


def _subject_words(subject: tuple[str, int]) -> str:
    kind, index = subject
    return "he/she" if kind == SUBJECT_PRONOUN else "/".join(PERSON_NOUNS[index].en)
