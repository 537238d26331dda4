"""inBias (Zhao et al. 2020, Eq. 1; mgbias.measures.inbias) and the MIBs list readers."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from scipy import stats

from mgbias.embeddings.mibs import (
    read_occupation_pairs,
    read_seed_pairs,
    write_occupation_pairs,
    write_seed_pairs,
)
from mgbias.embeddings.rcsls import map_vectors, procrustes
from mgbias.embeddings.vectors import Vectors
from mgbias.measures.inbias import (
    inbias,
    inbias_scores,
    inbias_ttest,
    seed_distance,
    strong_weak_means,
    vocabulary_filter,
)

SQRT2 = np.sqrt(2.0)


def test_two_dimensional_example_by_hand():
    """O_M = (1,0), O_F = (0,1); seed pair m = (1,0), f = (1,1)/√2.

    1 − cos(O_M, m) = 0 and 1 − cos(O_F, f) = 1 − 1/√2, so b = 1 − 1/√2 = 0.29289...
    in both variants (one seed pair).
    """
    space = Vectors(["om", "of", "m", "f"], [[1, 0], [0, 1], [1, 0], [1 / SQRT2, 1 / SQRT2]])
    for variant in ("averaged", "pairwise"):
        result = inbias(space, [("om", "of")], [("m", "f")], variant=variant)
        assert result.value == pytest.approx(1 - 1 / SQRT2, abs=1e-7)
    assert seed_distance(np.array([0, 1]), np.array([[1, 1]])) == pytest.approx(1 - 1 / SQRT2)


def test_the_two_variants_differ_by_hand():
    """O_M = O_F = (1,0); seed pairs (m1, f1) = ((1,0), (0,1)) and (m2, f2) = ((0,1), (1,0)).

    Per-pair gaps: (1 − 1) − (1 − 0) = −1 and (1 − 0) − (1 − 1) = +1.
    Eq. (1) as printed: |mean(−1, 1)| = 0; the authors' code: mean(|−1|, |1|) = 1.
    """
    om = of = np.array([[1.0, 0.0]])
    male = np.array([[1.0, 0.0], [0.0, 1.0]])
    female = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert inbias_scores(om, of, male, female, "averaged") == pytest.approx([0.0])
    assert inbias_scores(om, of, male, female, "pairwise") == pytest.approx([1.0])
    with pytest.raises(ValueError, match="variant must be one of"):
        inbias_scores(om, of, male, female, "eq1")


def _random_space(seed=0, n_pairs=12, n_seeds=5, d=10):
    rng = np.random.default_rng(seed)
    occupations = [(f"m{i}", f"f{i}") for i in range(n_pairs)]
    seeds = [(f"sm{j}", f"sf{j}") for j in range(n_seeds)]
    words = [w for pair in occupations + seeds for w in pair]
    return Vectors(words, rng.standard_normal((len(words), d))), occupations, seeds


def test_pairwise_is_never_below_averaged():
    for seed in range(5):
        space, occupations, seeds = _random_space(seed)
        averaged = inbias(space, occupations, seeds, "averaged")
        pairwise = inbias(space, occupations, seeds, "pairwise")
        assert (pairwise.scores >= averaged.scores - 1e-12).all()


def test_invariant_under_orthogonal_maps_and_procrustes():
    space, occupations, seeds = _random_space(1)
    Q = np.linalg.qr(np.random.default_rng(7).standard_normal((10, 10)))[0]
    rotated = space.with_matrix(space.matrix @ Q.T)
    scaled = space.with_matrix(space.matrix * np.linspace(0.5, 3, len(space))[:, None])
    for variant in ("averaged", "pairwise"):
        before = inbias(space, occupations, seeds, variant).value
        assert inbias(rotated, occupations, seeds, variant).value == pytest.approx(before, 1e-6)
        assert inbias(scaled, occupations, seeds, variant).value == pytest.approx(before, 1e-6)
    # the Procrustes-only map (orthogonal) therefore leaves inBias unchanged
    target = space.with_matrix(
        space.matrix @ Q.T + 0.3 * np.random.default_rng(8).normal(size=space.matrix.shape)
    )
    R = procrustes(
        torch.from_numpy(space.normalized().matrix), torch.from_numpy(target.normalized().matrix)
    ).numpy()
    mapped = map_vectors(space, R)
    for variant in ("averaged", "pairwise"):
        before = inbias(space, occupations, seeds, variant).value
        assert inbias(mapped, occupations, seeds, variant).value == pytest.approx(before, 1e-5)


def test_zero_when_pairs_are_mirror_images_across_the_gender_axis():
    """Seeds c_j ± a_j g and occupations u_i ± t_i g with c, u ⟂ g: every gap is 0."""
    rng = np.random.default_rng(2)
    g = np.zeros(6)
    g[0] = 1.0
    rows, words = [], []
    for i in range(4):
        u = rng.standard_normal(6)
        u[0] = 0
        t = rng.uniform(0.1, 1)
        rows += [u + t * g, u - t * g]
        words += [f"m{i}", f"f{i}"]
    for j in range(3):
        c = rng.standard_normal(6)
        c[0] = 0
        a = rng.uniform(0.1, 1)
        rows += [c + a * g, c - a * g]
        words += [f"sm{j}", f"sf{j}"]
    space = Vectors(words, np.array(rows))
    occupations = [(f"m{i}", f"f{i}") for i in range(4)]
    seeds = [(f"sm{j}", f"sf{j}") for j in range(3)]
    for variant in ("averaged", "pairwise"):
        assert inbias(space, occupations, seeds, variant).value < 1e-6


def test_vocabulary_filter_of_the_original_space_is_reused():
    space, occupations, seeds = _random_space(3)
    listed = [*occupations[:3], ("missing", "f0"), *occupations[3:]]
    keep = vocabulary_filter(listed, space)
    assert keep == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    result = inbias(space, listed, seeds, keep=keep)
    assert result.n == 12 and result.indices == tuple(keep)
    assert result.value == pytest.approx(result.scores.mean())
    smaller = space.head(len(space) - 12)  # drops words that the kept list still needs
    with pytest.raises(KeyError, match="not in the vocabulary") as raised:
        inbias(smaller, listed, seeds, keep=keep)
    # a message, not a KeyError's quoted repr: the command line prints it as it is
    assert str(raised.value).startswith(f"{smaller.source}: seed words [")
    assert isinstance(raised.value, ValueError)


def test_strong_weak_split_uses_positions_in_the_full_list():
    space, occupations, seeds = _random_space(4)
    result = inbias(space, occupations, seeds, "pairwise")
    strong, weak = strong_weak_means(result, n_strong=5)
    assert strong == pytest.approx(result.scores[:5].mean())
    assert weak == pytest.approx(result.scores[5:].mean())
    assert np.isnan(strong_weak_means(result, n_strong=0)[0])


def test_significance_tests():
    b = np.array([0.1, 0.2, 0.15, 0.3])
    assert inbias_ttest(b, b)[1] == pytest.approx(1.0)
    statistic, p = inbias_ttest(b + 1.0, b)
    expected = stats.ttest_ind(b + 1.0, b)
    assert (statistic, p) == pytest.approx((expected.statistic, expected.pvalue))
    assert p < 0.05
    shifted = b + np.array([0.01, 0.02, 0.015, 0.012])
    assert inbias_ttest(b, shifted, paired=True)[1] == pytest.approx(
        stats.ttest_rel(b, shifted).pvalue
    )
    with pytest.raises(ValueError, match="equal lengths"):
        inbias_ttest(b, b[:3], paired=True)


def test_mibs_files(tmp_path):
    (tmp_path / "es_male_def_occ").write_text(
        "actor\tActor\nnurse\t\tenfermero\n", encoding="utf-8"
    )
    (tmp_path / "es_female_def_occ").write_text(
        "actress\tActriz\nnurse\t\tenfermera\n", encoding="utf-8"
    )
    male, female = tmp_path / "es_male_def_occ", tmp_path / "es_female_def_occ"
    assert read_occupation_pairs(male, female) == [("actor", "actriz"), ("enfermero", "enfermera")]
    # the authors' split('\t')[1] reads an empty word on doubled tabs
    assert read_occupation_pairs(male, female, authors_split=True)[1] == ("", "")
    (tmp_path / "seeds.json").write_text(json.dumps([["Woman", "man"], ["ella", "él"]]))
    assert read_seed_pairs(tmp_path / "seeds.json") == [("man", "woman"), ("él", "ella")]
    write_seed_pairs(tmp_path / "out.json", [("he", "she")])
    assert json.loads((tmp_path / "out.json").read_text()) == [["she", "he"]]
    write_occupation_pairs(
        tmp_path / "m", tmp_path / "f", [("arzt", "ärztin")], english=[("doctor", "doctor")]
    )
    assert (tmp_path / "m").read_text(encoding="utf-8") == "doctor\tarzt\n"
    assert read_occupation_pairs(tmp_path / "m", tmp_path / "f") == [("arzt", "ärztin")]
    (tmp_path / "short").write_text("a\nb\n")
    with pytest.raises(ValueError, match="index-aligned"):
        read_occupation_pairs(tmp_path / "m", tmp_path / "short")
