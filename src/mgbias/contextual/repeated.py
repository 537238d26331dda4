"""Repeated runs of a seeded experiment, reported as mean and max − min (Basta et al. 2020).

Experiments 3–5 draw one random occurrence of each word, then cluster, classify or look
up neighbours; each is run ``runs`` times (the paper: 10) and its tables print
"mean (max − min)". Run ``r`` of experiment ``name`` draws from the seed
``derive_seed(seed, name, r)`` (:func:`run_rng`), so adding runs never changes earlier ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from mgbias.seeds import check_seed, derive_seed

__all__ = ["Repeated", "one_per_word", "run_rng", "run_seed"]


def run_seed(seed: int, name: str, run: int) -> int:
    """The 32-bit seed of run ``run`` of experiment ``name``."""
    return derive_seed(check_seed(seed), "contextual", name, run)


def run_rng(seed: int, name: str, run: int) -> np.random.Generator:
    """A NumPy generator for run ``run`` of experiment ``name``."""
    return np.random.default_rng(run_seed(seed, name, run))


def one_per_word(words: Sequence[str], rng: np.random.Generator) -> tuple[list[str], np.ndarray]:
    """One random occurrence of each distinct word: ``(sorted words, row indices)``.

    "One representation for each word" (Basta et al. 2020, §5.2.2): each word's row is drawn
    uniformly among the rows holding it.
    """
    array = np.asarray(words, dtype=object)
    distinct = sorted(set(array.tolist()))
    order = np.argsort(array.astype(str), kind="stable")
    sorted_words = array[order].astype(str)
    starts = np.searchsorted(sorted_words, distinct, side="left")
    ends = np.searchsorted(sorted_words, distinct, side="right")
    picks = np.array([order[rng.integers(s, e)] for s, e in zip(starts, ends, strict=True)])
    return distinct, picks.astype(np.int64)


@dataclass(frozen=True)
class Repeated:
    """Scores of the runs of one experiment.

    Attributes
    ----------
    values
        One score per run (NaN where a run was degenerate).
    n_items
        Words (or professions) per run.
    extra
        Experiment-specific entries (a permutation null, a degenerate flag, ...).
    """

    values: tuple[float, ...]
    n_items: int
    extra: dict = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else float("nan")

    @property
    def min(self) -> float:
        return float(np.min(self.values)) if self.values else float("nan")

    @property
    def max(self) -> float:
        return float(np.max(self.values)) if self.values else float("nan")

    @property
    def range(self) -> float:
        """max − min, the paper's spread."""
        return self.max - self.min

    def to_dict(self) -> dict:
        return {
            "mean": self.mean,
            "min": self.min,
            "max": self.max,
            "range": self.range,
            "n_items": self.n_items,
            "n_runs": len(self.values),
            "values": list(self.values),
            **self.extra,
        }
