"""MBE score (Kaneko et al. 2022, Eq. 2), its significance tests and the Shf baseline."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from mgbias.measures import MBEResult, mbe_score, shuffled_baseline
from mgbias.measures.mbe import baseline_test_seed, eq2_score, pair_tiles
from mgbias.stats import mcnemar_test, random_indicator

# A 3 x 3 example worked by hand.
# Male embeddings:   m0 = (1, 0), m1 = (0, 1), m2 = (3, 4)  [unit: (0.6, 0.8)]
# Female embeddings: f0 = (1, 0), f1 = (4, 3) [unit: (0.8, 0.6)], f2 = (0, 2) [unit: (0, 1)]
MALE_EMB = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 4.0]])
FEMALE_EMB = np.array([[1.0, 0.0], [4.0, 3.0], [0.0, 2.0]])
# Scores A(T): male [-1, -3, -2], female [-2, -1.5, -2.5]
MALE_SCORES = np.array([-1.0, -3.0, -2.0])
FEMALE_SCORES = np.array([-2.0, -1.5, -2.5])
#
# Cosine C(m, f):            f0     f1     f2
#                      m0     1      0.8    0
#                      m1     0      0.6    1
#                      m2     0.6    0.96   0.8        sum = 5.76
# Indicator I(A(m) > A(f)):  f0     f1     f2
#                      m0     1      1      1          (-1 beats all)
#                      m1     0      0      0          (-3 beats none)
#                      m2     0      0      1          (-2 vs -2 is a tie -> 0)
# Numerator = 1 + 0.8 + 0 + 0.8 = 2.6
# MBE = 100 * 2.6 / 5.76 = 100 * 65 / 144 = 45.1388...  -> female preferred
COSINE_EXPECTED = 100 * Fraction(65, 144)
#
# Dot products D(m, f):      f0     f1     f2
#                      m0     1      4      0
#                      m1     0      3      2
#                      m2     3      24     8          sum = 45
# Numerator = 1 + 4 + 0 + 8 = 13;  MBE = 100 * 13 / 45 = 28.888...
DOT_EXPECTED = 100 * Fraction(13, 45)


def _example(**kw) -> MBEResult:
    return mbe_score(MALE_SCORES, FEMALE_SCORES, MALE_EMB, FEMALE_EMB, **kw)


def test_cosine_hand_example():
    result = _example()
    assert result.score == pytest.approx(float(COSINE_EXPECTED), rel=1e-14)
    assert (result.n_male, result.n_female, result.n_comparisons) == (3, 3, 9)
    assert result.weighting == "cosine"
    # below 50, but 3 x 3 sentences cannot be significant: no group is preferred
    assert not result.significant and result.preferred == "none"


def test_dot_hand_example():
    result = _example(weighting="dot")
    assert result.score == pytest.approx(float(DOT_EXPECTED), rel=1e-14)
    assert result.weighting == "dot"


def test_dot_is_invariant_to_global_scaling_like_the_frobenius_normalised_reference():
    # The published code divides all dot products by ||M||_F * ||F||_F; any such constant cancels.
    frobenius = np.linalg.norm(MALE_EMB) * np.linalg.norm(FEMALE_EMB)
    scaled = mbe_score(
        MALE_SCORES, FEMALE_SCORES, MALE_EMB / frobenius, FEMALE_EMB * 7.0, weighting="dot"
    )
    assert scaled.score == pytest.approx(float(DOT_EXPECTED), rel=1e-14)


def test_cosine_is_invariant_to_per_sentence_scaling():
    scaled = mbe_score(
        MALE_SCORES, FEMALE_SCORES, MALE_EMB * np.array([[2.0], [0.5], [9.0]]), FEMALE_EMB
    )
    assert scaled.score == pytest.approx(float(COSINE_EXPECTED), rel=1e-14)


def test_sentence_level_mcnemar_counts_by_hand():
    # Per-sentence weighted win shares on the cosine example above:
    #   m0: 1.8 / 1.8 = 1     -> biased      m1: 0 / 1.6 = 0      -> not
    #   m2: 0.8 / 2.36 = 0.34 -> not
    #   f0 loses 1 / 1.6 = 0.625 -> biased   f1 loses 0.8 / 2.36 -> not
    #   f2 loses 0.8 / 1.8 = 0.44 -> not
    model = [True, False, False, True, False, False]  # m0, m1, m2, f0, f1, f2
    for seed in (0, 1, 42):
        coins = random_indicator(seed, np.arange(6), np.array([0]))[:, 0]
        b = sum(m and not r for m, r in zip(model, coins, strict=True))
        c = sum(r and not m for m, r in zip(model, coins, strict=True))
        result = _example(seed=seed, test="mcnemar_sentence")
        assert (result.test, result.n_permutations) == ("mcnemar_sentence", None)
        assert (result.b, result.c) == (b, c)
        assert (result.statistic, result.p_value) == mcnemar_test(b, c)


def test_sentence_level_counts_do_not_depend_on_chunking():
    rng = np.random.default_rng(3)
    args = (
        rng.normal(size=50),
        rng.normal(size=37),
        rng.normal(size=(50, 4)),
        rng.normal(size=(37, 4)),
    )
    results = {
        (r.b, r.c)
        for r in (mbe_score(*args, chunk_size=k, test="mcnemar_sentence") for k in (1, 7, 64))
    }
    assert len(results) == 1


def test_mcnemar_counts_match_brute_force_loop():
    for seed in (0, 1, 42):
        b = c = 0
        for m in range(3):
            for f in range(3):
                model = MALE_SCORES[m] > FEMALE_SCORES[f]
                coin = bool(random_indicator(seed, np.array([m]), np.array([f]))[0, 0])
                b += model and not coin
                c += coin and not model
        result = _example(seed=seed, test="mcnemar_pair")
        assert (result.b, result.c) == (b, c)
        assert (result.statistic, result.p_value) == mcnemar_test(b, c)
        assert result.significant == (result.p_value < 0.05)


def _random_sets(n_male: int, n_female: int, dim: int, seed: int, shift: float = 0.0):
    rng = np.random.default_rng(seed)
    # Positive coordinates keep every cosine positive.
    return (
        rng.normal(size=n_male) + shift,
        rng.normal(size=n_female),
        rng.uniform(0.1, 1.0, size=(n_male, dim)),
        rng.uniform(0.1, 1.0, size=(n_female, dim)),
    )


def _direct_score(male, female, male_emb, female_emb) -> float:
    """Eq. 2 on the full pair matrix at once (no chunking), as an independent check."""
    unit_m = male_emb / np.linalg.norm(male_emb, axis=1, keepdims=True)
    unit_f = female_emb / np.linalg.norm(female_emb, axis=1, keepdims=True)
    weights = unit_m @ unit_f.T
    return 100 * float((weights * (male[:, None] > female[None, :])).sum() / weights.sum())


@pytest.mark.parametrize("test", ["permutation", "mcnemar_sentence", "mcnemar_pair"])
@pytest.mark.parametrize("weighting", ["cosine", "dot"])
def test_results_do_not_depend_on_chunk_size(weighting, test):
    male, female, male_emb, female_emb = _random_sets(37, 23, 5, seed=3)
    female[4] = male[10]  # a tie across the sets
    options = {"weighting": weighting, "test": test, "n_permutations": 99}
    reference = mbe_score(male, female, male_emb, female_emb, chunk_size=4096, **options)
    for chunk_size in (1, 2, 5, 7, 10, 22, 23, 36, 37, 100):
        result = mbe_score(male, female, male_emb, female_emb, chunk_size=chunk_size, **options)
        assert result.score == pytest.approx(reference.score, rel=1e-13)
        assert (result.b, result.c, result.n_comparisons) == (reference.b, reference.c, 37 * 23)
        assert (result.statistic, result.p_value) == (reference.statistic, reference.p_value)
    if weighting == "cosine":
        assert reference.score == pytest.approx(_direct_score(male, female, male_emb, female_emb))


def test_pair_tiles_cover_the_pair_matrix_once_in_row_blocks():
    tiles = list(pair_tiles(MALE_SCORES, FEMALE_SCORES, MALE_EMB, FEMALE_EMB, chunk_size=2))
    assert [(t.rows, t.cols) for t in tiles] == [
        (slice(0, 2), slice(0, 2)),
        (slice(0, 2), slice(2, 3)),
        (slice(2, 3), slice(0, 2)),
        (slice(2, 3), slice(2, 3)),
    ]
    weights, wins = np.zeros((3, 3)), np.zeros((3, 3), dtype=bool)
    for tile in tiles:
        weights[tile.rows, tile.cols] = tile.weights
        wins[tile.rows, tile.cols] = tile.male_wins
    # The dot products and the indicator of the hand example above.
    np.testing.assert_array_equal(weights, [[1, 4, 0], [0, 3, 2], [3, 24, 8]])
    np.testing.assert_array_equal(wins, [[1, 1, 1], [0, 0, 0], [0, 0, 1]])


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 2048])
def test_eq2_score_of_the_tiles_is_the_dot_hand_example(chunk_size):
    tiles = pair_tiles(MALE_SCORES, FEMALE_SCORES, MALE_EMB, FEMALE_EMB, chunk_size)
    # Integer weights: every sum is exact, so the tiling cannot move the score by a bit.
    assert eq2_score(tiles, weighting="dot") == 100.0 * (13.0 / 45.0)


@pytest.mark.parametrize("chunk_size", [1, 3, 7, 2048])
def test_eq2_score_equals_a_brute_force_loop_over_the_pairs(chunk_size):
    rng = np.random.default_rng(11)
    male, female = rng.integers(-3, 4, size=9).astype(float), rng.integers(-3, 4, size=7) * 1.0
    male_emb, female_emb = rng.integers(0, 5, size=(9, 3)), rng.integers(1, 5, size=(7, 3))
    hits = total = 0
    for m in range(9):
        for f in range(7):
            weight = int(male_emb[m] @ female_emb[f])
            total += weight
            hits += weight if male[m] > female[f] else 0
    tiles = pair_tiles(male, female, male_emb * 1.0, female_emb * 1.0, chunk_size)
    assert eq2_score(tiles, weighting="dot") == 100.0 * (hits / total)
    # ... and mbe_score reports it, with the same McNemar counts for every tiling.
    for test in ("mcnemar_sentence", "mcnemar_pair"):
        scored = mbe_score(male, female, male_emb, female_emb, weighting="dot", test=test)
        tiled = mbe_score(
            male, female, male_emb, female_emb, weighting="dot", test=test, chunk_size=chunk_size
        )
        assert tiled.score == scored.score == 100.0 * (hits / total)
        assert (tiled.b, tiled.c) == (scored.b, scored.c)


def test_eq2_score_refuses_a_total_weight_that_is_not_positive():
    tiles = pair_tiles(np.array([1.0]), np.array([0.0]), np.array([[1.0]]), np.array([[-2.0]]), 1)
    with pytest.raises(ValueError, match=r"sum C\(m, f\) is -2.0, not positive; the dot weighted"):
        eq2_score(tiles, weighting="dot")


def test_all_male_higher_scores_100_and_lower_scores_0():
    male, female, male_emb, female_emb = _random_sets(6, 4, 3, seed=1)
    male_high = np.abs(male) + 10.0
    result = mbe_score(male_high, female, male_emb, female_emb)
    assert result.score == 100.0
    assert result.preferred == "male"
    # 2 of the C(10, 6) = 210 labellings score 0 or 100: p is about (1 + 999 / 105) / 1000.
    assert result.p_value == pytest.approx(0.0105, abs=0.006)
    assert (mbe_score(male_high, female, male_emb, female_emb, test="mcnemar_pair").b or 0) > 0
    result = mbe_score(male_high - 100.0, female, male_emb, female_emb)
    assert result.score == 0.0
    assert result.preferred == "female"


def test_ties_count_zero():
    male, female, male_emb, female_emb = _random_sets(3, 5, 4, seed=2)
    result = mbe_score(np.zeros(3), np.zeros(5), male_emb, female_emb)
    assert result.score == 0.0


def test_equal_split_prefers_neither():
    # One win, one loss, equal weights: 100 * w / (2w) = 50 exactly.
    result = mbe_score(
        np.array([-1.0, -2.0]),
        np.array([-1.5]),
        np.array([[1.0, 0.0], [0.0, 1.0]]),
        np.array([[1.0, 1.0]]),
    )
    assert result.score == 50.0
    assert result.preferred == "none"


def test_strong_male_preference_is_significant_and_seed_only_moves_the_test():
    male, female, male_emb, female_emb = _random_sets(60, 50, 8, seed=4, shift=1.5)
    first = mbe_score(male, female, male_emb, female_emb, seed=0)
    second = mbe_score(male, female, male_emb, female_emb, seed=9)
    assert first.preferred == "male" and first.score > 75
    assert first.significant and first.p_value == second.p_value == 1 / 1000
    assert (first.test, first.n_permutations) == ("permutation", 999)
    assert (first.b, first.c, first.statistic) == (None, None, None)
    assert second.score == first.score
    first = mbe_score(male, female, male_emb, female_emb, seed=0, test="mcnemar_sentence")
    second = mbe_score(male, female, male_emb, female_emb, seed=9, test="mcnemar_sentence")
    assert first.significant and first.b > first.c
    assert second.score == first.score
    assert (second.b, second.c) != (first.b, first.c)


def test_to_dict_holds_every_field_and_the_direction():
    record = _example().to_dict()
    assert record["score"] == pytest.approx(float(COSINE_EXPECTED))
    assert record["preferred"] == "none"  # score < 50, p >= alpha
    assert {
        "n_male",
        "n_female",
        "n_comparisons",
        "weighting",
        "b",
        "c",
        "statistic",
        "p_value",
        "significant",
        "test",
        "n_permutations",
    } <= record.keys()
    assert "score > 50: male" in record["direction"]


def test_shuffled_baseline_is_near_50_and_reproducible():
    male, female, male_emb, female_emb = _random_sets(150, 120, 6, seed=5, shift=3.0)
    assert mbe_score(male, female, male_emb, female_emb).score > 95
    shuffled = shuffled_baseline(male, female, male_emb, female_emb, seed=1)
    assert (shuffled.n_male, shuffled.n_female) == (150, 120)
    assert 40 < shuffled.score < 60
    again = shuffled_baseline(male, female, male_emb, female_emb, seed=1, chunk_size=17)
    assert again.score == pytest.approx(shuffled.score, rel=1e-13)
    assert again.p_value == shuffled.p_value
    other = shuffled_baseline(male, female, male_emb, female_emb, seed=2)
    assert other.score != shuffled.score


def test_shuffled_baseline_scores_a_seeded_split_of_the_pool():
    male, female, male_emb, female_emb = _random_sets(7, 5, 3, seed=6)
    order = np.random.default_rng(8).permutation(12)
    scores = np.concatenate([male, female])[order]
    vectors = np.concatenate([male_emb, female_emb])[order]
    expected = mbe_score(
        scores[:7],
        scores[7:],
        vectors[:7],
        vectors[7:],
        seed=baseline_test_seed(8),
        weighting="dot",
    )
    assert (
        shuffled_baseline(male, female, male_emb, female_emb, seed=8, weighting="dot") == expected
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"male_scores": np.zeros((3, 1))}, r"male_scores must be 1-D .*got shape \(3, 1\)"),
        ({"female_scores": np.array([])}, "female_scores is empty"),
        ({"male_scores": np.array([0.0, np.nan, 1.0])}, r"male_scores\[1\] is not finite"),
        ({"male_emb": np.ones((4, 2))}, r"male_emb must have shape \(3, d\).*got shape \(4, 2\)"),
        ({"female_emb": np.ones(3)}, r"female_emb must have shape \(3, d\).*got shape \(3,\)"),
        (
            {"female_emb": np.ones((3, 5))},
            r"embedding dimension of male_emb \(2\), got shape \(3, 5\)",
        ),
        (
            {"female_emb": np.array([[1.0, 0], [np.inf, 0], [0, 1]])},
            r"female_emb\[1\] holds a non-finite",
        ),
        ({"male_emb": np.array([[1.0, 0], [0, 0], [0, 1]])}, r"male_emb\[1\] is the zero vector"),
        ({"weighting": "euclid"}, "weighting must be one of"),
        ({"chunk_size": 0}, "chunk_size must be a positive integer"),
        ({"alpha": 1.5}, "alpha must lie strictly between 0 and 1"),
        ({"test": "mcnemar"}, r"test must be one of \('permutation'"),
        ({"n_permutations": 0}, "n_permutations must be a positive integer, got 0"),
        ({"n_permutations": 99.0}, "n_permutations must be a positive integer, got 99.0"),
        ({"n_permutations": 19}, r"n_permutations=19 can never give p < alpha=0.05.*at least 20"),
        (
            {"male_emb": -np.abs(MALE_EMB) - 1, "female_emb": np.abs(FEMALE_EMB) + 1},
            "total pair weight .* not positive",
        ),
    ],
)
def test_invalid_inputs_are_named(change, message):
    arguments = {
        "male_scores": MALE_SCORES,
        "female_scores": FEMALE_SCORES,
        "male_emb": MALE_EMB,
        "female_emb": FEMALE_EMB,
    }
    options = {key: change.pop(key) for key in list(change) if key not in arguments}
    arguments.update(change)
    with pytest.raises(ValueError, match=message):
        mbe_score(**arguments, **options)


def test_mbe_of_sentences_scores_aula_then_eq2_and_the_baseline():
    """Three female then two male sentences of one token each: AULA = alpha * log P (Eq. 1)."""
    from mgbias.measures.mbe import mbe_of_sentences

    genders = ["female", "female", "female", "male", "male"]
    logprobs = [np.array([value], dtype=np.float32) for value in (-1.0, -3.0, -2.0, -1.5, -0.5)]
    attention = [np.array([1.0], dtype=np.float32)] * 5
    rng = np.random.default_rng(0)
    embeddings = rng.normal(size=(5, 4))
    result, baseline, likelihood = mbe_of_sentences(
        logprobs, attention, embeddings, genders, seed=3, n_permutations=99
    )
    np.testing.assert_allclose(likelihood, [-1.0, -3.0, -2.0, -1.5, -0.5])
    male, female = likelihood[3:], likelihood[:3]
    expected = mbe_score(male, female, embeddings[3:], embeddings[:3], seed=3, n_permutations=99)
    assert result == expected
    assert baseline == shuffled_baseline(
        male, female, embeddings[3:], embeddings[:3], seed=3, n_permutations=99
    )
    with pytest.raises(ValueError, match=r"genders must be 'male' or 'female', got \['m'\]"):
        mbe_of_sentences(logprobs, attention, embeddings, ["m", *genders[1:]])
