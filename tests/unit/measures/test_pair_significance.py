"""The pair measures' p-values: hand-computed values, calibration on simulated nulls, power.

A significance mark is only as good as the test's false-positive rate. Each
null below is simulated with a fixed seed; the rejection rate at alpha = 0.05
must lie within a 99% binomial interval of the rate the test promises.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from mgbias.measures.preference import compare_pairs
from mgbias.measures.sjsd import sjsd
from mgbias.stats import mean_zero_test, sign_test

ALPHA = 0.05
DRAWS = 2000


def bound(rate: float, draws: int = DRAWS) -> tuple[float, float]:
    low, high = binom.interval(0.99, draws, rate)
    return low / draws, high / draws


def exact_sign_test_size(n_untied: int) -> float:
    """P(p < alpha) under the null, summed over the outcomes the exact test rejects."""
    outcomes = np.arange(n_untied + 1)
    rejected = [k for k in outcomes if sign_test(int(k), int(n_untied - k)) < ALPHA]
    return float(binom.pmf(rejected, n_untied, 0.5).sum())


def test_sign_test_by_hand():
    # 9 wins of 10: P(K >= 9) + P(K <= 1) = 2 * 11 / 1024
    assert sign_test(9, 1) == pytest.approx(22 / 1024)
    assert sign_test(5, 5) == pytest.approx(1.0)
    assert sign_test(0, 0) == 1.0
    assert sign_test(0, 6) == pytest.approx(2 / 64)
    with pytest.raises(ValueError, match="n_less must be a non-negative integer"):
        sign_test(3, -1)


def test_compare_pairs_tests_the_untied_pairs():
    more = [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -2.0]
    less = [-2.0, -2.0, -2.0, -2.0, -2.0, -1.0, -1.0]
    result = compare_pairs(more, less)
    assert (result.n_more, result.n_less, result.n_ties) == (5, 1, 1)
    assert result.p_value == pytest.approx(sign_test(5, 1)) == pytest.approx(14 / 64)


def test_mean_zero_test_by_hand():
    values = np.array([-1.0, -2.0, -3.0, -2.0])
    t = values.mean() / (values.std(ddof=1) / math.sqrt(4))  # -4.899
    from scipy.stats import t as student

    assert mean_zero_test(values) == pytest.approx(2 * student.sf(abs(t), 3))
    assert mean_zero_test([0.0, 0.0]) == 1.0
    assert math.isnan(mean_zero_test([0.3]))
    with pytest.raises(ValueError, match=r"values\[1\] is not finite"):
        mean_zero_test([0.0, np.nan])
    result = sjsd([-0.01, -0.02, 0.0, -0.03], seed=0)
    assert result.p_value == pytest.approx(mean_zero_test([-0.01, -0.02, 0.0, -0.03]))


def test_sign_test_is_calibrated_on_simulated_nulls():
    """Exchangeable sentence scores, rounded so that ties occur: no preference.

    The exact test is conservative by discreteness: its size at m untied pairs
    is below alpha. The simulated rate must match that exact size, and never
    exceed alpha's binomial bound.
    """
    rng = np.random.default_rng(20261123)
    rejections, sizes = 0, []
    for _ in range(DRAWS):
        n = int(rng.integers(150, 300))
        more = np.round(rng.normal(size=n), 1)
        less = np.round(rng.normal(size=n), 1)
        result = compare_pairs(more, less, round_to=None)
        rejections += result.p_value < ALPHA
        sizes.append(result.n_more + result.n_less)
    rate = rejections / DRAWS
    expected = float(np.mean([exact_sign_test_size(m) for m in sorted(set(sizes))[::10]]))
    assert 0.03 < expected <= ALPHA
    low, high = bound(expected)
    assert low <= rate <= high, (rate, expected)
    assert rate <= bound(ALPHA)[1]


def test_sign_test_detects_a_planted_preference():
    rng = np.random.default_rng(7)
    rejections = 0
    for _ in range(200):
        wins = rng.random(262) < 0.62
        rejections += compare_pairs(np.where(wins, 1.0, -1.0), np.zeros(262)).p_value < ALPHA
    assert rejections / 200 > 0.9


@pytest.mark.parametrize("name", ["normal", "heavy_tailed", "skewed", "with_zeros"])
def test_sjsd_test_is_calibrated_on_simulated_nulls(name):
    """Pair scores with mean 0 (S_JSD units); the edge pairs' exact zeros included."""
    rng = np.random.default_rng(["normal", "heavy_tailed", "skewed", "with_zeros"].index(name))
    draw = {
        "normal": lambda n: rng.normal(size=n),
        "heavy_tailed": lambda n: rng.standard_t(3, size=n),
        "skewed": lambda n: rng.exponential(size=n) - 1.0,
        "with_zeros": lambda n: rng.normal(size=n) * (rng.random(n) < 0.7),
    }[name]
    rejections = 0
    for _ in range(DRAWS):
        scores = np.clip(draw(262) * 0.005, -1.0, 1.0)
        rejections += mean_zero_test(scores) < ALPHA
    low, high = bound(ALPHA)
    assert low <= rejections / DRAWS <= high


def test_sjsd_test_detects_a_planted_preference():
    rng = np.random.default_rng(3)
    rejections = sum(
        sjsd(rng.normal(-0.003, 0.01, size=262), seed=0, n_resamples=2).p_value < ALPHA
        for _ in range(100)
    )
    assert rejections / 100 > 0.9
