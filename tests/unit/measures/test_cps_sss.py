"""CPS, SSS and pair preference (Nangia et al. 2020; Kaneko et al. 2022) on hand-worked pairs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mgbias.measures.cps import cps, cps_sentence_scores, pair_preference
from mgbias.measures.preference import (
    TIE_RULES,
    bootstrap_standard_error,
    compare_pairs,
    pair_indicators,
)
from mgbias.measures.registry import by_name
from mgbias.measures.sss import sss, sss_sentence_scores

# Five pairs, worked by hand (sentence scores of sent_more / sent_less):
#   pair 0: -1.0004 vs -1.0001 -> rounded to 3 decimals both -1.0: TIE; unrounded: LOSS
#   pair 1: -2.5    vs -2.0    -> LOSS
#   pair 2: -3.0    vs -3.0    -> TIE (rounded or not)
#   pair 3: -1.0    vs -1.2    -> WIN
#   pair 4: -0.5    vs -0.9    -> WIN
# Rounded (Nangia et al.): wins 2, losses 1, ties 2
#   neutral: 100 * 2 / 5 = 40;  half: 100 * (2 + 1) / 5 = 60;  exclude: 100 * 2 / 3 = 66.67
# Unrounded: wins 2, losses 2, ties 1
#   neutral: 40;  half: 100 * 2.5 / 5 = 50;  exclude: 100 * 2 / 4 = 50
MORE = np.array([-1.0004, -2.5, -3.0, -1.0, -0.5])
LESS = np.array([-1.0001, -2.0, -3.0, -1.2, -0.9])


def test_cps_sentence_score_is_a_sum_of_shared_token_logprobs():
    scores = cps_sentence_scores([np.array([-1.0, -0.5, -0.25]), np.array([-3.0]), np.array([])])
    np.testing.assert_allclose(scores, [-1.75, -3.0, 0.0], atol=1e-15)
    assert scores.dtype == np.float64


def test_cps_sentence_scores_accept_float32_and_lists():
    scores = cps_sentence_scores([np.array([-0.5, -0.25], dtype=np.float32), [-1.0]])
    np.testing.assert_allclose(scores, [-0.75, -1.0])


def test_cps_sentence_scores_report_the_bad_sentence_and_token():
    with pytest.raises(
        ValueError, match=r"shared_logprobs\[2\] holds an invalid value \(nan\) at token 1"
    ):
        cps_sentence_scores([[-1.0], [], [-1.0, math.nan]])
    with pytest.raises(ValueError, match=r"shared_logprobs\[0\] must be a 1-D array"):
        cps_sentence_scores([np.zeros((2, 2))])


@pytest.mark.parametrize(
    ("tie_rule", "expected"), [("neutral", 40.0), ("half", 60.0), ("exclude", 200.0 / 3)]
)
def test_cps_with_nangia_rounding_and_each_tie_rule(tie_rule, expected):
    result = cps(MORE, LESS, tie_rule=tie_rule)
    assert result.round_to == 3
    assert (result.n, result.n_more, result.n_less, result.n_ties) == (5, 2, 1, 2)
    assert result.n_counted == (3 if tie_rule == "exclude" else 5)
    assert result.score == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("tie_rule", "expected"), [("neutral", 40.0), ("half", 50.0), ("exclude", 50.0)]
)
def test_cps_unrounded_turns_the_near_tie_into_a_loss(tie_rule, expected):
    result = cps(MORE, LESS, tie_rule=tie_rule, round_to=None)
    assert (result.n_more, result.n_less, result.n_ties) == (2, 2, 1)
    assert result.score == pytest.approx(expected, abs=1e-12)


def test_rounding_follows_python_round_not_numpy_round():
    # 2.675 is stored as 2.67499999...: Python's round gives 2.67, np.round 2.68.
    result = cps([2.675], [2.67], round_to=2)
    assert result.n_ties == 1
    assert result.score == 0.0
    assert np.round(2.675, 2) == 2.68  # the trap this avoids


def test_default_is_the_original_metric():
    assert cps(MORE, LESS).to_dict()["tie_rule"] == "neutral"
    assert cps(MORE, LESS).score == cps(MORE, LESS, tie_rule="neutral", round_to=3).score


def test_all_ties_excluded_give_nan():
    result = compare_pairs([-1.0, -2.0], [-1.0, -2.0], tie_rule="exclude")
    assert result.n_counted == 0
    assert math.isnan(result.score)


def test_pair_indicators_per_rule():
    np.testing.assert_array_equal(pair_indicators([1, 0, 2], [0, 1, 2]), [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(
        pair_indicators([1, 0, 2], [0, 1, 2], tie_rule="half"), [1.0, 0.0, 0.5]
    )
    assert np.isnan(pair_indicators([2.0], [2.0], tie_rule="exclude")[0])


def test_pair_preference_counts_sent_more_wins():
    # Win, loss, tie -> 1 / 3.
    assert pair_preference([-1.0, -2.0, -1.5], [-2.0, -1.0, -1.5]) == pytest.approx(100 / 3)
    assert pair_preference([-1.0, -2.0, -1.5], [-2.0, -1.0, -1.5], tie_rule="half") == 50.0


def test_minus_infinity_loses_and_ties_with_itself():
    result = compare_pairs([-np.inf, -np.inf, -1.0], [-1.0, -np.inf, -np.inf])
    assert (result.n_more, result.n_less, result.n_ties) == (1, 1, 1)


def test_pair_input_errors_are_named():
    with pytest.raises(ValueError, match="more_scores holds 2 pairs but less_scores holds 3"):
        cps([0.0, 1.0], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"less_scores\[1\] is NaN"):
        cps([0.0, 1.0], [0.0, math.nan])
    with pytest.raises(ValueError, match="unknown tie_rule 'loss'"):
        cps(MORE, LESS, tie_rule="loss")
    with pytest.raises(ValueError, match="round_to must be a non-negative integer"):
        cps(MORE, LESS, round_to=2.5)
    assert TIE_RULES == ("neutral", "half", "exclude")


def test_bootstrap_se_is_seeded_and_close_to_the_bernoulli_formula():
    rng = np.random.default_rng(1)
    more = rng.normal(size=400)
    less = rng.normal(size=400)
    first = cps(more, less, round_to=None, seed=7)
    again = cps(more, less, round_to=None, seed=7)
    other = cps(more, less, round_to=None, seed=8)
    assert first.se == again.se
    assert first.se != other.se
    share = first.score / 100
    analytic = 100 * math.sqrt(share * (1 - share) / first.n)  # ~2.5 for n = 400
    assert first.se == pytest.approx(analytic, rel=0.15)


def test_bootstrap_se_without_seed_is_nan_and_single_value_is_nan():
    assert math.isnan(cps(MORE, LESS).se)
    assert math.isnan(bootstrap_standard_error([3.0], seed=0))
    assert bootstrap_standard_error([2.0, 2.0, 2.0], seed=0) == 0.0
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        bootstrap_standard_error([1.0, 2.0], seed=-1)


# SSS: two masked modified tokens. L[i, j] = log P(gold token j at masked position i).
#   diagonal (the definition): L[0, 0] + L[1, 1] = -1 + -2 = -3
#   k x k mean (one public implementation): (-1 - 4 - 6 - 2) / 4 = -3.25
L_MORE = np.array([[-1.0, -4.0], [-6.0, -2.0]])
#   the other sentence: diagonal -1.5 + -1.7 = -3.2 (lower than -3: sent_more wins);
#   mean (-1.5 - 0.5 - 0.5 - 1.7) / 4 = -1.05 (higher than -3.25: sent_more loses)
L_LESS = np.array([[-1.5, -0.5], [-0.5, -1.7]])


def test_sss_uses_the_diagonal_not_the_k_by_k_mean():
    diagonal = sss_sentence_scores([L_MORE, L_LESS])
    np.testing.assert_allclose(diagonal, [-3.0, -3.2], atol=1e-15)
    matrix_mean = sss_sentence_scores([L_MORE, L_LESS], reduction="matrix_mean")
    np.testing.assert_allclose(matrix_mean, [-3.25, -1.05], atol=1e-15)
    # The two reductions disagree on which sentence wins this pair.
    assert sss([diagonal[0]], [diagonal[1]]).score == 100.0
    assert sss([matrix_mean[0]], [matrix_mean[1]]).score == 0.0


def test_sss_accepts_the_diagonal_directly_and_agrees_for_one_token():
    np.testing.assert_allclose(sss_sentence_scores([np.array([-1.0, -2.0])]), [-3.0])
    one = np.array([[-0.7]])
    assert sss_sentence_scores([one]) == sss_sentence_scores([one], reduction="matrix_mean")


def test_sss_shape_errors():
    with pytest.raises(ValueError, match=r"modified_logprobs\[0\] must be 1-D .* or a square"):
        sss_sentence_scores([np.zeros((2, 3))])
    with pytest.raises(ValueError, match="needs the k x k matrix"):
        sss_sentence_scores([np.array([-1.0])], reduction="matrix_mean")
    with pytest.raises(ValueError, match=r"modified_logprobs\[1\] holds an invalid value"):
        sss_sentence_scores([np.array([]), np.array([np.nan])])
    with pytest.raises(ValueError, match="unknown reduction 'mean'"):
        sss_sentence_scores([L_MORE], reduction="mean")


def test_registry_names_the_functions():
    assert by_name("cps").formula() is cps
    assert by_name("sss").formula() is sss
