"""Agreement of the gender swap in German, French and Spanish: the rules by hand, and the
swap of demo sentences against the demo grammar's rendering of the flipped meaning."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.contextual.agreement import (
    french_adjective,
    french_plural_adjective,
    german_determiner,
    match_case,
)
from mgbias.contextual.lists import load_probe_lists
from mgbias.contextual.swap import Swapper, TokenInfo
from mgbias.contextual.words import words
from mgbias.demo.analyser import demo_analyser
from mgbias.demo.lexicon import CATEGORY_FEMALE, CATEGORY_MALE, SUBJECT_NAME, render
from mgbias.demo.probes import demo_probe_lists
from mgbias.demo.world import TEMPLATE_MIXES, WorldSpec, sample_meanings
from mgbias.wordlists.genders import opposite


@pytest.mark.parametrize(
    ("word", "case", "gender", "expected"),
    [
        ("der", "Acc", "Fem", "die"),
        ("die", "Acc", "Masc", "den"),
        ("die", "Dat", "Masc", "dem"),
        ("das", "Nom", "Masc", "der"),
        ("eine", "Acc", "Masc", "einen"),
        ("einen", "Acc", "Neut", "ein"),
        ("seinen", "Dat", "Neut", "seinem"),
        ("ihre", "Gen", "Masc", "ihres"),
        ("unsere", "Nom", "Masc", "unser"),
        ("diese", "Nom", "Masc", "dieser"),
        ("Der", "Nom", "Fem", "Die"),
        ("und", "Nom", "Fem", None),
    ],
)
def test_german_determiners_follow_case_and_gender(word, case, gender, expected):
    assert german_determiner(word, case, gender) == expected


@pytest.mark.parametrize(
    ("masculine", "feminine"),
    [
        ("grand", "grande"), ("gentil", "gentille"), ("heureux", "heureuse"),
        ("fatigué", "fatiguée"), ("actif", "active"), ("premier", "première"),
        ("cruel", "cruelle"), ("ancien", "ancienne"), ("bon", "bonne"), ("beau", "belle"),
        ("Content", "Contente"), ("créateur", "créatrice"),
    ],
)  # fmt: skip
def test_french_adjectives_both_ways(masculine, feminine):
    assert french_adjective(masculine, "Fem") == feminine
    assert french_adjective(feminine, "Masc") == masculine


def test_french_invariable_adjectives_and_case_of_elided_words():
    assert french_adjective("célèbre", "Fem") == "célèbre"
    assert match_case("L'", "la") == "La"
    assert match_case("LE", "la") == "LA"


def test_french_elided_clitics_are_words():
    assert words("l'avocate lit aujourd'hui qu'il don't") == [
        "l'", "avocate", "lit", "aujourd'hui", "qu'", "il", "don't",
    ]  # fmt: skip


def _table(rows):
    def analyse(ws):
        return rows[tuple(ws)]

    return analyse


def test_french_elision_is_rechosen_for_the_new_word():
    fr = load_probe_lists("fr")
    rows = {
        ("l'", "oncle", "est", "grand", "."): [
            TokenInfo("DET", None, 1, "det"), TokenInfo("NOUN", "Masc", 3, "nsubj"),
            TokenInfo("AUX", None, 3, "cop"), TokenInfo("ADJ", "Masc", -1, "ROOT"),
            TokenInfo("PUNCT", None, 3, "punct"),
        ],
        ("ma", "tante", "est", "heureuse", "."): [
            TokenInfo("DET", None, 1, "det"), TokenInfo("NOUN", "Fem", 3, "nsubj"),
            TokenInfo("AUX", None, 3, "cop"), TokenInfo("ADJ", "Fem", -1, "ROOT"),
            TokenInfo("PUNCT", None, 3, "punct"),
        ],
        ("la", "tante", "est", "partie", "."): [
            TokenInfo("DET", "Fem", 1, "det"), TokenInfo("NOUN", "Fem", 3, "nsubj"),
            TokenInfo("AUX", None, 3, "aux:pass"), TokenInfo("VERB", "Fem", -1, "ROOT"),
            TokenInfo("PUNCT", None, 3, "punct"),
        ],
    }  # fmt: skip
    swapper = Swapper(fr.equivalent, lang="fr", analyser=_table(rows))
    assert swapper.swap("l'oncle est grand .").swapped == "la tante est grande ."
    assert swapper.swap("ma tante est heureuse .").swapped == "mon oncle est heureux ."
    # a participle with être agrees; "la" before a vowel elides and joins the word
    assert swapper.swap("la tante est partie .").swapped == "l'oncle est parti ."


def test_german_possessive_and_weak_noun_and_missing_case():
    de = load_probe_lists("de")
    rows = {
        ("sie", "ruft", "ihren", "bruder", "an", "."): [
            TokenInfo("PRON", "Fem", 1, "nsubj", case="Nom", number="Sing"),
            TokenInfo("VERB", None, -1, "ROOT"),
            TokenInfo("DET", "Masc", 3, "det", case="Acc", number="Sing",
                      possessor_number="Sing"),
            TokenInfo("NOUN", "Masc", 1, "obj", case="Acc", number="Sing"),
            TokenInfo("ADP", None, 1, "svp"), TokenInfo("PUNCT", None, 1, "punct"),
        ],
        ("er", "traf", "ein", "mädchen", "."): [
            TokenInfo("PRON", "Masc", 1, "nsubj", case="Nom", number="Sing"),
            TokenInfo("VERB", None, -1, "ROOT"),
            TokenInfo("DET", "Neut", 3, "det", case="Acc", number="Sing"),
            TokenInfo("NOUN", "Neut", 1, "obj", case="Acc", number="Sing"),
            TokenInfo("PUNCT", None, 1, "punct"),
        ],
        ("die", "mutter", "liest", "."): [
            TokenInfo("DET", "Fem", 1, "det"), TokenInfo("NOUN", "Fem", 2, "nsubj"),
            TokenInfo("VERB", None, -1, "ROOT"), TokenInfo("PUNCT", None, 2, "punct"),
        ],
    }  # fmt: skip
    swapper = Swapper(de.equivalent, lang="de", analyser=_table(rows))
    # ihren (Acc, Masc) -> seine (Acc, Fem): the owner's stem and the new noun's ending
    assert swapper.swap("sie ruft ihren bruder an .").swapped == "er ruft seine schwester an ."
    # the neuter Mädchen: ein (Acc, Neut) -> einen, and the weak noun's accusative Jungen
    assert swapper.swap("er traf ein mädchen .").swapped == "sie traf einen jungen ."
    refused = swapper.swap("die mutter liest .")  # no case: the determiner cannot be chosen
    assert (refused.status, refused.reason) == ("refused", "no_case")


def _flipped(meaning):
    category = {CATEGORY_MALE: CATEGORY_FEMALE, CATEGORY_FEMALE: CATEGORY_MALE}.get(
        meaning.category, meaning.category
    )
    return meaning._replace(gender=opposite(meaning.gender), category=category)


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_demo_swap_equals_the_rendering_of_the_flipped_meaning(lang):
    """The demo grammar renders the gender-flipped meaning exactly (the oracle swap):
    every swapped demo sentence must equal it, articles, possessives, adjectives,
    elision and case included."""
    spec = WorldSpec(
        name="oracle", seed=3, languages=("de", "es", "fr"), occupation_bias=0.9,
        occupation_subject_share=0.3, gender_free_occupation_share=0.1,
    )  # fmt: skip
    lists = demo_probe_lists(lang)
    swapper = Swapper(
        lists.equivalent + lists.profession_pairs, lang=lang, analyser=demo_analyser(lang)
    )
    rng = np.random.default_rng(0)
    meanings = [
        m
        for m in sample_meanings(spec, TEMPLATE_MIXES["news-crawl"], 1500, rng)
        if m.gender is not None and m.subject_kind != SUBJECT_NAME
    ]
    swapped = 0
    for meaning in meanings:
        swap = swapper.swap(render(meaning, lang))
        assert swap.status != "refused", (swap.sentence, swap.reason, swap.detail)
        if swap.status == "swapped":
            swapped += 1
            assert swap.swapped == render(_flipped(meaning), lang)
    assert swapped >= 0.85 * len(meanings)


def test_german_pronouns_follow_case_and_they_you_and_to_be_are_left_alone():
    de = load_probe_lists("de")
    pronoun = {"pos": "PRON", "head": 1, "dep": "obj", "number": "Sing", "person": "3"}
    rows = {
        ("ich", "sehe", "sie", "."): [TokenInfo("PRON", person="1"), TokenInfo("VERB"),
                                      TokenInfo(gender="Fem", case="Acc", **pronoun),
                                      TokenInfo("PUNCT")],
        ("ich", "helfe", "ihm", "."): [TokenInfo("PRON", person="1"), TokenInfo("VERB"),
                                       TokenInfo(gender="Masc", case="Dat", **pronoun),
                                       TokenInfo("PUNCT")],
        ("sie", "kommen", "."): [TokenInfo("PRON", number="Plur", person="3"),
                                 TokenInfo("VERB"), TokenInfo("PUNCT")],
        ("ihr", "kommt", "."): [TokenInfo("PRON", number="Plur", person="2"),
                                TokenInfo("VERB"), TokenInfo("PUNCT")],
        ("so", "muss", "das", "sein", "!"): [TokenInfo("ADV"), TokenInfo("AUX"),
                                             TokenInfo("PRON"), TokenInfo("AUX"),
                                             TokenInfo("PUNCT")],
        ("die", "bauern", "beenden", "ihre", "blockaden", "."): [
            TokenInfo("DET"), TokenInfo("NOUN"), TokenInfo("VERB"),
            TokenInfo("DET", "Fem", 4, "det:poss", case="Acc", number="Plur",
                      possessor_number="Plur"),
            TokenInfo("NOUN"), TokenInfo("PUNCT")],
        ("das", "ist", "Ihr", "buch", "."): [TokenInfo("PRON"), TokenInfo("AUX"),
                                             TokenInfo("DET", "Neut", 3, "det:poss",
                                                       case="Nom"),
                                             TokenInfo("NOUN", "Neut"), TokenInfo("PUNCT")],
    }  # fmt: skip
    swapper = Swapper(de.equivalent, lang="de", analyser=_table(rows))
    assert swapper.swap("ich sehe sie .").swapped == "ich sehe ihn ."
    assert swapper.swap("ich helfe ihm .").swapped == "ich helfe ihr ."
    for sentence in (
        "sie kommen .",  # they
        "ihr kommt .",  # you
        "so muss das sein !",  # to be
        "die bauern beenden ihre blockaden .",  # their
        "das ist Ihr buch .",  # the polite "your", capitalised inside the sentence
    ):
        assert swapper.swap(sentence).status == "unchanged", sentence


def test_german_possessive_of_unknown_possessor_is_refused_and_nouns_take_their_case():
    de = load_probe_lists("de")
    rows = {
        # "ihre" without Number[psor]: her or their? refused
        ("sie", "liebt", "ihre", "mutter", "."): [
            TokenInfo("PRON", "Fem", 1, "nsubj", case="Nom", number="Sing", person="3"),
            TokenInfo("VERB"), TokenInfo("DET", "Fem", 3, "det:poss", case="Acc"),
            TokenInfo("NOUN", "Fem", 1, "obj", case="Acc", number="Sing"), TokenInfo("PUNCT"),
        ],
        ("das", "essen", "meiner", "frau", "."): [
            TokenInfo("DET", "Neut", 1, "det", case="Nom"), TokenInfo("NOUN", "Neut"),
            TokenInfo("DET", "Fem", 3, "det:poss", case="Gen", number="Sing", person="1"),
            TokenInfo("NOUN", "Fem", 1, "nmod", case="Gen", number="Sing"), TokenInfo("PUNCT"),
        ],
        ("mit", "den", "frauen", "."): [
            TokenInfo("ADP"), TokenInfo("DET", None, 2, "det", case="Dat", number="Plur"),
            TokenInfo("NOUN", "Fem", -1, "ROOT", case="Dat", number="Plur"), TokenInfo("PUNCT"),
        ],
    }  # fmt: skip
    swapper = Swapper(de.equivalent, lang="de", analyser=_table(rows))
    refused = swapper.swap("sie liebt ihre mutter .")
    assert (refused.status, refused.reason, refused.detail) == ("refused", "ambiguous", "ihre")
    # the genitive -(e)s and the dative plural -n, and back
    assert swapper.swap("das essen meiner frau .").swapped == "das essen meines mannes ."
    rows[("das", "essen", "meines", "mannes", ".")] = [
        TokenInfo("DET", "Neut", 1, "det", case="Nom"), TokenInfo("NOUN", "Neut"),
        TokenInfo("DET", "Masc", 3, "det:poss", case="Gen", number="Sing", person="1"),
        TokenInfo("NOUN", "Masc", 1, "nmod", case="Gen", number="Sing"), TokenInfo("PUNCT"),
    ]  # fmt: skip
    assert swapper.swap("das essen meines mannes .").swapped == "das essen meiner frau ."
    assert swapper.swap("mit den frauen .").swapped == "mit den männern ."


@pytest.mark.parametrize(
    ("masculine", "feminine"),
    [("inaugurés", "inaugurées"), ("heureux", "heureuses"), ("beaux", "belles"),
     ("actifs", "actives"), ("grands", "grandes")],
)  # fmt: skip
def test_french_plural_adjectives_both_ways(masculine, feminine):
    assert french_plural_adjective(masculine, "Fem") == feminine
    assert french_plural_adjective(feminine, "Masc") == masculine


def test_french_impersonal_il_is_not_swapped_and_plural_participles_agree():
    fr = load_probe_lists("fr")
    rows = {
        ("il", "y", "a", "un", "café", "."): [
            TokenInfo("PRON", "Masc", 2, "expl:subj"), TokenInfo("PRON", None, 2, "expl:comp"),
            TokenInfo("VERB"), TokenInfo("DET", "Masc", 4, "det"), TokenInfo("NOUN", "Masc", 2),
            TokenInfo("PUNCT"),
        ],
        ("ils", "seront", "inaugurés", "."): [
            TokenInfo("PRON", "Masc", 2, "nsubj:pass", number="Plur"),
            TokenInfo("AUX", None, 2, "aux:pass"),
            TokenInfo("VERB", "Masc", -1, "ROOT", number="Plur"), TokenInfo("PUNCT"),
        ],
    }  # fmt: skip
    swapper = Swapper(fr.equivalent, lang="fr", analyser=_table(rows))
    assert swapper.swap("il y a un café .").status == "unchanged"
    assert swapper.swap("ils seront inaugurés .").swapped == "elles seront inaugurées ."
