"""Benchmark of the hidden-state extraction of the contextual probes.

Prints one ``name=value`` per line:

- ``hidden_over_forward``: process CPU time of
  :func:`mgbias.contextual.hidden.extract_word_vectors` (every hidden state stored, three
  target words per sentence, mean pooling) divided by that of a bare batched forward
  pass of the same encoder (``model.base_model``, ``output_hidden_states=True``) over the
  same sentences in the same length-sorted, per-batch padded batches (built beforehand,
  so tokenizing counts only against the extraction), under ``inference_mode``, one torch
  thread. Sides alternate over ``--rounds`` rounds after a warm-up; the minimum of each
  side is used. Goal: at most 1.1.
- ``hidden_cache_mb``: megabytes of the safetensors cache per 10,000 target tokens and
  per stored layer (float32; float16 halves it).
- ``*_seconds``: the CPU seconds behind the ratio.

The model is a randomly initialised BERT (vocabulary 8,000, hidden 256, 4 layers, 4
heads); sentences are 10-30 words drawn from the vocabulary (seeded).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from transformers import BertConfig, BertForMaskedLM

from mgbias.contextual.cache import write_word_vectors
from mgbias.contextual.hidden import extract_word_vectors
from mgbias.contextual.words import words
from mgbias.mlm.unmasked import length_sorted_batches, padding_id
from mgbias.mlm.wordpiece import build_bert_tokenizer


def _setup(n_sentences: int, seed: int):
    rng = np.random.default_rng(seed)
    vocabulary = [f"w{i}" for i in range(7_990)]
    tokenizer = build_bert_tokenizer(
        ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *vocabulary], model_max_length=128
    )
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=len(tokenizer), hidden_size=256, num_hidden_layers=4, num_attention_heads=4,
        intermediate_size=1024, max_position_embeddings=128,
    )  # fmt: skip
    model = BertForMaskedLM(config).eval()
    sentences = [
        " ".join(rng.choice(vocabulary, size=rng.integers(10, 31))) for _ in range(n_sentences)
    ]
    targets = np.array(
        [
            (i, j)
            for i, s in enumerate(sentences)
            for j in sorted(rng.choice(len(words(s)), 3, False))
        ]
    )
    return model, tokenizer, sentences, targets


def _bare(model, tokenizer, sentences, batch_size):
    encoded = tokenizer(sentences, add_special_tokens=True)["input_ids"]
    lengths = np.array([len(ids) for ids in encoded])
    pad = padding_id(tokenizer)
    batches = []
    for rows in length_sorted_batches(lengths, batch_size):
        width = int(lengths[rows].max())
        ids = np.full((len(rows), width), pad)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for b, row in enumerate(rows):
            ids[b, : lengths[row]] = encoded[row]
            mask[b, : lengths[row]] = 1
        batches.append((torch.from_numpy(ids), torch.from_numpy(mask)))

    def run():
        with torch.inference_mode():
            for ids, mask in batches:
                model.base_model(input_ids=ids, attention_mask=mask, output_hidden_states=True)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer, sentences, targets = _setup(args.sentences, args.seed)
    bare = _bare(model, tokenizer, sentences, args.batch_size)

    def extract():
        return extract_word_vectors(
            model, tokenizer, sentences, targets, batch_size=args.batch_size, progress=False
        )

    bare(), extract()  # warm-up
    times = {"forward": [], "hidden": []}
    for _ in range(args.rounds):
        for name, run in (("forward", bare), ("hidden", extract)):
            start = time.process_time()
            result = run()
            times[name].append(time.process_time() - start)
    forward, hidden = min(times["forward"]), min(times["hidden"])
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "v.safetensors"
        write_word_vectors(result, path, {})
        size_mb = path.stat().st_size / 1e6
    print(f"hidden_over_forward={hidden / forward:.3f}")
    print(f"hidden_cache_mb={size_mb / len(targets) * 10_000 / len(result.layers):.3f}")
    print(f"forward_seconds={forward:.3f}")
    print(f"hidden_seconds={hidden:.3f}")


if __name__ == "__main__":
    main()
