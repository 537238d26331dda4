"""Benchmark of the scoring engine and of MBE's memory use.

Prints one ``name=value`` per line:

- ``aula_over_forward``: time of :func:`mgbias.mlm.unmasked.score_unmasked` plus
  :func:`mgbias.measures.aula.aula` on its output, divided by the time of the
  bare forward passes the engine makes: the same length-sorted batches with
  the same padding (built beforehand with the engine's own
  :func:`~mgbias.mlm.unmasked.encode_sentences`,
  :func:`~mgbias.mlm.unmasked.length_sorted_batches` and
  :func:`~mgbias.mlm.unmasked.pad_batch`), the same model (eager attention, as
  :func:`mgbias.mlm.load.load_mlm` loads it, in eval mode), the same call
  (``output_attentions=True, output_hidden_states=True``, logits over the
  whole vocabulary), under ``inference_mode``, with the same torch threads.
  That pass is the floor: the engine runs the same encoder on the same
  batches, but the MLM head (about 40% of this model's forward FLOPs) only
  at the real, non-special positions (about 89% of them here); on top it
  tokenizes, takes the ``log_softmax`` over the vocabulary and the gold
  entry at those positions (about 13% of the forward pass), averages the
  attention and the last hidden states, splits the batches into sentences
  and puts them back in order; AULA then averages. The ``log_softmax``,
  which AUL and AULA cannot skip, is most of the difference. A ratio below 1
  would mean the two sides did not do the same work or were not timed alike.
  Goal: at most 1.15. With the head over every position (the engine before
  it skipped special and padding positions) the ratio read 1.146-1.229, and
  1.161 on a quiet machine; with the head only where it is needed, 1.098 on
  the same machine right after.
- ``masked_over_encoder``: time of :func:`mgbias.mlm.masked.score_masked`
  (every non-special token of each sentence masked in turn, one copy each)
  divided by the time of the encoder alone (``model.bert``, no MLM head, under
  ``inference_mode``) over the same masked copies in the same batches (built
  beforehand with :func:`mgbias.mlm.masked.masked_copy_batches`, so building
  them counts only against ``score_masked``). Same model and timing as
  ``aula_over_forward``. Goal: at most 1.2.
- ``speedup_vs_naive_250k``: on a BERT with a 250,000-token vocabulary
  (hidden 64, 2 layers, 2 heads, random weights), the time of one forward
  pass per masked copy with the MLM head applied at every position
  (``model(copy).logits``, then ``log_softmax`` of the masked row and the gold
  entry, as CrowS-Pairs' reference script does) divided by the time of
  ``score_masked`` on the same copies: the shared tokens of both sentences of
  ``--naive-pairs`` pairs (a sentence and a copy with one word replaced).
  Both are warmed up on a few copies, then timed alternately like the others
  (at most 3 rounds, the naive side is slow). Goal: at least 5.
- ``*_wall``: the same three ratios computed from wall time
  (``time.perf_counter``), with the wall seconds of each side
  (``*_seconds``); the headline ratios use process CPU time
  (``time.process_time``, seconds in ``*_cpu_seconds``), see Timing.
- ``mbe_peak_mb``: peak memory allocated by :func:`mgbias.measures.mbe.mbe_score`
  on 20,000 x 20,000 sentences (random normal scores, 64-dimensional float32
  embeddings uniform in [0, 1)), in a fresh subprocess, measured with
  ``tracemalloc`` (numpy reports its array buffers to tracemalloc, so this is
  the peak of Python + numpy heap use during the call above what existed
  before it). ``mbe_rss_peak_increase_mb`` is the rise of the process's peak
  RSS (``ru_maxrss``) over an untraced call; it reads 0 when the call stays
  below the peak that imports already reached, so it is only a lower bound.

The model is a randomly initialised BERT (vocabulary 8,000, hidden 256, 4
layers, 4 heads) with eager attention, which AULA requires; random weights
cost the same time as trained ones. Sentences are 10-30 words drawn from the
vocabulary (seeded).

Timing. torch runs one thread (``--threads``, default 1, like the workflow's
scoring jobs with ``scoring.threads: 1``). With two threads on two cores,
another process on either core stalls torch's thread team at every operator:
a single pass then took anywhere between 1x and 2.5x its quiet time, and the
ratio moved by a factor of two between runs (1.227 and 0.585). Each side is
warmed up once, then the sides alternate (A B A B ...) ``--repeats`` times
(default 5, at least 3) and the minimum of each side is used. The headline
ratios divide CPU times: a single-threaded process that waits for a core
loses wall time but no CPU time. In four runs on a 2-core machine (quiet;
a busy loop on the other core; other jobs up to a load average of 4.5),
``aula_over_forward`` read 1.146-1.229 (within 4% of its mean) and
``masked_over_encoder`` 1.023-1.072, while the wall-time ratios of the same
runs read 1.09-1.225 and 0.991-1.059 (each side runs for seconds, so its
minimum still depends on how the load fell on its rounds). What remains is
contention for the memory bus and caches, which slows the memory-bound
``log_softmax`` more than the matrix products. Work on other threads (the
fast tokenizer's) counts in CPU time, against the engine.

Usage: ``python benchmarks/scoring.py [--sentences N] [--masked-sentences N]
[--naive-pairs N] [--threads N] [--repeats N] [--quick]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from transformers import BertConfig, BertForMaskedLM

from mgbias.measures.aula import aula
from mgbias.mlm.masked import masked_copy_batches, mlm_encoder_and_head, score_masked
from mgbias.mlm.spans import encode_pairs
from mgbias.mlm.unmasked import (
    encode_sentences,
    length_sorted_batches,
    pad_batch,
    padding_id,
    score_unmasked,
)
from mgbias.mlm.wordpiece import SPECIAL_TOKENS, build_bert_tokenizer

SEED = 0
VOCAB_SIZE = 8000
BATCH_SIZE = 64
REPEATS = 5
MIN_REPEATS = 3
NAIVE_REPEATS = 3
BENCHES = ("engine", "mbe", "masked", "naive")
MBE_SENTENCES = 20_000
MBE_DIM = 64
MASKED_SENTENCES = 200
NAIVE_PAIRS = 25
LARGE_VOCAB_SIZE = 250_000


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


def synchronize(device: str | torch.device) -> None:
    """Wait for the device's queued work (CUDA runs asynchronously; nothing to do on CPU)."""
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


@dataclass(frozen=True)
class Shape:
    """The random BERT of :func:`build_world`."""

    layers: int = 4
    hidden: int = 256
    heads: int = 4
    intermediate: int = 1024
    vocabulary: int = VOCAB_SIZE

    def bert_config(self, **extra) -> BertConfig:
        """A ``BertConfig`` of this shape (512 positions), with ``extra`` settings."""
        return BertConfig(
            vocab_size=self.vocabulary,
            hidden_size=self.hidden,
            num_hidden_layers=self.layers,
            num_attention_heads=self.heads,
            intermediate_size=self.intermediate,
            max_position_embeddings=512,
            **extra,
        )


#: The CPU benchmark's model (``bench_engine``, ``bench_masked``).
TINY = Shape()


def build_world(
    n_sentences: int,
    seed: int = SEED,
    device: str | torch.device = "cpu",
    shape: Shape = TINY,
):
    """A random-init BERT of ``shape`` on ``device``, a whole-word tokenizer for it, and
    sentences of 10-30 of its words."""
    rng = np.random.default_rng(seed)
    words = random_words(shape.vocabulary - len(SPECIAL_TOKENS), rng)
    tokenizer = build_bert_tokenizer([*SPECIAL_TOKENS, *words], model_max_length=512)
    sentences = [
        " ".join(rng.choice(words, size=int(rng.integers(10, 31)))) for _ in range(n_sentences)
    ]
    torch.manual_seed(seed)
    model = BertForMaskedLM(shape.bert_config(attn_implementation="eager")).eval().to(device)
    return model, tokenizer, sentences


@dataclass(frozen=True)
class Timing:
    """Best (minimum) wall and process CPU seconds of one run over the timed rounds."""

    wall: float
    cpu: float


def best_times(
    *runs: Callable[[], object],
    repeats: int = REPEATS,
    warm_ups: Sequence[Callable[[], object]] | None = None,
) -> list[Timing]:
    """Minimum wall and CPU time of each run over ``repeats`` rounds, after one warm-up round.

    The runs alternate within each round (A B A B ...), so a change in machine
    load affects all of them alike and their ratio stays meaningful; the
    minimum keeps each run's least disturbed round. ``warm_ups`` replace the
    runs themselves in the warm-up round (a smaller version of a slow run).
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    for warm_up in runs if warm_ups is None else warm_ups:
        warm_up()
    walls: list[list[float]] = [[] for _ in runs]
    cpus: list[list[float]] = [[] for _ in runs]
    for _ in range(repeats):
        for run, wall, cpu in zip(runs, walls, cpus, strict=True):
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall.append(time.perf_counter() - start_wall)
            cpu.append(time.process_time() - start_cpu)
    return [Timing(min(wall), min(cpu)) for wall, cpu in zip(walls, cpus, strict=True)]


def bench_engine(
    n_sentences: int,
    repeats: int = REPEATS,
    device: str | torch.device = "cpu",
    shape: Shape = TINY,
) -> dict[str, float]:
    """``score_unmasked`` + AULA against the engine's own forward calls, pre-batched.

    On CUDA the batches are on the device beforehand and both sides end by
    waiting for the device, so each is timed to its last kernel.
    """
    model, tokenizer, sentences = build_world(n_sentences, device=device, shape=shape)
    encoded = encode_sentences(tokenizer, sentences, max_length=512)
    batches = length_sorted_batches(encoded.lengths, BATCH_SIZE)
    padded = [
        tuple(tensor.to(device) for tensor in pad_batch(encoded, indices, padding_id(tokenizer)))
        for indices in batches
    ]

    def bare_forward() -> None:
        # The call of mgbias.mlm.unmasked._launch_batch, nothing done with its outputs.
        with torch.inference_mode():
            for input_ids, attention_mask, _ in padded:
                model(
                    input_ids=input_ids,
                    attention_mask=attention_mask,
                    output_attentions=True,
                    output_hidden_states=True,
                )
        synchronize(device)

    def engine_and_aula() -> None:
        scores = score_unmasked(model, tokenizer, sentences, batch_size=BATCH_SIZE, progress=False)
        aula(scores.logprobs, scores.attention)
        synchronize(device)

    forward, score = best_times(bare_forward, engine_and_aula, repeats=repeats)
    return {
        "sentences": n_sentences,
        "tokens": int(encoded.lengths.sum()),
        "batches": len(batches),
        "torch_threads": torch.get_num_threads(),
        "repeats": repeats,
        "forward_cpu_seconds": round(forward.cpu, 4),
        "score_cpu_seconds": round(score.cpu, 4),
        "aula_over_forward": round(score.cpu / forward.cpu, 3),
        "forward_seconds": round(forward.wall, 4),
        "score_seconds": round(score.wall, 4),
        "aula_over_forward_wall": round(score.wall / forward.wall, 3),
    }


def bench_masked(
    n_sentences: int,
    repeats: int = REPEATS,
    device: str | torch.device = "cpu",
    shape: Shape = TINY,
) -> dict[str, float]:
    """``score_masked`` against the bare encoder over the same masked copies and batches
    (on CUDA: batches on the device beforehand, both sides timed to their last kernel)."""
    model, tokenizer, sentences = build_world(n_sentences, device=device, shape=shape)
    encoded = encode_sentences(tokenizer, sentences, max_length=512)
    sequences = encoded.input_ids
    positions = [np.flatnonzero(~special) for special in encoded.special_mask]
    batches = [
        tuple(tensor.to(device) for tensor in batch)
        for batch in masked_copy_batches(tokenizer, sequences, positions, batch_size=BATCH_SIZE)
    ]
    encoder, head = mlm_encoder_and_head(model)
    assert head is not None and encoder is model.bert

    def encoder_only() -> None:
        with torch.inference_mode():
            for input_ids, attention_mask in batches:
                _ = encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        synchronize(device)

    def masked() -> None:
        score_masked(model, tokenizer, sequences, positions, batch_size=BATCH_SIZE, progress=False)
        synchronize(device)

    encoder_time, masked_time = best_times(encoder_only, masked, repeats=repeats)
    return {
        "masked_sentences": n_sentences,
        "masked_copies": int(sum(len(wanted) for wanted in positions)),
        "masked_encoder_cpu_seconds": round(encoder_time.cpu, 4),
        "masked_cpu_seconds": round(masked_time.cpu, 4),
        "masked_over_encoder": round(masked_time.cpu / encoder_time.cpu, 3),
        "masked_encoder_seconds": round(encoder_time.wall, 4),
        "masked_seconds": round(masked_time.wall, 4),
        "masked_over_encoder_wall": round(masked_time.wall / encoder_time.wall, 3),
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
    config = Shape(2, 64, 2, 256, LARGE_VOCAB_SIZE).bert_config(attn_implementation="eager")
    torch.manual_seed(seed)
    model = BertForMaskedLM(config).eval()
    return model, tokenizer, pairs


def naive_masked_scores(model, mask_id: int, sequences, positions) -> list[list[float]]:
    """One forward pass per masked copy, the MLM head at every position (the naive way),
    on the model's device."""
    scores = []
    with torch.inference_mode():
        for ids, wanted in zip(sequences, positions, strict=True):
            row_scores = []
            for position in wanted:
                copy = torch.from_numpy(ids.copy())
                copy[position] = mask_id
                copy = copy.to(model.device)
                logits = model(input_ids=copy[None]).logits[0]  # (length, vocabulary)
                log_probs = torch.log_softmax(logits[position], dim=-1)
                row_scores.append(float(log_probs[int(ids[position])]))
            scores.append(row_scores)
    return scores


@dataclass(frozen=True)
class NaiveComparison:
    """The naive loop against ``score_masked`` on the shared tokens of some pairs."""

    sentences: int
    copies: int
    naive: Timing
    engine: Timing
    max_abs_difference: float


def naive_vs_engine(
    model,
    tokenizer,
    pairs,
    repeats: int = NAIVE_REPEATS,
    checked_sentences: int | None = None,
) -> NaiveComparison:
    """Time :func:`naive_masked_scores` and ``score_masked`` on the shared tokens of ``pairs``.

    Both run on the model's device, are warmed up on two sentences and then
    alternate ``repeats`` times (:func:`best_times`). Their scores are compared
    afterwards on the first ``checked_sentences`` sentences (default all).
    """
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

    naive_time, engine_time = best_times(
        naive, engine, repeats=repeats, warm_ups=[lambda: naive(2), lambda: engine(2)]
    )
    difference = max(
        float(np.max(np.abs(np.asarray(first) - second), initial=0.0))
        for first, second in zip(naive(checked_sentences), engine(checked_sentences), strict=True)
    )
    return NaiveComparison(
        sentences=len(sequences),
        copies=int(sum(len(wanted) for wanted in positions)),
        naive=naive_time,
        engine=engine_time,
        max_abs_difference=difference,
    )


def bench_naive_250k(n_pairs: int, repeats: int = NAIVE_REPEATS) -> dict[str, float]:
    """``score_masked`` against one full-head forward pass per copy, 250k vocabulary."""
    model, tokenizer, pairs = build_large_vocab_world(n_pairs)
    compared = naive_vs_engine(model, tokenizer, pairs, repeats)
    naive_time, engine_time = compared.naive, compared.engine
    return {
        "naive_250k_sentences": compared.sentences,
        "naive_250k_copies": compared.copies,
        "naive_250k_cpu_seconds": round(naive_time.cpu, 3),
        "masked_250k_cpu_seconds": round(engine_time.cpu, 3),
        "naive_250k_max_abs_difference": f"{compared.max_abs_difference:.2e}",
        "speedup_vs_naive_250k": round(naive_time.cpu / engine_time.cpu, 2),
        "naive_250k_seconds": round(naive_time.wall, 3),
        "masked_250k_seconds": round(engine_time.wall, 3),
        "speedup_vs_naive_250k_wall": round(naive_time.wall / engine_time.wall, 2),
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
        "--threads", type=int, default=1, help="torch threads for both sides of each ratio"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=REPEATS,
        help=f"timed rounds per side, alternating (at least {MIN_REPEATS}; "
        f"speedup_vs_naive_250k uses at most {NAIVE_REPEATS})",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=BENCHES,
        help="run only these parts (repeatable); default all",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes (256 sentences, MBE 4000 x 4000)"
    )
    args = parser.parse_args(argv)
    if args.repeats < MIN_REPEATS:
        parser.error(f"--repeats must be at least {MIN_REPEATS}, got {args.repeats}")
    if args.threads < 1:
        parser.error(f"--threads must be at least 1, got {args.threads}")
    torch.set_num_threads(args.threads)
    n_sentences = args.sentences or (256 if args.quick else 2000)
    n_masked = args.masked_sentences or (40 if args.quick else MASKED_SENTENCES)
    n_pairs = args.naive_pairs or (5 if args.quick else NAIVE_PAIRS)
    benches = {
        "engine": lambda: bench_engine(n_sentences, args.repeats),
        "mbe": lambda: bench_mbe(4000 if args.quick else MBE_SENTENCES),
        "masked": lambda: bench_masked(n_masked, args.repeats),
        "naive": lambda: bench_naive_250k(n_pairs, min(args.repeats, NAIVE_REPEATS)),
    }
    results: dict[str, object] = {}
    for name in BENCHES:
        if args.only is None or name in args.only:
            results.update(benches[name]())
    for name, value in results.items():
        print(f"{name}={value}")


if __name__ == "__main__":
    main()
