"""Experiments 6–9 of Basta et al. (2020) on hand-made and planted vectors (Spanish)."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.contextual.direction import type_split
from mgbias.contextual.grammatical_gender import (
    direction_projections,
    form_direct_bias,
    form_genders,
    grammar_list,
    grammatical_gender_directions,
    semantic_list,
    static_grammatical_gender_lists,
    variance_share,
)
from mgbias.contextual.repeated import run_rng
from mgbias.embeddings.vectors import Vectors

DIM = 32


def _unit(v):
    return v / np.linalg.norm(v)


def _planted(seed=0, n_pairs=300, n_types=40, per_type=20, overlap=0.6):
    """Pairs differing along a semantic direction that leans on a grammatical one, and
    noun occurrences separated along the grammatical one."""
    rng = np.random.default_rng(seed)
    d_g = _unit(rng.normal(size=DIM))
    other = _unit(rng.normal(size=DIM))
    other = _unit(other - (other @ d_g) * d_g)
    d_pca = _unit(other + overlap * d_g)
    female = rng.normal(size=(n_pairs, DIM))
    male = female + d_pca + 0.05 * rng.normal(size=(n_pairs, DIM))
    nouns, masc = [], []
    for t in range(n_types):
        nouns += [f"n{t}"] * per_type
        masc += [t % 2 == 1] * per_type
    sign = 2 * np.asarray(masc, dtype=float) - 1
    noun_rows = np.outer(sign, d_g) * 2 + 0.5 * rng.normal(size=(len(nouns), DIM))
    return female, male, noun_rows, nouns, masc, d_g, other, d_pca


def test_directions_recover_the_plants_and_ds_is_orthogonal_to_dg():
    female, male, noun_rows, nouns, masc, d_g, other, d_pca = _planted()
    result = grammatical_gender_directions(female, male, noun_rows, nouns, masc, n_train=10, runs=4)
    assert result.pca @ d_pca > 0.99
    assert result.grammatical.direction @ d_g > 0.95  # 0.973
    # Eq. 2: d_s is the planted semantic part, unit, orthogonal to d_g to 1e-6
    assert abs(result.semantic @ result.grammatical.direction) < 1e-6
    assert np.linalg.norm(result.semantic) == pytest.approx(1.0, abs=1e-12)
    assert result.semantic @ other > 0.95
    # ⟨d_pca, d_g⟩ of the plant: 0.6 / sqrt(1.36)
    assert result.dot == pytest.approx(0.6 / np.sqrt(1.36), abs=0.05)
    # the pairs vary less along d_s than along d_pca ("slight decrease")
    assert result.variance_pca == pytest.approx(result.explained_variance_ratio[0], abs=1e-9)
    assert result.variance_semantic < result.variance_pca
    assert result.grammatical.held_out.min > 0.95
    entry = result.to_dict()
    assert abs(entry["dot_semantic_grammatical"]) < 1e-6


def test_variance_share_by_hand():
    # differences (2, 0) and (0, 2): half-rows (1, 0), (0, 1); along x: 1 of 2
    female = np.zeros((2, 2))
    male = np.array([[2.0, 0.0], [0.0, 2.0]])
    assert variance_share(female, male, np.array([1.0, 0.0])) == pytest.approx(0.5)
    assert variance_share(female, male, np.array([1.0, 1.0])) == pytest.approx(0.5)
    assert variance_share(female, male[[0, 0]], np.array([3.0, 0.0])) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="no variance"):
        variance_share(female, female, np.array([1.0, 0.0]))


def test_lda_split_holds_out_noun_types():
    nouns = [f"n{t}" for t in range(20) for _ in range(3)]
    masc = [t % 2 == 1 for t in range(20) for _ in range(3)]
    for run in range(5):
        train = type_split(nouns, masc, 4, run_rng(7, "lda", run))
        train_types = {n for n, k in zip(nouns, train, strict=True) if k}
        test_types = {n for n, k in zip(nouns, train, strict=True) if not k}
        assert not train_types & test_types
        assert len(train_types) == 8 and len(test_types) == 12
        assert sum(masc[i] for i in np.flatnonzero(train)) == 4 * 3
    # the same seed gives the same split
    a = type_split(nouns, masc, 4, run_rng(7, "lda", 0))
    assert np.array_equal(a, type_split(nouns, masc, 4, run_rng(7, "lda", 0)))
    with pytest.raises(ValueError, match="both genders"):
        type_split(["a", "a", "b", "c"], [True, False, True, False], 1, run_rng(0, "lda", 0))
    with pytest.raises(ValueError, match="of 3 feminine"):
        type_split(nouns[:18], masc[:18], 4, run_rng(0, "lda", 0))


def test_form_direct_bias_by_hand():
    # cos with d_s = x: 1, 0, 0.6 ; with d_g = y: 0, 1, 0.8
    rows = np.array([[2.0, 0.0], [0.0, -1.0], [3.0, 4.0]])
    words = ["médica", "médico", "piloto"]
    forms = form_genders([("médica", "médico"), ("piloto", "piloto")])
    assert forms == {"médica": "female", "médico": "male"}
    directions = {"semantic": np.array([1.0, 0.0]), "grammatical": np.array([0.0, 2.0])}
    table = {(e["direction"], e["forms"]): (e["value"], e["n"]) for e in
             form_direct_bias(rows, words, forms, directions)}  # fmt: skip
    assert table[("semantic", "female")] == pytest.approx((1.0, 1))
    assert table[("semantic", "male")] == pytest.approx((0.0, 1))
    assert table[("semantic", "all")] == pytest.approx(((1.0 + 0.0 + 0.6) / 3, 3))
    assert table[("grammatical", "male")] == pytest.approx((1.0, 1))
    assert table[("grammatical", "all")] == pytest.approx(((0 + 1 + 0.8) / 3, 3))
    empty = form_direct_bias(rows[:1], words[:1], forms, directions)
    assert np.isnan(empty[1]["value"]) and empty[1]["n"] == 0


def test_lists_and_projections():
    assert grammar_list([("médica", "médico"), ("piloto", "piloto")]) == {
        "médica": False,
        "médico": True,
    }
    assert semantic_list({"Médico": 1.0, "médica": 1.0, "enfermera": -1.0, "x": 0.0}) == {
        "médico": True,
        "médica": True,
        "enfermera": False,
    }
    rows = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    out = direction_projections(rows, ["a", "a", "b"], {"s": np.array([1.0, 0.0])})
    assert out["a"]["n"] == 2 and out["a"]["s"] == pytest.approx((1 + 1 / np.sqrt(2)) / 2)
    assert out["b"]["s"] == pytest.approx(0.0)


def test_static_lists_rank_on_the_two_directions():
    rng = np.random.default_rng(3)
    basis = np.linalg.qr(rng.normal(size=(DIM, DIM)))[0]
    d_s, d_g = basis[:, 0], basis[:, 1]
    words, rows, genders = [], [], {}
    for k, (f, m) in enumerate([("ella", "él"), ("mujer", "hombre"), ("madre", "padre")]):
        base = 3 * basis[:, 2 + k]
        words += [f, m]
        rows += [base - d_s - d_g, base + d_s + d_g]
    letters = "abcdefghijkl"
    for t in range(12):  # nouns: grammatical only
        words.append(f"cosa{letters[t]}")
        rows.append((1 if t % 2 else -1) * 2 * d_g + 0.1 * rng.normal(size=DIM))
        genders[f"cosa{letters[t]}"] = bool(t % 2)
    for t in range(6):  # stereotyped words: semantic only
        words.append(f"rol{letters[t]}")
        rows.append((1 if t % 2 else -1) * 2 * d_s + 0.1 * rng.normal(size=DIM))
    vectors = Vectors(words, np.array(rows))
    semantic, grammar = static_grammatical_gender_lists(
        vectors,
        [("ella", "él"), ("mujer", "hombre"), ("madre", "padre")],
        genders,
        n=3,
        exclude={"ella", "él", "mujer", "hombre", "madre", "padre"},
    )
    assert set(semantic.male) == {"rolb", "rold", "rolf"}
    assert set(semantic.female) == {"rola", "rolc", "role"}
    assert all(w.startswith("cosa") for w in grammar.male + grammar.female)
    assert all(letters.index(w[-1]) % 2 == 1 for w in grammar.male)
    assert all(letters.index(w[-1]) % 2 == 0 for w in grammar.female)


def test_a_near_chance_grammatical_direction_is_flagged_weak_and_logged(caplog):
    """Basta et al. (2020, §5.3.2) learn d_g at near-chance accuracy (0.45-0.65): d_g from
    nouns with no gender signal is reported, flagged and warned about (held-out accuracy
    < 0.6); the planted nouns' is not."""
    female, male, noun_rows, nouns, masc, *_ = _planted()
    noise = np.random.default_rng(5).normal(size=noun_rows.shape)
    with caplog.at_level("WARNING", logger="mgbias.contextual.direction"):
        weak = grammatical_gender_directions(female, male, noise, nouns, masc, n_train=10, runs=4)
    assert weak.grammatical.held_out.mean < 0.6 and weak.grammatical.weak
    assert weak.to_dict()["lda"]["weak"] is True
    assert "below 0.60" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="mgbias.contextual.direction"):
        strong = grammatical_gender_directions(
            female, male, noun_rows, nouns, masc, n_train=10, runs=4
        )
    assert not strong.grammatical.weak and strong.to_dict()["lda"]["weak"] is False
    assert "below" not in caplog.text
