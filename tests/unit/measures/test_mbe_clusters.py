"""MBE's permutation test with gender words as the units: hand values, calibration, power.

A model's own preference for one gender word (the demo's balanced MLM copies "él" more
confidently than "ella", from nothing but its training draw) raises every sentence that
holds the word. The nulls below give each gender word such an effect, symmetric about
no gender preference, and build the sentence sets as mined corpora are built: one big
pronoun cluster per gender and many small ones (names, kin terms). The sentence-level
test's false-positive rate on them is far above alpha; the cluster test's stays within
alpha's binomial bound, on these nulls and on nulls without word effects, and it still
finds a preference that the gender words share.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from mgbias.measures.mbe import mbe_of_sentences, mbe_score
from mgbias.measures.mbe_permutation import (
    cluster_codes,
    distinct_cluster_labellings,
    mbe_permutation_test,
    size_strata,
)

ALPHA = 0.05
DRAWS = 400
PERMUTATIONS = 199


def band(draws: int = DRAWS, rate: float = ALPHA) -> tuple[float, float]:
    return binom.interval(0.99, draws, rate)


def _gender(rng, prefix: str, big: int, small: int):
    """Cluster labels of one gender: a pronoun cluster of ``big`` and ``small`` clusters of 1-8."""
    sizes = [big, *rng.integers(1, 9, size=small).tolist()]
    return np.repeat([f"{prefix}{i}" for i in range(len(sizes))], sizes)


def _world(seed: int, *, word_sd: float, shift: float = 0.0, dim: int = 8):
    """Scores = word effect + sentence noise (+ shift for male); embeddings near their word's."""
    rng = np.random.default_rng(seed)
    male = _gender(rng, "m", 60, 25)
    female = _gender(rng, "f", 60, 25)
    pooled = np.concatenate([male, female])
    names, codes = np.unique(pooled, return_inverse=True)
    word_effect = rng.normal(0.0, word_sd, size=names.size)[codes]
    scores = word_effect + rng.normal(size=pooled.size)
    scores[: male.size] += shift
    centres = rng.uniform(0.1, 1.0, size=(names.size, dim))[codes]
    embeddings = centres + rng.uniform(0.0, 0.5, size=(pooled.size, dim))
    n = male.size
    return scores[:n], scores[n:], embeddings[:n], embeddings[n:], male, female


def _rejections(word_sd: float, *, shift: float = 0.0, clustered: bool, draws: int = DRAWS):
    rejected = 0
    for draw in range(draws):
        m, f, m_emb, f_emb, m_words, f_words = _world(5000 + draw, word_sd=word_sd, shift=shift)
        clusters = {"male_clusters": m_words, "female_clusters": f_words} if clustered else {}
        result = mbe_score(m, f, m_emb, f_emb, seed=draw, n_permutations=PERMUTATIONS, **clusters)
        rejected += result.significant
    return rejected


def test_cluster_codes_by_hand():
    codes, is_male = cluster_codes(np.array(["he", "him", "he", "she", "her", "she"]), 3)
    # sorted labels: he, her, him, she
    assert codes.tolist() == [0, 2, 0, 3, 1, 3]
    assert is_male.tolist() == [True, False, True, False]
    # sizes 2, 1, 1, 2: strata {he, she} and {her, him}, one male each: 2 x 2 labellings,
    # each as extreme as its complement
    strata = size_strata(np.bincount(codes))
    assert strata.tolist() == [0, 1, 1, 0]
    assert distinct_cluster_labellings(is_male, strata) == (4, 2)


def test_size_strata_double_and_never_split_ties():
    assert size_strata(np.array([5, 5, 5, 1])).tolist() == [0, 0, 0, 1]
    assert size_strata(np.ones(7, dtype=int)).tolist() == [0] * 7
    sizes = np.array([1, 60, 8, 7, 7, 6, 5, 58, 2, 2, 2])
    assert size_strata(sizes).tolist() == [2, 0, 1, 1, 1, 1, 2, 0, 2, 2, 2]


def test_clustered_relabellings_are_eq2_of_whole_clusters_by_brute_force():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=12)
    embeddings = rng.uniform(0.1, 1.0, size=(12, 3))
    clusters = np.array(list("aaabbc") + list("ddeeef"))  # 3 male, 3 female clusters
    test = mbe_permutation_test(scores, embeddings, 6, n_permutations=30, seed=7, clusters=clusters)
    names, codes = np.unique(clusters, return_inverse=True)
    # sizes a3 b2 c1 d2 e3 f1: strata {a, e} and {b, d, c, f}, with 1 and 2 male clusters
    strata = size_strata(np.bincount(codes))
    assert strata.tolist() == [0, 1, 1, 1, 0, 1]
    draws = np.random.default_rng(7)
    for permuted in test.permuted:
        chosen = np.zeros(names.size, dtype=bool)
        for stratum, n_male in ((np.array([0, 4]), 1), (np.array([1, 2, 3, 5]), 2)):
            chosen[stratum[draws.permutation(stratum.size)[:n_male]]] = True
        male = chosen[codes]
        expected = mbe_score(
            scores[male], scores[~male], embeddings[male], embeddings[~male], weighting="dot"
        ).score
        assert permuted == pytest.approx(expected, abs=1e-9)
    assert test.observed == pytest.approx(
        mbe_score(scores[:6], scores[6:], embeddings[:6], embeddings[6:], weighting="dot").score
    )


def test_hand_example_two_strata():
    # every weight 1; male a = {3, 2}, b = {1}; female c = {0, -1}, d = {-2}. Strata by
    # size: {a, c} and {b, d}, one male each, so 4 labellings, each 3 x 3 comparisons:
    #   a,b male (3,2,1 vs 0,-1,-2): 9 wins -> 100   c,b male (0,-1,1 vs 3,2,-2): 3 -> 33.3
    #   a,d male (3,2,-2 vs 0,-1,1): 6 -> 66.7       c,d male (0,-1,-2 vs 3,2,1): 0 -> 0
    # |score - 50| >= 50: the observed labelling and its complement, 2 of 4.
    scores = np.array([3.0, 2.0, 1.0, 0.0, -1.0, -2.0])
    clusters = np.array(["a", "a", "b", "c", "c", "d"])
    test = mbe_permutation_test(
        scores, np.ones((6, 1)), 3, n_permutations=4000, seed=0, clusters=clusters
    )
    assert test.observed == 100.0
    table = (100.0, 100 / 3, 200 / 3, 0.0)
    assert all(min(abs(v - t) for t in table) < 1e-9 for v in test.permuted)
    assert test.p_value == pytest.approx(1 / 2, abs=0.03)


def test_without_clusters_nothing_changes():
    m, f, m_emb, f_emb, _, _ = _world(3, word_sd=0.0)
    assert mbe_score(m, f, m_emb, f_emb, seed=4).n_clusters is None
    one_each = mbe_score(
        m,
        f,
        m_emb,
        f_emb,
        seed=4,
        male_clusters=np.arange(m.size),
        female_clusters=np.arange(m.size, m.size + f.size),
    )
    plain = mbe_score(m, f, m_emb, f_emb, seed=4)
    # one sentence a cluster relabels like the sentence test (other draws, same law)
    assert one_each.score == plain.score and one_each.n_clusters == m.size + f.size
    assert abs(one_each.p_value - plain.p_value) < 0.1


def test_sentence_test_is_anti_conservative_with_word_effects_the_cluster_test_is_not():
    sentence = _rejections(0.5, clustered=False)
    cluster = _rejections(0.5, clustered=True)
    low, high = band()
    assert sentence > 2 * high, sentence
    assert low <= cluster <= high, (cluster, low, high)


def test_cluster_test_is_calibrated_without_word_effects():
    low, high = band()
    rejected = _rejections(0.0, clustered=True)
    assert low <= rejected <= high, (rejected, low, high)


def test_cluster_test_detects_a_preference_the_gender_words_share():
    draws = 100
    rejected = _rejections(0.5, shift=1.0, clustered=True, draws=draws)
    assert rejected >= 0.9 * draws, rejected


def test_mbe_of_sentences_passes_clusters_to_the_score_not_the_baseline():
    m, f, m_emb, f_emb, m_words, f_words = _world(9, word_sd=0.5)
    logprobs = [np.array([value]) for value in np.concatenate([m, f])]
    attention = [np.ones(1) for _ in logprobs]  # A(T) = the one log-probability
    genders = ["male"] * m.size + ["female"] * f.size
    embeddings = np.concatenate([m_emb, f_emb])
    words = np.concatenate([m_words, f_words])
    result, baseline, _ = mbe_of_sentences(
        logprobs, attention, embeddings, genders, seed=2, clusters=words, n_permutations=199
    )
    assert result.n_clusters == np.unique(words).size and baseline.n_clusters is None
    direct = mbe_score(
        m,
        f,
        m_emb,
        f_emb,
        seed=2,
        n_permutations=199,
        male_clusters=m_words,
        female_clusters=f_words,
    )
    assert result.p_value == direct.p_value


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"female_clusters": None}, "give male_clusters and female_clusters together"),
        (
            {"male_clusters": ["a"] * 5},
            r"male_clusters must hold one label per sentence, shape \(6,\)",
        ),
        ({"female_clusters": ["a"] * 6}, "cluster 'a' holds male and female sentences"),
        ({"test": "mcnemar_sentence"}, "clusters need the permutation test"),
        (
            {"male_clusters": list("aaabbb"), "female_clusters": list("cccddd")},
            "2 male and 2 female clusters allow only 6 distinct labellings within their size",
        ),
    ],
)
def test_bad_clusters_are_rejected(change, message):
    rng = np.random.default_rng(0)
    arguments = {
        "male_clusters": list("abcdef"),
        "female_clusters": list("ghijkl"),
        "n_permutations": 99,
    }
    arguments.update(change)
    with pytest.raises(ValueError, match=message):
        mbe_score(
            rng.normal(size=6), rng.normal(size=6), np.ones((6, 2)), np.ones((6, 2)), **arguments
        )
