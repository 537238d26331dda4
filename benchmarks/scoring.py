"""Benchmark of the scoring engine and of MBE's memory use.

Prints one ``name=value`` per line:

- ``aula_over_forward``: time of :func:`mgbias.mlm.engine.score_unmasked` plus
  :func:`mgbias.measures.aula.aula` on its output, divided by the time of a bare
  batched forward pass (same length-sorted batches, same padding, plain
  ``model(**batch)`` under ``inference_mode``, logits computed, no attentions,
  no hidden states) over the same sentences and the same model. The engine's
  time includes tokenization; the bare pass gets its batches pre-tokenized, so
  the ratio is, if anything, pessimistic. Each side is warmed up once and then
  timed 3 times, alternating with the other; the minimum of each is used.
- ``mbe_peak_mb``: peak memory allocated by :func:`mgbias.measures.mbe.mbe_score`
  on 20,000 x 20,000 sentences (random normal scores, 64-dimensional float32
  embeddings uniform in [0, 1)), in a fresh subprocess, measured with
  ``tracemalloc`` (numpy reports its array buffers to tracemalloc, so this is
  the peak of Python + numpy heap use during the call above what existed
  before it). ``mbe_rss_peak_increase_mb`` is the rise of the process's peak
  RSS (``ru_maxrss``) over an untraced call; it reads 0 when the call stays
  below the peak that imports already reached, so it is only a lower bound.

- ``masked_over_encoder``: time of :func:`mgbias.mlm.masked.score_masked`
  (every non-special token of each sentence masked in turn, one copy each)
  divided by the time of the encoder alone (``model.bert``, no MLM head, under
  ``inference_mode``) over the same masked copies in the same batches (built
  beforehand with :func:`mgbias.mlm.masked.masked_copy_batches`, so building
  them counts only against ``score_masked``). Same model, same warm-up and
  alternation as ``aula_over_forward``. Goal: at most 1.2.
- ``speedup_vs_naive_250k``: on a BERT with a 250,000-token vocabulary
  (hidden 64, 2 layers, 2 heads, random weights), the time of one forward
  pass per masked copy with the MLM head applied at every position
  (``model(copy).logits``, then ``log_softmax`` of the masked row and the gold
  entry, as CrowS-Pairs' reference script does) divided by the time of
  ``score_masked`` on the same copies: the shared tokens of both sentences of
  ``--naive-pairs`` pairs (a sentence and a copy with one word replaced).
  Both are warmed up on a few copies, then timed twice, alternating; the
  minimum of each is used. Goal: at least 5.

The model is a randomly initialised BERT (vocabulary 8,000, hidden 256, 4
layers, 4 heads) with eager attention, which AULA requires; random weights
cost the same time as trained ones. Sentences are 10-30 words drawn from the
vocabulary (seeded).

Usage: ``python benchmarks/scoring.py [--sentences N] [--masked-sentences N]
[--naive-pairs N] [--quick]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
import torch
from transformers import BertConfig, BertForMaskedLM

from mgbias.measures.aula import aula
from mgbias.mlm.engine import encode_sentences, length_sorted_batches, pad_batch, score_unmasked
from mgbias.mlm.masked import masked_copy_batches, mlm_encoder_and_head, score_masked
from mgbias.mlm.spans import encode_pairs
from mgbias.mlm.wordpiece import SPECIAL_TOKENS, build_bert_tokenizer

SEED = 0
VOCAB_SIZE = 8000
BATCH_SIZE = 64
REPEATS = 3
MBE_SENTENCES = 20_000
MBE_DIM = 64
MASKED_SENTENCES = 200
NAIVE_PAIRS = 25
LARGE_VOCAB_SIZE = 250_000
NAIVE_REPEATS = 2


def random_words(n_words: int, rng: np.random.Generator) -> list[str]:
    """``n_words`` distinct lower-case words of 3-8 letters."""
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < n_words:
        lengths = rng.integers(3, 9, size=n_words)
        letters = rng.integers(0, len(alphabet), size=(n_words, 8))
        for length, row in zip(lengths, letters, strict=True):
            word = "".join(alphabet[index] for index in row[:length])
            if word not in seen and len(words) < n_words:
                seen.add(word)
                words.append(word)
    return words


def build_world(n_sentences: int, seed: int = SEED):
    """A random-init BERT, a whole-word tokenizer for it, and sentences of 10-30 words."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < VOCAB_SIZE - len(SPECIAL_TOKENS):
        word = "".join(rng.choice(letters, size=int(rng.integers(3, 9))))
        if word not in seen:
            seen.add(word)
            words.append(word)
    tokenizer = build_bert_tokenizer([*SPECIAL_TOKENS, *words], model_max_length=512)
    sentences = [
        " ".join(rng.choice(words, size=int(rng.integers(10, 31)))) for _ in range(n_sentences)
    ]
    config = BertConfig(
        vocab_size=VOCAB_SIZE,
        hidden_size=256,
        num_hidden_layers=4,
        num_attention_heads=4,
        intermediate_size=1024,
        max_position_embeddings=512,
        attn_implementation="eager",
    )
    torch.manual_seed(seed)
    model = BertForMaskedLM(config).eval()
    return model, tokenizer, sentences


def best_times(*runs: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    """Minimum wall time of each run over ``repeats`` rounds, after one warm-up round.

    The runs alternate within each round, so a change in machine load affects
    all of them alike and their ratio stays meaningful.
    """
    for run in runs:
        run()
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeats):
        for run, run_times in zip(runs, times, strict=True):
            start = time.perf_counter()
            run()
            run_times.append(time.perf_counter() - start)
    return [min(run_times) for run_times in times]


def bench_engine(n_sentences: int) -> dict[str, float]:
    model, tokenizer, sentences = build_world(n_sentences)
    encoded = encode_sentences(tokenizer, sentences, max_length=512)
    batches = length_sorted_batches(encoded.lengths, BATCH_SIZE)
    padded = [pad_batch(encoded, indices, tokenizer.pad_token_id) for indices in batches]

    def bare_forward() -> None:
        with torch.inference_mode():
            for input_ids, attention_mask, _ in padded:
                _ = model(input_ids=input_ids, attention_mask=attention_mask).logits

    def engine_and_aula() -> None:
        scores = score_unmasked(model, tokenizer, sentences, batch_size=BATCH_SIZE, progress=False)
        aula(scores.logprobs, scores.attention)

    forward_seconds, score_seconds = best_times(bare_forward, engine_and_aula)
    return {
        "sentences": n_sentences,
        "tokens": int(encoded.lengths.sum()),
        "torch_threads": torch.get_num_threads(),
        "forward_seconds": round(forward_seconds, 4),
        "score_seconds": round(score_seconds, 4),
        "aula_over_forward": round(score_seconds / forward_seconds, 3),
    }


def bench_masked(n_sentences: int) -> dict[str, float]:
    """``score_masked`` against the bare encoder over the same masked copies and batches."""
    model, tokenizer, sentences = build_world(n_sentences)
    encoded = encode_sentences(tokenizer, sentences, max_length=512)
    sequences = encoded.input_ids
    positions = [np.flatnonzero(~special) for special in encoded.special_mask]
    batches = masked_copy_batches(tokenizer, sequences, positions, batch_size=BATCH_SIZE)
    encoder, head = mlm_encoder_and_head(model)
    assert head is not None and encoder is model.bert

    def encoder_only() -> None:
        with torch.inference_mode():
            for input_ids, attention_mask in batches:
                _ = encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    def masked() -> None:
        score_masked(model, tokenizer, sequences, positions, batch_size=BATCH_SIZE, progress=False)

    encoder_seconds, masked_seconds = best_times(encoder_only, masked)
    return {
        "masked_sentences": n_sentences,
        "masked_copies": int(sum(len(wanted) for wanted in positions)),
        "masked_encoder_seconds": round(encoder_seconds, 4),
        "masked_seconds": round(masked_seconds, 4),
        "masked_over_encoder": round(masked_seconds / encoder_seconds, 3),
    }


def build_large_vocab_world(n_pairs: int, seed: int = SEED):
    """A random-init BERT with a 250k vocabulary, its tokenizer, and pairs differing in a word."""
    rng = np.random.default_rng(seed)
    words = random_words(LARGE_VOCAB_SIZE - len(SPECIAL_TOKENS), rng)
    tokenizer = build_bert_tokenizer([*SPECIAL_TOKENS, *words], model_max_length=512)
    pairs = []
    for _ in range(n_pairs):
        sentence = list(rng.choice(words, size=int(rng.integers(10, 31))))
        swapped = list(sentence)
        swapped[int(rng.integers(len(sentence)))] = str(rng.choice(words))
        pairs.append((" ".join(sentence), " ".join(swapped)))
    config = BertConfig(
        vocab_size=LARGE_VOCAB_SIZE,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=256,
        max_position_embeddings=512,
        attn_implementation="eager",
    )
    torch.manual_seed(seed)
    model = BertForMaskedLM(config).eval()
    return model, tokenizer, pairs


def naive_masked_scores(model, mask_id: int, sequences, positions) -> list[list[float]]:
    """One forward pass per masked copy, the MLM head at every position (the naive way)."""
    scores = []
    with torch.inference_mode():
        for ids, wanted in zip(sequences, positions, strict=True):
            row_scores = []
            for position in wanted:
                copy = torch.from_numpy(ids.copy())
                copy[position] = mask_id
                logits = model(input_ids=copy[None]).logits[0]  # (length, vocabulary)
                log_probs = torch.log_softmax(logits[position], dim=-1)
                row_scores.append(float(log_probs[int(ids[position])]))
            scores.append(row_scores)
    return scores


def bench_naive_250k(n_pairs: int) -> dict[str, float]:
    """``score_masked`` against one full-head forward pass per copy, 250k vocabulary."""
    model, tokenizer, pairs = build_large_vocab_world(n_pairs)
    spans = encode_pairs(tokenizer, pairs)
    sides = [side for pair in spans for side in (pair.a, pair.b)]
    sequences = [side.input_ids for side in sides]
    positions = [side.shared_positions for side in sides]

    def naive(count: int | None = None) -> list[list[float]]:
        return naive_masked_scores(
            model, tokenizer.mask_token_id, sequences[:count], positions[:count]
        )

    def engine(count: int | None = None) -> list[np.ndarray]:
        return score_masked(
            model,
            tokenizer,
            sequences[:count],
            positions[:count],
            batch_size=BATCH_SIZE,
            progress=False,
        )

    naive(2)  # warm-up on a few copies
    engine(2)
    naive_times, engine_times = [], []
    for _ in range(NAIVE_REPEATS):
        start = time.perf_counter()
        naive_scores = naive()
        naive_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        engine_scores = engine()
        engine_times.append(time.perf_counter() - start)
    difference = max(
        float(np.max(np.abs(np.asarray(first) - second), initial=0.0))
        for first, second in zip(naive_scores, engine_scores, strict=True)
    )
    return {
        "naive_250k_sentences": len(sequences),
        "naive_250k_copies": int(sum(len(wanted) for wanted in positions)),
        "naive_250k_seconds": round(min(naive_times), 3),
        "masked_250k_seconds": round(min(engine_times), 3),
        "naive_250k_max_abs_difference": f"{difference:.2e}",
        "speedup_vs_naive_250k": round(min(naive_times) / min(engine_times), 2),
    }


MBE_CHILD = """
import json, resource, sys, time, tracemalloc
import numpy as np
from mgbias.measures.mbe import mbe_score

n, dim = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
male_scores, female_scores = rng.normal(size=n), rng.normal(size=n)
# Uniform [0, 1) embeddings: all cosines positive, like real sentence embeddings (centred
# normal vectors would give a total weight near zero, for which Eq. 2 is undefined).
male_emb = rng.random(size=(n, dim), dtype=np.float32)
female_emb = rng.random(size=(n, dim), dtype=np.float32)

# Run 1, untraced: wall time and the rise of the process's peak RSS (kilobytes on Linux).
before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
result = mbe_score(male_scores, female_scores, male_emb, female_emb)
seconds = time.perf_counter() - start
after_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

# Run 2, traced: peak of Python + numpy heap allocations during the call.
tracemalloc.start()
baseline, _ = tracemalloc.get_traced_memory()
tracemalloc.reset_peak()
mbe_score(male_scores, female_scores, male_emb, female_emb)
_, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
print(json.dumps({"traced_peak_mb": (peak - baseline) / 2**20,
                  "rss_increase_mb": (after_kb - before_kb) / 1024,
                  "seconds": seconds, "score": result.score}))
"""


def bench_mbe(n_sentences: int) -> dict[str, object]:
    """Run mbe_score in a fresh interpreter so earlier allocations do not hide its peak."""
    try:
        import mgbias.measures.mbe  # noqa: F401
    except ImportError as error:
        print(f"# mgbias.measures.mbe unavailable: {error}", file=sys.stderr)
        return {"mbe_sentences": n_sentences, "mbe_peak_mb": "unavailable"}
    completed = subprocess.run(
        [sys.executable, "-c", MBE_CHILD, str(n_sentences), str(MBE_DIM)],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        print(completed.stderr, file=sys.stderr)
        return {"mbe_sentences": n_sentences, "mbe_peak_mb": "unavailable"}
    measured = json.loads(completed.stdout.strip().splitlines()[-1])
    return {
        "mbe_sentences": n_sentences,
        "mbe_dim": MBE_DIM,
        "mbe_peak_mb": round(measured["traced_peak_mb"], 1),
        "mbe_rss_peak_increase_mb": round(measured["rss_increase_mb"], 1),
        "mbe_seconds": round(measured["seconds"], 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=None, help="default 2000 (quick: 256)")
    parser.add_argument(
        "--masked-sentences",
        type=int,
        default=None,
        help=f"sentences for masked_over_encoder, default {MASKED_SENTENCES} (quick: 40)",
    )
    parser.add_argument(
        "--naive-pairs",
        type=int,
        default=None,
        help=f"pairs for speedup_vs_naive_250k, default {NAIVE_PAIRS} (quick: 5)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes (256 sentences, MBE 4000 x 4000)"
    )
    args = parser.parse_args(argv)
    n_sentences = args.sentences or (256 if args.quick else 2000)
    n_masked = args.masked_sentences or (40 if args.quick else MASKED_SENTENCES)
    n_pairs = args.naive_pairs or (5 if args.quick else NAIVE_PAIRS)
    results = {
        **bench_engine(n_sentences),
        **bench_mbe(4000 if args.quick else MBE_SENTENCES),
        **bench_masked(n_masked),
        **bench_naive_250k(n_pairs),
    }
    for name, value in results.items():
        print(f"{name}={value}")


if __name__ == "__main__":
    main()
