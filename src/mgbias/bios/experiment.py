"""One run of the occupation classifier of Zhao et al. (2020), §4.1, on a bios dataset.

- :class:`ClassifierSettings`: the ``bios: classifier:`` settings (the authors' values by
  default, from their released code); :meth:`ClassifierSettings.from_mapping` rejects unknown keys.
- :func:`split_ids` / :func:`apply_split`: the seeded 60/20/20 split by title
  (:func:`mgbias.bios.fairness.split_by_title`) kept as bio ids, and the parts it names.
- the spaces (:mod:`mgbias.bios.spaces`): a run's token features, the frozen fixed-size
  embedding of a ``.vec`` file (vocabulary on the unscrubbed training bios) or a frozen
  encoder's hidden states (:mod:`mgbias.bios.encoder`; Tables 10 and 11).
- :func:`run_classifier`: the token features of a space, gender-balanced upsampling of
  train and dev (optional; the test split is never balanced), training with a
  checkpoint (on the GPU when present: ``device``), and the gender gap on the test split
  (:func:`mgbias.bios.fairness.gender_gap`).
- :func:`run_transfer`: train on one language, fine-tune on a share of another's
  training split with its space, test there (static spaces or encoders on both sides).
- :func:`mean_metrics`: the metrics of several seeded runs, averaged (their standard
  errors: :func:`metric_standard_errors`); :func:`run_seeds`:
  one run per seed (the workflow's classifier and transfer jobs), the runs' records, TPR
  rows and checkpoints.
"""

from __future__ import annotations

import logging
import math
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np

from mgbias.bios.fairness import balance_genders, gender_gap, split_by_title
from mgbias.bios.spaces import as_space
from mgbias.bios.training import TrainSettings
from mgbias.seeds import check_seed, derive_seed
from mgbias.settings import schema_settings
from mgbias.stats import mean_standard_error

#: The texts a run can train on: the scrubbed bio (``bio``) or the unscrubbed one (``raw``).
TEXTS = {"scrubbed": "bio", "raw": "raw"}
#: Train and dev as extracted, or gender-balanced by upsampling.
SAMPLINGS = ("original", "balanced")
#: The metrics of a run, in percentage points.
METRICS = ("avg", "female", "male", "diff")


#: The keys of ``bios.classifier`` that are not the classifier's settings: the experiment
#: grid's and the encoder's (:class:`mgbias.bios.encoder.EncoderSettings`).
GRID_KEYS = ("worlds", "monolingual", "texts", "samplings", "variants", "runs", "transfer")


@schema_settings("bios.classifier", ignore=(*GRID_KEYS, "encoder"))
class ClassifierSettings:
    """Vocabulary, network and training settings of ``bios.classifier`` (defaults: the
    authors'); ``ClassifierSettings.from_mapping(section)`` reads the section, whose
    keys of the experiment grid (:data:`GRID_KEYS`) and ``encoder`` are another
    reader's."""

    min_df: float = 20
    max_df: float = 0.8
    max_len: int = 110
    rows: int = 10_000
    hidden: int = 64
    dropout: float = 0.25
    tanh: bool = False
    normalize: bool = False
    # training: the defaults of TrainSettings
    lr: float = TrainSettings.lr
    weight_decay: float = TrainSettings.weight_decay
    batch_size: int = TrainSettings.batch_size
    clip: float = TrainSettings.clip
    max_epochs: int = TrainSettings.max_epochs
    min_epochs: int = TrainSettings.min_epochs
    patience: int = TrainSettings.patience
    skip: tuple[str, ...] = ("accountant", "dentist")
    device: str = "auto"

    def __post_init__(self) -> None:
        object.__setattr__(self, "skip", tuple(self.skip))

    def train_settings(self, seed: int) -> TrainSettings:
        """The :class:`mgbias.bios.training.TrainSettings` of one run."""
        keys = {f.name for f in fields(TrainSettings)} - {"seed"}
        return TrainSettings(**{k: v for k, v in asdict(self).items() if k in keys}, seed=seed)


def split_ids(records: Sequence[dict], seed: int) -> dict[str, list[str]]:
    """The ids of the train, dev and test bios (:func:`split_by_title`)."""
    train, dev, test = split_by_title(records, seed)
    return {
        name: [r["id"] for r in part]
        for name, part in zip(("train", "dev", "test"), (train, dev, test), strict=True)
    }


def apply_split(
    records: Sequence[dict], split: Mapping[str, Sequence[str]], where: str = "split"
) -> dict[str, list[dict]]:
    """The records of each part of ``split``; an id not in ``records`` is an error."""
    by_id = {record["id"]: record for record in records}
    parts = {}
    for name in ("train", "dev", "test"):
        if name not in split:
            raise ValueError(f"{where}: no {name!r} part")
        missing = [i for i in split[name] if i not in by_id]
        if missing:
            raise ValueError(
                f"{where}: {len(missing)} {name} ids not in the dataset, e.g. {missing[0]!r}"
            )
        parts[name] = [by_id[i] for i in split[name]]
    return parts


@dataclass
class RunResult:
    """The metrics of one run (percentage points), the per-occupation TPRs and the
    training record."""

    metrics: dict[str, float]
    tpr: dict[str, dict[str, float]]
    occupations: tuple[str, ...]
    training: dict
    dropped: list[str]
    n: dict[str, int]


def prepare_parts(
    parts: Mapping[str, list[dict]], *, balanced: bool, seed: int
) -> tuple[dict[str, list[dict]], list[str]]:
    """Train and dev upsampled to gender parity per occupation when ``balanced``
    (occupations missing a gender dropped from them), test untouched."""
    if not balanced:
        return dict(parts), []
    out, dropped = {"test": list(parts["test"])}, set()
    for name in ("train", "dev"):
        result = balance_genders(parts[name], derive_seed(seed, "balance", name))
        out[name] = result.records
        dropped.update(result.dropped)
    return out, sorted(dropped)


def run_classifier(
    parts: Mapping[str, list[dict]],
    space,
    settings: ClassifierSettings,
    *,
    text: str,
    balanced: bool,
    seed: int,
    checkpoint: str | Path | None = None,
) -> RunResult:
    """Train on ``parts['train']`` (model selection on dev) and test on ``parts['test']``,
    with the token features of ``space`` (a ``.vec`` path, a frozen encoder or a space:
    :func:`mgbias.bios.spaces.as_space`)."""
    import torch

    from mgbias.bios.classifier import BiGRUAttention, predict, train

    check_seed(seed)
    if text not in TEXTS:
        raise ValueError(f"text must be one of {sorted(TEXTS)}, got {text!r}")
    field = TEXTS[text]
    features = as_space(space).features(parts["train"], settings, seed)
    used, dropped = prepare_parts(parts, balanced=balanced, seed=seed)
    labels = sorted({r["title"] for part in used.values() for r in part})
    index = {title: i for i, title in enumerate(labels)}

    def data(name: str):
        records = used[name]
        inputs = features.inputs([r[field] for r in records])
        return inputs, np.array([index[r["title"]] for r in records], dtype=np.int64)

    torch.manual_seed(derive_seed(seed, "init"))
    model = BiGRUAttention(
        features.table,
        len(labels),
        hidden=settings.hidden,
        dropout=settings.dropout,
        tanh=settings.tanh,
    )
    training = train(
        model,
        data("train"),
        data("dev"),
        settings.train_settings(derive_seed(seed, "train")),
        checkpoint=checkpoint,
        device=settings.device,
    )
    test_inputs, _ = data("test")
    predicted = [labels[i] for i in predict(model, test_inputs, settings.batch_size)]
    test = used["test"]
    gap = gender_gap(
        [r["title"] for r in test], predicted, [r["gender"] for r in test], skip=settings.skip
    )
    training.update(features.info)
    return RunResult(
        metrics={"avg": gap.avg, "female": gap.female, "male": gap.male, "diff": gap.diff},
        tpr=gap.tpr,
        occupations=gap.occupations,
        training=training,
        dropped=dropped,
        n={name: len(part) for name, part in used.items()},
    )


def mean_metrics(runs: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """The mean of each metric over runs (NaN stays NaN)."""
    if not runs:
        raise ValueError("no runs")
    return {key: float(np.mean([run[key] for run in runs])) for key in METRICS}


def metric_standard_errors(runs: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """``<metric>_se``: the standard error of each metric's mean over the seeded runs
    (:func:`mgbias.stats.mean_standard_error`; NaN with one run, or where a run's metric
    is NaN).

    The runs differ in their seeds (initialisation, sampling, batches), so this is the
    spread of the training, not of the test bios.
    """
    if not runs:
        raise ValueError("no runs")
    return {f"{key}_se": mean_standard_error([run[key] for run in runs]) for key in METRICS}


def tpr_rows(result: RunResult, run: int) -> list[dict]:
    """The per-occupation TPR rows of one run (the artifact behind |Diff|)."""
    return [
        {
            "run": run,
            "title": title,
            "tpr_female": _fmt(values["F"]),
            "tpr_male": _fmt(values["M"]),
            "n_female": values["n_F"],
            "n_male": values["n_M"],
            "in_diff": title in result.occupations,
        }
        for title, values in result.tpr.items()
    ]


TPR_COLUMNS = ["run", "title", "tpr_female", "tpr_male", "n_female", "n_male", "in_diff"]


def _fmt(value: float) -> str:
    return "" if math.isnan(value) else f"{value:.4f}"


@dataclass
class SeedRuns:
    """A job's runs, one per seed: ``runs`` (each run's ``seed``, ``metrics``,
    ``occupations``, ``dropped``, ``n`` and ``training``: the ``runs`` of the job's
    metrics JSON), ``tpr`` (every run's :func:`tpr_rows`) and ``checkpoints`` (the
    runs' checkpoint paths)."""

    runs: list[dict] = field(default_factory=list)
    tpr: list[dict] = field(default_factory=list)
    checkpoints: list[str] = field(default_factory=list)

    @property
    def metrics(self) -> dict[str, float]:
        """The runs' mean metrics (:func:`mean_metrics`)."""
        return mean_metrics([run["metrics"] for run in self.runs])

    def remove_checkpoints(self) -> None:
        """Remove the runs' checkpoints (once the job's outputs are written)."""
        for checkpoint in self.checkpoints:
            if os.path.exists(checkpoint):
                os.remove(checkpoint)


def run_seeds(
    seeds: Sequence[int],
    run: Callable[[int, str | tuple[str, ...]], RunResult],
    stem: str | Path,
    *,
    stages: Sequence[str] | None = None,
    log: logging.Logger | None = None,
) -> SeedRuns:
    """One run per seed, in order: ``run(seed, checkpoint)`` (seed an int) returns the
    :class:`RunResult` of run ``i`` (its index in ``seeds``), checkpointed at
    ``<stem>.<i>.pt``, or with ``stages``, at a tuple of ``<stem>.<i>.<stage>.pt``, one
    per stage (the checkpoints let a killed job resume its runs; remove them with
    :meth:`SeedRuns.remove_checkpoints` once the outputs are written). Each run's
    metrics are logged to ``log`` (default: this module's logger)."""
    log = log if log is not None else logging.getLogger(__name__)
    out = SeedRuns()
    for index, seed in enumerate(seeds):
        seed = int(seed)
        checkpoint: str | tuple[str, ...]
        if stages is None:
            checkpoint = f"{stem}.{index}.pt"
            out.checkpoints.append(checkpoint)
        else:
            checkpoint = tuple(f"{stem}.{index}.{stage}.pt" for stage in stages)
            out.checkpoints.extend(checkpoint)
        result = run(seed, checkpoint)
        out.runs.append(
            {
                "seed": seed,
                "metrics": result.metrics,
                "occupations": list(result.occupations),
                "dropped": result.dropped,
                "n": result.n,
                "training": result.training,
            }
        )
        out.tpr += tpr_rows(result, index)
        log.info("run %d (seed %d): %s", index, seed, result.metrics)
    return out


#: Zhao et al.'s transfer label set (``filtered_occs_8``): occupations in every language.
TRANSFER_LABELS = (
    "architect",
    "journalist",
    "model",
    "painter",
    "poet",
    "professor",
    "psychologist",
    "teacher",
)


#: The authors' French transfer runs used seven of the eight (their ``cache_7l``): their
#: French title lexicon maps "professeur" to teacher, so French bios have no professor
#: (professor is also absent from their French occupations with at least 200 bios,
#: App. A.4).
FRENCH_TRANSFER_LABELS = tuple(label for label in TRANSFER_LABELS if label != "professor")


def transfer_labels(
    src: str,
    tgt: str,
    labels: Sequence[str],
    by_language: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """The occupations of a ``src`` -> ``tgt`` transfer run, sorted: those of both
    languages, a language's being its ``by_language`` entry, else ``labels``."""
    by_language = by_language or {}
    chosen = set(by_language.get(src, labels)) & set(by_language.get(tgt, labels))
    if not chosen:
        raise ValueError(f"transfer {src}->{tgt}: no occupation in both languages' labels")
    return sorted(chosen)


def fine_tune_share(records: Sequence[dict], share: float, seed: int) -> list[dict]:
    """A seeded ``share`` of ``records`` (at least one; all with ``share`` 1), in input
    order: the target's training bios of the transfer's fine-tuning."""
    check_seed(seed)
    if not 0.0 < share <= 1.0:
        raise ValueError(f"transfer share must be in (0, 1], got {share!r}")
    if share == 1.0:
        return list(records)
    n = max(1, round(len(records) * share))
    chosen = set(random.Random(derive_seed(seed, "fine-tune")).sample(range(len(records)), n))
    return [record for i, record in enumerate(records) if i in chosen]


def keep_labels(parts: Mapping[str, list[dict]], labels: Sequence[str]) -> dict[str, list[dict]]:
    """The bios of ``labels`` only, in each part."""
    wanted = set(labels)
    return {name: [r for r in part if r["title"] in wanted] for name, part in parts.items()}


def transfer_model(source, target_table, settings: ClassifierSettings):
    """A model on ``target_table`` (the target's frozen matrix or encoder) with every
    other weight of ``source`` (trained); raises if the model after loading does not
    read the target's features."""
    import torch

    from mgbias.bios.classifier import BiGRUAttention, load_for_transfer

    model = BiGRUAttention(
        target_table,
        source.out.out_features,
        hidden=settings.hidden,
        dropout=settings.dropout,
        tanh=settings.tanh,
    )
    load_for_transfer(model, source.state_dict())
    if isinstance(target_table, np.ndarray):
        target = torch.as_tensor(target_table, dtype=torch.float32)
        if not torch.equal(model.embedding.weight, target):
            raise AssertionError("the transferred model lost the target embedding")
    elif model.encoder is not target_table:
        raise AssertionError("the transferred model lost the target encoder")
    return model


def run_transfer(
    source_parts: Mapping[str, list[dict]],
    target_parts: Mapping[str, list[dict]],
    source_space,
    target_space,
    settings: ClassifierSettings,
    *,
    labels: Sequence[str],
    share: float,
    text: str,
    balanced: bool,
    seed: int,
    checkpoints: tuple[str | Path, str | Path] | None = None,
) -> RunResult:
    """Train on the source language with the source space, fine-tune on a seeded
    ``share`` of the target's training split with the target space (all weights but
    the embedding carried over), test on the target's test split; only ``labels``.
    The spaces are ``.vec`` paths, frozen encoders or spaces
    (:func:`mgbias.bios.spaces.as_space`), both static or both encoders, of one
    dimension."""
    import torch

    from mgbias.bios.classifier import BiGRUAttention, predict, train

    check_seed(seed)
    if text not in TEXTS:
        raise ValueError(f"text must be one of {sorted(TEXTS)}, got {text!r}")
    field = TEXTS[text]
    labels = sorted(labels)
    index = {title: i for i, title in enumerate(labels)}
    source = keep_labels(source_parts, labels)
    target = keep_labels(target_parts, labels)
    target = {**target, "train": fine_tune_share(target["train"], share, seed)}
    for name, parts in (("source", source), ("target", target)):
        for part, records in parts.items():
            if not records:
                raise ValueError(f"no {name} {part} bios of the transfer labels {labels}")
    source_space, target_space = as_space(source_space), as_space(target_space)
    if type(source_space) is not type(target_space):
        raise ValueError(
            f"{source_space} and {target_space}: a transfer runs static spaces or encoders "
            "on both sides"
        )
    dims = {source_space.dim, target_space.dim}
    if len(dims) != 1:
        raise ValueError(f"{source_space} and {target_space} differ in dimension: {sorted(dims)}")

    def side(parts, space, key):
        features = space.features(parts["train"], settings, seed, key)
        used, dropped = prepare_parts(parts, balanced=balanced, seed=derive_seed(seed, key))

        def data(name):
            records = used[name]
            inputs = features.inputs([r[field] for r in records])
            return inputs, np.array([index[r["title"]] for r in records], dtype=np.int64)

        return used, dropped, features.table, data

    first, second = checkpoints if checkpoints is not None else (None, None)
    _, dropped_src, src_table, src_data = side(source, source_space, "source")
    torch.manual_seed(derive_seed(seed, "init"))
    model = BiGRUAttention(
        src_table,
        len(labels),
        hidden=settings.hidden,
        dropout=settings.dropout,
        tanh=settings.tanh,
    )
    train_settings = settings.train_settings(derive_seed(seed, "train"))
    trained = train(
        model,
        src_data("train"),
        src_data("dev"),
        train_settings,
        checkpoint=first,
        device=settings.device,
    )
    used, dropped_tgt, tgt_table, tgt_data = side(target, target_space, "target")
    tuned_model = transfer_model(model, tgt_table, settings)
    tune_settings = settings.train_settings(derive_seed(seed, "fine-tune"))
    tuned = train(
        tuned_model,
        tgt_data("train"),
        tgt_data("dev"),
        tune_settings,
        checkpoint=second,
        device=settings.device,
    )
    test_inputs, _ = tgt_data("test")
    predicted = [labels[i] for i in predict(tuned_model, test_inputs, settings.batch_size)]
    test = used["test"]
    gap = gender_gap(
        [r["title"] for r in test], predicted, [r["gender"] for r in test], skip=settings.skip
    )
    return RunResult(
        metrics={"avg": gap.avg, "female": gap.female, "male": gap.male, "diff": gap.diff},
        tpr=gap.tpr,
        occupations=gap.occupations,
        training={"source": trained, "fine_tune": tuned},
        dropped=sorted(set(dropped_src) | set(dropped_tgt)),
        n={name: len(part) for name, part in used.items()},
    )
