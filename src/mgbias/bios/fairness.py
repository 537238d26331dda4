"""The classifier's data and metrics of Zhao et al. (2020), §4.1 (App. A.3; the authors' code).

- :func:`split_by_title`: the seeded 60/20/20 train/dev/test split, stratified by title
  (20% test first, then 25% of the rest as dev, per title);
- :func:`balance_genders`: the authors' ``_balance_gender`` upsampling of train and dev:
  per occupation the minority gender is repeated ``(max - min) // min`` full times plus
  ``(max - min) % min`` items drawn without replacement, so both genders reach the
  majority's count; an occupation with no item of one gender is dropped and reported;
- :func:`gender_gap`: Avg, Female and Male accuracy (micro) and |Diff|, the unweighted
  mean over occupations of |TPR_male - TPR_female|, in percentage points, with the
  per-occupation TPRs.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mgbias.seeds import check_seed, derive_seed


def split_by_title(
    records: Sequence[dict], seed: int, *, test: float = 0.2, dev: float = 0.25
) -> tuple[list[dict], list[dict], list[dict]]:
    """(train, dev, test): per title, a seeded ``test`` share, then ``dev`` of the rest.

    Shares are rounded per title (a title with one bio goes to train). Records keep
    their input order within each part.
    """
    check_seed(seed)
    by_title: dict[str, list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        by_title[record["title"]].append(index)
    part = {}
    for title in sorted(by_title):
        indices = list(by_title[title])
        random.Random(derive_seed(seed, "bios-split", title)).shuffle(indices)
        n_test = round(len(indices) * test)
        n_dev = round((len(indices) - n_test) * dev)
        for position, index in enumerate(indices):
            part[index] = (
                "test" if position < n_test else "dev" if position < n_test + n_dev else "train"
            )
    splits: dict[str, list[dict]] = {"train": [], "dev": [], "test": []}
    for index, record in enumerate(records):
        splits[part[index]].append(record)
    return splits["train"], splits["dev"], splits["test"]


@dataclass
class Balanced:
    """What :func:`balance_genders` returns: the records and the occupations dropped."""

    records: list[dict]
    dropped: list[str] = field(default_factory=list)


def balance_genders(records: Iterable[dict], seed: int) -> Balanced:
    """Upsample the minority gender of each occupation to the majority's count.

    The originals come first in input order, then the repeats, occupation by occupation
    (sorted). Occupations with no female or no male item are dropped (``dropped``).
    """
    check_seed(seed)
    records = list(records)
    groups: dict[str, dict[str, list[dict]]] = defaultdict(lambda: {"F": [], "M": []})
    for record in records:
        groups[record["title"]][record["gender"]].append(record)
    dropped = sorted(title for title, g in groups.items() if not g["F"] or not g["M"])
    kept = [record for record in records if record["title"] not in dropped]
    extra: list[dict] = []
    for title in sorted(groups):
        if title in dropped:
            continue
        female, male = groups[title]["F"], groups[title]["M"]
        minority, majority = (female, male) if len(female) < len(male) else (male, female)
        gap = len(majority) - len(minority)
        if gap == 0:
            continue
        rng = random.Random(derive_seed(seed, "bios-balance", title))
        extra.extend(minority * (gap // len(minority)))
        extra.extend(rng.sample(minority, gap % len(minority)))
    return Balanced(kept + extra, dropped)


@dataclass(frozen=True)
class GenderGap:
    """Accuracies and |Diff| in percentage points; ``tpr``: per occupation (title ->
    ``{"F", "M", "n_F", "n_M"}``); ``occupations``: those |Diff| averages over."""

    avg: float
    female: float
    male: float
    diff: float
    tpr: dict[str, dict[str, float]]
    occupations: tuple[str, ...]


def gender_gap(
    titles: Sequence[str],
    predicted: Sequence[str],
    genders: Sequence[str],
    *,
    skip: Iterable[str] = (),
) -> GenderGap:
    """The metrics of one test set: true titles, predicted titles and genders (F/M).

    |Diff| averages over the occupations with test bios of both genders, minus ``skip``
    (the authors' analysis skipped accountant and dentist).
    """
    if not len(titles) == len(predicted) == len(genders):
        raise ValueError("titles, predicted and genders must have one entry per test bio")
    if not titles:
        raise ValueError("no test bios")
    bad = sorted(set(genders) - {"F", "M"})
    if bad:
        raise ValueError(f"genders must be F or M, got {bad}")
    correct = [t == p for t, p in zip(titles, predicted, strict=True)]

    def accuracy(flags: list[bool]) -> float:
        return 100.0 * sum(flags) / len(flags) if flags else float("nan")

    hits: dict[str, dict[str, list[bool]]] = defaultdict(lambda: {"F": [], "M": []})
    for title, gender, ok in zip(titles, genders, correct, strict=True):
        hits[title][gender].append(ok)
    tpr = {
        title: {
            "F": accuracy(hits[title]["F"]),
            "M": accuracy(hits[title]["M"]),
            "n_F": len(hits[title]["F"]),
            "n_M": len(hits[title]["M"]),
        }
        for title in sorted(hits)
    }
    skip = set(skip)
    used = tuple(t for t in tpr if t not in skip and tpr[t]["n_F"] and tpr[t]["n_M"])
    diff = sum(abs(tpr[t]["M"] - tpr[t]["F"]) for t in used) / len(used) if used else float("nan")
    return GenderGap(
        avg=accuracy(correct),
        female=accuracy([ok for ok, g in zip(correct, genders, strict=True) if g == "F"]),
        male=accuracy([ok for ok, g in zip(correct, genders, strict=True) if g == "M"]),
        diff=diff,
        tpr=tpr,
        occupations=used,
    )
