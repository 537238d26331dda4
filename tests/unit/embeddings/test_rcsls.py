"""RCSLS alignment (mgbias.embeddings.rcsls)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mgbias.embeddings.bli import bli_accuracy
from mgbias.embeddings.rcsls import (
    RCSLSConfig,
    align,
    map_vectors,
    procrustes,
    rcsls_loss,
    training_pairs,
)
from mgbias.embeddings.vectors import Vectors, unit_rows


def _unit(rng, n, d):
    return unit_rows(rng.standard_normal((n, d))).astype(np.float32)


def _world(n=1200, d=16, seed=0, noise=0.15):
    """Source words, and target words = a known non-orthogonal linear map plus noise."""
    rng = np.random.default_rng(seed)
    X = _unit(rng, n, d)
    W = np.linalg.qr(rng.standard_normal((d, d)))[0] @ np.diag(np.linspace(0.4, 1.6, d))
    Y = unit_rows(X @ W.T + noise * rng.standard_normal((n, d)) / np.sqrt(d))
    src = Vectors([f"s{i}" for i in range(n)], X)
    tgt = Vectors([f"t{i}" for i in range(n)], Y)
    return src, tgt, W


def test_procrustes_is_orthogonal_and_recovers_a_rotation():
    rng = np.random.default_rng(1)
    X = torch.from_numpy(_unit(rng, 200, 10))
    Q = torch.linalg.qr(torch.randn(10, 10, generator=torch.Generator().manual_seed(0)))[0]
    R = procrustes(X, X @ Q.T)
    torch.testing.assert_close(R @ R.T, torch.eye(10), atol=1e-5, rtol=0)
    torch.testing.assert_close(R, Q, atol=1e-5, rtol=0)


def test_loss_and_gradient_match_autograd_by_hand():
    """The explicit gradient equals autograd of the loss written out with top-k."""
    rng = np.random.default_rng(2)
    X, Y = (torch.from_numpy(_unit(rng, 30, 6)).double() for _ in range(2))
    Zs, Zt = (torch.from_numpy(_unit(rng, 50, 6)).double() for _ in range(2))
    R = torch.from_numpy(rng.standard_normal((6, 6))).requires_grad_(True)
    k = 4
    mapped = X @ R.T
    reference = (
        -2 * (mapped * Y).sum()
        + torch.topk(mapped @ Zt.T, k, dim=1).values.sum() / k
        + torch.topk(Y @ (Zs @ R.T).T, k, dim=1).values.sum() / k
    ) / 30
    reference.backward()
    loss, grad = rcsls_loss(X, Y, Zs, Zt, R.detach(), knn=k, block_elements=7 * 50)
    assert loss == pytest.approx(float(reference.detach()), abs=1e-12)
    torch.testing.assert_close(grad, R.grad, atol=1e-12, rtol=0)


def test_rcsls_recovers_a_known_linear_map():
    """CSLS P@1 on held-out pairs >= 0.95 after RCSLS; the identity map is near chance."""
    src, tgt, _ = _world()
    train = [(f"s{i}", f"t{i}") for i in range(0, 960)]
    test = [(f"s{i}", f"t{i}") for i in range(960, 1200)]
    config = RCSLSConfig(lr=1.0, niter=10, batchsize=500, seed=0, device="cpu")
    result = align(src, tgt, train, config)
    assert result.n_pairs == 960
    assert len(result.losses) == config.niter + 1  # align.py runs it = 0..niter
    assert result.losses[-1] < result.losses[0]
    mapped = map_vectors(src, result.R)
    accuracy = bli_accuracy(mapped, tgt, test, retrieval="csls", device="cpu").accuracy
    identity = bli_accuracy(src, tgt, test, retrieval="csls", device="cpu").accuracy
    assert accuracy >= 95.0
    assert identity < 5.0
    np.testing.assert_allclose(np.linalg.norm(mapped.matrix, axis=1), 1.0, rtol=1e-5)
    assert mapped.words == src.words


def test_sgd_batches_follow_the_seed():
    src, tgt, _ = _world(n=300, d=8)
    train = [(f"s{i}", f"t{i}") for i in range(250)]
    base = RCSLSConfig(niter=3, batchsize=50, device="cpu", seed=5)
    first = align(src, tgt, train, base)
    again = align(src, tgt, train, base)
    other = align(src, tgt, train, RCSLSConfig(niter=3, batchsize=50, device="cpu", seed=6))
    np.testing.assert_array_equal(first.R, again.R)
    assert not np.array_equal(first.R, other.R)


def test_full_batch_halves_the_rate_and_undoes_a_step_that_raised_the_loss():
    """Unrelated spaces and lr 100: steps overshoot, lr halves, the worse map is dropped."""
    rng = np.random.default_rng(3)
    src = Vectors([f"s{i}" for i in range(200)], _unit(rng, 200, 8))
    tgt = Vectors([f"t{i}" for i in range(200)], _unit(rng, 200, 8))
    train = [(f"s{i}", f"t{i}") for i in range(150)]
    result = align(src, tgt, train, RCSLSConfig(sgd=False, lr=100.0, niter=8, device="cpu"))
    rates = np.array(result.learning_rates)
    assert rates[0] == 100.0 and rates[-1] < 100.0
    ratios = rates[1:] / rates[:-1]
    assert np.isin(ratios, [1.0, 0.5]).all()  # each step keeps or halves lr
    # the recorded losses are those of accepted maps: never above the one before
    assert (np.diff(result.losses) <= 1e-12).all()
    # with sgd the rate stays constant
    sgd = align(src, tgt, train, RCSLSConfig(lr=100.0, niter=3, batchsize=50, device="cpu"))
    assert set(sgd.learning_rates) == {100.0}


def test_full_batch_losses_match_fasttext_align_py(tmp_path):
    """Reference values printed by fastText's alignment/align.py (``--lr 1 --niter 10``,
    full batch) on these vectors written with 9 digits: the loss per iteration, and
    eval.py's accuracies on the held-out pairs (NN 0.4250, CSLS 0.5417)."""
    from mgbias.embeddings.vectors import read_vec, write_vec

    rng = np.random.default_rng(0)
    n, d = 600, 6
    X = unit_rows(rng.standard_normal((n, d))).astype(np.float32)
    W = np.linalg.qr(rng.standard_normal((d, d)))[0] @ np.diag(np.linspace(0.3, 3, d))
    write_vec(tmp_path / "s.vec", Vectors([f"s{i}" for i in range(n)], X), precision=9)
    write_vec(tmp_path / "t.vec", Vectors([f"t{i}" for i in range(n)], unit_rows(X @ W.T)), 9)
    src, tgt = read_vec(tmp_path / "s.vec"), read_vec(tmp_path / "t.vec")
    train = [(f"s{i}", f"t{i}") for i in range(480)]
    test = [(f"s{i}", f"t{i}") for i in range(480, 600)]
    result = align(src, tgt, train, RCSLSConfig(sgd=False, lr=1.0, niter=10, device="cpu"))
    printed = [-0.1102, -0.1150, -0.1189, -0.1224, -0.1256, -0.1286, -0.1315, -0.1343,
               -0.1370, -0.1397, -0.1423]  # fmt: skip
    np.testing.assert_allclose(result.losses, printed, atol=5e-5)
    mapped = map_vectors(src, result.R)
    nn = bli_accuracy(mapped, tgt, test, retrieval="nn", device="cpu")
    csls = bli_accuracy(mapped, tgt, test, retrieval="csls", device="cpu")
    assert (f"{nn.accuracy / 100:.4f}", f"{csls.accuracy / 100:.4f}") == ("0.4250", "0.5417")


def test_maxload_caps_the_vocabulary_and_maxsup_the_pairs():
    src, tgt, _ = _world(n=300, d=8)
    pairs = [("s5", "t5"), ("s290", "t290"), ("s5", "t6"), ("zz", "t1"), ("s7", "t7")]
    capped_src, capped_tgt = src.head(100), tgt.head(100)
    assert training_pairs(pairs, capped_src, capped_tgt) == [(5, 5), (5, 6), (7, 7)]
    assert training_pairs(pairs, capped_src, capped_tgt, maxsup=2) == [(5, 5), (5, 6)]
    result = align(src, tgt, pairs, RCSLSConfig(maxload=100, niter=0, device="cpu"))
    assert (result.n_pairs, result.n_pairs_file) == (3, 5)
    # maxsup caps the pairs after the dictionary's coverage (3 of 5) is checked
    result = align(src, tgt, pairs, RCSLSConfig(maxload=100, maxsup=1, niter=0, device="cpu"))
    assert (result.n_pairs, result.n_pairs_file) == (1, 5)
    with pytest.raises(ValueError, match=r": 0 of 1 training pairs \(0\.0%\) are in the vectors"):
        align(src, tgt, [("s290", "t290")], RCSLSConfig(maxload=100, device="cpu"))
    # 1 of 11 found: a dictionary that does not fit these vectors
    wrong = [("s5", "t5"), *((f"x{i}", f"y{i}") for i in range(10))]
    with pytest.raises(ValueError, match=r"^train\.txt on <memory> -> <memory>: 1 of 11 "):
        align(src, tgt, wrong, RCSLSConfig(maxload=100), "train.txt")


def test_config_rejects_unknown_and_bad_settings():
    with pytest.raises(
        ValueError, match=r"^zhao2020.rcsls: unknown RCSLS setting\(s\) \[.learning_"
    ):
        RCSLSConfig.from_mapping({"learning_rate": 1.0})
    assert RCSLSConfig.from_mapping({"knn": 5}, where="zhao2020.rcsls") == RCSLSConfig(knn=5)
    with pytest.raises(ValueError, match="knn must be an integer >= 1"):
        RCSLSConfig(knn=0)
    with pytest.raises(ValueError, match="lr must be > 0"):
        RCSLSConfig(lr=0.0)
    assert RCSLSConfig().to_dict()["batchsize"] == 5000


def test_map_vectors_normalises_centres_maps_and_normalises(monkeypatch):
    """align.py's output: unit rows, minus their mean, unit again, times Rᵀ, unit again;
    computed in blocks (here of 7 rows) with the same result."""
    import mgbias.embeddings.rcsls as rcsls

    rng = np.random.default_rng(9)
    src = Vectors([f"w{i}" for i in range(30)], rng.standard_normal((30, 5)) * 3)
    R = rng.standard_normal((5, 5))
    x = src.matrix / np.linalg.norm(src.matrix, axis=1, keepdims=True)
    x = x - x.mean(axis=0)
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    y = x @ R.T
    expected = y / np.linalg.norm(y, axis=1, keepdims=True)
    monkeypatch.setattr(rcsls, "_MAP_BLOCK", 7)
    np.testing.assert_allclose(map_vectors(src, R, center=True).matrix, expected, atol=1e-5)
