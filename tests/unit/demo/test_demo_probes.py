"""The demo's lists and probe sentences for the contextual probes (mgbias.demo.probes)."""

from __future__ import annotations

import pytest

from mgbias.contextual.swap import Swapper
from mgbias.demo.analyser import demo_analyser
from mgbias.demo.lexicon import STEREOTYPICALLY_FEMALE_OCCUPATIONS, STEREOTYPICALLY_MALE_OCCUPATIONS
from mgbias.demo.probes import demo_probe_lists, demo_profession_bias, probe_sentences
from mgbias.demo.world import balanced, planted
from mgbias.wordlists import load_gender_words

FEMALE_WORDS, MALE_WORDS = load_gender_words(["en_female"], ["en_male"])


def test_english_professions_are_the_occupations_with_their_planted_sign():
    bias = demo_profession_bias("en")
    assert len(bias) == 16
    assert all(bias[w] == 1.0 for w in STEREOTYPICALLY_MALE_OCCUPATIONS)
    assert all(bias[w] == -1.0 for w in STEREOTYPICALLY_FEMALE_OCCUPATIONS)
    lists = demo_probe_lists("en")
    assert lists.professions == bias and ("she", "he") in lists.definitional


def test_spanish_lists_carry_both_forms_and_a_one_form_pair_swaps_its_article():
    bias = demo_profession_bias("es")
    assert bias["médico"] == bias["médica"] == 1.0
    assert bias["enfermera"] == bias["enfermero"] == -1.0
    lists = demo_probe_lists("es")
    assert ("médica", "médico") in lists.profession_pairs
    assert ("piloto", "piloto") in lists.profession_pairs
    swapper = Swapper(
        lists.equivalent + lists.profession_pairs, lang="es", analyser=demo_analyser("es")
    )
    assert swapper.swap("la piloto llama a su madre .").swapped == "el piloto llama a su padre ."


def test_probe_sentences_are_gender_free_occupations_then_pronoun_sentences():
    spec = planted(4, ("es",), occupation_subject_share=0.2, gender_free_occupation_share=0.1)
    sentences = probe_sentences(spec, "en", n_gender_free=50, n_pronoun=20, seed=1)
    assert len(sentences) == 70
    occupations = set(STEREOTYPICALLY_MALE_OCCUPATIONS + STEREOTYPICALLY_FEMALE_OCCUPATIONS)
    for sentence in sentences[:50]:
        words = sentence.split()
        assert words[0] == "the" and words[1] in occupations
        assert not set(words) & (FEMALE_WORDS | MALE_WORDS), sentence
    assert all(s.split()[0] in {"he", "she"} for s in sentences[50:])
    assert probe_sentences(spec, "en", n_gender_free=50, n_pronoun=20, seed=1) == sentences
    with pytest.raises(ValueError, match="gender_free_occupation_share > 0"):
        probe_sentences(balanced(4, ("es",)), "en", n_gender_free=5, n_pronoun=5, seed=1)
