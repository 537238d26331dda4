"""Benchmark of the MBE significance tests: calibration, power, time and memory.

Prints one ``name=value`` per line:

- ``null_rejection_rate``: share of ``--draws`` simulated null worlds in which
  the label-permutation test (:func:`mgbias.measures.mbe.mbe_score`, default
  ``n_permutations``) gives ``p < 0.05``. A null world has ``--null-sentences``
  male and as many female sentences with i.i.d. standard normal scores and
  i.i.d. embeddings uniform in [0, 1)^32 (all cosines positive, like real
  sentence embeddings); gender carries no information. Goal: inside
  ``null_rejection_bound``, the central 99% binomial interval of the count of
  rejections at rate 0.05, divided by ``--draws``.
- ``mcnemar_sentence_null_rejection_rate``, ``mcnemar_pair_null_rejection_rate``:
  the same worlds and seeds tested with the two McNemar readings, for comparison.
- ``planted_power``: share of ``--draws`` worlds of the same size in which the
  permutation test rejects when the male scores are shifted up by
  ``--shift`` standard deviations (``planted_mean_mbe``: their mean score).
- ``permutation_s_7k``: wall time of
  :func:`mgbias.measures.mbe_permutation.mbe_permutation_test` alone with the
  default ``n_permutations`` on 7,000 male + 7,000 female sentences, d = 768
  (unit rows, as for cosine weighting), and ``mbe_s_7k`` the time of the
  whole ``mbe_score`` call (tiled Eq. 2 plus the test). Goal < 60 s on 2
  cores. BLAS threads follow ``OMP_NUM_THREADS``.
- ``mbe_peak_mb``: peak memory allocated during that ``mbe_score`` call,
  measured in a fresh subprocess with ``tracemalloc`` (numpy reports its array
  buffers to it), above what was allocated before the call (inputs: float32
  embeddings, as in the score cache). It counts Python and numpy heap
  allocations, not BLAS work buffers or the interpreter.
  ``mbe_rss_peak_increase_mb`` is the rise of the process's peak RSS
  (``ru_maxrss``) over an untraced call; a lower bound (0 if the call stays
  below the peak the imports reached). Goal < 1,000.

Usage: ``python benchmarks/mbe.py [--draws N] [--null-sentences N] [--shift S] [--quick]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np
from scipy.stats import binom

from mgbias.measures.mbe import DEFAULT_PERMUTATIONS, mbe_score
from mgbias.measures.mbe_permutation import mbe_permutation_test

ALPHA = 0.05
NULL_DIM = 32
LARGE_SENTENCES = 7000
LARGE_DIM = 768


def world(n: int, seed: int, shift: float = 0.0):
    """Male and female scores and embeddings of ``n`` sentences each; male scores + ``shift``."""
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=n) + shift,
        rng.normal(size=n),
        rng.random(size=(n, NULL_DIM)),
        rng.random(size=(n, NULL_DIM)),
    )


def rejection_rates(draws: int, n: int, shift: float, tests: tuple[str, ...]) -> dict[str, float]:
    """Share of ``draws`` seeded worlds with ``p < ALPHA`` per test, and the mean score."""
    rejected = dict.fromkeys(tests, 0)
    scores = []
    for draw in range(draws):
        args = world(n, seed=draw, shift=shift)
        for test in tests:
            result = mbe_score(*args, seed=draw, test=test, alpha=ALPHA)
            rejected[test] += result.significant
        scores.append(result.score)
    return {**{t: k / draws for t, k in rejected.items()}, "mean_score": float(np.mean(scores))}


MEMORY_CHILD = """
import json, resource, sys, time, tracemalloc
import numpy as np
from mgbias.measures.mbe import mbe_score

n, dim = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
male, female = rng.normal(size=n), rng.normal(size=n)
male_emb = rng.random(size=(n, dim), dtype=np.float32)
female_emb = rng.random(size=(n, dim), dtype=np.float32)

before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
result = mbe_score(male, female, male_emb, female_emb)
seconds = time.perf_counter() - start
after_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

tracemalloc.start()
baseline, _ = tracemalloc.get_traced_memory()
tracemalloc.reset_peak()
mbe_score(male, female, male_emb, female_emb)
_, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
print(json.dumps({"traced_peak_mb": (peak - baseline) / 2**20,
                  "rss_increase_mb": (after_kb - before_kb) / 1024,
                  "seconds": seconds, "p_value": result.p_value, "test": result.test}))
"""


def large_run(n: int, dim: int) -> dict[str, object]:
    """Time the permutation test alone, then time and trace mbe_score in a fresh interpreter."""
    rng = np.random.default_rng(1)
    scores = rng.normal(size=2 * n)
    vectors = rng.random(size=(2 * n, dim))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    start = time.perf_counter()
    mbe_permutation_test(scores, vectors, n, n_permutations=DEFAULT_PERMUTATIONS, seed=0)
    test_seconds = time.perf_counter() - start
    del scores, vectors
    completed = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(n), str(dim)],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        print(completed.stderr, file=sys.stderr)
        return {"permutation_s_7k": round(test_seconds, 2), "mbe_peak_mb": "unavailable"}
    measured = json.loads(completed.stdout.strip().splitlines()[-1])
    return {
        "permutation_s_7k": round(test_seconds, 2),
        "mbe_s_7k": round(measured["seconds"], 2),
        "mbe_peak_mb": round(measured["traced_peak_mb"], 1),
        "mbe_rss_peak_increase_mb": round(measured["rss_increase_mb"], 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--null-sentences", type=int, default=300, help="per gender")
    parser.add_argument("--shift", type=float, default=0.3, help="planted shift, in SDs")
    parser.add_argument("--large-sentences", type=int, default=LARGE_SENTENCES)
    parser.add_argument("--quick", action="store_true", help="50 draws, 1,000 x 1,000 timing")
    args = parser.parse_args(argv)
    if args.quick:
        args.draws, args.large_sentences = 50, 1000

    low, high = binom.interval(0.99, args.draws, ALPHA)
    null = rejection_rates(
        args.draws,
        args.null_sentences,
        0.0,
        ("permutation", "mcnemar_sentence", "mcnemar_pair"),
    )
    planted = rejection_rates(args.draws, args.null_sentences, args.shift, ("permutation",))
    results: dict[str, object] = {
        "draws": args.draws,
        "sentences_per_gender": args.null_sentences,
        "n_permutations": DEFAULT_PERMUTATIONS,
        "null_rejection_rate": null["permutation"],
        "null_rejection_bound": f"[{low / args.draws:.3f}, {high / args.draws:.3f}]",
        "mcnemar_sentence_null_rejection_rate": null["mcnemar_sentence"],
        "mcnemar_pair_null_rejection_rate": null["mcnemar_pair"],
        "null_mean_mbe": round(null["mean_score"], 2),
        "planted_shift_sd": args.shift,
        "planted_power": planted["permutation"],
        "planted_mean_mbe": round(planted["mean_score"], 2),
        "large_sentences_per_gender": args.large_sentences,
        "large_dim": LARGE_DIM,
    }
    results.update(large_run(args.large_sentences, LARGE_DIM))
    if args.large_sentences != LARGE_SENTENCES:  # the names promise 7k
        results = {k.replace("_7k", f"_{args.large_sentences}"): v for k, v in results.items()}
    for name, value in results.items():
        print(f"{name}={value}")


if __name__ == "__main__":
    main()
