"""Properties of the pair passes and measures on generated sentence pairs, for every subword family.

Pairs are built by word edits (insertion, deletion, substitution at the start,
middle or end; identical sentences; one sentence a prefix of the other, also
inside a word, as in "nur" / "nur ##se"; sentences with nothing in common;
sentences longer than the token limit) over the words of the test tokenizers
(WordPiece, byte-level BPE, SentencePiece-style), scored by the tiny
random-weight models of each family (tests/fixtures/tiny_models.py). Two
properties must hold for every generated batch:

1. no pair measure raises, and every number is finite except where the
   measures document NaN (no pair counted; fewer than two pairs for a
   standard error or the S_JSD t-test);
2. the batched engine equals one unbatched forward pass per masked copy
   (:func:`fixtures.masked_reference.assert_pair_scores_match_reference`), and the
   batched unmasked pass equals ``batch_size=1``.

Hypothesis runs derandomized (a fixed sequence of examples), so CI sees the
same pairs every run.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from fixtures.masked_reference import assert_pair_scores_match_reference
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mgbias.measures import pair
from mgbias.measures.preference import TIE_RULES
from mgbias.mlm.masked import score_masked_pairs
from mgbias.mlm.unmasked import score_unmasked
from mgbias.pairs.passes import score_pair_passes
from mgbias.pairs.scoring import pair_measures

# about 5 minutes on 2 cores: in `make test`, not in `make test-unit`
pytestmark = pytest.mark.properties

#: Word stems every test tokenizer knows as one token (or, for byte-level BPE at
#: the start of a sentence, as characters); a suffix glued to a stem gives words
#: of several pieces sharing their first piece ("nur" / "nurse", "act" / "actress").
STEMS = ("he", "she", "is", "a", "doctor", "nur", "the", "act", "man", "woman", "works", "here")
SUFFIXES = ("se", "or", "ress")
PUNCTUATION = ("", ".", "?")
EDITS = ("insert", "delete", "substitute", "identical", "prefix", "piece_prefix", "disjoint")
PLACES = ("start", "middle", "end")

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def glue(stem: str, suffixes: list[str]) -> str:
    """A word of one or more pieces: ``glue("nur", ["se"]) == "nurse"``."""
    return stem + "".join(suffixes)


words = st.builds(glue, st.sampled_from(STEMS), st.lists(st.sampled_from(SUFFIXES), max_size=2))


def _place(draw, size: int, place: str) -> int:
    """Index of an edit at ``place`` in a list of ``size`` words (``size`` = after the end)."""
    if place == "start":
        return 0
    if place == "end":
        return size
    return draw(st.integers(min_value=0, max_value=size))


def _sentence(draw, tokens: list[str], punctuation: str, capital: bool) -> str:
    text = " ".join(tokens) + punctuation
    return text[0].upper() + text[1:] if capital else text


@st.composite
def edited_pairs(draw) -> tuple[str, str]:
    """One ``(sent_more, sent_less)``: a sentence and an edit of it, in either order."""
    long = draw(st.integers(min_value=0, max_value=4)) == 0  # one pair in five: up to 24 words
    base = draw(st.lists(words, min_size=1, max_size=24 if long else 6))
    other = list(base)
    edit = draw(st.sampled_from(EDITS))
    place = draw(st.sampled_from(PLACES))
    if edit == "insert":
        other.insert(_place(draw, len(other), place), draw(words))
    elif edit == "delete" and len(other) > 1:
        del other[min(_place(draw, len(other), place), len(other) - 1)]
    elif edit == "substitute":
        other[min(_place(draw, len(other), place), len(other) - 1)] = draw(words)
    elif edit == "prefix":  # one sentence is the other plus words at one end
        extra = draw(st.lists(words, min_size=1, max_size=3))
        other = extra + other if place == "start" else other + extra
    elif edit == "piece_prefix":  # a word grows by a piece: its pieces stay a prefix
        index = min(_place(draw, len(other), place), len(other) - 1)
        other[index] += draw(st.sampled_from(SUFFIXES))
    elif edit == "disjoint":
        other = draw(st.lists(words, min_size=1, max_size=6))
    punctuation = draw(st.sampled_from(PUNCTUATION))
    other_punctuation = draw(st.sampled_from(PUNCTUATION)) if draw(st.booleans()) else punctuation
    capital = draw(st.booleans())
    first = _sentence(draw, base, punctuation, capital)
    second = _sentence(draw, other, other_punctuation, capital)
    return (second, first) if draw(st.booleans()) else (first, second)


pair_batches = st.lists(edited_pairs(), min_size=1, max_size=4)
#: ``None`` (the model's limit, 64) or a limit most generated sentences exceed.
max_lengths = st.one_of(st.none(), st.integers(min_value=4, max_value=12))

#: Pairs that broke the measures on real tokenizers: every token of one side shared.
EDGE_BATCH = [
    ("the nur is here.", "the nurse is here."),
    ("nur", "nurse"),
    ("he is a doctor.", "he is a doctor."),
    ("he", "she"),
]


def check_measure_table(table, n_pairs: int) -> None:
    """Every number finite, except the NaNs the measures document."""
    assert list(table["measure"]) == list(pair.names())
    for row in table.itertuples():
        assert 0 <= row.n <= n_pairs and 0 <= row.n_edge <= n_pairs, row
        # score: NaN exactly when no pair is counted (tie rule "exclude").
        assert math.isfinite(row.score) == (row.n > 0), row
        if row.measure != "sjsd" and row.n > 0:
            assert 0.0 <= row.score <= 100.0, row
        # Standard error: bootstrap over at least two pairs.
        assert math.isfinite(row.se) == (row.n >= 2), row
        # p-value: exact sign test (1.0 without untied pairs); the S_JSD t-test needs two pairs.
        if row.measure == "sjsd" and row.n < 2:
            assert math.isnan(row.p_value), row
        else:
            assert 0.0 <= row.p_value <= 1.0, row


@SETTINGS
@given(pairs=pair_batches, max_length=max_lengths, tie_rule=st.sampled_from(TIE_RULES))
@example(pairs=EDGE_BATCH, max_length=None, tie_rule="neutral")
@example(pairs=EDGE_BATCH, max_length=None, tie_rule="exclude")
@example(pairs=EDGE_BATCH[:1], max_length=5, tie_rule="half")
def test_every_measure_scores_every_generated_batch(family_model, pairs, max_length, tie_rule):
    _, model, tokenizer = family_model
    unmasked, masked = score_pair_passes(
        model, tokenizer, pairs, batch_size=3, max_length=max_length, progress=False
    )
    table = pair_measures(unmasked, masked, pair.names(), seed=0, tie_rule=tie_rule)
    check_measure_table(table, len(pairs))
    for values in (*unmasked.logprobs, *masked.a.shared_logprobs, *masked.b.shared_logprobs):
        assert np.isfinite(values).all() and (values <= 0).all()


@SETTINGS
@given(pairs=pair_batches, max_length=max_lengths, batch_size=st.integers(1, 7))
@example(pairs=EDGE_BATCH, max_length=None, batch_size=2)
def test_batched_passes_equal_one_forward_pass_per_copy(
    family_model, pairs, max_length, batch_size
):
    _, model, tokenizer = family_model
    scores = score_masked_pairs(
        model, tokenizer, pairs, batch_size=batch_size, max_length=max_length, progress=False
    )
    assert_pair_scores_match_reference(model, tokenizer, pairs, scores, max_length=max_length)
    sentences = [sentence for pair in pairs for sentence in pair]
    one_by_one = score_unmasked(
        model, tokenizer, sentences, batch_size=1, max_length=max_length, progress=False
    )
    batched = score_unmasked(
        model, tokenizer, sentences, batch_size=batch_size, max_length=max_length, progress=False
    )
    assert batched.n_truncated == one_by_one.n_truncated
    for field in ("logprobs", "attention"):
        for first, second in zip(getattr(one_by_one, field), getattr(batched, field), strict=True):
            np.testing.assert_allclose(second, first, rtol=0, atol=1e-5)
    for first, second in zip(one_by_one.token_ids, batched.token_ids, strict=True):
        np.testing.assert_array_equal(second, first)
    np.testing.assert_allclose(batched.embeddings, one_by_one.embeddings, rtol=0, atol=1e-5)


@pytest.mark.parametrize("blank", ["", "   ", "\t\n"])
@pytest.mark.parametrize("side", ["a", "b"])
def test_an_empty_sentence_is_rejected_by_pair_and_side(family_model, blank, side):
    _, model, tokenizer = family_model
    pairs = [("he is here.", "she is here."), ("he is here.", "she is here.")]
    pairs[1] = (blank, pairs[1][1]) if side == "a" else (pairs[1][0], blank)
    with pytest.raises(ValueError, match=re.escape(f"pair 1, sentence {side} is empty: {blank!r}")):
        score_masked_pairs(model, tokenizer, pairs, progress=False)
    sentences = [sentence for pair in pairs for sentence in pair]
    index = 2 if side == "a" else 3
    with pytest.raises(ValueError, match=re.escape(f"sentence {index} is empty: {blank!r}")):
        score_unmasked(model, tokenizer, sentences, progress=False)
    with pytest.raises(ValueError, match=re.escape(f"pair 1, sentence {side} is empty: {blank!r}")):
        score_pair_passes(model, tokenizer, pairs, progress=False)
