"""Experiments 1–6 on hand-made and planted vectors (Basta et al. 2020)."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.contextual.classification import classification_experiment
from mgbias.contextual.clustering import alignment_accuracy, clustering_experiment
from mgbias.contextual.direct_bias import contextual_direct_bias
from mgbias.contextual.direction import grammatical_direction, orthogonalise, swap_pca
from mgbias.contextual.knn import knn_correlation, knn_experiment, neighbour_male_share
from mgbias.contextual.repeated import one_per_word, run_rng
from mgbias.embeddings.debias import gender_direction
from mgbias.embeddings.vectors import Vectors

DIM = 64


def _unit(rng, d=DIM):
    v = rng.normal(size=d)
    return v / np.linalg.norm(v)


def test_symmetric_pca_recovers_a_planted_direction_and_global_centring_does_not():
    rng = np.random.default_rng(0)
    g = _unit(rng)
    female = rng.normal(size=(400, DIM))
    male = female + g + 0.1 * rng.normal(size=(400, DIM))
    result = swap_pca(female, male)
    assert result.direction @ g > 0.995  # oriented male-ward (0.999 measured)
    assert result.explained_variance_ratio[0] > 0.5
    assert result.explained_variance_ratio[0] > result.explained_variance_ratio[1]
    assert len(result.explained_variance_ratio) == 10
    assert abs(swap_pca(female, male, centring="global").direction @ g) < 0.3  # 0.18
    # the same as the static layer's gender direction on the same pairs
    words = [f"f{i}" for i in range(400)] + [f"m{i}" for i in range(400)]
    vectors = Vectors(words, np.vstack([female, male]))
    static = gender_direction(vectors, [(f"f{i}", f"m{i}") for i in range(400)])
    assert abs(static @ result.direction) == pytest.approx(1.0, abs=1e-5)


def test_eq2_orthogonalises_by_hand():
    d_s, dot = orthogonalise(np.array([1.0, 1.0, 0.0]) / np.sqrt(2), np.array([2.0, 0.0, 0.0]))
    assert dot == pytest.approx(1 / np.sqrt(2))
    np.testing.assert_allclose(d_s, [0.0, 1.0, 0.0], atol=1e-12)
    rng = np.random.default_rng(1)
    d_g = rng.normal(size=DIM) * 3
    d_s, _ = orthogonalise(_unit(rng), d_g)
    assert abs(d_s @ d_g) / np.linalg.norm(d_g) < 1e-6 and np.linalg.norm(d_s) == pytest.approx(1)


def test_lda_recovers_a_planted_direction_and_holds_out_noun_types():
    rng = np.random.default_rng(2)
    d_g = _unit(rng, 16)
    nouns, masc = [], []
    for t in range(60):
        nouns += [f"n{t}"] * 5
        masc += [t % 2] * 5
    masc = np.array(masc)
    planted = np.outer(2 * masc - 1, d_g) + 0.3 * rng.normal(size=(len(nouns), 16))
    result = grammatical_direction(planted, nouns, masc, n_train=10, runs=5, seed=0)
    assert result.direction @ d_g > 0.9
    assert result.held_out.min > 0.95
    assert result.n_types == (30, 30)
    # every type its own random point, gender at random: memorised, not generalised
    centres = rng.normal(size=(60, 16)) * 3
    memorised = np.repeat(centres, 5, axis=0) + 0.05 * rng.normal(size=(300, 16))
    result = grammatical_direction(memorised, nouns, masc, n_train=10, runs=5, seed=0)
    assert result.train.mean > 0.9
    assert result.held_out.mean < 0.75


def test_direct_bias_by_hand():
    rows = np.array([[1.0, 0.0], [-1.0, 1.0], [1.0, 1.0]])
    words = ["doctor", "nurse", "doctor"]
    result = contextual_direct_bias(
        rows, words, np.array([2.0, 0.0]), stereotype={"doctor": 0.5, "nurse": -0.5}
    )
    h = 1 / np.sqrt(2)
    assert result.value == pytest.approx((1 + h + h) / 3)
    assert result.signed_mean == pytest.approx(1 / 3)
    assert result.signed_gap == pytest.approx((1 + h) / 2 + h)
    assert result.per_word["nurse"] == {
        "n": 1,
        "mean_cos": pytest.approx(-h),
        "mean_abs_cos": pytest.approx(h),
    }
    boot = contextual_direct_bias(rows, words, np.array([1.0, 0.0]), n_bootstrap=500, seed=3)
    assert boot.ci[0] <= boot.value <= boot.ci[1]
    again = contextual_direct_bias(rows, words, np.array([1.0, 0.0]), n_bootstrap=500, seed=3)
    assert again.ci == boot.ci


def test_alignment_is_the_better_assignment():
    assert alignment_accuracy(np.array([1, 1, 0, 0]), np.array([0, 0, 1, 1])) == 1.0
    assert alignment_accuracy(np.array([1, 0, 0, 0]), np.array([1, 1, 0, 0])) == 0.75
    assert alignment_accuracy(np.array([0, 1, 1, 1]), np.array([1, 1, 0, 0])) == 0.75


def _planted_words(rng, n_words=40, per_word=3, strength=2.0):
    """Occurrences of n_words words; male words sit at +strength g, female at -strength g."""
    g = _unit(rng)
    words, rows, male = [], [], {}
    for i in range(n_words):
        word = f"w{i}"
        male[word] = i % 2 == 0
        sign = 1 if male[word] else -1
        for _ in range(per_word):
            words.append(word)
            rows.append(sign * strength * g + rng.normal(size=DIM) / np.sqrt(DIM))
    return np.array(rows), words, male, g


def test_clustering_and_classification_find_a_plant_and_not_noise():
    rng = np.random.default_rng(4)
    rows, words, male, _ = _planted_words(rng)
    assert clustering_experiment(rows, words, male, runs=3, seed=0).min == 1.0
    svm = classification_experiment(rows, words, male, n_train=20, runs=3, seed=0)
    assert svm.min == 1.0 and svm.extra["n_test"] == 20
    noise = rng.normal(size=rows.shape)
    assert clustering_experiment(noise, words, male, runs=5, seed=0).mean < 0.75
    assert classification_experiment(noise, words, male, n_train=20, runs=5).mean < 0.75
    with pytest.raises(ValueError, match="n_train = 39 of 40 words"):
        classification_experiment(rows, words, male, n_train=39)


def test_runs_are_reproducible_and_draw_one_occurrence_per_word():
    rng = np.random.default_rng(5)
    rows, words, male, _ = _planted_words(rng, strength=0.3)
    first = clustering_experiment(rows, words, male, runs=4, seed=7)
    assert first.values == clustering_experiment(rows, words, male, runs=4, seed=7).values
    assert first.n_items == 40 and len(first.values) == 4
    distinct, picks = one_per_word(words, run_rng(0, "x", 0))
    assert [words[i] for i in picks] == distinct == sorted(set(words))


def test_neighbour_share_by_hand():
    # points on a circle at 0, 10, 20, 180 degrees
    angles = np.deg2rad([0, 10, 20, 180])
    rows = np.c_[np.cos(angles), np.sin(angles)]
    male = np.array([True, False, True, False])
    np.testing.assert_allclose(neighbour_male_share(rows, male, 2), [0.5, 1.0, 0.5, 0.5])


def test_knn_guard_null_and_plant():
    rng = np.random.default_rng(6)
    bias = np.linspace(-1, 1, 16)
    assert np.isnan(knn_correlation(rng.normal(size=(16, 8)), bias, 15))
    words = [f"p{i}" for i in range(16)]
    bias_of = dict(zip(words, bias, strict=True))
    degenerate = knn_experiment(rng.normal(size=(16, 8)), words, bias_of, k=100, runs=2)
    assert degenerate.extra["degenerate"] and np.isnan(degenerate.mean)
    noise = knn_experiment(rng.normal(size=(16, 8)), words, bias_of, k=5, runs=3, seed=1)
    assert noise.extra["null_mean"] < -0.1  # self-exclusion makes the null negative
    g = _unit(rng)
    planted = np.outer(bias, g) * 3 + rng.normal(size=(16, DIM)) / np.sqrt(DIM)
    result = knn_experiment(planted, words, bias_of, k=5, runs=3, seed=1)
    assert result.min > 0.8 and result.mean > result.extra["null_mean"] + 0.5
    assert result.extra["n_female"] == 8 and not result.extra["degenerate"]
