"""The unmasked scoring pass and its parquet cache, checked against an explicit reference."""

from __future__ import annotations

import hashlib
import logging
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch
from fixtures.tiny_models import build_model
from transformers import BertForMaskedLM, BertTokenizer

from mgbias.mlm.unmasked import SentenceScores, padding_id, score_unmasked
from mgbias.mlm.unmasked_cache import read_score_cache, sentences_sha256, write_score_cache

VOCAB = [
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "[MASK]",
    "the",
    "man",
    "woman",
    "he",
    "she",
    "is",
    "a",
    "doctor",
    "nurse",
    ".",
    "work",
    "##s",
]
SENTENCES = [
    "the woman works .",
    "he is a nurse .",
    "she is a doctor and the man is a nurse .",  # "and" is not in the vocabulary -> [UNK]
    "a man .",
    "the man is a doctor .",
]


@pytest.fixture(scope="module")
def tokenizer() -> BertTokenizer:
    return BertTokenizer(
        vocab={token: index for index, token in enumerate(VOCAB)}, model_max_length=16
    )


def tiny_model(attn_implementation: str = "eager", seed: int = 0) -> BertForMaskedLM:
    # initializer_range=0.5 (not BERT's 0.02) makes attention far from uniform, so that
    # averaging over the wrong axis or keeping padding would change the numbers.
    return build_model(
        "bert",
        len(VOCAB),
        max_positions=16,
        attn_implementation=attn_implementation,
        seed=seed,
        hidden_size=8,
        intermediate_size=16,
        initializer_range=0.5,
    )


@pytest.fixture(scope="module")
def model() -> BertForMaskedLM:
    return tiny_model()


def reference_scores(model, tokenizer, sentence: str):
    """Explicit per-sentence computation for a [CLS] w_1 .. w_n [SEP] tokenizer."""
    ids = tokenizer(sentence)["input_ids"]
    assert ids[0] == tokenizer.cls_token_id and ids[-1] == tokenizer.sep_token_id
    with torch.no_grad():
        out = model(
            input_ids=torch.tensor([ids]), output_attentions=True, output_hidden_states=True
        )
    n_layers = len(out.attentions)
    n_heads = out.attentions[0].shape[1]
    length = len(ids)
    logprobs, received = [], []
    for position in range(1, length - 1):
        logits = out.logits[0, position].double()
        log_normaliser = torch.log(torch.exp(logits).sum())
        logprobs.append(float(logits[ids[position]] - log_normaliser))
        total = 0.0
        for layer in range(n_layers):
            for head in range(n_heads):
                for query in range(length):
                    total += float(out.attentions[layer][0, head, query, position])
        received.append(total / (n_layers * n_heads * length))
    hidden = out.hidden_states[-1][0].double()
    embedding = sum(hidden[position] for position in range(1, length - 1)) / (length - 2)
    return np.array(ids[1:-1]), np.array(logprobs), np.array(received), embedding.numpy()


def test_scores_match_an_explicit_reference_for_each_sentence(model, tokenizer):
    scores = score_unmasked(model, tokenizer, SENTENCES, batch_size=8, progress=False)
    assert len(scores) == len(SENTENCES)
    assert scores.n_truncated == 0
    for index, sentence in enumerate(SENTENCES):
        ids, logprobs, received, embedding = reference_scores(model, tokenizer, sentence)
        np.testing.assert_array_equal(scores.token_ids[index], ids)
        np.testing.assert_allclose(scores.logprobs[index], logprobs, rtol=0, atol=1e-5)
        np.testing.assert_allclose(scores.attention[index], received, rtol=0, atol=1e-6)
        np.testing.assert_allclose(scores.embeddings[index], embedding, rtol=0, atol=1e-5)
    assert scores.token_ids[0].dtype == np.int32
    assert scores.logprobs[0].dtype == scores.attention[0].dtype == np.float32
    assert scores.embeddings.dtype == np.float32 and scores.embeddings.shape == (5, 8)


def test_only_non_special_tokens_are_kept_and_unknown_words_count(model, tokenizer):
    scores = score_unmasked(model, tokenizer, SENTENCES, progress=False)
    unk = tokenizer.unk_token_id
    # "the woman works ." -> the, woman, work, ##s, .  ([CLS]/[SEP] dropped)
    assert scores.token_ids[0].tolist() == [5, 7, 15, 16, 14]
    # [UNK] for "and" is a real token of the sentence: it is scored, not dropped.
    assert scores.token_ids[2].tolist().count(unk) == 1
    assert len(scores.token_ids[2]) == 11
    for ids in scores.token_ids:
        assert not set(ids.tolist()) & {0, 2, 3, 4}
    # Attention rows sum to 1 over all keys; without the [CLS]/[SEP] columns and
    # without renormalising, what is left is strictly below 1.
    for alpha in scores.attention:
        assert 0.0 < alpha.sum() < 1.0
        assert np.all(alpha > 0)
    # Log-probabilities are log_softmax values: negative, and the probabilities of the
    # gold tokens are proper probabilities.
    assert all(np.all(logprob < 0) for logprob in scores.logprobs)


def test_batched_equals_unbatched_and_input_order_is_restored(model, tokenizer):
    # Lengths deliberately unsorted so that the length sort permutes the input.
    sentences = [SENTENCES[2], SENTENCES[3], SENTENCES[0], SENTENCES[4], SENTENCES[1]] * 2
    unbatched = score_unmasked(model, tokenizer, sentences, batch_size=1, progress=False)
    for batch_size in (2, 3, 64):
        batched = score_unmasked(model, tokenizer, sentences, batch_size=batch_size, progress=False)
        for index, sentence in enumerate(sentences):
            expected_ids = tokenizer(sentence, add_special_tokens=False)["input_ids"]
            assert batched.token_ids[index].tolist() == expected_ids
            np.testing.assert_allclose(
                batched.logprobs[index], unbatched.logprobs[index], rtol=0, atol=1e-5
            )
            np.testing.assert_allclose(
                batched.attention[index], unbatched.attention[index], rtol=0, atol=1e-5
            )
        np.testing.assert_allclose(batched.embeddings, unbatched.embeddings, rtol=0, atol=1e-5)


def test_head_at_kept_positions_only_equals_the_whole_model(model, tokenizer, monkeypatch):
    # The engine runs the encoder, then the MLM head only at real, non-special
    # positions; a model without a known split runs whole. Both give the same scores.
    import mgbias.mlm.unmasked as unmasked

    sentences = [SENTENCES[2], SENTENCES[0], SENTENCES[4], SENTENCES[1]]
    split = score_unmasked(model, tokenizer, sentences, batch_size=3, progress=False)
    monkeypatch.setattr(unmasked, "mlm_encoder_and_head", lambda m: (m, None))
    whole = score_unmasked(model, tokenizer, sentences, batch_size=3, progress=False)
    for field in ("token_ids", "logprobs", "attention"):
        for first, second in zip(getattr(whole, field), getattr(split, field), strict=True):
            np.testing.assert_allclose(second, first, rtol=0, atol=1e-6)
    np.testing.assert_array_equal(split.embeddings, whole.embeddings)


def test_long_sentences_are_truncated_counted_and_warned_once(model, tokenizer, caplog):
    sentences = [SENTENCES[2], SENTENCES[0], "the man is a nurse and the woman is a doctor ."]
    with caplog.at_level(logging.WARNING, logger="mgbias.mlm.unmasked"):
        scores = score_unmasked(model, tokenizer, sentences, max_length=7, progress=False)
    assert scores.n_truncated == 2
    warnings = [record for record in caplog.records if "truncated" in record.getMessage()]
    assert len(warnings) == 1
    assert [len(ids) for ids in scores.token_ids] == [5, 5, 5]  # 7 - [CLS] - [SEP]
    assert scores.token_ids[2].tolist() == tokenizer("the man is a nurse")["input_ids"][1:-1]
    # A truncated sentence is scored as the truncated text, [SEP] included.
    _, logprobs, received, _ = reference_scores(model, tokenizer, "the man is a nurse")
    np.testing.assert_allclose(scores.logprobs[2], logprobs, atol=1e-5)
    np.testing.assert_allclose(scores.attention[2], received, atol=1e-6)


def test_default_length_limit_is_the_smaller_of_tokenizer_and_model(tokenizer):
    config_limit_model = tiny_model()
    long_sentence = " ".join(["the man is a nurse ."] * 4)  # 24 tokens + 2 special
    scores = score_unmasked(config_limit_model, tokenizer, [long_sentence], progress=False)
    assert scores.n_truncated == 1
    assert len(scores.token_ids[0]) == 14  # min(tokenizer 16, positions 16) - 2


def test_padding_id_is_the_pad_token_else_zero(tokenizer):
    assert padding_id(tokenizer) == VOCAB.index("[PAD]")
    assert padding_id(SimpleNamespace(pad_token_id=7)) == 7
    assert padding_id(SimpleNamespace(pad_token_id=None)) == 0


def test_bad_inputs_raise_clear_errors(model, tokenizer):
    with pytest.raises(ValueError, match="sentence 1 is empty: '   '"):
        score_unmasked(model, tokenizer, ["he is a nurse .", "   "], progress=False)
    with pytest.raises(ValueError, match="sentence 0 is empty: ''"):
        score_unmasked(model, tokenizer, ["", "he is ."], progress=False)
    # Not blank, but BERT's normaliser drops the control character: nothing left to score.
    with pytest.raises(ValueError, match="sentence 1 has no non-special tokens"):
        score_unmasked(model, tokenizer, ["he is .", "\x00"], progress=False)
    with pytest.raises(ValueError, match="exceeds the model's limit of 16"):
        score_unmasked(model, tokenizer, ["he is ."], max_length=64, progress=False)
    with pytest.raises(TypeError, match="sentence 0: expected str"):
        score_unmasked(model, tokenizer, [None], progress=False)
    with pytest.raises(RuntimeError, match="eager"):
        score_unmasked(tiny_model("sdpa"), tokenizer, ["he is ."], progress=False)


def test_model_in_training_mode_is_scored_in_eval_mode_and_restored(tokenizer):
    model = tiny_model()
    expected = score_unmasked(model, tokenizer, SENTENCES, progress=False)
    model.train()
    again = score_unmasked(model, tokenizer, SENTENCES, progress=False)
    assert model.training
    for first, second in zip(expected.logprobs, again.logprobs, strict=True):
        np.testing.assert_array_equal(first, second)


def test_score_cache_round_trip_is_exact(model, tokenizer, tmp_path):
    scores = score_unmasked(model, tokenizer, SENTENCES, max_length=8, progress=False)
    assert scores.n_truncated == 1
    path = tmp_path / "scores" / "tiny" / "en.parquet"
    metadata = {"model": "tiny", "revision": None, "input_sha256": sentences_sha256(SENTENCES)}
    write_score_cache(scores, path, metadata)
    assert [p.name for p in path.parent.iterdir()] == ["en.parquet"]  # no temp file left
    loaded, stored = read_score_cache(path)
    assert stored["model"] == "tiny" and stored["revision"] is None
    assert stored["input_sha256"] == metadata["input_sha256"]
    assert stored["n_truncated"] == 1 and stored["n_sentences"] == len(SENTENCES)
    assert loaded.n_truncated == 1
    for field in ("token_ids", "logprobs", "attention"):
        for written, read in zip(getattr(scores, field), getattr(loaded, field), strict=True):
            assert read.dtype == written.dtype
            np.testing.assert_array_equal(read, written)
    assert loaded.embeddings.dtype == np.float32
    np.testing.assert_array_equal(loaded.embeddings, scores.embeddings)
    # Same scores and metadata give the same bytes.
    second = tmp_path / "again.parquet"
    write_score_cache(scores, second, metadata)
    assert second.read_bytes() == path.read_bytes()


def test_empty_score_cache_round_trips(tmp_path):
    empty = SentenceScores([], [], [], np.zeros((0, 8), dtype=np.float32), 0)
    write_score_cache(empty, tmp_path / "empty.parquet", {})
    loaded, stored = read_score_cache(tmp_path / "empty.parquet")
    assert len(loaded) == 0 and loaded.embeddings.shape == (0, 8)
    assert stored["hidden_size"] == 8


def test_reading_a_foreign_parquet_file_names_it(tmp_path):
    path = tmp_path / "other.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), path)
    with pytest.raises(ValueError, match="other.parquet: not an mgbias score cache"):
        read_score_cache(path)


def test_sentences_sha256_is_length_prefixed():
    expected = hashlib.sha256()
    for sentence in ["ab", "ç"]:
        data = sentence.encode("utf-8")
        expected.update(len(data).to_bytes(8, "little") + data)
    assert sentences_sha256(["ab", "ç"]) == expected.hexdigest()
    assert sentences_sha256(["ab", "c"]) != sentences_sha256(["a", "bc"])
    assert sentences_sha256(["a\nb"]) != sentences_sha256(["a", "b"])
