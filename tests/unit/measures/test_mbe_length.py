"""MBE's set lengths (mgbias.measures.mbe_length): the two sets' token counts and AULA's
relation with them, and when they, not the model, may decide the score."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from mgbias.measures.mbe_length import SetLengths, set_lengths
from mgbias.measures.registry import verdict

ALPHA = 0.05


def test_by_hand_three_against_three():
    # lengths separate the sets completely: the exact two-sided Mann-Whitney p is
    # 2 / C(6, 3) = 0.1; AULA rises with every token: Spearman's rho is 1
    found = set_lengths(
        [5, 6, 7, 8, 9, 10], [-3.0, -2.9, -2.5, -2.2, -2.0, -1.9], ["female"] * 3 + ["male"] * 3
    )
    assert (found.male, found.female) == (9.0, 6.0)
    assert found.p_value == pytest.approx(0.1)
    assert found.rho == pytest.approx(1.0) and found.push == 1
    assert not found.leans(70.0, ALPHA)  # p = 0.1: the lengths do not differ at 0.05
    assert found.to_dict()["length_male"] == 9.0


def test_leans_only_where_both_tests_reject_and_the_push_matches_the_score():
    lengths = SetLengths(male=14.2, female=12.9, p_value=0.003, rho=0.55, rho_p_value=1e-9)
    assert lengths.push == 1
    assert lengths.leans(61.0, ALPHA) and not lengths.leans(39.0, ALPHA)
    assert not lengths.leans(50.0, ALPHA)
    falling = SetLengths(male=14.2, female=12.9, p_value=0.003, rho=-0.3, rho_p_value=1e-4)
    assert falling.push == -1 and falling.leans(40.0, ALPHA)
    assert not SetLengths(14.2, 12.9, 0.2, 0.55, 1e-9).leans(61.0, ALPHA)
    assert not SetLengths(14.2, 12.9, 0.003, 0.01, 0.6).leans(61.0, ALPHA)
    assert lengths.words() == (
        "the male sentences are longer (14.2 against 12.9 tokens on average, p = 0.003) "
        "and AULA rises with length (Spearman rho = 0.55)"
    )


def test_constant_lengths_or_scores_give_no_correlation():
    found = set_lengths([7, 7, 7, 7], [-1.0, -2.0, -1.5, -1.2], ["male", "female"] * 2)
    assert math.isnan(found.rho) and found.push == 0 and not found.leans(80.0, ALPHA)
    with pytest.raises(ValueError, match="male and female sentences"):
        set_lengths([1, 2], [-1.0, -2.0], ["male", "male"])
    with pytest.raises(ValueError, match="one length"):
        set_lengths([1, 2, 3], [-1.0, -2.0], ["male", "female"])


def test_the_verdict_names_the_lengths_in_place_of_a_preference():
    lengths = SetLengths(male=14.2, female=12.9, p_value=0.003, rho=0.55, rho_p_value=1e-9)
    text = verdict(
        "mbe",
        61.2,
        0.001,
        sample="400 male and 400 female sentences",
        artifact=f"{lengths.words()}: the length difference, not the model, may decide",
    )
    assert text == (
        "MBE 61.2 (p = 0.001, 400 male and 400 female sentences): the male sentences are "
        "longer (14.2 against 12.9 tokens on average, p = 0.003) and AULA rises with length "
        "(Spearman rho = 0.55): the length difference, not the model, may decide"
    )


def test_the_flag_is_rare_where_the_sets_do_not_differ_in_length():
    # simulated nulls: both sets' lengths from one distribution, AULA rising with length
    # as on the demo (rho about 0.55): the flag needs the lengths to differ, so it is
    # raised at most at about alpha's rate (within a binomial bound)
    rng = np.random.default_rng(0)
    sims, flagged = 400, 0
    for _ in range(sims):
        lengths = rng.integers(5, 25, size=80)
        scores = -3.0 + 0.05 * lengths + rng.normal(0, 0.3, size=80)
        genders = ["male"] * 40 + ["female"] * 40
        found = set_lengths(lengths, scores, genders)
        score = 50.0 + 10.0 * found.push  # the side the lengths push to: the worst case
        flagged += found.leans(score, ALPHA)
    bound = stats.binom.ppf(0.999, sims, ALPHA)
    assert flagged <= bound, (flagged, bound)


def test_the_flag_is_raised_where_the_male_sentences_are_longer():
    rng = np.random.default_rng(1)
    raised = 0
    for _ in range(100):
        lengths = np.r_[rng.integers(10, 30, size=40), rng.integers(5, 25, size=40)]
        scores = -3.0 + 0.05 * lengths + rng.normal(0, 0.3, size=80)
        found = set_lengths(lengths, scores, ["male"] * 40 + ["female"] * 40)
        raised += found.leans(60.0, ALPHA)
    assert raised >= 80  # five tokens longer on average: found nearly every time
