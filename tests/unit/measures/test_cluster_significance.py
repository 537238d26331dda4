"""Clustered significance for pairs that share a cause: hand values, calibration, power.

Pairs built from a few target words are not independent: a model's preference for
one word decides every pair that uses it. The nulls below give each cluster its own
preference, symmetric about none; the sign test's false-positive rate on them is
far above alpha, the cluster sign-flip test's stays within alpha's binomial bound.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import binom

from mgbias.measures.preference import bootstrap_standard_error
from mgbias.stats import (
    EXACT_FLIPS_UP_TO,
    cluster_bootstrap_standard_error,
    cluster_sign_flip_test,
    sign_test,
)

ALPHA = 0.05
DRAWS = 1000


def upper_bound(rate: float, draws: int = DRAWS) -> float:
    return binom.interval(0.99, draws, rate)[1] / draws


def test_one_pair_per_cluster_is_the_exact_sign_test():
    rng = np.random.default_rng(0)
    for n in (1, 5, 12, 16):
        for _ in range(20):
            values = rng.choice([-1.0, 0.0, 1.0], size=n, p=[0.3, 0.2, 0.5])
            expected = sign_test(int((values > 0).sum()), int((values < 0).sum()))
            assert cluster_sign_flip_test(values, np.arange(n)) == pytest.approx(expected)


def test_cluster_sums_by_hand():
    # sums 3, 2, 1: T = 6, reached only by all + and all -: 2 of 8 patterns
    values = [1, 1, 1, 1, 1, 1, -1, 1]
    clusters = ["a", "a", "a", "b", "b", "c", "c", "c"]
    assert cluster_sign_flip_test(values, clusters) == pytest.approx(2 / 8)
    # sums 3 and -1: |3 - 1| = 2 is the smallest of |+-3 +-1|, so p = 1
    assert cluster_sign_flip_test([1, 1, 1, -1], ["a", "a", "a", "b"]) == 1.0
    # a cluster summing to 0 is left out: the same as without it
    assert cluster_sign_flip_test(values + [1, -1], clusters + ["d", "d"]) == pytest.approx(2 / 8)
    assert cluster_sign_flip_test([1, -1, 0], ["a", "a", "b"]) == 1.0
    # real-valued pair scores (S_JSD): sums 0.5, 0.25 -> T = 0.75, 2 of 4 patterns
    assert cluster_sign_flip_test([0.25, 0.25, 0.25], ["x", "x", "y"]) == pytest.approx(0.5)


def test_labels_of_any_type_group_alike():
    values = [1.0, 1.0, -1.0, 1.0]
    assert cluster_sign_flip_test(values, [1, 1, 2, 3]) == cluster_sign_flip_test(
        values, ["1", "1", "2", "3"]
    )


def test_random_flips_above_the_exact_limit_approximate_the_exact_test():
    n = EXACT_FLIPS_UP_TO + 8
    values = np.array([1.0] * 17 + [-1.0] * 7)
    exact = sign_test(17, 7)
    p = cluster_sign_flip_test(values, np.arange(n), seed=3, n_resamples=40_000)
    assert p == pytest.approx(exact, abs=0.01)
    assert p == cluster_sign_flip_test(values, np.arange(n), seed=3, n_resamples=40_000)
    assert p != cluster_sign_flip_test(values, np.arange(n), seed=4, n_resamples=40_000)


@pytest.mark.parametrize(
    "values, clusters, message",
    [
        ([1.0, 1.0], ["a"], "one label per value"),
        ([1.0, np.nan], ["a", "b"], r"values\[1\] is not finite"),
        ([1.0, 1.0], ["a", None], r"clusters\[1\] is missing"),
        ([1.0, 1.0], ["a", float("nan")], r"clusters\[1\] is missing"),
    ],
)
def test_bad_input_is_rejected(values, clusters, message):
    with pytest.raises(ValueError, match=message):
        cluster_sign_flip_test(values, clusters)
    with pytest.raises(ValueError, match=message):
        cluster_bootstrap_standard_error(values, clusters, seed=0)


def clustered_pairs(rng, n_clusters=16, n_pairs=300, spread=0.25, shift=0.0):
    """Per-pair +1/-1 outcomes; cluster c's pairs are won with probability 0.5 + u_c + shift."""
    clusters = rng.integers(0, n_clusters, size=n_pairs)
    effects = rng.uniform(-spread, spread, size=n_clusters) + shift
    wins = rng.random(n_pairs) < np.clip(0.5 + effects[clusters], 0.0, 1.0)
    return np.where(wins, 1.0, -1.0), clusters


def test_cluster_test_is_calibrated_where_the_sign_test_is_not():
    """16 target words, 300 pairs, each word with its own preference (no overall one)."""
    rng = np.random.default_rng(20261127)
    sign_rejections = flip_rejections = 0
    for _ in range(DRAWS):
        values, clusters = clustered_pairs(rng)
        sign_rejections += sign_test(int((values > 0).sum()), int((values < 0).sum())) < ALPHA
        flip_rejections += cluster_sign_flip_test(values, clusters) < ALPHA
    assert sign_rejections / DRAWS > 3 * ALPHA  # the sign test reads clusters as evidence
    assert 0.02 <= flip_rejections / DRAWS <= upper_bound(ALPHA)


def test_cluster_test_is_calibrated_without_cluster_effects():
    rng = np.random.default_rng(11)
    rejections = 0
    for _ in range(DRAWS):
        values, clusters = clustered_pairs(rng, spread=0.0)
        rejections += cluster_sign_flip_test(values, clusters) < ALPHA
    assert rejections / DRAWS <= upper_bound(ALPHA)


def test_cluster_test_detects_a_preference_shared_by_the_clusters():
    rng = np.random.default_rng(5)
    rejections = 0
    for _ in range(200):
        values, clusters = clustered_pairs(rng, spread=0.1, shift=0.2)
        rejections += cluster_sign_flip_test(values, clusters) < ALPHA
    assert rejections / 200 > 0.9


def test_cluster_bootstrap_by_hand_and_against_the_pair_bootstrap():
    # one value per cluster: the ordinary bootstrap of the mean
    rng = np.random.default_rng(2)
    values = rng.choice([0.0, 100.0], size=200)
    pair_se = bootstrap_standard_error(values, seed=1, n_resamples=4000)
    cluster_se = cluster_bootstrap_standard_error(values, np.arange(200), seed=1, n_resamples=4000)
    assert cluster_se == pytest.approx(pair_se, rel=0.1)
    # two clusters of two: means 100, 50, 0 with probabilities 1/4, 1/2, 1/4
    se = cluster_bootstrap_standard_error(
        [100.0, 100.0, 0.0, 0.0], ["a", "a", "b", "b"], seed=0, n_resamples=20_000
    )
    assert se == pytest.approx(np.sqrt(1250), rel=0.03)
    assert np.isnan(cluster_bootstrap_standard_error([1.0, 2.0], ["a", "a"], seed=0))
    # clustered outcomes: the cluster bootstrap sees the clusters' spread
    values, clusters = clustered_pairs(np.random.default_rng(9), spread=0.4)
    assert cluster_bootstrap_standard_error(
        100 * (values > 0), clusters, seed=0
    ) > 1.5 * bootstrap_standard_error(100 * (values > 0), seed=0)


def test_exact_enumeration_matches_a_brute_force_loop():
    sums = np.array([3.0, -2.0, 1.0, 5.0])
    values = np.repeat(np.sign(sums), np.abs(sums).astype(int))
    clusters = np.repeat(np.arange(4), np.abs(sums).astype(int))
    observed = abs(sums.sum())
    flips = [abs(np.dot(signs, sums)) for signs in itertools.product([-1, 1], repeat=4)]
    expected = np.mean([flip >= observed for flip in flips])
    assert cluster_sign_flip_test(values, clusters) == pytest.approx(expected)
