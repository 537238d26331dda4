"""Hard debiasing and DirectBias (mgbias.embeddings.debias)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from mgbias.embeddings.debias import (
    DebiasLists,
    direct_bias,
    equalize_pair,
    gender_direction,
    hard_debias,
    load_debias_lists,
)
from mgbias.embeddings.vectors import Vectors, unit_rows
from mgbias.errors import InputError

D = 12


def _space(seed=0):
    """Random unit words with a planted gender axis e0 in the gendered words and doctor."""
    rng = np.random.default_rng(seed)
    words = ["he", "she", "man", "woman", "king", "queen", "doctor", "nurse", "table", "city"]
    words += [f"w{i}" for i in range(30)]
    matrix = rng.standard_normal((len(words), D))
    matrix[:, 0] = 0.0
    axis = {"he": 2, "she": -2, "man": 2, "woman": -2, "king": 1.5, "queen": -1.5}
    axis.update({"doctor": 0.8, "nurse": -0.8})
    for word, value in axis.items():
        matrix[words.index(word), 0] = value
    return Vectors(words, unit_rows(matrix))


LISTS = DebiasLists(
    definitional=(("she", "he"), ("woman", "man"), ("Mary", "John")),
    gender_specific=frozenset({"he", "she", "man", "woman", "king", "queen"}),
    equalize=(("king", "queen"), ("Man", "Woman"), ("table", "city")),
)


def test_neutral_words_are_orthogonal_and_equalize_pairs_symmetric(caplog):
    vectors = _space()
    with caplog.at_level(logging.WARNING):
        result = hard_debias(vectors, LISTS)
    g = result.direction
    debiased = result.vectors
    assert debiased.words == vectors.words
    np.testing.assert_allclose(np.linalg.norm(debiased.matrix, axis=1), 1.0, atol=1e-6)
    # "Mary"/"John" are not in the vocabulary: skipped and logged
    assert result.definitional_skipped == (("Mary", "John"),)
    assert "('Mary', 'John')" in caplog.text
    equalized_words = {w for pair in result.equalized for w in pair}
    neutral = [
        w for w in debiased.words if w not in LISTS.gender_specific and w not in equalized_words
    ]
    assert "doctor" in neutral and "nurse" in neutral
    projections = debiased.rows(neutral) @ g
    assert np.abs(projections).max() < 1e-6
    # (man, woman) and (king, queen) are equalised; both are lower-case variants found
    assert set(result.equalized) == {("king", "queen"), ("man", "woman"), ("table", "city")}
    for a, b in result.equalized:
        va, vb = debiased.vector(a), debiased.vector(b)
        assert va @ g == pytest.approx(-(vb @ g), abs=1e-6)
        for w in neutral:
            vw = debiased.vector(w)
            assert vw @ va == pytest.approx(vw @ vb, abs=1e-6)
    # gender-specific words outside the equalize pairs are untouched up to normalisation
    np.testing.assert_allclose(debiased.vector("he"), vectors.vector("he"), atol=1e-6)
    # the planted axis is found (up to sign)
    assert abs(g[0]) > 0.9


def test_gender_direction_is_the_first_principal_component_by_hand():
    """Pairs differing along e1 only (by ±2 and ±1): the pair-centred rows are ±e1 and
    ±0.5 e1, so the first principal component is e1."""
    words = ["a1", "b1", "a2", "b2"]
    matrix = np.zeros((4, 3))
    matrix[:, 2] = 1.0
    matrix[0, 0], matrix[1, 0] = 1.0, -1.0
    matrix[2, 0], matrix[3, 0] = 0.5, -0.5
    g = gender_direction(Vectors(words, matrix), [("a1", "b1"), ("a2", "b2")])
    np.testing.assert_allclose(np.abs(g), [1.0, 0.0, 0.0], atol=1e-7)


def test_equalize_pair_by_hand():
    """g = e0; v_a = (0.6, 0.8, 0), v_b = (0, 0.8, 0.6): ν = (0, 0.8, 0.3),
    z = sqrt(1 - 0.73), v_a - v_b has +0.6 along g, so v_a = ν + z g."""
    g = np.array([1.0, 0.0, 0.0])
    new_a, new_b = equalize_pair(np.array([0.6, 0.8, 0.0]), np.array([0.0, 0.8, 0.6]), g)
    z = np.sqrt(1 - 0.73)
    np.testing.assert_allclose(new_a, [z, 0.8, 0.3])
    np.testing.assert_allclose(new_b, [-z, 0.8, 0.3])


def test_direct_bias_by_hand():
    """Words at cos 0.6 and 0 with g: DirectBias_1 = 0.3, DirectBias_2 = 0.18."""
    vectors = Vectors(["x", "y", "z"], [[0.6, 0.8], [0.0, 1.0], [1.0, 0.0]])
    g = np.array([1.0, 0.0])
    assert direct_bias(vectors, ["x", "y", "missing"], g) == pytest.approx(0.3)
    assert direct_bias(vectors, ["x", "y"], g, c=2) == pytest.approx(0.18)
    with pytest.raises(ValueError, match="none of the neutral words"):
        direct_bias(vectors, ["missing"], g)


def test_shipped_lists_are_debiaswe():
    lists = load_debias_lists()
    assert len(lists.definitional) == 10
    assert lists.definitional[0] == ("woman", "man")
    assert len(lists.equalize) == 52
    assert len(lists.gender_specific) == 1441
    assert {"he", "she", "actress"} <= lists.gender_specific


def test_bad_list_file_rejected(tmp_path):
    path = tmp_path / "pairs.json"
    path.write_text('[["a", "b"], ["c"]]', encoding="utf-8")
    with pytest.raises(ValueError, match="item 1 is \\['c'\\]; expected a pair"):
        load_debias_lists(definitional=path)


def test_lists_that_do_not_fit_the_vocabulary_are_refused_naming_what_was_found():
    # one of three definitional pairs present: a "direction" of one pair's difference
    lists = DebiasLists(
        definitional=(("she", "he"), ("frau", "mann"), ("Mary", "John")),
        gender_specific=frozenset(),
        equalize=(),
    )
    vectors = _space()
    vectors.source = "de.vec"
    with pytest.raises(InputError) as raised:
        hard_debias(vectors, lists)
    assert str(raised.value).startswith(
        "de.vec: 1 of the 3 definitional pairs are in the vocabulary (('she', 'he')), "
        "fewer than 2: the word lists do not fit these vectors"
    )
    # the shipped English lists on a space without their words: none found
    with pytest.raises(InputError, match=r"0 of the 10 definitional pairs .* \(none\)"):
        hard_debias(Vectors(["hund", "katze", "haus"], unit_rows(np.eye(3))))


def test_three_pairs_or_half_of_a_shorter_list_are_enough():
    lists = DebiasLists(
        definitional=(("she", "he"), ("frau", "mann")), gender_specific=frozenset(), equalize=()
    )
    assert hard_debias(_space(), lists).definitional_used == (("she", "he"),)
    # a list as long as debiaswe's: three of its pairs are the floor
    absent = tuple((f"f{i}", f"m{i}") for i in range(8))
    three = (("she", "he"), ("woman", "man"), ("queen", "king"), *absent[:7])
    assert len(hard_debias(_space(), DebiasLists(three, frozenset(), ())).definitional_used) == 3
    two = (("woman", "man"), ("queen", "king"), *absent)
    with pytest.raises(InputError, match=r"2 of the 10 definitional pairs .* fewer than 3"):
        hard_debias(_space(), DebiasLists(two, frozenset(), ()))
