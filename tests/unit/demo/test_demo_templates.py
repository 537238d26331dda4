"""Template pairs (Tmp) in the demo languages, rendered by the demo grammar."""

import pytest

from mgbias.demo.lexicon import OCCUPATIONS
from mgbias.demo.templates import (
    demo_template_labels,
    demo_template_pairs,
    template_subjects,
)

#: What may differ between the male and the female sentence, per language: the subject,
#: its determiner or possessive, and the occupation in its agreeing form.
GENDERED = {
    "de": {("er", "sie"), ("mein", "meine"), ("mann", "frau"), ("vater", "mutter"),
           ("bruder", "schwester"), ("onkel", "tante"), ("der", "die")},
    "es": {("él", "ella"), ("hombre", "mujer"), ("padre", "madre"), ("hermano", "hermana"),
           ("tío", "tía"), ("el", "la")},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr"])
def test_five_subjects_times_occupations_times_frames(lang):
    pairs = demo_template_pairs(lang)
    assert len(template_subjects()) == 5
    assert len(pairs) == 5 * len(OCCUPATIONS) * 3
    assert len(set(pairs)) == len(pairs)
    assert all(male != female for male, female in pairs)


@pytest.mark.parametrize("lang", ["de", "es"])
def test_pairs_differ_only_in_the_subject_and_what_agrees_with_it(lang):
    occupations = {getattr(o, lang) for o in OCCUPATIONS}
    for male, female in demo_template_pairs(lang):
        m, f = male.split(), female.split()
        assert len(m) == len(f), (male, female)
        for a, b in zip(m, f, strict=True):
            if a != b:
                assert (a, b) in GENDERED[lang] or (a, b) in occupations, (male, female)


def test_the_first_pairs_read_as_expected():
    assert demo_template_pairs("de")[0] == ("er ist ingenieur .", "sie ist ingenieurin .")
    assert demo_template_pairs("fr")[-1] == (
        "mon oncle travaille comme caissier .",
        "ma tante travaille comme caissière .",
    )
    with pytest.raises(ValueError, match="no demo language 'ja'"):
        demo_template_pairs("ja")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_pair_is_labelled_with_its_occupation_and_gender_words(lang):
    """The occupation a pair's sentences hold (English: the noun itself; Spanish: its
    two gendered forms) and its subject's English words: what the pairs are clustered by."""
    labels = demo_template_labels(lang)
    pairs = demo_template_pairs(lang)
    assert len(labels["target"]) == len(labels["gender_pair"]) == len(pairs)
    assert sorted(set(labels["target"])) == sorted(o.en for o in OCCUPATIONS)
    assert sorted(set(labels["gender_pair"])) == sorted(
        ["he/she", "man/woman", "father/mother", "brother/sister", "uncle/aunt"]
    )
    forms = {o.en: (o.en, o.en) if lang == "en" else getattr(o, lang) for o in OCCUPATIONS}
    for (male, female), label, words in zip(pairs, *labels.values(), strict=True):
        assert forms[label][0] in male.split() and forms[label][1] in female.split()
        if lang == "en":
            he, she = words.split("/")
            assert he in male.split() and she in female.split()
    with pytest.raises(ValueError, match="no demo language 'xx'"):
        demo_template_labels("xx")
