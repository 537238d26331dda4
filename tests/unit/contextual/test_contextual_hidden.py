"""Hidden states of chosen words: pooling by hand, batching, layers, the cache."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mgbias.contextual.cache import (
    cache_key,
    cached_word_vectors,
    read_word_vectors,
    write_word_vectors,
)
from mgbias.contextual.hidden import extract_word_vectors
from mgbias.contextual.vectors import parse_layers
from mgbias.contextual.words import words

SENTENCES = [
    "the nurse works here .",
    "he is a doctor",
    "she is a nurse ?",
    "the actress works here",
    "a man is a doctor .",
]
# (sentence, word): nurse (2 pieces), doctor, nurse, actress (2 pieces), man, doctor
TARGETS = np.array([[0, 1], [1, 3], [2, 3], [3, 1], [4, 1], [4, 4]])


def _hidden(model, tokenizer, sentence):
    encoded = tokenizer(sentence, return_tensors="pt")
    with torch.inference_mode():
        states = model.base_model(**encoded, output_hidden_states=True).hidden_states
    return [state[0].numpy() for state in states], encoded.input_ids[0].tolist()


def test_words_split_punctuation_and_keep_inner_apostrophes():
    assert words("He said: the doctor's ex-wife, 2 days.") == [
        "He", "said", ":", "the", "doctor's", "ex-wife", ",", "2", "days", ".",
    ]  # fmt: skip


def test_mean_and_first_pooling_by_hand(tiny_bert):
    model, tokenizer = tiny_bert
    states, ids = _hidden(model, tokenizer, "the nurse works here .")
    nur, se = tokenizer.convert_tokens_to_ids(["nur", "##se"])
    assert ids[2:4] == [nur, se]  # [CLS] the nur ##se ...
    mean = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS[:1], layers="all", progress=False
    )
    first = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS[:1], layers="all", pooling="first", progress=False
    )
    assert mean.n_pieces.tolist() == [2]
    for layer in range(3):
        np.testing.assert_allclose(
            mean.layer(layer)[0], (states[layer][2] + states[layer][3]) / 2, atol=1e-6
        )
        np.testing.assert_allclose(first.layer(layer)[0], states[layer][2], atol=1e-6)
    concat = mean.layer("concat")[0]
    np.testing.assert_allclose(concat, np.concatenate([mean.layer(i)[0] for i in range(3)]))
    np.testing.assert_array_equal(mean.layer("last"), mean.layer(2))


@pytest.mark.parametrize("pooling", ["mean", "first"])
def test_batched_equals_unbatched_in_every_family(family_model, pooling):
    family, model, tokenizer = family_model
    one = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS, pooling=pooling, batch_size=1, progress=False
    )
    many = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS, pooling=pooling, batch_size=4, progress=False
    )
    assert one.found.all(), family
    assert (one.n_pieces >= 1).all()
    np.testing.assert_allclose(many.vectors, one.vectors, atol=1e-5)
    assert many.layer("concat").shape == (len(TARGETS), 3 * model.config.hidden_size)


def test_requested_layers_only_are_stored_and_float16(tiny_bert):
    model, tokenizer = tiny_bert
    full = extract_word_vectors(model, tokenizer, SENTENCES, TARGETS, progress=False)
    last = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS, layers="last", dtype="float16", progress=False
    )
    assert last.layers == (2,) and last.vectors.dtype == np.float16
    assert last.layer_names == ["2"]
    np.testing.assert_allclose(last.layer("last"), full.layer(2), atol=2e-3, rtol=2e-3)
    with pytest.raises(KeyError, match="concat"):
        last.layer("concat")


def test_parse_layers():
    assert parse_layers("all", 3) == ["0", "1", "2", "concat"]
    assert parse_layers("last,concat,-1", 3) == ["2", "concat"]
    assert parse_layers([0, "last"], 3) == ["0", "2"]
    with pytest.raises(ValueError, match="out of range"):
        parse_layers("3", 3)
    with pytest.raises(ValueError, match="expected an index"):
        parse_layers("top", 3)


def test_truncated_word_is_marked_not_found(tiny_bert):
    model, tokenizer = tiny_bert
    result = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS, max_length=4, progress=False
    )
    # [CLS] the nur [SEP]: "nurse" and "actress" keep one piece, "man" both; the rest is cut
    assert result.found.tolist() == [True, False, False, True, True, False]
    assert result.n_pieces[[0, 3, 4]].tolist() == [1, 1, 1]
    assert not result.vectors[~result.found].any()


def test_bad_targets_are_rejected(tiny_bert):
    model, tokenizer = tiny_bert
    with pytest.raises(ValueError, match="sentence 1 has 4 words, no word 4"):
        extract_word_vectors(model, tokenizer, SENTENCES, np.array([[1, 4]]), progress=False)
    with pytest.raises(ValueError, match="sentence index 9"):
        extract_word_vectors(model, tokenizer, SENTENCES, np.array([[9, 0]]), progress=False)
    with pytest.raises(ValueError, match="pooling"):
        extract_word_vectors(model, tokenizer, SENTENCES, TARGETS, pooling="max")


def test_cache_round_trip_and_hit_without_the_model(tiny_bert, tmp_path):
    model, tokenizer = tiny_bert
    key = cache_key(
        model_id="tiny",
        revision=None,
        sentences=SENTENCES,
        targets=TARGETS,
        layers=["2", "concat"],
        pooling="mean",
        dtype="float32",
        max_length=None,
    )
    calls = []

    def compute():
        calls.append(1)
        return extract_word_vectors(
            model, tokenizer, SENTENCES, TARGETS, layers="2,concat", progress=False
        )

    path = tmp_path / "vectors.safetensors"
    first, hit = cached_word_vectors(path, key, compute)
    assert not hit and calls == [1]

    def must_not_run():
        raise AssertionError("the model ran on a cache hit")

    again, hit = cached_word_vectors(path, key, must_not_run)
    assert hit
    np.testing.assert_array_equal(again.vectors, first.vectors)
    assert again.metadata["key"] == key and again.layers == (0, 1, 2)

    # same vectors -> same bytes
    copy = tmp_path / "copy.safetensors"
    write_word_vectors(read_word_vectors(path), copy, key)
    assert copy.read_bytes() == path.read_bytes()

    # another input -> recomputed
    other = dict(key, input_sha256="0" * 64)
    _, hit = cached_word_vectors(path, other, compute)
    assert not hit and calls == [1, 1]


def test_not_a_cache_is_named(tmp_path):
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(b"nonsense")
    with pytest.raises(ValueError, match="bad.safetensors"):
        read_word_vectors(bad)


def test_bf16_hidden_states_are_float32_and_close_to_fp32(tiny_bert):
    """Autocast runs the encoder in bf16; the pooled vectors stay float32 (the tiny
    BERT's hidden states are O(1): bf16 keeps them to about 0.05 here)."""
    model, tokenizer = tiny_bert
    full = extract_word_vectors(model, tokenizer, SENTENCES, TARGETS, progress=False)
    half = extract_word_vectors(
        model, tokenizer, SENTENCES, TARGETS, progress=False, precision="bf16"
    )
    assert half.vectors.dtype == np.float32 and half.metadata["precision"] == "bf16"
    assert "precision" not in full.metadata  # fp32 caches keep the bytes they had
    difference = np.abs(half.vectors - full.vectors).max()
    assert 0 < difference < 0.1, difference
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        extract_word_vectors(model, tokenizer, SENTENCES, TARGETS, precision="fp16")


def test_the_cache_key_names_a_precision_other_than_fp32():
    common = dict(model_id="tiny", revision=None, sentences=SENTENCES, targets=TARGETS,
                  layers=["2"], pooling="mean", dtype="float32", max_length=None)  # fmt: skip
    assert cache_key(**common) == cache_key(**common, precision="fp32")
    assert "precision" not in cache_key(**common)
    assert cache_key(**common, precision="bf16") == {**cache_key(**common), "precision": "bf16"}
