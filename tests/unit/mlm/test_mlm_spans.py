"""Shared and modified tokens of sentence pairs for each subword family.

The tokenizers (tests/fixtures/tiny_models.py) are built from fixed
vocabularies (no download, no trainer, so the same pieces every run):
WordPiece as BERT, byte-level BPE with leading-space tokens as RoBERTa, and
SentencePiece-style Unigram with ``▁`` as ALBERT ([CLS] ... [SEP], lower-cased)
and XLM-R (<s> ... </s>, cased).
"""

from __future__ import annotations

import numpy as np
import pytest
from fixtures.tiny_models import (
    TOKENIZER_BUILDERS,
    byte_level_bpe_tokenizer,
    sentencepiece_tokenizer,
    wordpiece_tokenizer,
)

from mgbias.mlm.spans import encode_pairs, pair_spans
from mgbias.pairs.tokens import shared_token_indices


@pytest.fixture(scope="module", params=sorted(TOKENIZER_BUILDERS))
def family_tokenizer(request):
    return request.param, TOKENIZER_BUILDERS[request.param]()


def tokens(tokenizer, ids) -> list[str]:
    return tokenizer.convert_ids_to_tokens([int(token) for token in ids])


def test_the_test_tokenizers_split_words_as_intended():
    assert tokens(wordpiece_tokenizer(), wordpiece_tokenizer()("The nurse.")["input_ids"]) == [
        "[CLS]", "the", "nur", "##se", ".", "[SEP]"
    ]  # fmt: skip
    bpe = byte_level_bpe_tokenizer()
    assert tokens(bpe, bpe("He is a doctor.")["input_ids"]) == [
        "<s>", "He", "Ġis", "Ġa", "Ġdoctor", ".", "</s>"
    ]  # fmt: skip
    assert tokens(bpe, bpe("the actress")["input_ids"])[1:-1] == [
        "t", "h", "e", "Ġact", "ress"
    ]  # fmt: skip
    albert = sentencepiece_tokenizer("albert")
    assert tokens(albert, albert("She is a nurse.")["input_ids"]) == [
        "[CLS]", "▁she", "▁is", "▁a", "▁nur", "se", ".", "[SEP]"
    ]  # fmt: skip
    xlmr = sentencepiece_tokenizer("xlmr")
    assert tokens(xlmr, xlmr("She is a nurse.")["input_ids"])[:2] == ["<s>", "▁She"]
    assert xlmr.mask_token_id == len(xlmr) - 1


# ----------------------------------------------------------------------------- difflib


def test_shared_tokens_are_the_equal_opcodes():
    first, second = shared_token_indices([7, 10, 11, 12], [8, 10, 11, 12])
    assert first.tolist() == [1, 2, 3] and second.tolist() == [1, 2, 3]
    # Insertion: b has an extra token in the middle; a has a two-token replacement at the end.
    first, second = shared_token_indices([1, 2, 3, 4, 5], [1, 2, 9, 3, 6])
    assert first.tolist() == [0, 1, 2] and second.tolist() == [0, 1, 3]
    # Repeated tokens are matched in order, one for one.
    first, second = shared_token_indices([5, 5, 6], [5, 6])
    assert len(first) == len(second) == 2
    assert first.dtype == np.int64


def test_no_junk_heuristic_on_long_sequences():
    # 300 items, one frequent token: difflib's autojunk would treat 4 as junk and match less.
    a = [4, 5] * 150
    b = [6] + [4, 5] * 150
    first, second = shared_token_indices(a, b)
    assert len(first) == 300
    np.testing.assert_array_equal(np.array(a)[first], np.array(b)[second])


# ----------------------------------------------------------------------------- families


EXPECTED_PRONOUN_SWAP = {
    # (modified a, modified b, shared) as token strings for "He is a doctor." / "She is a doctor."
    "bert": (["he"], ["she"], ["is", "a", "doctor", "."]),
    "roberta": (["He"], ["She"], ["Ġis", "Ġa", "Ġdoctor", "."]),
    "albert": (["▁he"], ["▁she"], ["▁is", "▁a", "▁doctor", "."]),
    "xlmr": (["▁He"], ["▁She"], ["▁is", "▁a", "▁doctor", "."]),
}


def test_pronoun_swap(family_tokenizer):
    family, tokenizer = family_tokenizer
    spans = pair_spans(tokenizer, "He is a doctor.", "She is a doctor.")
    modified_a, modified_b, shared = EXPECTED_PRONOUN_SWAP[family]
    assert tokens(tokenizer, spans.a.modified_ids) == modified_a
    assert tokens(tokenizer, spans.b.modified_ids) == modified_b
    assert tokens(tokenizer, spans.a.shared_ids) == shared
    assert tokens(tokenizer, spans.b.shared_ids) == shared
    # Positions index the sequence with special tokens: [CLS]/<s> is position 0.
    assert spans.a.modified_positions.tolist() == [1]
    assert spans.a.shared_positions.tolist() == [2, 3, 4, 5]
    assert spans.a.input_ids.tolist() == tokenizer("He is a doctor.")["input_ids"]
    assert not spans.truncated and spans.n_dropped_shared == 0


def test_multi_subword_word_is_modified_piece_by_piece(family_tokenizer):
    _, tokenizer = family_tokenizer
    spans = pair_spans(tokenizer, "The nurse is here.", "The doctor is here.")
    # "nurse" is two pieces, both modified; "doctor" is one.
    assert len(spans.a.modified_positions) == 2 and len(spans.b.modified_positions) == 1
    assert spans.a.modified_positions.tolist() == [2, 3]
    assert spans.a.shared_positions.tolist() == [1, 4, 5, 6]
    assert spans.b.shared_positions.tolist() == [1, 3, 4, 5]
    pieces = tokens(tokenizer, spans.a.modified_ids)
    assert pieces[0].lstrip("Ġ▁") == "nur" and pieces[1].lstrip("#") == "se"
    np.testing.assert_array_equal(spans.a.shared_ids, spans.b.shared_ids)


def test_words_sharing_a_first_piece_share_that_piece(family_tokenizer):
    family, tokenizer = family_tokenizer
    spans = pair_spans(tokenizer, "The actor is here.", "The actress is here.")
    suffix_a, suffix_b = ("##or", "##ress") if family == "bert" else ("or", "ress")
    assert tokens(tokenizer, spans.a.modified_ids) == [suffix_a]
    assert tokens(tokenizer, spans.b.modified_ids) == [suffix_b]
    shared = tokens(tokenizer, spans.a.shared_ids)
    assert len(shared) == 5 and shared[1] in ("act", "Ġact", "▁act")


def test_leading_space_makes_a_different_token_only_for_byte_level_bpe():
    # "doctor" opens the first sentence and follows "a" in the second.
    pair = ("doctor is here.", "a doctor is here.")
    bpe = pair_spans(byte_level_bpe_tokenizer(), *pair)
    bpe_tokens = byte_level_bpe_tokenizer().convert_ids_to_tokens
    # Byte-level BPE: "doctor" (no space) is spelled with other tokens than "Ġdoctor".
    assert "Ġdoctor" in bpe_tokens(bpe.b.modified_ids.tolist())
    assert bpe_tokens(bpe.a.shared_ids.tolist()) == ["Ġis", "Ġhere", "."]
    wordpiece = pair_spans(wordpiece_tokenizer(), *pair)
    assert tokens(wordpiece_tokenizer(), wordpiece.b.modified_ids) == ["a"]
    assert len(wordpiece.a.modified_positions) == 0
    sentencepiece = pair_spans(sentencepiece_tokenizer("xlmr"), *pair)
    assert len(sentencepiece.a.modified_positions) == 0  # "▁doctor" in both
    assert len(sentencepiece.b.modified_positions) == 1


def test_identical_sentences_have_no_modified_tokens(family_tokenizer):
    _, tokenizer = family_tokenizer
    spans = pair_spans(tokenizer, "the man works.", "the man works.")
    assert spans.a.modified_positions.size == spans.b.modified_positions.size == 0
    assert spans.a.shared_positions.tolist() == list(range(1, len(spans.a.input_ids) - 1))


# ----------------------------------------------------------------------------- truncation


def test_truncation_keeps_special_tokens_and_drops_cut_shared_tokens_on_both_sides():
    tokenizer = wordpiece_tokenizer()
    # a: [CLS] the nurse(2) is here . [SEP] = 8 tokens; b: [CLS] the doctor is here . [SEP] = 7.
    spans = pair_spans(tokenizer, "The nurse is here.", "The doctor is here.", max_length=6)
    # a keeps 4 content tokens (the nur ##se is), b keeps 4 (the doctor is here).
    assert tokens(tokenizer, spans.a.input_ids) == ["[CLS]", "the", "nur", "##se", "is", "[SEP]"]
    assert tokens(tokenizer, spans.b.input_ids) == [
        "[CLS]", "the", "doctor", "is", "here", "[SEP]"
    ]  # fmt: skip
    # "here" and "." are cut from a, so they are dropped from b too; "is" survives on both.
    assert tokens(tokenizer, spans.a.shared_ids) == ["the", "is"]
    assert tokens(tokenizer, spans.b.shared_ids) == ["the", "is"]
    assert spans.b.shared_positions.tolist() == [1, 3]
    assert spans.n_dropped_shared == 2
    assert spans.a.truncated and spans.b.truncated
    assert spans.a.n_dropped_modified == 0 and spans.b.n_dropped_modified == 0
    # Same ids as the tokenizer's own truncation.
    assert (
        spans.a.input_ids.tolist()
        == tokenizer("the nurse is here.", truncation=True, max_length=6)["input_ids"]
    )


def test_truncation_counts_cut_modified_tokens():
    tokenizer = byte_level_bpe_tokenizer()
    spans = pair_spans(tokenizer, "The man is he.", "The man is she.", max_length=5)
    # Content kept: "The", "Ġman", "Ġis"; the pronoun is cut from both sides.
    assert spans.a.modified_positions.size == 0 and spans.a.n_dropped_modified == 1
    assert spans.b.n_dropped_modified == 1
    assert spans.a.shared_positions.tolist() == [1, 2, 3]
    assert spans.n_dropped_shared == 1  # "."
    assert len(spans.a.input_ids) == 5 and spans.a.input_ids[-1] == tokenizer.eos_token_id


def test_short_pairs_are_not_touched_by_a_limit():
    tokenizer = wordpiece_tokenizer()
    limited = pair_spans(tokenizer, "he is here.", "she is here.", max_length=6)
    unlimited = pair_spans(tokenizer, "he is here.", "she is here.")
    assert not limited.truncated and limited.n_dropped_shared == 0
    for side in ("a", "b"):
        for field in ("input_ids", "shared_positions", "modified_positions"):
            np.testing.assert_array_equal(
                getattr(getattr(limited, side), field), getattr(getattr(unlimited, side), field)
            )


# ----------------------------------------------------------------------------- errors


def test_encode_pairs_reports_bad_input_by_pair_and_side():
    tokenizer = wordpiece_tokenizer()
    with pytest.raises(ValueError, match="pair 1, sentence b is empty: ' '"):
        encode_pairs(tokenizer, [("he is here.", "she is here."), ("he is here.", " ")])
    with pytest.raises(ValueError, match="pair 0, sentence a is empty: ''"):
        encode_pairs(tokenizer, [("", "she is here.")])
    # Not blank, but BERT's normaliser drops the control character: nothing left to score.
    with pytest.raises(ValueError, match="pair 0, sentence b has no non-special tokens"):
        encode_pairs(tokenizer, [("he is here.", "\x00")])
    with pytest.raises(TypeError, match="pair 0, sentence a: expected str"):
        encode_pairs(tokenizer, [(None, "she")])
    with pytest.raises(TypeError, match="pair 0: expected a"):
        encode_pairs(tokenizer, ["he is here."])
    with pytest.raises(ValueError, match="max_length=2 leaves no room"):
        encode_pairs(tokenizer, [("he", "she")], max_length=2)
    assert encode_pairs(tokenizer, []) == []
