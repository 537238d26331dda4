"""A tiny BERT masked LM saved in Hugging Face format, and gendered text, for fine-tuning tests.

The model has random weights (seeded) and a whole-word vocabulary, so it loads and trains
in well under a second; the text is "<subject> is a <occupation> ." sentences.
"""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import BertConfig, BertForMaskedLM

from mgbias.mlm.wordpiece import SPECIAL_TOKENS, build_bert_tokenizer

OCCUPATIONS = ["doctor", "nurse", "pilot", "teacher", "cook", "singer", "farmer", "lawyer"]
WORDS = ["he", "she", "is", "a", "the", "man", "woman", ".", *OCCUPATIONS]


def save_tiny_mlm(directory: Path, *, seed: int = 0, max_length: int = 16) -> Path:
    """Save a randomly initialised 1-layer BERT MLM and its tokenizer into ``directory``."""
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=len(SPECIAL_TOKENS) + len(WORDS),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=max_length,
    )
    BertForMaskedLM(config).save_pretrained(directory)
    build_bert_tokenizer([*SPECIAL_TOKENS, *WORDS], model_max_length=max_length).save_pretrained(
        directory
    )
    return Path(directory)


def gendered_lines(subject: str, n: int) -> list[str]:
    """``n`` sentences "<subject> is a <occupation> ." cycling through the occupations."""
    return [f"{subject} is a {OCCUPATIONS[i % len(OCCUPATIONS)]} ." for i in range(n)]


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
