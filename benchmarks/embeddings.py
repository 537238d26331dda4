"""Benchmark of RCSLS alignment and .vec reading on synthetic clustered vectors.

Prints one ``name=value`` per line, measured in one run:

- ``rcsls_s``: wall time of :func:`mgbias.embeddings.rcsls.align` (Procrustes start and
  the ``niter + 1`` RCSLS steps) with Zhao et al. (2020)'s settings (lr 1, niter 10,
  knn 10, sgd, batch 5,000, maxneg = maxsup = maxload = 200,000) on vectors in memory;
- ``align_total_s``: the whole of ``mgbias align`` without its evaluation
  (:func:`mgbias.embeddings.steps.align_files`): read both ``.vec`` files, fit, map the
  full source vocabulary, write the aligned ``.vec`` and R; the work fastText's
  ``align.py`` does in its wall time;
- ``rcsls_csls_at1``: CSLS (k = 10) top-1 accuracy of the aligned source against the
  target on the 1,500 held-out pairs, as a fraction (fastText's ``eval.py`` scale);
- ``reading_vec_mb_s``: ``.vec`` parsing throughput of
  :func:`mgbias.embeddings.vectors.read_vec` (file MB / s).

The data: ``--words`` (20,000) source vectors of ``--dim`` (300) dimensions drawn around
``--clusters`` (100) Gaussian centres (centre scale ``--spread``, within-cluster noise 1),
unit-normalised; the target is a known random rotation of each source vector plus noise of
norm about ``--noise``, unit-normalised. Word ``i`` of each side are translations; pairs
0-4,999 train, 5,000-6,499 test (MUSE's 0-5000 / 5000-6500 layout). Everything is seeded.

With ``--fasttext-alignment DIR`` (a directory holding fastText's ``alignment/align.py``,
``utils.py`` and ``eval.py``; not part of this project), the same files are aligned with
``align.py`` (same settings) and evaluated with ``eval.py`` in this run:
``fasttext_align_s`` (align.py's wall time), ``fasttext_csls_at1`` and
``speedup_vs_fasttext`` (``fasttext_align_s / align_total_s``).

Goal: ``rcsls_csls_at1`` within 0.005 of align.py's, in at most half its time
on 2 CPU cores. Threads: ``--threads`` (default 2) for torch; align.py uses NumPy's BLAS
threads (``OMP_NUM_THREADS`` is set to the same number for it).

Usage: ``python benchmarks/embeddings.py [--fasttext-alignment DIR] [--words N] [--quick]``
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from scipy.stats import special_ortho_group

from mgbias.embeddings.bli import bli_accuracy
from mgbias.embeddings.dictionaries import write_dictionary
from mgbias.embeddings.rcsls import RCSLSConfig, align
from mgbias.embeddings.steps import align_files
from mgbias.embeddings.vectors import Vectors, read_vec, unit_rows, write_vec

N_TRAIN = 5000
N_TEST = 1500


def synthetic_spaces(
    n: int, d: int, clusters: int, spread: float, noise: float, seed: int
) -> tuple[Vectors, Vectors]:
    """Clustered unit source vectors and their noisy rotation (see the module docstring)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, d))
    X = unit_rows(centres[rng.integers(0, clusters, n)] * spread + rng.standard_normal((n, d)))
    rotation = special_ortho_group.rvs(d, random_state=seed)
    Y = unit_rows(X @ rotation.T + noise * rng.standard_normal((n, d)) / np.sqrt(d))
    src = Vectors([f"s{i}" for i in range(n)], X.astype(np.float32))
    tgt = Vectors([f"t{i}" for i in range(n)], Y.astype(np.float32))
    return src, tgt


def _fasttext_reference(directory: Path, work: Path, threads: int) -> dict[str, float]:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    align_args = [
        sys.executable, str(directory / "align.py"),
        "--src_emb", str(work / "src.vec"), "--tgt_emb", str(work / "tgt.vec"),
        "--dico_train", str(work / "train.txt"), "--dico_test", str(work / "test.txt"),
        "--output", str(work / "fasttext.vec"),
        "--lr", "1", "--niter", "10", "--knn", "10", "--sgd", "--batchsize", "5000",
        "--maxneg", "200000", "--maxsup", "200000", "--maxload", "200000",
    ]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(align_args, check=True, capture_output=True, cwd=directory, env=env)
    seconds = time.perf_counter() - start
    eval_args = [
        sys.executable, str(directory / "eval.py"),
        "--src_emb", str(work / "fasttext.vec"), "--tgt_emb", str(work / "tgt.vec"),
        "--dico_test", str(work / "test.txt"),
    ]  # fmt: skip
    out = subprocess.run(eval_args, check=True, capture_output=True, text=True, cwd=directory)
    csls = float(re.search(r"CSLS = ([0-9.]+)", out.stdout).group(1))
    return {"fasttext_align_s": seconds, "fasttext_csls_at1": csls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--clusters", type=int, default=100)
    parser.add_argument("--spread", type=float, default=1.5)
    parser.add_argument("--noise", type=float, default=1.6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--fasttext-alignment", type=Path, default=None)
    parser.add_argument("--quick", action="store_true", help="5,000 words of dimension 100")
    args = parser.parse_args()
    if args.quick:
        args.words, args.dim = 7_000, 100
    torch.set_num_threads(args.threads)
    src, tgt = synthetic_spaces(
        args.words, args.dim, args.clusters, args.spread, args.noise, args.seed
    )
    train = [(f"s{i}", f"t{i}") for i in range(N_TRAIN)]
    test = [(f"s{i}", f"t{i}") for i in range(N_TRAIN, N_TRAIN + N_TEST)]
    config = RCSLSConfig(device="cpu", seed=args.seed)
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mgbias-bench-") as tmp:
        work = Path(tmp)
        write_vec(work / "src.vec", src)
        write_vec(work / "tgt.vec", tgt)
        write_dictionary(work / "train.txt", train)
        write_dictionary(work / "test.txt", test)

        start = time.perf_counter()
        read_vec(work / "src.vec")
        seconds = time.perf_counter() - start
        results["reading_vec_mb_s"] = (work / "src.vec").stat().st_size / 1e6 / seconds

        start = time.perf_counter()
        align(src, tgt, train, config)
        results["rcsls_s"] = time.perf_counter() - start

        start = time.perf_counter()
        align_files(work / "src.vec", work / "tgt.vec", work / "train.txt", work / "out.vec",
                    config, matrix=work / "out.npy")  # fmt: skip
        results["align_total_s"] = time.perf_counter() - start
        accuracy = bli_accuracy(read_vec(work / "out.vec"), tgt, test, device="cpu")
        results["rcsls_csls_at1"] = accuracy.accuracy / 100

        if args.fasttext_alignment is not None:
            results.update(_fasttext_reference(args.fasttext_alignment, work, args.threads))
            results["speedup_vs_fasttext"] = results["fasttext_align_s"] / results["align_total_s"]
    for name in ("rcsls_s", "align_total_s", "rcsls_csls_at1", "reading_vec_mb_s"):
        print(f"{name}={results[name]:.4g}" if "at1" not in name else f"{name}={results[name]:.4f}")
    for name in ("fasttext_align_s", "fasttext_csls_at1", "speedup_vs_fasttext"):
        if name in results:
            print(f"{name}={results[name]:.4g}")


if __name__ == "__main__":
    main()
