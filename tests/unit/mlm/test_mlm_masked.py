"""The masked scoring pass, checked against one forward pass per masked copy with the full head.

Tiny models of each family are built from configs (random weights, seeded;
tests/fixtures/tiny_models.py): BERT (WordPiece), RoBERTa (byte-level BPE),
ALBERT and XLM-R (SentencePiece style), plus DistilBERT and ELECTRA for the
encoder/head split.
"""

from __future__ import annotations

import logging

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch
from fixtures.masked_reference import assert_pair_scores_match_reference, naive_logprobs
from fixtures.tiny_models import TOKENIZER_BUILDERS, build_model, wordpiece_tokenizer
from transformers import XLMConfig, XLMWithLMHeadModel

from mgbias.measures.cps import cps_sentence_scores
from mgbias.measures.sss import sss_sentence_scores
from mgbias.mlm.masked import (
    masked_copy_batches,
    masked_logprobs_of,
    masked_max_length,
    mlm_encoder_and_head,
    score_masked,
    score_masked_pairs,
)
from mgbias.mlm.masked_cache import PairScores, pairs_sha256, read_pair_cache, write_pair_cache
from mgbias.mlm.unmasked import SentenceScores
from mgbias.mlm.unmasked_cache import write_score_cache

SENTENCES = [
    "He is a doctor.",
    "The nurse is here.",
    "She is a nurse.",
    "The man works here.",
    "The actress is a doctor.",
    "a man.",
]
PAIRS = [
    ("He is a doctor.", "She is a doctor."),
    ("The nurse is here.", "The doctor is here."),
    ("The actor is here.", "The actress is here."),
    ("The man works.", "The man works."),  # nothing modified
    ("She is a nurse here.", "He is here."),  # one side has more modified tokens
]


def content_positions(tokenizer, ids) -> np.ndarray:
    special = tokenizer.get_special_tokens_mask(list(ids), already_has_special_tokens=True)
    return np.flatnonzero(~np.asarray(special, dtype=bool))


# ----------------------------------------------------------------------------- encoder/head


@pytest.mark.parametrize("name", ["bert", "roberta", "albert", "xlmr", "distilbert", "electra"])
def test_encoder_and_head_split_reproduces_the_full_logits(name):
    model = build_model(name, 40)
    encoder, head = mlm_encoder_and_head(model)
    assert head is not None and encoder is not model
    torch.manual_seed(1)
    input_ids = torch.randint(5, 40, (3, 9))
    attention_mask = torch.ones_like(input_ids)
    attention_mask[1, 6:] = 0
    input_ids[1, 6:] = 1 if name in ("roberta", "xlmr") else 0
    with torch.no_grad():
        full = model(input_ids=input_ids, attention_mask=attention_mask).logits
        split = head(encoder(input_ids=input_ids, attention_mask=attention_mask)[0])
    real = attention_mask.bool()
    assert split.shape == full.shape
    torch.testing.assert_close(split[real], full[real], rtol=0, atol=1e-5)


# ----------------------------------------------------------------------------- score_masked


def test_score_masked_equals_one_pass_per_copy_with_the_full_head(family_model):
    name, model, tokenizer = family_model
    sequences = [np.asarray(ids) for ids in tokenizer(SENTENCES)["input_ids"]]
    positions = [content_positions(tokenizer, ids) for ids in sequences]
    positions[0] = positions[0][::-1]  # any order; results follow it
    positions[1] = np.array([0, *positions[1]])  # a special token may be scored too
    positions[5] = np.array([], dtype=np.int64)
    scores = score_masked(model, tokenizer, sequences, positions, batch_size=4, progress=False)
    assert len(scores) == len(SENTENCES)
    for ids, wanted, got in zip(sequences, positions, scores, strict=True):
        assert got.dtype == np.float32 and got.shape == (len(wanted),)
        expected = [naive_logprobs(model, tokenizer, ids, [p], p, [ids[p]])[0] for p in wanted]
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)
        assert np.all(got < 0)


def test_batched_equals_unbatched_in_input_order(tiny_bert):
    model, tokenizer = tiny_bert
    # Unsorted lengths: the length sort must not leak into the output order.
    sentences = [SENTENCES[4], SENTENCES[5], SENTENCES[1], SENTENCES[0]] * 2
    sequences = [np.asarray(ids) for ids in tokenizer(sentences)["input_ids"]]
    positions = [content_positions(tokenizer, ids) for ids in sequences]
    reference = score_masked(model, tokenizer, sequences, positions, batch_size=1, progress=False)
    for batch_size in (2, 5, 1000):
        batched = score_masked(
            model, tokenizer, sequences, positions, batch_size=batch_size, progress=False
        )
        for first, second in zip(reference, batched, strict=True):
            np.testing.assert_allclose(first, second, rtol=0, atol=1e-5)
    # The same sentence scores the same wherever it sits.
    np.testing.assert_array_equal(reference[0], reference[4])


def test_masked_copy_batches_hold_one_copy_per_position_sorted_by_length(tiny_bert):
    _, tokenizer = tiny_bert
    sequences = [np.asarray(ids) for ids in tokenizer(SENTENCES)["input_ids"]]
    positions = [content_positions(tokenizer, ids) for ids in sequences]
    batches = masked_copy_batches(tokenizer, sequences, positions, batch_size=4)
    expected = []
    for ids, wanted in zip(sequences, positions, strict=True):
        for position in wanted:
            copy = ids.copy()
            copy[position] = tokenizer.mask_token_id
            expected.append(tuple(copy.tolist()))
    found, lengths = [], []
    for input_ids, attention_mask in batches:
        assert input_ids.shape[0] <= 4 and input_ids.shape == attention_mask.shape
        for row, real in zip(input_ids, attention_mask, strict=True):
            found.append(tuple(row[real.bool()].tolist()))
            lengths.append(int(real.sum()))
            assert (row[~real.bool()] == tokenizer.pad_token_id).all()
    assert sorted(found) == sorted(expected)
    assert lengths == sorted(lengths)


def test_head_chunks_do_not_change_the_result(tiny_bert, monkeypatch):
    model, tokenizer = tiny_bert
    sequences = [np.asarray(ids) for ids in tokenizer(SENTENCES)["input_ids"]]
    positions = [content_positions(tokenizer, ids) for ids in sequences]
    whole = score_masked(model, tokenizer, sequences, positions, batch_size=16, progress=False)
    monkeypatch.setattr("mgbias.mlm.masked.HEAD_CHUNK_ELEMENTS", 3 * len(tokenizer))
    chunked = score_masked(model, tokenizer, sequences, positions, batch_size=16, progress=False)
    for first, second in zip(whole, chunked, strict=True):
        np.testing.assert_allclose(first, second, rtol=0, atol=1e-6)


def test_unknown_head_layout_falls_back_to_the_whole_model(caplog):
    tokenizer = wordpiece_tokenizer()
    torch.manual_seed(0)
    config = XLMConfig(
        vocab_size=len(tokenizer),
        emb_dim=16,
        n_layers=2,
        n_heads=2,
        max_position_embeddings=64,
        pad_index=tokenizer.pad_token_id,
    )
    model = XLMWithLMHeadModel(config).eval()
    assert mlm_encoder_and_head(model) == (model, None)
    sequences = [np.asarray(ids) for ids in tokenizer(SENTENCES[:3])["input_ids"]]
    positions = [content_positions(tokenizer, ids) for ids in sequences]
    with caplog.at_level(logging.WARNING, logger="mgbias.mlm.masked"):
        scores = score_masked(model, tokenizer, sequences, positions, batch_size=4, progress=False)
    assert any("unknown MLM head layout" in record.getMessage() for record in caplog.records)
    for ids, wanted, got in zip(sequences, positions, scores, strict=True):
        expected = [naive_logprobs(model, tokenizer, ids, [p], p, [ids[p]])[0] for p in wanted]
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)


def test_model_mode_is_restored(tiny_bert):
    model, tokenizer = tiny_bert
    sequences = [np.asarray(tokenizer(SENTENCES[0])["input_ids"])]
    positions = [np.array([1, 2])]
    expected = score_masked(model, tokenizer, sequences, positions, progress=False)
    model.train()
    try:
        again = score_masked(model, tokenizer, sequences, positions, progress=False)
        assert model.training
    finally:
        model.eval()
    np.testing.assert_array_equal(expected[0], again[0])


def test_score_masked_rejects_bad_input_by_name(tiny_bert):
    model, tokenizer = tiny_bert
    ids = np.asarray(tokenizer(SENTENCES[0])["input_ids"])
    with pytest.raises(ValueError, match="2 sequences but 1 position lists"):
        score_masked(model, tokenizer, [ids, ids], [[1]], progress=False)
    with pytest.raises(ValueError, match=r"positions\[1\] holds position 7, outside"):
        score_masked(model, tokenizer, [ids, ids], [[1], [7]], progress=False)
    with pytest.raises(ValueError, match=r"sequences\[0\] holds 7 tokens, more than the limit"):
        score_masked(model, tokenizer, [ids], [[1]], max_length=6, progress=False)
    with pytest.raises(ValueError, match="exceeds the model's limit of 64"):
        score_masked(model, tokenizer, [ids], [[1]], max_length=65, progress=False)
    with pytest.raises(ValueError, match="batch_size must be a positive integer"):
        score_masked(model, tokenizer, [ids], [[1]], batch_size=0, progress=False)
    assert score_masked(model, tokenizer, [], [], progress=False) == []


# ----------------------------------------------------------------------------- several masks


def test_masked_logprobs_of_with_several_masks(tiny_bert):
    model, tokenizer = tiny_bert
    he, she = tokenizer.convert_tokens_to_ids(["he", "she"])
    # "[MASK] is a doctor ." -> [CLS] [MASK] is a doctor . [SEP]; the target "doctor" is at 4.
    target = np.asarray(tokenizer("[MASK] is a doctor.")["input_ids"])
    assert target[1] == tokenizer.mask_token_id and target[4] == tokenizer.vocab["doctor"]
    nurse = np.asarray(tokenizer("[MASK] is a nurse.")["input_ids"])  # nurse = 2 pieces: 4, 5
    sequences = [target, target, nurse]
    mask_positions = [[], [4], [4, 5]]  # p_tgt, then p_prior with the target masked
    got = masked_logprobs_of(
        model, tokenizer, sequences, mask_positions, [1, 1, 1], [he, she], progress=False
    )
    assert got.shape == (3, 2) and got.dtype == np.float32
    for row, (ids, masks) in enumerate(zip(sequences, mask_positions, strict=True)):
        expected = naive_logprobs(model, tokenizer, ids, [1, *masks], 1, [he, she])
        np.testing.assert_allclose(got[row], expected, rtol=0, atol=1e-5)
    # Masking the target changes the distribution; a 2-D candidate list per sequence works.
    assert not np.allclose(got[0], got[1])
    per_row = masked_logprobs_of(
        model, tokenizer, sequences, mask_positions, [1, 1, 1], [[he], [she], [he]], progress=False
    )
    np.testing.assert_allclose(per_row[:, 0], [got[0, 0], got[1, 1], got[2, 0]], atol=1e-6)
    # All ids as candidates: the probabilities sum to one.
    every_id = masked_logprobs_of(
        model, tokenizer, [target], [[4]], [1], np.arange(len(tokenizer)), progress=False
    )
    assert np.exp(every_id.astype(np.float64)).sum() == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(ValueError, match="candidate ids must lie in"):
        masked_logprobs_of(model, tokenizer, [target], [[]], [1], [len(tokenizer)], progress=False)
    with pytest.raises(ValueError, match=r"query_positions\[0\] holds position 9"):
        masked_logprobs_of(model, tokenizer, [target], [[]], [9], [he], progress=False)


# ----------------------------------------------------------------------------- pairs


def test_score_masked_pairs_equals_the_references(family_model):
    name, model, tokenizer = family_model
    scores = score_masked_pairs(model, tokenizer, PAIRS, batch_size=3, progress=False)
    assert len(scores) == len(PAIRS) and scores.n_truncated_pairs == 0
    assert scores.max_length == 64
    assert_pair_scores_match_reference(model, tokenizer, PAIRS, scores)
    # What the measures consume.
    assert scores.a.modified_logprobs[3].size == 0  # identical sentences
    # "she is a nur ##se here ." vs "he is here .": shared "is here ."
    assert len(scores.a.modified_logprobs[4]) == 4 and len(scores.b.modified_logprobs[4]) == 1
    assert len(scores.a.modified_logprobs[1]) == 2  # "nurse" = two pieces
    with_modified = [scores.a.modified_logprobs[i] for i in (0, 1, 2, 4)]
    np.testing.assert_allclose(
        sss_sentence_scores(with_modified), [m.sum() for m in with_modified], rtol=1e-6
    )
    np.testing.assert_allclose(
        sss_sentence_scores([scores.a.modified_matrices[1]], reduction="matrix_mean"),
        [scores.a.modified_matrices[1].mean()],
        rtol=1e-6,
    )
    more, less = (
        cps_sentence_scores(scores.a.shared_logprobs),
        cps_sentence_scores(scores.b.shared_logprobs),
    )
    assert more[3] == pytest.approx(less[3], abs=1e-5)  # same sentence, same score


def test_long_pairs_are_cut_counted_and_warned_once(caplog):
    tokenizer = TOKENIZER_BUILDERS["roberta"]()
    # Positions start after <pad> (id 1): 18 position embeddings leave room for 16 tokens.
    model = build_model("roberta", len(tokenizer), max_positions=16)
    assert model.config.max_position_embeddings == 18
    assert masked_max_length(model, tokenizer) == 16
    long_a = "He is a doctor." + " He is a doctor." * 5  # 1 + 5 x 4 tokens before the last "."
    long_b = "She is a doctor." + " He is a doctor." * 5
    pairs = [(long_a, long_b), ("He is a doctor.", "She is a doctor.")]
    with caplog.at_level(logging.WARNING, logger="mgbias.mlm.masked"):
        scores = score_masked_pairs(model, tokenizer, pairs, progress=False)
    warnings = [record for record in caplog.records if "longer than 16" in record.getMessage()]
    assert len(warnings) == 1
    assert scores.n_truncated_pairs == 1 and scores.max_length == 16
    assert len(scores.a.token_ids[0]) == len(scores.b.token_ids[0]) == 16
    assert scores.n_dropped_shared[0] > 0 and scores.n_dropped_shared[1] == 0
    # The cut pair is scored as the cut token ids (special tokens kept).
    ids = scores.a.token_ids[0]
    assert ids[0] == tokenizer.bos_token_id and ids[-1] == tokenizer.eos_token_id
    expected = score_masked(
        model, tokenizer, [ids], [scores.a.shared_positions[0]], progress=False
    )[0]
    np.testing.assert_array_equal(scores.a.shared_logprobs[0], expected)
    np.testing.assert_array_equal(scores.a.shared_ids[0], scores.b.shared_ids[0])
    # An explicit, smaller limit applies to every pair.
    shorter = score_masked_pairs(model, tokenizer, pairs, max_length=6, progress=False)
    assert shorter.n_truncated_pairs == 2 and shorter.max_length == 6


# ----------------------------------------------------------------------------- cache


def test_pair_cache_round_trip_is_exact(tiny_bert, tmp_path):
    model, tokenizer = tiny_bert
    scores = score_masked_pairs(model, tokenizer, PAIRS, max_length=7, progress=False)
    assert scores.n_truncated_pairs >= 1
    path = tmp_path / "masked" / "tiny" / "pairs.parquet"
    metadata = {"model_id": "tiny-bert", "revision": None, "input_sha256": pairs_sha256(PAIRS)}
    write_pair_cache(scores, path, metadata)
    assert [p.name for p in path.parent.iterdir()] == ["pairs.parquet"]
    loaded, stored = read_pair_cache(path, expected_sha256=pairs_sha256(PAIRS))
    assert stored["model_id"] == "tiny-bert" and stored["revision"] is None
    assert stored["n_pairs"] == len(PAIRS) and stored["max_length"] == 7
    assert stored["n_truncated_pairs"] == scores.n_truncated_pairs
    assert stored["n_dropped_shared"] == int(scores.n_dropped_shared.sum())
    assert loaded.max_length == 7
    np.testing.assert_array_equal(loaded.n_dropped_shared, scores.n_dropped_shared)
    for name in ("a", "b"):
        written, read = getattr(scores, name), getattr(loaded, name)
        for field in (
            "token_ids",
            "shared_positions",
            "shared_logprobs",
            "modified_positions",
            "modified_logprobs",
            "modified_matrices",
        ):
            for first, second in zip(getattr(written, field), getattr(read, field), strict=True):
                assert first.dtype == second.dtype and first.shape == second.shape
                np.testing.assert_array_equal(first, second)
        np.testing.assert_array_equal(written.truncated, read.truncated)
        np.testing.assert_array_equal(written.n_dropped_modified, read.n_dropped_modified)
    again = tmp_path / "again.parquet"
    write_pair_cache(scores, again, metadata)
    assert again.read_bytes() == path.read_bytes()


def test_pair_cache_checks_metadata_and_kind(tiny_bert, tmp_path):
    model, tokenizer = tiny_bert
    scores = score_masked_pairs(model, tokenizer, PAIRS[:2], progress=False)
    with pytest.raises(ValueError, match=r"missing key\(s\) \['revision', 'input_sha256'\]"):
        write_pair_cache(scores, tmp_path / "x.parquet", {"model_id": "tiny"})
    path = tmp_path / "pairs.parquet"
    write_pair_cache(
        scores, path, {"model_id": "m", "revision": "abc", "input_sha256": pairs_sha256(PAIRS)}
    )
    with pytest.raises(ValueError, match="does not match the pairs given"):
        read_pair_cache(path, expected_sha256=pairs_sha256(PAIRS[:2]))
    unmasked = tmp_path / "unmasked.parquet"
    write_score_cache(SentenceScores([], [], [], np.zeros((0, 4), np.float32), 0), unmasked, {})
    with pytest.raises(ValueError, match="cache_kind is None, expected 'masked_pairs'"):
        read_pair_cache(unmasked)
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"x": [1]}), foreign)
    with pytest.raises(ValueError, match="foreign.parquet: not an mgbias cache"):
        read_pair_cache(foreign)


def test_empty_pair_scores_round_trip(tiny_bert, tmp_path):
    model, tokenizer = tiny_bert
    scores = score_masked_pairs(model, tokenizer, [], progress=False)
    assert isinstance(scores, PairScores) and len(scores) == 0
    metadata = {"model_id": "m", "revision": None, "input_sha256": pairs_sha256([])}
    write_pair_cache(scores, tmp_path / "empty.parquet", metadata)
    loaded, stored = read_pair_cache(tmp_path / "empty.parquet")
    assert len(loaded) == 0 and stored["n_pairs"] == 0
