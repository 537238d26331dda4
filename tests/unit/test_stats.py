"""McNemar's test and the counter-based random indicator."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom, chi2

from mgbias.stats import GOLDEN_GAMMA, mcnemar_test, random_indicator, splitmix64_mix

MASK64 = 2**64 - 1


def test_exact_p_value_b10_c2():
    # Exact McNemar = two-sided binomial test of min(b, c) among b + c with p = 1/2:
    # 2 * P(X <= 2), X ~ Bin(12, 1/2) = 2 * (1 + 12 + 66) / 4096 = 158 / 4096.
    statistic, p_value = mcnemar_test(10, 2)
    assert statistic == 2.0
    assert p_value == pytest.approx(158 / 4096, rel=1e-12)
    assert p_value == pytest.approx(2 * binom.cdf(2, 12, 0.5), rel=1e-12)


def test_chi_square_with_continuity_correction_b30_c10():
    # (|30 - 10| - 1)^2 / (30 + 10) = 361 / 40 = 9.025
    statistic, p_value = mcnemar_test(30, 10)
    assert statistic == pytest.approx(9.025, rel=1e-12)
    assert p_value == pytest.approx(chi2.sf(9.025, df=1), rel=1e-12)


def test_exact_switch_at_25_discordant_pairs():
    # b + c = 24 -> exact (statistic = min(b, c)); b + c = 25 -> chi-square.
    assert mcnemar_test(19, 5)[0] == 5.0
    assert mcnemar_test(20, 5)[0] == pytest.approx((15 - 1) ** 2 / 25)  # 7.84
    assert mcnemar_test(20, 5, exact=True)[0] == 5.0
    assert mcnemar_test(10, 2, exact=False)[0] == pytest.approx((8 - 1) ** 2 / 12)


def test_balanced_and_empty_counts_give_p_one():
    assert mcnemar_test(3, 3)[1] == 1.0
    assert mcnemar_test(0, 0) == (0.0, 1.0)
    assert mcnemar_test(0, 0, exact=False) == (0.0, 1.0)


def test_symmetric_in_b_and_c():
    assert mcnemar_test(40, 15) == mcnemar_test(15, 40)


@pytest.mark.parametrize(
    ("b", "c", "message"), [(-1, 3, "b must be non-negative"), (2, 1.5, "c must be an integer")]
)
def test_invalid_counts(b, c, message):
    with pytest.raises(ValueError, match=message):
        mcnemar_test(b, c)


def test_splitmix64_mix_matches_published_test_vector():
    # splitmix64 seeded with 1234567 emits 6457827717110365317, 3203168211198807973 first
    # (reference C implementation): output k = mix(seed + k * gamma).
    gamma = int(GOLDEN_GAMMA)
    state = np.array([(1234567 + k * gamma) & MASK64 for k in (1, 2)], dtype=np.uint64)
    assert splitmix64_mix(state).tolist() == [6457827717110365317, 3203168211198807973]


def _mix_python(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _coin_python(seed: int, row: int, col: int) -> bool:
    """The documented construction, in plain Python integers."""
    gamma = 0x9E3779B97F4A7C15
    key = _mix_python((seed * gamma + gamma) & MASK64)
    row_key = _mix_python((key + (row + 1) * gamma) & MASK64)
    return _mix_python((row_key + (col + 1) * gamma) & MASK64) >> 63 == 1


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
def test_random_indicator_matches_scalar_definition(seed):
    rows = np.array([0, 1, 5, 1000, 2**33])
    cols = np.array([0, 3, 17, 99999])
    expected = [[_coin_python(seed, r, c) for c in cols.tolist()] for r in rows.tolist()]
    assert random_indicator(seed, rows, cols).tolist() == expected


def test_random_indicator_is_deterministic_and_seed_dependent():
    rows, cols = np.arange(300), np.arange(200)
    first = random_indicator(3, rows, cols)
    assert first.dtype == np.bool_
    assert first.shape == (300, 200)
    np.testing.assert_array_equal(first, random_indicator(3, rows, cols))
    agreement = np.mean(first == random_indicator(4, rows, cols))
    assert 0.47 < agreement < 0.53


def test_random_indicator_is_a_fair_coin():
    coins = random_indicator(11, np.arange(1000), np.arange(1000))
    # 10^6 fair coins: standard deviation of the share is 0.0005.
    assert abs(coins.mean() - 0.5) < 0.003
    # No constant rows/columns, and neighbours are uncorrelated.
    assert abs(np.mean(coins[:-1] == coins[1:]) - 0.5) < 0.003
    assert abs(np.mean(coins[:, :-1] == coins[:, 1:]) - 0.5) < 0.003
    assert 0.4 < coins.mean(axis=1).min() and coins.mean(axis=1).max() < 0.6


def test_random_indicator_is_independent_of_chunking():
    rows, cols = np.arange(57), np.arange(41)
    full = random_indicator(5, rows, cols)
    tiled = np.block(
        [
            [random_indicator(5, rows[r : r + 10], cols[c : c + 7]) for c in range(0, 41, 7)]
            for r in range(0, 57, 10)
        ]
    )
    np.testing.assert_array_equal(tiled, full)
    picked_rows, picked_cols = np.array([40, 3, 3]), np.array([9, 0])
    np.testing.assert_array_equal(
        random_indicator(5, picked_rows, picked_cols), full[np.ix_(picked_rows, picked_cols)]
    )


def test_random_indicator_empty_axis():
    assert random_indicator(0, np.arange(0), np.arange(4)).shape == (0, 4)


@pytest.mark.parametrize(
    ("seed", "rows", "cols", "message"),
    [
        (-1, np.arange(2), np.arange(2), "seed must be a non-negative integer"),
        (1.5, np.arange(2), np.arange(2), "seed must be a non-negative integer"),
        (0, np.array([0, -1]), np.arange(2), "rows must be non-negative"),
        (0, np.arange(2), np.array([0.5]), "cols must hold integers"),
        (0, np.zeros((2, 2), dtype=int), np.arange(2), r"rows must be a 1-D array.*\(2, 2\)"),
    ],
)
def test_random_indicator_validation(seed, rows, cols, message):
    with pytest.raises(ValueError, match=message):
        random_indicator(seed, rows, cols)
