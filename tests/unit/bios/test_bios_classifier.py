"""The occupation classifier (Zhao et al. 2020, §4.1): vocabulary, embedding, network,
training with resume, and transfer keeping the target embedding."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from mgbias.bios.classifier import (
    BiGRUAttention,
    TrainSettings,
    class_weights,
    embedding_matrix,
    encode,
    fit_vocabulary,
    load_for_transfer,
    predict,
    train,
)


def test_vocabulary_min_df_max_df_and_encoding():
    texts = ["the nurse cares", "the nurse heals", "the poet writes", "a poet"]
    # "the" is in 3 of 4 (> 0.6), "a" has one character; "nurse" and "poet" in 2
    assert fit_vocabulary(texts, min_df=2, max_df=0.6) == ["nurse", "poet"]
    ids = encode(["The Poet and the NURSE nurse", "nothing known"], ["nurse", "poet"], max_len=3)
    assert ids.tolist() == [[2, 1, 1], [0, 0, 0]]
    with pytest.raises(ValueError, match="no training"):
        fit_vocabulary([])


def test_embedding_matrix_has_fixed_rows_and_uniform_missing_rows():
    vectors = {"nurse": np.ones(4, dtype=np.float32)}
    matrix = embedding_matrix(["nurse", "poet"], vectors, rows=10, seed=3)
    assert matrix.shape == (10, 4)
    assert (matrix[0] == 0).all() and (matrix[1] == 1).all()
    assert (np.abs(matrix[2]) <= 0.3).all() and np.abs(matrix[2]).sum() > 0
    assert (matrix[3:] == 0).all()
    with pytest.raises(ValueError, match="rows"):
        embedding_matrix(["a"] * 10, vectors, rows=10)


def test_balanced_class_weights():
    weights = class_weights(np.array([0, 0, 0, 1]), 3)
    assert weights.tolist() == pytest.approx([4 / 6, 4 / 2, 0.0])


def test_padding_does_not_change_the_logits():
    torch.manual_seed(0)
    model = BiGRUAttention(np.random.default_rng(0).normal(size=(6, 4)).astype(np.float32), 2)
    model.eval()
    short = model(torch.tensor([[1, 2, 3]]))
    padded = model(torch.tensor([[1, 2, 3, 0, 0]]))
    assert torch.allclose(short, padded, atol=1e-6)
    assert not model.embedding.weight.requires_grad


def toy_world(seed: int):
    rng = random.Random(seed)
    filler = ["city", "years", "work", "team", "family", "school"]
    texts, labels = [], []
    for i in range(120):
        label = i % 2
        words = [rng.choice(filler) for _ in range(6)] + [["nursing", "patients"], ["poems"]][label]
        rng.shuffle(words)
        texts.append(" ".join(words))
        labels.append(label)
    return texts, np.array(labels)


def make_model(vocabulary, seed=0, rows=20):
    vectors = {w: np.random.default_rng(i).normal(size=8) for i, w in enumerate(vocabulary)}
    torch.manual_seed(seed)
    return BiGRUAttention(embedding_matrix(vocabulary, vectors, rows=rows, seed=seed), 2)


def test_training_learns_a_separable_world_and_resumes_from_its_checkpoint(tmp_path):
    texts, labels = toy_world(0)
    vocabulary = fit_vocabulary(texts[:80], min_df=2, max_df=0.8)
    ids = encode(texts, vocabulary, max_len=12)
    data = (ids[:80], labels[:80]), (ids[80:100], labels[80:100])
    settings = TrainSettings(batch_size=16, max_epochs=6, seed=1)
    model = make_model(vocabulary)
    result = train(model, *data, settings)
    assert result["epochs"] == 6 and len(result["history"]) == 6
    # epochs 1-5 always replace the kept weights (the authors' min_epochs), then only gains
    assert result["best_epoch"] >= 5
    assert result["dev_loss"] == result["history"][result["best_epoch"] - 1]
    assert result["dev_loss"] <= result["history"][4]
    assert (predict(model, ids[100:]) == labels[100:]).mean() >= 0.9

    # killed after 3 epochs, then resumed: the same history as the uninterrupted run
    checkpoint = tmp_path / "model.pt"
    first = make_model(vocabulary)
    train(first, *data, TrainSettings(batch_size=16, max_epochs=3, seed=1), checkpoint=checkpoint)
    resumed = make_model(vocabulary, seed=99)
    again = train(resumed, *data, settings, checkpoint=checkpoint)
    assert again["history"] == pytest.approx(result["history"], abs=1e-6)
    with pytest.raises(ValueError, match="other settings"):
        train(make_model(vocabulary), *data, TrainSettings(lr=0.1), checkpoint=checkpoint)


def test_transfer_restores_all_but_the_embedding():
    source = make_model(["nurse", "poet"], seed=0)
    target = make_model(["enfermera", "poeta", "casa"], seed=5)
    target_matrix = target.embedding.weight.detach().clone()
    load_for_transfer(target, source.state_dict())
    assert torch.equal(target.embedding.weight, target_matrix)
    assert not torch.equal(target.embedding.weight, source.embedding.weight)
    for name, value in source.state_dict().items():
        if not name.startswith("embedding."):
            assert torch.equal(target.state_dict()[name], value), name


def test_training_runs_on_the_gpu_when_present_and_a_missing_one_is_an_error():
    model = BiGRUAttention(np.ones((4, 2), dtype=np.float32), 2, hidden=4)
    ids = np.array([[1, 2], [3, 0]] * 4)
    labels = np.array([0, 1] * 4)
    settings = TrainSettings(batch_size=4, max_epochs=1, min_epochs=0)
    train(model, (ids, labels), (ids, labels), settings)
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert {p.device.type for p in model.parameters()} == {expected}
    assert predict(model, ids).shape == (8,)
    train(model, (ids, labels), (ids, labels), settings, device="cpu")
    assert {p.device.type for p in model.parameters()} == {"cpu"}
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="'cuda' was requested but CUDA is not available"):
            train(model, (ids, labels), (ids, labels), settings, device="cuda")
