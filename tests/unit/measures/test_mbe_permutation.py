"""Label-permutation test of the MBE score: exact values, calibration on nulls, power."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from mgbias.measures.mbe import mbe_score, shuffled_baseline
from mgbias.measures.mbe_permutation import mbe_permutation_test

ALPHA = 0.05


def _world(n_male: int, n_female: int, seed: int, shift: float = 0.0, dim: int = 8):
    """I.i.d. normal scores (male + shift), embeddings uniform in [0.1, 1): positive cosines."""
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=n_male) + shift,
        rng.normal(size=n_female),
        rng.uniform(0.1, 1.0, size=(n_male, dim)),
        rng.uniform(0.1, 1.0, size=(n_female, dim)),
    )


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


# Hand example, n = 2 + 2: scores 3, 2 (male) and 1, 0 (female), all embeddings equal, so
# every weight is 1 and Eq. 2 is 100 x (wins / 4). The six labellings (male rows):
#   {0,1}: 3,2 vs 1,0 -> 4 wins -> 100     {1,2}: 2,1 vs 3,0 -> 2 wins -> 50
#   {0,2}: 3,1 vs 2,0 -> 3 wins ->  75     {1,3}: 2,0 vs 3,1 -> 1 win  -> 25
#   {0,3}: 3,0 vs 2,1 -> 2 wins ->  50     {2,3}: 1,0 vs 3,2 -> 0 wins ->  0
# Observed {0,1}: |100 - 50| = 50; at least as extreme: {0,1} and {2,3} (1/3 of labellings).
HAND_SCORES = np.array([3.0, 2.0, 1.0, 0.0])
HAND_TABLE = {(0, 1): 100, (0, 2): 75, (0, 3): 50, (1, 2): 50, (1, 3): 25, (2, 3): 0}


def test_hand_example_every_relabelling_and_the_p_value():
    n_permutations = 60
    test = mbe_permutation_test(
        HAND_SCORES, np.ones((4, 3)), 2, n_permutations=n_permutations, seed=7
    )
    rng = np.random.default_rng(7)
    expected = [HAND_TABLE[tuple(sorted(rng.permutation(4)[:2]))] for _ in range(n_permutations)]
    assert test.observed == 100.0
    assert test.permuted.tolist() == expected
    n_extreme = sum(abs(value - 50) >= 50 for value in expected)
    assert 0 < n_extreme < n_permutations  # both kinds were drawn
    assert test.n_extreme == n_extreme
    assert test.p_value == (1 + n_extreme) / (n_permutations + 1)


def test_hand_example_p_value_tends_to_one_third():
    test = mbe_permutation_test(HAND_SCORES, np.ones((4, 3)), 2, n_permutations=30_000, seed=1)
    assert test.p_value == pytest.approx(1 / 3, abs=0.01)


@pytest.mark.parametrize("weighting", ["cosine", "dot"])
@pytest.mark.parametrize("ties", [False, True])
def test_matches_a_brute_force_loop_of_mbe_score(weighting, ties):
    male, female, male_emb, female_emb = _world(7, 5, seed=11)
    if ties:  # tie groups within and across the sets
        male, female = np.round(male), np.round(female)
    scores = np.concatenate([male, female])
    vectors = np.concatenate([male_emb, female_emb])
    rows = _unit(vectors) if weighting == "cosine" else vectors
    test = mbe_permutation_test(scores, rows, 7, n_permutations=40, seed=5, block_size=9)

    rng = np.random.default_rng(5)
    observed = mbe_score(male, female, male_emb, female_emb, weighting=weighting).score
    brute = []
    for _ in range(40):
        order = rng.permutation(12)
        first, second = order[:7], order[7:]
        result = mbe_score(
            scores[first], scores[second], vectors[first], vectors[second], weighting=weighting
        )
        brute.append(result.score)
    assert test.observed == pytest.approx(observed, rel=1e-12)
    np.testing.assert_allclose(test.permuted, brute, rtol=1e-12)
    n_extreme = sum(abs(b - 50) >= abs(observed - 50) - 1e-7 for b in brute)
    assert test.p_value == (1 + n_extreme) / 41


def test_block_size_does_not_change_the_result():
    male, female, male_emb, female_emb = _world(40, 33, seed=2)
    scores, rows = np.concatenate([male, female]), _unit(np.concatenate([male_emb, female_emb]))
    results = [
        mbe_permutation_test(scores, rows, 40, n_permutations=99, seed=3, block_size=k)
        for k in (1, 7, 64, 100, 500)
    ]
    for result in results[1:]:
        assert (result.p_value, result.n_extreme) == (results[0].p_value, results[0].n_extreme)
        np.testing.assert_allclose(result.permuted, results[0].permuted, rtol=1e-13)


def test_same_seed_same_p_other_seed_other_draws():
    male, female, male_emb, female_emb = _world(30, 30, seed=4, shift=0.3)
    first = mbe_score(male, female, male_emb, female_emb, seed=1, n_permutations=199)
    again = mbe_score(male, female, male_emb, female_emb, seed=1, n_permutations=199)
    assert first == again
    scores = np.concatenate([male, female])
    rows = _unit(np.concatenate([male_emb, female_emb]))
    one = mbe_permutation_test(scores, rows, 30, n_permutations=199, seed=1)
    other = mbe_permutation_test(scores, rows, 30, n_permutations=199, seed=2)
    assert one.p_value == first.p_value
    assert not np.array_equal(one.permuted, other.permuted)


def test_undefined_relabellings_count_as_extreme():
    # Dot weights of 1-D embeddings v = (1, 1, -1, 2): den(x) = s_x (s - s_x), s = 3.
    # Observed {0,1}: 2 x 1 = 2 > 0. {0,2}, {1,2}, {0,3}, {1,3}: s_x in {0, 3}, den = 0.
    vectors = np.array([[1.0], [1.0], [-1.0], [2.0]])
    test = mbe_permutation_test(HAND_SCORES, vectors, 2, n_permutations=50, seed=0)
    undefined = np.isnan(test.permuted)
    assert undefined.any() and not undefined.all()
    rng = np.random.default_rng(0)
    drawn = [tuple(sorted(rng.permutation(4)[:2])) for _ in range(50)]
    assert undefined.tolist() == [d not in {(0, 1), (2, 3)} for d in drawn]
    # observed: wins 3>1, 3>0, 2>1, 2>0 weighted by v_m v_f: (1)(-1)+(1)(2)+(1)(-1)+(1)(2) = 2,
    # den = 2 -> 100; {2,3} (the complement): no wins -> 0, as extreme.
    assert test.observed == 100.0
    assert test.n_extreme == 50
    assert test.p_value == 1.0


def test_permutation_p_values_are_calibrated_on_null_worlds():
    draws, n_permutations = 300, 199
    rejected = 0
    for draw in range(draws):
        male, female, male_emb, female_emb = _world(25, 35, seed=1000 + draw)
        result = mbe_score(
            male, female, male_emb, female_emb, seed=draw, n_permutations=n_permutations
        )
        assert result.test == "permutation" and result.n_permutations == n_permutations
        rejected += result.significant
    low, high = binom.interval(0.99, draws, ALPHA)
    assert low <= rejected <= high, (rejected, low, high)


def test_mcnemar_readings_are_anti_conservative_on_the_same_kind_of_nulls():
    draws = 200
    rejected = {"mcnemar_sentence": 0, "mcnemar_pair": 0}
    for draw in range(draws):
        args = _world(300, 300, seed=2000 + draw)
        for test in rejected:
            rejected[test] += mbe_score(*args, seed=draw, test=test).significant
    _, high = binom.interval(0.99, draws, ALPHA)
    assert rejected["mcnemar_sentence"] > high, rejected
    assert rejected["mcnemar_pair"] > 0.5 * draws, rejected


def test_planted_shift_is_detected():
    draws = 100
    rejected = 0
    for draw in range(draws):
        male, female, male_emb, female_emb = _world(40, 40, seed=3000 + draw, shift=1.0)
        result = mbe_score(male, female, male_emb, female_emb, seed=draw, n_permutations=199)
        assert result.score > 50
        # the group is named only when the test rejects
        assert result.preferred == ("male" if result.significant else "none")
        rejected += result.significant
    assert rejected >= 0.95 * draws


def test_shuffled_baseline_is_tested_by_permutation_too():
    male, female, male_emb, female_emb = _world(50, 50, seed=6, shift=2.0)
    result = mbe_score(male, female, male_emb, female_emb, seed=3)
    baseline = shuffled_baseline(male, female, male_emb, female_emb, seed=3)
    assert result.p_value == 1 / 1000 and result.significant
    assert baseline.test == "permutation" and baseline.n_permutations == 999
    assert baseline.p_value > ALPHA


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_male": 0}, "n_male must be at least 1"),
        ({"n_male": 6}, "n_male must be below the number of sentences 6"),
        ({"n_permutations": 0}, "n_permutations must be at least 1"),
        ({"n_permutations": 9.5}, "n_permutations must be an integer"),
        ({"block_size": True}, "block_size must be an integer"),
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"embeddings": np.ones((5, 2))}, r"got shapes \(6,\) and \(5, 2\)"),
    ],
)
def test_invalid_arguments_are_named(change, message):
    arguments = {
        "scores": np.arange(6.0),
        "embeddings": np.ones((6, 2)),
        "n_male": 3,
        "n_permutations": 9,
        "seed": 0,
    }
    arguments.update(change)
    scores, embeddings, n_male = (arguments.pop(k) for k in ("scores", "embeddings", "n_male"))
    with pytest.raises(ValueError, match=message):
        mbe_permutation_test(scores, embeddings, n_male, **arguments)
