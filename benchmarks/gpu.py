"""Benchmark of one ``mgbias score`` call on the fastest device here: its fixed cost and its engine.

Runs on CUDA when ``torch.cuda.is_available()``, else on the CPU, and prints one
``name=value`` per line:

- ``device``: the GPU's name, or ``cpu``; ``ratio_clock``: see below.
- ``score_cli_s``: wall seconds of ``mgbias score --measures cps`` (the command
  line's ``main`` in a fresh interpreter, with ``--output``, ``--per-pair`` and so
  their provenance records) on ``--score-pairs`` demo pairs (default 10) with the
  benchmark's model, on the device; ``score_cli_cpu_s`` its CPU seconds (user and
  system, all threads).
- The same call split into its steps, timed with ``time.perf_counter`` in a second
  fresh interpreter that runs them one by one through the same functions:
  ``score_imports_s`` (the modules the command imports: torch, transformers,
  pandas, scipy and mgbias's own), ``score_cuda_init_s`` (the first tensor on the
  GPU, which creates the CUDA context; 0 on CPU), ``score_load_s``
  (:func:`mgbias.load_model`: tokenizer and weights, moved to the device),
  ``score_data_s`` (:func:`mgbias.load_pair_data`), ``score_tokenize_s`` (the
  engine's tokenization of the sentences and of the pairs, timed on its own),
  ``score_forward_s`` (:func:`mgbias.pairs.passes.score_pair_passes`, both model
  passes, less ``score_tokenize_s``), ``score_measures_s`` (the CPS score with its
  sign test and bootstrap standard error, the verdicts and the per-pair table),
  ``score_write_s`` (the two CSV files) and ``score_provenance_s`` (their
  provenance records: the sha256 of the weights, data and outputs, the library
  versions, the git state).
- ``score_overhead_s``: ``score_cli_s`` less imports, CUDA start, load and forward
  passes: what a call costs beyond the work it cannot skip (interpreter start,
  argument checks, data, tokenizing, measures, writing, provenance, and the
  interpreter's exit). ``score_overhead_cpu_s``: the same in CPU seconds.
- ``scoring_ratio_unmasked``, ``scoring_ratio_masked``: ``aula_over_forward`` and
  ``masked_over_encoder`` of ``benchmarks/scoring.py`` (the engine against a bare
  batched forward over the same batches; see there), on the device, with a random BERT
  of the benchmark's size (full: mBERT's, below; random words of its vocabulary).
- ``engine_vs_naive``: time of one forward pass per masked copy at batch 1, the MLM
  head at every position (:func:`scoring.naive_masked_scores`, the way CrowS-Pairs'
  reference script scores) divided by that of the engine
  (:func:`mgbias.mlm.masked.score_masked`) on the shared tokens of ``--naive-pairs``
  demo pairs (full size 1,508, the size of CrowS-Pairs; smoke 20), with the
  benchmark's model; ``naive_max_abs_difference`` compares their scores on the
  first 20 sentences.
- ``masked_copies_per_s``: masked copies the engine scores per second in that
  comparison.
- ``bf16_speedup_unmasked``, ``bf16_speedup_masked``: time of the engine's passes in
  fp32 divided by their time in bf16 (``precision``: autocast, the log-probabilities
  in float32; :mod:`mgbias.mlm.precision`) with the benchmark's model, on the device:
  :func:`mgbias.mlm.unmasked.score_unmasked` over both sentences of the
  ``--naive-pairs`` demo pairs, :func:`mgbias.mlm.masked.score_masked_pairs` over the
  pairs (CPS, SSS and S_JSD's copies); the seconds of each are ``fp32_unmasked_s``,
  ``bf16_unmasked_s``, ``fp32_masked_s`` and ``bf16_masked_s``, and
  ``bf16_max_abs_difference`` is the largest difference of an unmasked
  log-probability. On a CPU without bf16 instructions bf16 is emulated, and slower.
- ``unmasked_sentences_per_s_batch_N``, ``masked_copies_per_s_batch_N``: the same two
  passes at batch sizes N of 64 (the workflow's ``scoring.batch_size``), 256 and 1,024
  (``batches``), and ``batch_max_abs_difference``, the largest difference of a value
  from those at 64: whether a GPU wants larger batches than the CPU-tuned default.
- ``finetune_*``: masked-LM fine-tuning, ``benchmarks/finetune.py --figures`` in a
  fresh interpreter (a process of its own, as a workflow job: the deterministic
  runs' cuBLAS setting precedes its first cuBLAS call): ``finetune_vs_trainer_fp32`` and
  ``finetune_vs_trainer_bf16`` (tokens per second of our loop over the Hugging Face
  ``Trainer``'s, same data, batch, optimizer and steps; bf16 autocast on both sides),
  the tokens per second of each (``finetune_tokens_per_s_{ours,trainer}_{fp32,bf16}``),
  ``finetune_deterministic_repeats`` (1 if two deterministic fp32 runs end with equal
  weights, else 0), ``finetune_deterministic_cost`` (deterministic time over
  non-deterministic), the same two for strict mode with the fused attention kernels
  (``..._fused_attention``), and ``finetune_tokens_per_step``; on CUDA also
  ``finetune_compiled_vs_trainer_fp32`` (our loop, its encoder compiled). Full: a
  bert-base-sized random BERT (12 layers, hidden 768, vocabulary 30,522), 300 steps of
  32 lines of up to 128 tokens; smoke: 2 layers, hidden 64, 12 steps of 8 lines of up to 32 tokens.
- ``finetune_profile_*``: where a fine-tuning step's time goes, ours and the
  ``Trainer``'s, from :mod:`torch.profiler` (``benchmarks/finetune.py --profile``, same
  sizes): per step the wall milliseconds, the operations the host dispatched and its
  milliseconds inside them, and the GPU kernels and their milliseconds; the operations
  of most host time go to standard error as ``#`` lines.

Ratios use process CPU time on CPU (one torch thread, ``--threads``; see
``benchmarks/scoring.py``, Timing) and wall time on CUDA (``ratio_clock``). The
``score_*`` seconds are wall times (the minimum of each over ``--repeats`` runs, the
command and the breakdown alternating), with torch's default threads as the command
runs, or ``--score-threads`` (``OMP_NUM_THREADS``). On a shared CPU, wall times
depend on the other work; ``--score-threads 1`` and the CPU seconds do much less.
An existing model in ``--workdir`` is used again (built by an earlier run), and
``--only`` runs some parts: ``score`` (the call), ``ratios``, ``naive``, ``precision``,
``batches``, ``finetune``, ``profile``.

Sizes. Full: an mBERT-sized random BERT (12 layers, hidden 768, 12 heads,
vocabulary 119,547), 1,508 naive pairs, the scoring ratios on 2,000 and 200
sentences; a GPU run. ``--smoke``: 2 layers, hidden 64, vocabulary 4,000, 20
naive pairs, 32 and 8 sentences (about 30-60 s on two CPU cores); it checks the
script and gives the CPU breakdown. The model's vocabulary is the demo pairs'
words, then random filler words; its tokenizer is a whole-word WordPiece
(:func:`mgbias.mlm.wordpiece.build_bert_tokenizer`). Both are written under
``--workdir`` (default: a temporary folder, removed afterwards).

Usage: ``python benchmarks/gpu.py [--smoke] [--score-pairs N] [--naive-pairs N]
[--repeats N] [--threads N] [--score-threads N] [--only PART] [--workdir DIR]``
(parts: ``score``, ``ratios``, ``naive``, ``precision``, ``batches``, ``finetune``,
``profile``)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from scoring import (
    Shape,
    bench_engine,
    bench_masked,
    best_times,
    naive_vs_engine,
    random_words,
    synchronize,
)
from transformers import BertForMaskedLM

from mgbias.demo.pairs import crows_pairs_path, demo_pairs, render_pair, write_demo_pairs
from mgbias.mlm.wordpiece import SPECIAL_TOKENS, build_bert_tokenizer

SEED = 0
PAIRS_SEED = 1
#: Sentences on which the naive loop's scores are compared with the engine's.
CHECKED_SENTENCES = 20
CLI = "import sys; from mgbias.cli.main import main; sys.exit(main(sys.argv[1:]))"


@dataclass(frozen=True)
class Size:
    """The benchmark's model and work sizes."""

    layers: int
    hidden: int
    heads: int
    intermediate: int
    vocabulary: int
    naive_pairs: int
    engine_sentences: int
    masked_sentences: int
    repeats: int

    @property
    def shape(self) -> Shape:
        """The model's shape (``benchmarks/scoring.py``)."""
        return Shape(self.layers, self.hidden, self.heads, self.intermediate, self.vocabulary)


FULL = Size(12, 768, 12, 3072, 119_547, 1508, 2000, 200, 3)
SMOKE = Size(2, 64, 2, 256, 4_000, 20, 32, 8, 1)

# A fresh interpreter running `mgbias score`'s steps one by one (argv: model, data,
# device, output folder, then the command's own arguments), with the command's
# garbage-collector settings; prints the wall and CPU seconds of each step as JSON.
BREAKDOWN_CHILD = """
import json, sys, time

model_dir, data, device, out = sys.argv[1:5]
argv = sys.argv[5:]
seconds = {}
clock, cpu_clock = time.perf_counter(), time.process_time()


def lap(name):
    global clock, cpu_clock
    if device.startswith("cuda"):
        sys.modules["torch"].cuda.synchronize()
    now, cpu_now = time.perf_counter(), time.process_time()
    seconds[name], seconds[name + "_cpu"] = now - clock, cpu_now - cpu_clock
    clock, cpu_clock = now, cpu_now


def steps():
    import torch
    import mgbias
    import mgbias.cli.main, mgbias.cli.provenance, mgbias.corpora.download, mgbias.pairs.data
    import mgbias.pairs.passes, mgbias.pairs.scoring, mgbias.files.tabular
    from mgbias.api.mlm import pair_verdicts
    from mgbias.cli.main import build_parser
    from mgbias.cli.provenance import write_cli_sidecars
    from mgbias.mlm.spans import check_pair_texts, encode_pairs
    from mgbias.mlm.unmasked import default_max_length, encode_sentences
    from mgbias.pairs.data import pair_sentences
    from mgbias.pairs.passes import score_pair_passes
    from mgbias.pairs.scoring import pair_measures_by_bias_type, per_pair_table
    from mgbias.provenance import now
    from mgbias.files.tabular import write_csv
    lap("imports")
    if device.startswith("cuda"):
        torch.zeros(1, device=device)
        lap("cuda_init")
    else:  # no CUDA context to create: 0, not the clock's jitter between two laps
        seconds["cuda_init"] = seconds["cuda_init_cpu"] = 0.0
    parser = build_parser()
    args = parser.parse_args(argv)
    started = now()
    handle = mgbias.load_model(model_dir, device=device)
    lap("load")
    frame = mgbias.load_pair_data(data)
    pairs = pair_sentences(frame)
    lap("data")
    limit = default_max_length(handle.model, handle.tokenizer)
    encode_sentences(handle.tokenizer, check_pair_texts(pairs), max_length=limit)
    encode_pairs(handle.tokenizer, pairs, max_length=limit)
    lap("tokenize")
    ids = frame["pair_id"].tolist()
    unmasked, masked = score_pair_passes(
        handle.model, handle.tokenizer, pairs, progress=False, pair_ids=ids
    )
    lap("passes")
    summary = pair_measures_by_bias_type(
        frame["bias_type"].tolist(), unmasked, masked, ["cps"], seed=0, tie_rule="neutral",
        alpha=0.05, overall=False, clusters=None,
    )
    summary["verdict"] = pair_verdicts(summary, 0.05)
    per_pair = per_pair_table(frame, unmasked, masked)
    lap("measures")
    write_csv(summary, args.output)
    write_csv(per_pair, args.per_pair)
    lap("write")
    write_cli_sidecars(args, started=started, argv=argv, parser=parser)
    lap("provenance")


try:  # the command's garbage-collector settings, where this version of mgbias has them
    from mgbias.workflow.gc_tuning import command_gc
except ImportError:
    from contextlib import nullcontext as command_gc
with command_gc():
    steps()
print(json.dumps(seconds))
"""


def build_model(directory: Path, size: Size, pair_words: list[str]) -> Path:
    """Save a random-init BERT MLM of ``size`` and its whole-word tokenizer in ``directory``.

    The vocabulary is :data:`SPECIAL_TOKENS`, ``pair_words``, then distinct random
    lower-case words up to ``size.vocabulary`` entries.
    """
    known = [word for word in dict.fromkeys(pair_words) if word not in SPECIAL_TOKENS]
    vocabulary = [*SPECIAL_TOKENS, *known]
    fillers = random_words(size.vocabulary, np.random.default_rng(SEED))
    taken = set(known)
    vocabulary += [word for word in fillers if word not in taken][
        : size.vocabulary - len(vocabulary)
    ]
    if len(vocabulary) != size.vocabulary:
        raise ValueError(f"built {len(vocabulary)} vocabulary entries, wanted {size.vocabulary}")
    tokenizer = build_bert_tokenizer(vocabulary, model_max_length=512)
    torch.manual_seed(SEED)
    BertForMaskedLM(size.shape.bert_config()).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def pair_texts(n_pairs: int) -> list[tuple[str, str]]:
    """The English sentences of the first ``n_pairs`` demo pairs (seed :data:`PAIRS_SEED`)."""
    return [render_pair(pair, "en") for pair in demo_pairs(PAIRS_SEED, n_pairs)]


def words_of(pairs: list[tuple[str, str]]) -> list[str]:
    """The lower-cased words and punctuation of the pairs, in first-seen order."""
    tokenizer = build_bert_tokenizer(list(SPECIAL_TOKENS), model_max_length=512)
    pre = tokenizer.backend_tokenizer.pre_tokenizer
    normalizer = tokenizer.backend_tokenizer.normalizer
    words: dict[str, None] = {}
    for sentence in (text for pair in pairs for text in pair):
        for word, _ in pre.pre_tokenize_str(normalizer.normalize_str(sentence)):
            words.setdefault(word, None)
    return list(words)


def score_arguments(model: Path, data: Path, device: str, out: Path) -> list[str]:
    """The ``mgbias score`` arguments both the command and the breakdown run."""
    return [
        "score",
        "--model",
        str(model),
        "--data",
        str(data),
        "--measures",
        "cps",
        "--device",
        device,
        "--output",
        str(out / "summary.csv"),
        "--per-pair",
        str(out / "pairs.csv"),
    ]


def run_child(command: list[str], threads: int | None) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system) of a fresh interpreter running ``command``,
    and its standard output; ``threads`` sets ``OMP_NUM_THREADS`` (None: torch's default)."""
    env = dict(os.environ)
    if threads is not None:
        env["OMP_NUM_THREADS"] = str(threads)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-c", *command], env=env, check=False, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        raise RuntimeError(f"{command[0][:40]!r}... failed:\n{completed.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, completed.stdout


def bench_score_call(
    model: Path, data: Path, device: str, out: Path, repeats: int, threads: int | None
) -> dict[str, float]:
    """``score_cli_s``, its steps and ``score_overhead_s`` (minimum of each over ``repeats``)."""
    cli_walls, cli_cpus, steps = [], [], []
    for index in range(repeats):  # alternate, so a change of machine load hits both alike
        cli_out, child_out = out / f"cli{index}", out / f"steps{index}"
        cli_out.mkdir()
        child_out.mkdir()
        wall, cpu, _ = run_child([CLI, *score_arguments(model, data, device, cli_out)], threads)
        cli_walls.append(wall)
        cli_cpus.append(cpu)
        child = [BREAKDOWN_CHILD, str(model), str(data), device, str(child_out)]
        child += score_arguments(model, data, device, child_out)
        _, _, stdout = run_child(child, threads)
        steps.append(json.loads(stdout.strip().splitlines()[-1]))
    best = {name: min(run[name] for run in steps) for name in steps[0]}
    forward = max(best["passes"] - best["tokenize"], 0.0)
    floor = best["imports"] + best["cuda_init"] + best["load"] + forward
    cpu_floor = (
        sum(best[f"{name}_cpu"] for name in ("imports", "cuda_init", "load", "passes"))
        - best["tokenize_cpu"]
    )
    results = {"score_cli_s": min(cli_walls), "score_cli_cpu_s": min(cli_cpus)}
    for name in ("imports", "cuda_init", "load", "data", "tokenize"):
        results[f"score_{name}_s"] = best[name]
    results["score_forward_s"] = forward
    for name in ("measures", "write", "provenance"):
        results[f"score_{name}_s"] = best[name]
    results["score_overhead_s"] = min(cli_walls) - floor
    results["score_overhead_cpu_s"] = min(cli_cpus) - cpu_floor
    return {name: round(value, 3) for name, value in results.items()}


def bench_naive(model_dir: Path, pairs: list[tuple[str, str]], device: str, clock: str) -> dict:
    """``engine_vs_naive`` and ``masked_copies_per_s`` with the benchmark's model."""
    from mgbias.mlm.load import load_mlm

    model, tokenizer = load_mlm(str(model_dir), device=device)
    compared = naive_vs_engine(
        model, tokenizer, pairs, repeats=1, checked_sentences=CHECKED_SENTENCES
    )
    naive, engine = getattr(compared.naive, clock), getattr(compared.engine, clock)
    return {
        "naive_pairs": len(pairs),
        "naive_copies": compared.copies,
        "naive_s": round(naive, 3),
        "engine_s": round(engine, 3),
        "naive_max_abs_difference": f"{compared.max_abs_difference:.2e}",
        "engine_vs_naive": round(naive / engine, 2),
        "masked_copies_per_s": round(compared.copies / compared.engine.wall, 1),
    }


def bench_precision(
    model_dir: Path, pairs: list[tuple[str, str]], device: str, clock: str, repeats: int
) -> dict:
    """``bf16_speedup_unmasked`` and ``bf16_speedup_masked``: the engine's passes in fp32
    and in bf16, alternating, the minimum of ``repeats`` rounds after a warm-up each."""
    from mgbias.mlm.load import load_mlm
    from mgbias.mlm.masked import score_masked_pairs
    from mgbias.mlm.unmasked import score_unmasked

    model, tokenizer = load_mlm(str(model_dir), device=device)
    sentences = [sentence for pair in pairs for sentence in pair]

    def unmasked(precision: str):
        def run():
            scores = score_unmasked(
                model, tokenizer, sentences, progress=False, precision=precision
            )
            synchronize(device)
            return scores

        return run

    def masked(precision: str):
        def run() -> None:
            score_masked_pairs(model, tokenizer, pairs, progress=False, precision=precision)
            synchronize(device)

        return run

    results = {}
    for name, runs in (("unmasked", unmasked), ("masked", masked)):
        full, half = best_times(runs("fp32"), runs("bf16"), repeats=repeats)
        full_s, half_s = getattr(full, clock), getattr(half, clock)
        results[f"fp32_{name}_s"] = round(full_s, 4)
        results[f"bf16_{name}_s"] = round(half_s, 4)
        results[f"bf16_speedup_{name}"] = round(full_s / half_s, 3)
    full_scores, half_scores = unmasked("fp32")(), unmasked("bf16")()
    difference = max(
        float(np.abs(one - other).max())
        for one, other in zip(full_scores.logprobs, half_scores.logprobs, strict=True)
    )
    results["bf16_max_abs_difference"] = f"{difference:.2e}"
    return results


#: Batch sizes of :func:`bench_batches` (the workflow's default is the first).
BATCH_SIZES = (64, 256, 1024)


def bench_batches(
    model_dir: Path, pairs: list[tuple[str, str]], device: str, clock: str, repeats: int
) -> dict:
    """The engine's throughput at each of :data:`BATCH_SIZES`: unmasked sentences and
    masked copies per second (``{unmasked_sentences,masked_copies}_per_s_batch_N``), the
    minimum of ``repeats`` rounds after a warm-up, and the largest difference of any
    value from those at the first size (``batch_max_abs_difference``)."""
    from mgbias.mlm.load import load_mlm
    from mgbias.mlm.masked import score_masked_pairs
    from mgbias.mlm.unmasked import score_unmasked

    model, tokenizer = load_mlm(str(model_dir), device=device)
    sentences = [sentence for pair in pairs for sentence in pair]
    results: dict[str, object] = {}
    reference = None
    difference = 0.0
    for batch_size in BATCH_SIZES:

        def unmasked(size: int = batch_size):
            scores = score_unmasked(model, tokenizer, sentences, batch_size=size, progress=False)
            synchronize(device)
            return scores

        def masked(size: int = batch_size):
            scores = score_masked_pairs(model, tokenizer, pairs, batch_size=size, progress=False)
            synchronize(device)
            return scores

        unmasked_time, masked_time = best_times(unmasked, masked, repeats=repeats)
        scores = masked()
        values = [*unmasked().logprobs, *scores.a.shared_logprobs, *scores.b.shared_logprobs]
        copies = sum(
            len(shared) + int(len(modified) > 0)
            for side in (scores.a, scores.b)
            for shared, modified in zip(side.shared_logprobs, side.modified_logprobs, strict=True)
        )
        results[f"unmasked_sentences_per_s_batch_{batch_size}"] = round(
            len(sentences) / getattr(unmasked_time, clock), 1
        )
        results[f"masked_copies_per_s_batch_{batch_size}"] = round(
            copies / getattr(masked_time, clock), 1
        )
        if reference is None:
            reference = values
        for one, other in zip(reference, values, strict=True):
            difference = max(difference, float(np.abs(one - other).max(initial=0.0)))
    results["batch_max_abs_difference"] = f"{difference:.2e}"
    return results


def finetune_part(size: str, which: str = "--figures") -> dict[str, str]:
    """The figures of ``benchmarks/finetune.py --figures SIZE`` (or ``--profile``), run
    in a fresh interpreter (see :func:`finetune.print_figures`)."""
    script = Path(__file__).resolve().with_name("finetune.py")
    completed = subprocess.run(
        [sys.executable, str(script), which, size],
        check=False,
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        raise RuntimeError(
            f"benchmarks/finetune.py {which} {size} failed:\n{completed.stderr[-3000:]}"
        )
    lines = completed.stdout.splitlines()
    for line in lines:  # the profile's table of operations
        if line.startswith("#"):
            print(line, file=sys.stderr, flush=True)
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


PARTS = ("score", "ratios", "naive", "precision", "batches", "finetune", "profile")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="CI sizes (a minute on a CPU)")
    parser.add_argument("--score-pairs", type=int, default=10, help="pairs of the score call")
    parser.add_argument("--naive-pairs", type=int, default=None, help="full 1508, smoke 20")
    parser.add_argument("--repeats", type=int, default=None, help="full 3, smoke 1")
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the ratios")
    parser.add_argument(
        "--score-threads",
        type=int,
        default=None,
        help="OMP_NUM_THREADS of the score call (default: torch's own choice)",
    )
    parser.add_argument(
        "--only", action="append", choices=PARTS, help="run only these parts (repeatable)"
    )
    parser.add_argument("--workdir", type=Path, default=None, help="default: a temporary one")
    args = parser.parse_args(argv)
    size = SMOKE if args.smoke else FULL
    repeats = args.repeats or size.repeats
    naive_pairs = args.naive_pairs or size.naive_pairs
    checks = [("score-pairs", args.score_pairs), ("repeats", repeats), ("threads", args.threads)]
    checks += [("naive-pairs", naive_pairs), ("score-threads", args.score_threads or 1)]
    for name, value in checks:
        if value < 1:
            parser.error(f"--{name} must be at least 1, got {value}")
    parts = args.only or PARTS
    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    clock = "wall" if cuda else "cpu"
    say("device", torch.cuda.get_device_name(0) if cuda else "cpu")
    say("ratio_clock", clock)
    with tempfile.TemporaryDirectory(prefix="mgbias-gpu-bench-") as temporary:
        work = args.workdir or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        pairs = pair_texts(naive_pairs)
        model = work / "model"
        needs_model = bool({"score", "naive", "precision", "batches"} & set(parts))
        if needs_model and not (model / "config.json").is_file():
            build_model(model, size, words_of(pairs + pair_texts(args.score_pairs)))
        if "score" in parts:
            write_demo_pairs(work / "pairs", [], PAIRS_SEED, args.score_pairs)
            data = crows_pairs_path(work / "pairs", "en")
            runs = Path(tempfile.mkdtemp(prefix="runs-", dir=work))
            say_all(bench_score_call(model, data, device, runs, repeats, args.score_threads))
        torch.set_num_threads(args.threads)
        if "ratios" in parts:
            suffix = "" if clock == "cpu" else "_wall"
            engine = bench_engine(size.engine_sentences, max(repeats, 3), device, size.shape)
            say("scoring_ratio_unmasked", engine[f"aula_over_forward{suffix}"])
            masked = bench_masked(size.masked_sentences, max(repeats, 3), device, size.shape)
            say("scoring_ratio_masked", masked[f"masked_over_encoder{suffix}"])
        if "naive" in parts:
            say_all(bench_naive(model, pairs, device, clock))
        if "precision" in parts:
            say_all(bench_precision(model, pairs, device, clock, max(repeats, 3)))
        if "batches" in parts:
            say_all(bench_batches(model, pairs, device, clock, max(repeats, 2)))
        if "finetune" in parts:
            say_all(finetune_part("smoke" if args.smoke else "full"))
        if "profile" in parts:
            say_all(finetune_part("smoke" if args.smoke else "full", "--profile"))


def say(name: str, value: object) -> None:
    """Print ``name=value`` now (a non-finite float as ``nan``)."""
    if isinstance(value, float) and not math.isfinite(value):
        value = "nan"
    print(f"{name}={value}", flush=True)


def say_all(results: dict[str, object]) -> None:
    for name, value in results.items():
        say(name, value)


if __name__ == "__main__":
    main()
