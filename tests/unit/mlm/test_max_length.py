"""The length limit of the unmasked and masked passes, per model family."""

from __future__ import annotations

from types import SimpleNamespace

from fixtures.tiny_models import bert_config
from transformers import RobertaConfig

from mgbias.mlm.unmasked import default_max_length

UNBOUNDED = SimpleNamespace(model_max_length=int(1e30))


def test_bert_limit_is_its_position_embeddings():
    model = SimpleNamespace(config=bert_config(vocab_size=10, max_positions=20))
    assert default_max_length(model, UNBOUNDED) == 20


def test_roberta_positions_start_after_the_padding_index():
    # position ids run from pad_token_id + 1, so 20 embeddings hold 20 - 1 - 1 = 18 tokens
    model = SimpleNamespace(config=RobertaConfig(max_position_embeddings=20, pad_token_id=1))
    assert default_max_length(model, UNBOUNDED) == 18


def test_tokenizer_limit_wins_when_smaller():
    model = SimpleNamespace(config=RobertaConfig(max_position_embeddings=514, pad_token_id=1))
    assert default_max_length(model, SimpleNamespace(model_max_length=128)) == 128
