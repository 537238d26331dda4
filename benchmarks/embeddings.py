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
  :func:`mgbias.embeddings.vectors.read_vec` (file MB / s, the binary cache off).

With ``--reread``, ``mgbias align`` runs as a command (a process of its own, without
``--dico-test``) on the same files: with the binary cache of parsed ``.vec`` files off
(``MGBIAS_VEC_CACHE=0``; ``align_cli_s``), on with an empty cache (the first read parses
and stores both spaces; ``align_cli_first_read_s``) and on again (the later reads load them;
``align_cli_later_read_s``). The off and later runs are repeated ``--reread-repeat`` (3)
times, interleaved, and their medians printed, with the CPU time (user + system) of each
(``..._cpu_s``), steadier than wall time on a shared machine. Each output's CSLS accuracy as above
(``..._csls_at1``) and ``align_cli_outputs_identical`` (1 when the aligned ``.vec`` files
and matrices are byte-identical) show that the cache changes no number. ``rcsls_s``,
``align_total_s`` and ``reading_vec_mb_s`` read with the cache off; every run uses a cache
directory of its own (``MGBIAS_CACHE_DIR``).

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

``--niter`` (default 10, the paper's) sets the RCSLS iterations of every alignment here;
fewer make a large ``--words`` affordable on a laptop when only reading is of interest.

Usage: ``python benchmarks/embeddings.py [--fasttext-alignment DIR] [--words N] [--quick]
[--niter N] [--reread] [--device cpu|cuda]``
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
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


def _fasttext_reference(directory: Path, work: Path, threads: int, niter: int) -> dict[str, float]:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    align_args = [
        sys.executable, str(directory / "align.py"),
        "--src_emb", str(work / "src.vec"), "--tgt_emb", str(work / "tgt.vec"),
        "--dico_train", str(work / "train.txt"), "--dico_test", str(work / "test.txt"),
        "--output", str(work / "fasttext.vec"),
        "--lr", "1", "--niter", str(niter), "--knn", "10", "--sgd", "--batchsize", "5000",
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


def _align_cli(
    work: Path, name: str, env: dict[str, str], threads: int, niter: int, device: str
) -> tuple[float, float]:
    """Wall and CPU time (user + system) of ``mgbias align`` (Zhao et al.'s settings but
    ``niter``, on ``device``)."""
    command = [
        sys.executable, "-c", "import sys; from mgbias.cli.main import main; sys.exit(main())",
        "align", "--source-vectors", str(work / "src.vec"),
        "--target-vectors", str(work / "tgt.vec"), "--dico-train", str(work / "train.txt"),
        "--output", str(work / f"{name}.vec"),
        "--niter", str(niter), "--seed", "0", "--device", device,
    ]  # fmt: skip
    env = {**env, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu


def _reread(
    work: Path, tgt: Vectors, test: list, threads: int, niter: int, repeat: int, device: str
) -> dict[str, float]:
    """``mgbias align`` with the cache off, then the first and later reads through it;
    the off and later runs ``repeat`` times each, interleaved (medians)."""
    cache = work / "cli-cache"
    base = {key: value for key, value in os.environ.items() if key != "MGBIAS_VEC_CACHE"}
    off = {**base, "MGBIAS_CACHE_DIR": str(cache), "MGBIAS_VEC_CACHE": "0"}
    on = {**base, "MGBIAS_CACHE_DIR": str(cache)}
    times: dict[str, list[tuple[float, float]]] = {"align_cli": [], "align_cli_later_read": []}
    times["align_cli"].append(_align_cli(work, "align_cli", off, threads, niter, device))
    first = _align_cli(work, "align_cli_first_read", on, threads, niter, device)
    for _ in range(repeat):
        times["align_cli_later_read"].append(
            _align_cli(work, "align_cli_later_read", on, threads, niter, device)
        )
        if len(times["align_cli"]) < repeat:
            times["align_cli"].append(_align_cli(work, "align_cli", off, threads, niter, device))
    results = {}
    for name, runs in (*times.items(), ("align_cli_first_read", [first])):
        results[f"{name}_s"] = statistics.median(wall for wall, _ in runs)
        results[f"{name}_cpu_s"] = statistics.median(cpu for _, cpu in runs)
    for name in ("align_cli", "align_cli_first_read", "align_cli_later_read"):
        aligned = read_vec(work / f"{name}.vec", cache=False)
        results[f"{name}_csls_at1"] = bli_accuracy(aligned, tgt, test, device="cpu").accuracy / 100
    outputs = [
        ((work / f"{name}.vec").read_bytes(), (work / f"{name}.vec-mat.npy").read_bytes())
        for name in ("align_cli", "align_cli_first_read", "align_cli_later_read")
    ]
    results["align_cli_outputs_identical"] = float(all(o == outputs[0] for o in outputs))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--dim", type=int, default=300)
    parser.add_argument("--clusters", type=int, default=100)
    parser.add_argument("--spread", type=float, default=1.5)
    parser.add_argument("--noise", type=float, default=1.6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--niter", type=int, default=10, help="RCSLS iterations (paper: 10)")
    parser.add_argument("--fasttext-alignment", type=Path, default=None)
    parser.add_argument("--quick", action="store_true", help="5,000 words of dimension 100")
    parser.add_argument(
        "--reread", action="store_true", help="time mgbias align without and with the cache"
    )
    parser.add_argument("--reread-repeat", type=int, default=3, help="runs of each (median)")
    parser.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default="cpu",
        help="where our alignments run (every CSLS evaluation runs on the CPU)",
    )
    args = parser.parse_args()
    if args.quick:
        args.words, args.dim = 7_000, 100
    torch.set_num_threads(args.threads)
    src, tgt = synthetic_spaces(
        args.words, args.dim, args.clusters, args.spread, args.noise, args.seed
    )
    train = [(f"s{i}", f"t{i}") for i in range(N_TRAIN)]
    test = [(f"s{i}", f"t{i}") for i in range(N_TRAIN, N_TRAIN + N_TEST)]
    config = RCSLSConfig(device=args.device, seed=args.seed, niter=args.niter)
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mgbias-bench-") as tmp:
        work = Path(tmp)
        os.environ["MGBIAS_CACHE_DIR"] = str(work / "cache")
        os.environ["MGBIAS_VEC_CACHE"] = "0"  # the times as before the cache
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
        if args.device == "cuda":
            torch.cuda.synchronize()
        results["rcsls_s"] = time.perf_counter() - start

        start = time.perf_counter()
        align_files(work / "src.vec", work / "tgt.vec", work / "train.txt", work / "out.vec",
                    config, matrix=work / "out.npy")  # fmt: skip
        results["align_total_s"] = time.perf_counter() - start
        accuracy = bli_accuracy(read_vec(work / "out.vec"), tgt, test, device="cpu")
        results["rcsls_csls_at1"] = accuracy.accuracy / 100

        if args.fasttext_alignment is not None:
            results.update(
                _fasttext_reference(args.fasttext_alignment, work, args.threads, args.niter)
            )
            results["speedup_vs_fasttext"] = results["fasttext_align_s"] / results["align_total_s"]
        if args.reread:
            results.update(
                _reread(work, tgt, test, args.threads, args.niter, args.reread_repeat, args.device)
            )
    for name in ("rcsls_s", "align_total_s", "rcsls_csls_at1", "reading_vec_mb_s"):
        print(f"{name}={results[name]:.4g}" if "at1" not in name else f"{name}={results[name]:.4f}")
    for name in ("fasttext_align_s", "fasttext_csls_at1", "speedup_vs_fasttext"):
        if name in results:
            print(f"{name}={results[name]:.4g}")
    for name, value in results.items():
        if name.startswith("align_cli"):
            print(f"{name}={value:.4f}" if "at1" in name else f"{name}={value:.4g}")


if __name__ == "__main__":
    main()
