"""How often the demo's balanced control is marked biased, over training seeds and world draws.

The demo is a controlled experiment: the model trained on the balanced world must read
neutral. A single run says little (36 to 162 tests at alpha 0.05), so this trains the demo
MLM many times and counts. Each run writes a balanced world's monolingual text
(``config/demo-full.yaml``'s world settings and sizes, its ``mlm_training``), trains the
MLM on it (:func:`mgbias.mlm.train.train_mlm`) and scores the demo's multilingual
CrowS-Pairs in English, German, Spanish and French with every pair measure, clustered by
occupation as the workflow does (:func:`mgbias.score_pairs`, ``cluster="target"``).

Runs: ``--trainings`` training seeds on one world draw, and ``--worlds`` further world
draws with one training seed, for each arm of ``--arms``: ``mirrored`` (the shipped
control, :attr:`mgbias.demo.world.WorldSpec.mirrored`) and ``drawn`` (the same world
drawn with ratio 1 and no association, balanced only in expectation).

Prints one ``name=value`` per line, per arm:

- ``{arm}_runs``, ``{arm}_tests`` (runs x 4 languages x 6 measures);
- ``{arm}_marked``: tests with p < ``--alpha``, and ``{arm}_marked_share``;
- ``{arm}_marked_bound``: the largest count a calibrated test exceeds with probability
  at most 0.01 (binomial, tests taken as independent, which they are not quite);
- ``{arm}_marked_{measure}_{lang}``: marks of one measure and language over the runs;
- ``{arm}_sjsd_positive_{lang}``: share of runs whose S_JSD is positive (the
  anti-stereotypical sentence preferred); near 0.5 for a control without a lean.

Measured at full size (``python benchmarks/demo_control.py``: 2 jobs on 2 cores, 19 min
53 s for both arms): ``drawn_marked=18`` and ``mirrored_marked=18`` of 432 (0.0417 each,
bound 33); French S_JSD marked 4 and 3 times, positive 0.778 and 0.667; German S_JSD
positive 0.778 and 0.889 (German "pilot" is also the English word, docs/demo.md).

Usage: ``python benchmarks/demo_control.py [--trainings N] [--worlds N] [--arms
mirrored,drawn] [--jobs N] [--quick]``
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd
from scipy import stats

from mgbias.config import load_config
from mgbias.seeds import derive_seed

REPO = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "de", "es", "fr")
ARMS = ("mirrored", "drawn")


def _settings(quick: bool) -> tuple[dict, dict, int, dict]:
    """World settings, training settings, pairs per file, and the full demo's seeds of its
    balanced world, its balanced model and its pairs (the workflow's step seeds)."""
    config = load_config(REPO / "config" / "demo-full.yaml")
    seeds = {
        "world": derive_seed(config["seed"], "demo_world", "balanced"),
        "training": derive_seed(config["seed"], "train_mlm", "demo-balanced"),
        "pairs": derive_seed(config["seed"], "demo_pairs"),
    }
    demo = config["demo"]
    world = {
        **{key: value for key, value in demo["balanced"].items() if key != "mirrored"},
        "n_parallel": demo["n_parallel"],
        "n_monolingual": demo["n_monolingual"],
    }
    training = dict(config["mlm_training"], threads=1)
    n_pairs = demo["n_pairs"]
    if quick:
        world["n_monolingual"], training["steps"], n_pairs = 2000, 40, 48
    return world, training, n_pairs, seeds


def _run(task: tuple) -> list[dict]:
    """Write one world, train one model, score the four languages' pairs."""
    import mgbias
    from mgbias.demo.world import WorldSpec, monolingual_corpus
    from mgbias.mlm.train import MLMTrainingConfig, train_mlm

    arm, world_seed, training_seed, world, training, pairs_dir = task
    spec = WorldSpec(
        name="balanced",
        seed=world_seed,
        languages=("de", "es", "fr"),
        mirrored=arm == "mirrored",
        **world,
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        texts = []
        for lang in LANGUAGES:
            path = Path(tmp) / f"{lang}.txt.gz"
            sentences, _ = monolingual_corpus(spec, lang)
            path.write_bytes(gzip.compress(("\n".join(sentences) + "\n").encode(), mtime=0))
            texts.append(path)
        model = Path(tmp) / "model"
        train_mlm(texts, model, MLMTrainingConfig(seed=training_seed, **training), progress=False)
        for lang in LANGUAGES:
            data = Path(pairs_dir) / f"multilingual_crows_pairs_{lang}.csv"
            report = mgbias.score_pairs(
                str(model), str(data), lang=lang, cluster="target", device="cpu", progress=False
            )
            for row in report.summary.itertuples():
                rows.append(
                    {
                        "arm": arm,
                        "world": world_seed,
                        "training": training_seed,
                        "lang": lang,
                        "measure": row.measure,
                        "score": row.score,
                        "p": row.p_value,
                    }
                )
    return rows


def summary_lines(results: pd.DataFrame, alpha: float) -> list[str]:
    """The ``name=value`` lines of every arm in ``results`` (one row per test)."""
    lines = []
    for arm, table in results.groupby("arm", sort=False):
        runs = table.groupby(["world", "training"]).ngroups
        marked = table.p < alpha
        bound = int(stats.binom.ppf(0.99, len(table), alpha))
        lines += [
            f"{arm}_runs={runs}",
            f"{arm}_tests={len(table)}",
            f"{arm}_marked={int(marked.sum())}",
            f"{arm}_marked_share={marked.mean():.4f}",
            f"{arm}_marked_bound={bound}",
        ]
        counts = marked.groupby([table.measure, table.lang]).sum()
        lines += [f"{arm}_marked_{m}_{lang}={int(n)}" for (m, lang), n in counts.items()]
        sjsd = table[table.measure == "sjsd"]
        positive = (sjsd.score > 0).groupby(sjsd.lang).mean()
        lines += [f"{arm}_sjsd_positive_{lang}={share:.3f}" for lang, share in positive.items()]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trainings", type=int, default=12, help="training seeds on one world")
    parser.add_argument("--worlds", type=int, default=6, help="further world draws")
    parser.add_argument("--arms", default=",".join(ARMS), help="mirrored, drawn or both")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--jobs", type=int, default=2, help="runs side by side")
    parser.add_argument("--quick", action="store_true", help="tiny worlds and 40 steps")
    args = parser.parse_args(argv)
    arms = [arm.strip() for arm in args.arms.split(",") if arm.strip()]
    unknown = sorted(set(arms) - set(ARMS))
    if unknown or not arms:
        parser.error(f"--arms: expected some of {list(ARMS)}, got {args.arms!r}")
    if args.trainings < 1 or args.worlds < 0:
        parser.error("--trainings must be >= 1 and --worlds >= 0")
    world, training, n_pairs, seeds = _settings(args.quick)

    from mgbias.demo.pairs import write_demo_pairs

    with tempfile.TemporaryDirectory() as pairs_dir:
        write_demo_pairs(
            pairs_dir, ["de", "es", "fr"], seeds["pairs"], n_pairs, english_gender_marking=True
        )
        tasks = [
            (arm, world_seed, training_seed, world, training, pairs_dir)
            for arm in arms
            for world_seed, training_seed in [
                *((seeds["world"], seeds["training"] + i) for i in range(args.trainings)),
                *((seeds["world"] + 1 + i, seeds["training"]) for i in range(args.worlds)),
            ]
        ]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            rows = [row for result in pool.map(_run, tasks) for row in result]
    print("\n".join(summary_lines(pd.DataFrame(rows), args.alpha)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
