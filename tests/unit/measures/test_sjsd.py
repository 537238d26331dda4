"""S_JSD (Steinborn et al. 2022, Eqs. 1-3): analytic JSD, pair scores, sign, bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.distance import jensenshannon

from mgbias.measures.cps import cps_sentence_scores
from mgbias.measures.sjsd import (
    TABLE_SCALE,
    analytic_jsd,
    binarized_sjsd,
    js_distance,
    js_distance_sums,
    sjsd,
    sjsd_pair_scores,
)
from mgbias.pairs.perturb import perturb_final_character


def eq3_by_hand(p: float) -> float:
    """Eq. 3 written out with math.log2, 0 log 0 = 0."""
    p_log_p = p * math.log2(p) if p > 0 else 0.0
    return 0.5 * (p_log_p - (p + 1) * math.log2(p + 1) + 2)


@pytest.mark.parametrize("p", [0.0, 1e-9, 0.01, 0.2, 0.5, 0.73, 0.999, 1.0])
def test_analytic_jsd_equals_scipy_against_the_one_hot_gold(p):
    rng = np.random.default_rng(int(p * 1000))
    # Vocabulary of 7; gold at index 2 with probability p, the rest spread at random.
    rest = rng.dirichlet(np.ones(6)) * (1 - p)
    distribution = np.insert(rest, 2, p)
    gold = np.zeros(7)
    gold[2] = 1.0
    expected = jensenshannon(distribution, gold, base=2) ** 2
    assert analytic_jsd(p) == pytest.approx(expected, abs=1e-12)
    assert analytic_jsd(p) == pytest.approx(eq3_by_hand(p), abs=1e-15)
    assert js_distance(p) == pytest.approx(jensenshannon(distribution, gold, base=2), abs=1e-6)


def test_analytic_jsd_endpoints_and_a_hand_value():
    # p = 0.5: 0.5 * (0.5 * -1 - 1.5 * log2 1.5 + 2) = 0.5 * (1.5 - 0.877444) = 0.311278
    np.testing.assert_allclose(analytic_jsd([0.0, 0.5, 1.0]), [1.0, 0.311278, 0.0], atol=1e-6)
    assert js_distance(1.0) == 0.0
    assert js_distance(0.0) == 1.0


def test_analytic_jsd_is_monotone_decreasing():
    values = analytic_jsd(np.linspace(0, 1, 1001))
    assert np.all(np.diff(values) < 0)


def test_analytic_jsd_rejects_non_probabilities():
    with pytest.raises(ValueError, match=r"p_gold\[1\] = 1.5 is not a probability"):
        analytic_jsd([0.5, 1.5])
    with pytest.raises(ValueError, match="not a probability"):
        analytic_jsd(math.nan)


# Two pairs, worked by hand with d(p) = sqrt(JSD(p)): d(1) = 0, d(0.5) = 0.557923, d(0.25) =
# sqrt(0.5 * (0.25 * -2 - 1.25 * log2 1.25 + 2)) = sqrt(0.610544) = 0.781373.
D_HALF = math.sqrt(eq3_by_hand(0.5))
D_QUARTER = math.sqrt(eq3_by_hand(0.25))
# Pair 0: sent_more tokens p = (1, 0.5), sent_less p = (0.5, 0.5)
#   S_JSD = ((0 - D_HALF) + (D_HALF - D_HALF)) / 2 = -0.278962   (sent_more closer: negative)
# Pair 1: sent_more p = (0.25, 0.5, 0.5), sent_less p = (0.5, 0.5, 1)
#   S_JSD = ((D_QUARTER - D_HALF) + 0 + (D_HALF - 0)) / 3 = D_QUARTER / 3 = 0.260458
MORE = [np.log([1.0, 0.5]), np.log([0.25, 0.5, 0.5])]
LESS = [np.log([0.5, 0.5]), np.log([0.5, 0.5, 1.0])]


def test_pair_scores_by_hand_and_sign_convention():
    scores = sjsd_pair_scores(MORE, LESS)
    np.testing.assert_allclose(scores, [-D_HALF / 2, D_QUARTER / 3], rtol=1e-12)
    assert scores[0] < 0  # sent_more's predictions closer to its tokens: stereotype preferred
    np.testing.assert_allclose(sjsd_pair_scores(LESS, MORE), -scores, rtol=1e-12)


def test_pair_score_is_a_mean_not_a_sum():
    doubled_more = [np.tile(MORE[0], 2)]
    doubled_less = [np.tile(LESS[0], 2)]
    np.testing.assert_allclose(sjsd_pair_scores(doubled_more, doubled_less), [-D_HALF / 2])


def test_pair_scores_need_the_same_shared_tokens():
    with pytest.raises(
        ValueError, match="pair 1: sent_more has 3 shared tokens but sent_less has 2"
    ):
        sjsd_pair_scores(MORE, [LESS[0], LESS[0]])
    with pytest.raises(ValueError, match="more_shared_logprobs holds 2 pairs but"):
        sjsd_pair_scores(MORE, LESS[:1])
    with pytest.raises(ValueError, match="is not a log-probability"):
        sjsd_pair_scores([np.array([0.5])], [np.array([-1.0])])


def test_probability_zero_gives_distance_one():
    np.testing.assert_allclose(js_distance_sums([np.array([-np.inf, 0.0])]), [1.0])


def test_dataset_score_and_seeded_bootstrap():
    rng = np.random.default_rng(3)
    pair_scores = rng.normal(-0.004, 0.02, size=212)
    first = sjsd(pair_scores, seed=11)
    assert first.score == pytest.approx(float(np.mean(pair_scores)), rel=1e-12)
    assert first.n == 212
    assert first.preferred == "sent_more"
    assert sjsd(pair_scores, seed=11) == first
    assert sjsd(pair_scores, seed=12).se != first.se
    analytic = float(np.std(pair_scores, ddof=1) / math.sqrt(212))
    assert first.se == pytest.approx(analytic, rel=0.15)
    assert first.score_in_table_units == pytest.approx(first.score * 1e3)
    assert TABLE_SCALE == 1e3
    record = first.to_dict()
    assert record["score_x1e3"] == first.score_in_table_units
    assert "sent_more" in record["direction"]


def test_dataset_score_sign_and_errors():
    assert sjsd([0.01, 0.03], seed=0).preferred == "sent_less"
    assert sjsd([0.0, 0.0], seed=0).preferred == "neither"
    assert math.isnan(sjsd([-0.1], seed=0).se)
    with pytest.raises(ValueError, match=r"pair_scores\[1\] = 1.5 is not an S_JSD"):
        sjsd([0.0, 1.5], seed=0)
    with pytest.raises(ValueError, match="non-empty 1-D"):
        sjsd([], seed=0)


def test_binarized_sjsd_counts_pairs_where_sent_more_is_closer():
    # Pair 0: sums D_HALF (more) < 2 D_HALF (less): win.
    # Pair 1: D_QUARTER + 2 D_HALF (more) > 2 D_HALF (less): loss.
    # Pair 2: identical sentences: tie (not a win, in the denominator).
    more = [*MORE, np.log([0.3])]
    less = [*LESS, np.log([0.3])]
    result = binarized_sjsd(more, less)
    assert (result.n_more, result.n_less, result.n_ties, result.n_counted) == (1, 1, 1, 3)
    assert result.score == pytest.approx(100 / 3)
    np.testing.assert_allclose(
        js_distance_sums(more), [D_HALF, D_QUARTER + 2 * D_HALF, math.sqrt(eq3_by_hand(0.3))]
    )


def test_binarized_sjsd_bootstrap_is_seeded():
    rng = np.random.default_rng(5)
    more = [np.log(rng.uniform(0.01, 1, size=4)) for _ in range(50)]
    less = [np.log(rng.uniform(0.01, 1, size=4)) for _ in range(50)]
    assert binarized_sjsd(more, less, seed=1).se == binarized_sjsd(more, less, seed=1).se
    assert math.isnan(binarized_sjsd(more, less).se)


def test_cps_and_sjsd_come_from_the_same_arrays():
    # The more likely every shared token, the higher CPS's sum and the lower the distance.
    cps_scores = cps_sentence_scores(MORE)
    distances = js_distance_sums(MORE)
    np.testing.assert_allclose(cps_scores, [math.log(0.5), math.log(0.25) + 2 * math.log(0.5)])
    assert distances.shape == cps_scores.shape


def test_perturb_final_character():
    assert perturb_final_character("She is a nurse.") == "She is a nurse"
    assert perturb_final_character("she is a nurse .") == "she is a nurse "
    assert perturb_final_character("She is a nurse. ") == "She is a nurse."
    assert perturb_final_character("x") == ""
    with pytest.raises(ValueError, match="empty sentence"):
        perturb_final_character("")


def test_ties_are_the_counted_pair_scores_of_zero():
    scores = [-0.02, 0.0, -0.01, 0.0, 0.03]
    assert sjsd(scores, seed=0).n_ties == 2
    # the second pair is an edge pair: kept at 0 by default, dropped by "exclude"
    edge = [False, True, False, False, False]
    assert sjsd(scores, seed=0, edge=edge).n_ties == 2
    excluded = sjsd(scores, seed=0, edge=edge, tie_rule="exclude")
    assert (excluded.n, excluded.n_ties) == (4, 1)
    assert sjsd([0.01, -0.01], seed=0).n_ties == 0
