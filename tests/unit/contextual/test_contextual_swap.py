"""Gender swapping: English pairs with case, Spanish agreement by morphology, refusals."""

from __future__ import annotations

import pytest

from mgbias.contextual.lists import load_probe_lists
from mgbias.contextual.swap import (
    Swapper,
    TokenInfo,
    inflect_adjective,
    match_case,
    swap_corpus,
)

EN = load_probe_lists("en")
ES = load_probe_lists("es")


def _table(rows):
    """An analyser from a table: sentence words -> TokenInfo per word (no spaCy)."""

    def analyse(words):
        return [rows[tuple(words)][i] for i in range(len(words))]

    return analyse


def test_english_swap_keeps_case_and_bytes():
    swapper = Swapper(EN.equivalent)
    result = swapper.swap("SHE told the Businessman:  his sister   is here.")
    assert result.status == "swapped"
    assert result.swapped == "HE told the Businesswoman:  her brother   is here."
    assert result.positions == (0, 3, 5, 6)
    assert match_case("Her", "his") == "His" and match_case("HER", "his") == "HIS"


def test_swap_is_an_involution_on_the_equivalent_list():
    swapper = Swapper(EN.equivalent)
    ambiguous = {w for w, options in swapper.counterparts.items() if len(options) > 1}
    assert ambiguous == {"her"}
    for female, male in EN.equivalent:
        if {female, male} & ambiguous:
            continue
        sentence = f"the {female} saw a {male} ."
        twin = swapper.swap(sentence)
        assert twin.swapped == f"the {male} saw a {female} ."
        assert swapper.swap(twin.swapped).swapped == sentence


def test_her_is_resolved_by_tag_or_refused():
    words = ["She", "gave", "her", "book", "to", "her", "."]
    analyser = _table(
        {tuple(words): [TokenInfo(tag=t) for t in ("PRP", "VBD", "PRP$", "NN", "IN", "PRP", ".")]}
    )
    sentence = " ".join(words)
    assert Swapper(EN.equivalent, analyser=analyser).swap(sentence).swapped == (
        "He gave his book to him ."
    )
    refused = Swapper(EN.equivalent).swap(sentence)
    assert (refused.status, refused.reason, refused.detail) == ("refused", "ambiguous", "her")


def test_proper_name_next_to_a_swapped_word_is_refused():
    swapper = Swapper(EN.equivalent)
    refused = swapper.swap("I met his sister Anna .")
    assert (refused.reason, refused.detail) == ("proper_name", "Anna")
    assert swapper.swap("Anna met his sister .").swapped == "Anna met her brother ."
    assert swapper.swap("Mary and John left .").swapped == "John and Mary left ."


def _es(words, infos):
    return _table({tuple(words): [TokenInfo(*info) for info in infos]})


def test_spanish_agreement_of_determiners_adjectives_and_predicates():
    words = "ella es una buena médica .".split()
    analyser = _es(
        words,
        [
            ("PRON", "Fem", 4, "nsubj"),
            ("AUX", None, 4, "cop"),
            ("DET", "Fem", 4, "det"),
            ("ADJ", "Fem", 4, "amod"),
            ("NOUN", "Fem", -1, "ROOT"),
            ("PUNCT", None, 4, "punct"),
        ],
    )
    swapper = Swapper(ES.equivalent + ES.profession_pairs, lang="es", analyser=analyser)
    result = swapper.swap(" ".join(words))
    assert result.swapped == "él es un buen médico ."
    assert result.positions == (0, 4) and result.agreement == (2, 3)

    words = "el padre alto de los niños llegó".split()
    analyser = _es(
        words,
        [
            ("DET", "Masc", 1, "det"),
            ("NOUN", "Masc", 6, "nsubj"),
            ("ADJ", "Masc", 1, "amod"),
            ("ADP", None, 5, "case"),
            ("DET", "Masc", 5, "det"),
            ("NOUN", "Masc", 1, "nmod"),
            ("VERB", None, -1, "ROOT"),
        ],
    )
    swapper = Swapper(ES.equivalent, lang="es", analyser=analyser)
    assert swapper.swap(" ".join(words)).swapped == "la madre alta de las niñas llegó"


def test_spanish_refusals_are_counted():
    name = "el presidente Barack Obama habló".split()
    contraction = "la casa del abuelo".split()
    unknown = "la reina sabia".split()
    analyser = _table(
        {
            tuple(name): [
                TokenInfo("DET", "Masc", 1, "det"),
                TokenInfo("NOUN", "Masc", 4, "nsubj"),
                TokenInfo("PROPN", None, 1, "flat"),
                TokenInfo("PROPN", None, 2, "flat"),
                TokenInfo("VERB", None, -1, "ROOT"),
            ],
            tuple(contraction): [
                TokenInfo("DET", "Fem", 1, "det"),
                TokenInfo("NOUN", "Fem", -1, "ROOT"),
                TokenInfo("DET", "Masc", 3, "det"),
                TokenInfo("NOUN", "Masc", 1, "nmod"),
            ],
            tuple(unknown): [
                TokenInfo("DET", "Fem", 1, "det"),
                TokenInfo("NOUN", "Fem", -1, "ROOT"),
                TokenInfo("ADJ", "Fem", 1, "amod"),
            ],
            ("la", "mesa"): [TokenInfo("DET", "Fem", 1), TokenInfo("NOUN", "Fem")],
        }
    )
    swapper = Swapper(ES.equivalent + ES.profession_pairs, lang="es", analyser=analyser)
    swaps, counts = swap_corpus(
        [" ".join(name), " ".join(contraction), " ".join(unknown), "la mesa"], swapper
    )
    assert [s.reason for s in swaps] == ["proper_name", "contraction", "", ""]
    assert swaps[2].swapped == "el rey sabio"
    assert counts.to_dict() == {
        "n_sentences": 4,
        "n_swapped": 1,
        "n_unchanged": 1,
        "n_refused": 2,
        "refused": {"contraction": 1, "proper_name": 1},
    }


def test_adjective_rules_and_configuration_errors():
    assert inflect_adjective("alto", "Fem") == "alta"
    assert inflect_adjective("trabajadores", "Fem") == "trabajadoras"
    assert inflect_adjective("Inglesa", "Masc") == "Inglés"
    assert inflect_adjective("buen", "Fem") == "buena"
    assert inflect_adjective("azul", "Fem") is None
    with pytest.raises(ValueError, match="agreement needs a token analyser"):
        Swapper(ES.equivalent, lang="es", agreement=True)
    with pytest.raises(ValueError, match="no agreement rules for 'it'"):
        Swapper([], lang="it", analyser=lambda words: [], agreement=True)
