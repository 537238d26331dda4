"""The tests' own tiny models: every BERT comes from tests/fixtures/tiny_models.py.

A test that needs another BERT passes its sizes to the fixture module's builders
(``bert_config``, ``build_model``, ``fixed_bert``, ``bert_from_config``) instead of
calling transformers' BERT classes itself, so that one module says how the test
models are made. `make lint` checks that rule (tests/fixtures/source_rules.py, whose
``direct_bert_constructions`` finds such calls: calls only, names in strings, comments
and ``from_pretrained`` are not constructions).
"""

from __future__ import annotations

import json

import pytest
import torch
from fixtures.source_rules import direct_bert_constructions
from fixtures.text import OCCUPATIONS, gendered_lines, write_lines
from fixtures.tiny_models import (
    TINY_MLM_WORDS,
    bert_config,
    bert_from_config,
    fixed_bert,
    save_tiny_mlm,
)
from transformers import AutoTokenizer


def test_direct_constructions_are_calls_of_bert_classes():
    source = "\n".join(
        [
            "from transformers import BertConfig",  # 1: an import, no call
            "model = BertForMaskedLM(BertConfig(vocab_size=10))",  # 2: two calls
            "encoder = transformers.BertModel(config)",  # 3
            "distil = DistilBertForMaskedLM(config)",  # 4
            'loaded = BertForMaskedLM.from_pretrained("x")',  # 5: loading, not building
            "others = RobertaForMaskedLM(config), AlbertConfig()",  # 6: other families
            'text = "BertConfig(vocab_size=3)"  # BertModel(config)',  # 7: text only
            "pretraining = BertForPreTraining(config)",  # 8
        ]
    )
    assert direct_bert_constructions(source) == [
        (2, "BertConfig"),
        (2, "BertForMaskedLM"),
        (3, "BertModel"),
        (4, "DistilBertForMaskedLM"),
        (8, "BertForPreTraining"),
    ]


# ----------------------------------------------------------------------------- builders


def test_bert_from_config_heads_and_seeds():
    config = bert_config(vocab_size=12, max_positions=8)
    assert type(bert_from_config(config, head="none")).__name__ == "BertModel"
    model = bert_from_config(config, head="pretraining", seed=4)
    assert type(model).__name__ == "BertForPreTraining" and model.training
    again = bert_from_config(config, head="pretraining", seed=4)
    for first, second in zip(model.parameters(), again.parameters(), strict=True):
        torch.testing.assert_close(first, second, rtol=0, atol=0)
    # seed=None draws from the global generator as it stands: seeding it first is the same.
    torch.manual_seed(4)
    drawn = bert_from_config(config, head="pretraining", seed=None)
    for first, second in zip(model.parameters(), drawn.parameters(), strict=True):
        torch.testing.assert_close(first, second, rtol=0, atol=0)
    with pytest.raises(ValueError, match=r"head must be one of \['masked_lm', 'none', "):
        bert_from_config(config, head="mlm")


def test_fixed_bert_predicts_its_probabilities_everywhere():
    model = fixed_bert([0.5, 0.25, 0.25], max_position_embeddings=4)
    assert (model.config.vocab_size, model.config.max_position_embeddings) == (3, 4)
    assert model.config.hidden_size == 4 and not model.training
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([[0, 2, 1, 1]])).logits[0]
    expected = torch.log(torch.tensor([0.5, 0.25, 0.25])).expand(4, 3)
    torch.testing.assert_close(torch.log_softmax(logits, dim=-1), expected)


def test_save_tiny_mlm_saves_a_one_layer_whole_word_bert(tmp_path):
    directory = save_tiny_mlm(tmp_path / "tiny", max_length=12)
    config = json.loads((directory / "config.json").read_text())
    # 5 special tokens + 8 words + 8 occupations.
    assert len(TINY_MLM_WORDS) == 16 and set(OCCUPATIONS) <= set(TINY_MLM_WORDS)
    assert {
        key: config[key]
        for key in (
            "vocab_size",
            "hidden_size",
            "num_hidden_layers",
            "num_attention_heads",
            "intermediate_size",
            "max_position_embeddings",
            "initializer_range",
        )
    } == {
        "vocab_size": 21,
        "hidden_size": 16,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "intermediate_size": 32,
        "max_position_embeddings": 12,
        "initializer_range": 0.02,
    }
    tokenizer = AutoTokenizer.from_pretrained(directory)
    assert len(tokenizer) == 21 and tokenizer.model_max_length == 12
    # [CLS] she is a nurse . [SEP]: "she" 6, "is" 7, "a" 8, "." 12, "nurse" 14 (after doctor).
    assert tokenizer("She is a nurse .")["input_ids"] == [2, 6, 7, 8, 14, 12, 3]


def test_gendered_lines_cycle_through_the_occupations(tmp_path):
    lines = gendered_lines("she", 10)
    assert lines[:2] == ["she is a doctor .", "she is a nurse ."]
    assert lines[8:] == ["she is a doctor .", "she is a nurse ."]
    assert gendered_lines("he", 0) == []
    path = write_lines(tmp_path / "text.txt", ["a b", "c"])
    assert path.read_bytes() == b"a b\nc\n"
