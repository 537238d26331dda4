"""Pair measures come from the two caches alone: same numbers as a direct run, no model call.

A small seeded BERT scores a few pairs once directly (both passes, measures in memory)
and once through the workflow's route: both passes written to their parquet
caches, read back, every measure computed from them. A forward hook on the
encoder counts model calls: computing any measure, alone or with others,
from the caches must make none.
"""

from __future__ import annotations

import pandas as pd
import pytest
from fixtures.tiny_models import build_model

from mgbias.measures import pair
from mgbias.mlm.masked_cache import pairs_sha256, read_pair_cache, write_pair_cache
from mgbias.mlm.unmasked_cache import read_score_cache, sentences_sha256, write_score_cache
from mgbias.mlm.wordpiece import build_bert_tokenizer
from mgbias.pairs.data import pair_sentences
from mgbias.pairs.passes import score_pair_passes
from mgbias.pairs.scoring import pair_measures

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "he", "she", "is", "a", "the", "nurse"]
VOCAB += ["doctor", "pilot", "man", "woman", "works", "as", "."]
PAIRS = [
    ("she is a nurse .", "he is a nurse ."),
    ("he is a pilot .", "she is a pilot ."),
    ("the man works as a doctor .", "the woman works as a doctor ."),
    ("the woman is a nurse .", "the man is a nurse ."),
    ("he works as a pilot .", "she works as a pilot ."),
]


@pytest.fixture(scope="module")
def model_and_tokenizer():
    model = build_model(
        "bert",
        len(VOCAB),
        max_positions=32,
        attn_implementation="eager",
        seed=3,
        initializer_range=0.02,
    )
    return model, build_bert_tokenizer(VOCAB, model_max_length=32)


def test_measures_from_written_caches_equal_a_direct_run_and_call_no_model(
    model_and_tokenizer, tmp_path
):
    model, tokenizer = model_and_tokenizer
    calls = []
    hook = model.bert.register_forward_hook(lambda *_: calls.append(1))
    try:
        direct = pair_measures(
            *score_pair_passes(model, tokenizer, PAIRS, progress=False), pair.names(), seed=7
        )
        unmasked, masked = score_pair_passes(model, tokenizer, PAIRS, progress=False)
        assert calls, "the passes must run the model"
        sentences = [sentence for pair in PAIRS for sentence in pair]
        provenance = {"model_id": "test-bert", "revision": "local"}
        write_score_cache(
            unmasked,
            tmp_path / "unmasked.parquet",
            {**provenance, "input_sha256": sentences_sha256(sentences)},
        )
        write_pair_cache(
            masked, tmp_path / "masked.parquet", {**provenance, "input_sha256": pairs_sha256(PAIRS)}
        )

        calls.clear()
        cached_unmasked, _ = read_score_cache(tmp_path / "unmasked.parquet")
        cached_masked, _ = read_pair_cache(
            tmp_path / "masked.parquet", expected_sha256=pairs_sha256(PAIRS)
        )
        together = pair_measures(cached_unmasked, cached_masked, list(pair.names()), seed=7)
        one_at_a_time = pd.concat(
            [
                pair_measures(cached_unmasked, cached_masked, [measure], seed=7)
                for measure in reversed(pair.names())
            ],
            ignore_index=True,
        )
        assert calls == [], "measures from the caches must not call the model"
    finally:
        hook.remove()

    pd.testing.assert_frame_equal(together, direct)
    pd.testing.assert_frame_equal(
        one_at_a_time.iloc[::-1].reset_index(drop=True), direct, check_exact=True
    )
    assert list(direct.n) == [len(PAIRS)] * len(pair.names())


def test_a_measure_without_its_pass_is_an_error_naming_the_pass(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    unmasked, masked = score_pair_passes(model, tokenizer, PAIRS[:2], progress=False)
    with pytest.raises(ValueError, match="unmasked pass"):
        pair_measures(None, masked, ["aula", "cps"])
    with pytest.raises(ValueError, match="masked pass"):
        pair_measures(unmasked, None, ["sss"])
    with pytest.raises(ValueError, match="unknown measure"):
        pair_measures(unmasked, masked, ["seat"])


def test_pair_sentences_perturbed_lose_their_final_character():
    frame = pd.DataFrame({"sent_more": ["She is a nurse."], "sent_less": ["He is a nurse."]})
    assert pair_sentences(frame) == [("She is a nurse.", "He is a nurse.")]
    assert pair_sentences(frame, perturb=True) == [("She is a nurse", "He is a nurse")]
