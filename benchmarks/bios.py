"""Benchmark of the bios extraction (Zhao et al. 2020, §4) against a bare decompress-and-grep.

Writes a WET file of about ``--mb`` MB (gzip, one member per record, as Common Crawl
writes them; default 100) of seeded pages: lines of random words of the English demo
bios' vocabulary, and, on one page in ten, a demo bio (so that the rules and the NER
run as they do on real pages). Then, in the same run, times

- the extraction of English bios from the file (:func:`mgbias.bios.pipeline.extract_file`
  with the demo's ``blank`` NER), and
- ``zcat FILE | grep -c ' is a'``.

Prints one ``name=value`` per line: ``wet_mb`` (file size), ``extract_s``, ``grep_s``,
``wet_mb_s`` (MB of gzip per second of extraction), ``grep_mb_s`` and ``ratio``
(``grep_s / extract_s``: the goal is at least 0.3, the extraction within about 3x of
the decompress-and-grep), and ``bios`` (bios extracted).

Then the occupation classifier on a fixed synthetic set (``--bios`` bios of 110 token
ids over the authors' 10,000-row frozen 300-d embedding, 28 occupations, the authors'
batch of 512): ``bigru_epoch_s``, one epoch of :func:`mgbias.bios.classifier.train`
(with its development pass), ``bare_epoch_s``, the same batches' forward, backward and
Adam steps in a bare loop, and ``bigru_over_bare`` (their ratio; 1.0 = no overhead).

Then (``--part featcache``, not in ``all``) the classifier on a frozen encoder whose
features exceed ``cache_mb`` (a seeded BERT of 4 layers and 256 dimensions on ``--bios``
texts of 20 to 110 words, 120 pieces, a development split of a quarter): ``write_s``,
computing both splits' features into the disk cache (:mod:`mgbias.bios.featcache`, a
temporary folder); ``per_batch_epoch_s``, one epoch with the encoder run on every batch
(``disk_cache: false``); ``disk_epoch_s``, one epoch reading the float16 memory map;
``per_batch_over_disk`` (their ratio); and ``features_mb``, the cache's size.

Usage: ``python benchmarks/bios.py [--mb MB] [--seed N] [--keep DIR]
[--part wet|bigru|featcache|all] [--bios N]``
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from mgbias.bios.classifier import BiGRUAttention, TrainSettings, class_weights, train
from mgbias.bios.demo import demo_pages, write_wet
from mgbias.bios.pipeline import extract_file, load_extractor

FILLER_WORDS = (
    "the of and to in a is that for it as was with be by on not he she this are or his her "
    "from at which but have an they you were their one all we can has there been if more "
    "when will would who so no city work years music news page home contact about team "
    "school family house price free online service time people world market water"
).split()


def write_benchmark_wet(path: Path, megabytes: float, seed: int) -> list[str]:
    """Write the benchmark's WET file; return every name of its bios (the NER's list)."""
    rng = random.Random(seed)
    bios = [page for page in demo_pages("en", "CC-MAIN-2018-34") if page.kind == "planted"]
    names = sorted({page.name for page in bios})
    target = megabytes * 1e6
    batch: list[tuple[str, str, str | None]] = []
    n_pages = 0
    parts = []
    while True:
        lines = [
            " ".join(rng.choice(FILLER_WORDS) for _ in range(rng.randint(5, 40)))
            for _ in range(rng.randint(10, 60))
        ]
        if n_pages % 10 == 0:
            lines.insert(rng.randrange(len(lines)), bios[n_pages // 10 % len(bios)].text)
        batch.append((f"http://bench.example.org/{n_pages}", "\n".join(lines), "eng"))
        n_pages += 1
        if len(batch) == 2000:
            part = path.with_name(f"{path.name}.part{len(parts)}")
            write_wet(part, batch)
            parts.append(part)
            batch = []
            if sum(p.stat().st_size for p in parts) >= target:
                break
    with open(path, "wb") as out:
        for part in parts:
            out.write(part.read_bytes())
            part.unlink()
    return names


def bigru_epoch(n_bios: int, seed: int) -> dict[str, float]:
    """One classifier epoch through ``train`` and through a bare loop, on the same data."""
    rng = np.random.default_rng(seed)
    embedding = rng.uniform(-0.3, 0.3, (10_001, 300)).astype(np.float32)
    embedding[0] = 0.0
    lengths = rng.integers(20, 111, n_bios)
    ids = np.zeros((n_bios, 110), dtype=np.int64)
    for row, length in enumerate(lengths):
        ids[row, :length] = rng.integers(1, 10_001, length)
    labels = rng.integers(0, 28, n_bios)
    dev = (ids[: n_bios // 4], labels[: n_bios // 4])
    settings = TrainSettings(max_epochs=1, min_epochs=1, seed=seed)
    torch.manual_seed(seed)
    model = BiGRUAttention(embedding, 28)
    model(torch.as_tensor(ids[:64])).sum().backward()  # warm-up, outside both timings
    start = time.perf_counter()
    train(model, (ids, labels), dev, settings)
    ours = time.perf_counter() - start
    torch.manual_seed(seed)
    model = BiGRUAttention(embedding, 28)
    criterion = nn.CrossEntropyLoss(weight=class_weights(labels, 28))
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(trainable, lr=settings.lr, amsgrad=True)
    start = time.perf_counter()
    model.train()
    for first in range(0, n_bios, settings.batch_size):
        batch = slice(first, first + settings.batch_size)
        optimizer.zero_grad()
        criterion(model(torch.as_tensor(ids[batch])), torch.as_tensor(labels[batch])).backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        for first in range(0, len(dev[0]), settings.batch_size):
            model(torch.as_tensor(dev[0][first : first + settings.batch_size]))
    bare = time.perf_counter() - start
    return {"bigru_epoch_s": ours, "bare_epoch_s": bare, "bigru_over_bare": ours / bare}


def featcache_epoch(n_bios: int, seed: int) -> dict[str, float]:
    """One classifier epoch on a frozen encoder's features, per batch and from the disk
    cache (the features exceed ``cache_mb``: 0)."""
    from transformers import BertConfig, BertModel, BertTokenizerFast

    from mgbias.bios.encoder import FrozenEncoder

    rng = random.Random(seed)
    words = sorted(set(FILLER_WORDS))
    texts = [
        " ".join(rng.choice(words) for _ in range(rng.randint(20, 110))) for _ in range(n_bios)
    ]
    labels = np.array([rng.randrange(28) for _ in range(n_bios)])
    with tempfile.TemporaryDirectory() as tmp:
        vocab = Path(tmp) / "vocab.txt"
        vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]) + "\n")
        tokenizer = BertTokenizerFast(vocab_file=str(vocab))
        torch.manual_seed(seed)
        config = BertConfig(
            vocab_size=len(tokenizer),
            hidden_size=256,
            num_hidden_layers=4,
            num_attention_heads=4,
            intermediate_size=1024,
            max_position_embeddings=160,
        )
        model = BertModel(config, add_pooling_layer=False)
        settings = TrainSettings(max_epochs=1, min_epochs=1, seed=seed)
        dev = slice(0, n_bios // 4)
        out: dict[str, float] = {}
        for disk_cache in (False, True):
            encoder = FrozenEncoder(
                model,
                tokenizer,
                max_pieces=120,
                max_len=150,
                cache_mb=0,
                disk_cache=disk_cache,
                cache_dir=Path(tmp) / "features",
            )
            start = time.perf_counter()
            train_inputs = encoder.inputs(texts)
            dev_inputs = encoder.inputs(texts[dev])
            if disk_cache:
                out["write_s"] = time.perf_counter() - start
                out["features_mb"] = (
                    sum(f.stat().st_size for f in (Path(tmp) / "features").glob("*.npy")) / 2**20
                )
            torch.manual_seed(seed)
            classifier = BiGRUAttention(encoder, 28)
            start = time.perf_counter()
            train(classifier, (train_inputs, labels), (dev_inputs, labels[dev]), settings)
            out["disk_epoch_s" if disk_cache else "per_batch_epoch_s"] = time.perf_counter() - start
    out["per_batch_over_disk"] = out["per_batch_epoch_s"] / out["disk_epoch_s"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, help="write the WET file here (kept)")
    parser.add_argument("--part", choices=["wet", "bigru", "featcache", "all"], default="all")
    parser.add_argument("--bios", type=int, default=10_000, help="bios of the classifier epoch")
    args = parser.parse_args()
    if args.part in ("wet", "all"):
        wet_benchmark(args)
    if args.part in ("bigru", "all"):
        for name, value in bigru_epoch(args.bios, args.seed).items():
            print(f"{name}={value:.2f}")
    if args.part == "featcache":
        for name, value in featcache_epoch(args.bios, args.seed).items():
            print(f"{name}={value:.2f}")


def wet_benchmark(args: argparse.Namespace) -> None:
    """Extraction against ``zcat | grep`` on a generated WET file."""
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.keep or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        wet = directory / "CC-MAIN-20180814000000-20180814235959-00000.warc.wet.gz"
        names = write_benchmark_wet(wet, args.mb, args.seed)
        size_mb = wet.stat().st_size / 1e6
        rules, nlp = load_extractor("en", pipeline="blank", names=names)
        start = time.perf_counter()
        bios = extract_file(wet, rules, nlp)
        extract_s = time.perf_counter() - start
        start = time.perf_counter()
        grep = subprocess.run(
            f"zcat '{wet}' | grep -c ' is a'", shell=True, capture_output=True, text=True
        )
        grep_s = time.perf_counter() - start
        if grep.returncode not in (0, 1):
            raise SystemExit(f"zcat | grep failed: {grep.stderr}")
    print(f"wet_mb={size_mb:.1f}")
    print(f"bios={len(bios)}")
    print(f"grep_lines={grep.stdout.strip()}")
    print(f"extract_s={extract_s:.2f}")
    print(f"grep_s={grep_s:.2f}")
    print(f"wet_mb_s={size_mb / extract_s:.1f}")
    print(f"grep_mb_s={size_mb / grep_s:.1f}")
    print(f"ratio={grep_s / extract_s:.2f}")


if __name__ == "__main__":
    main()
