"""Exp. 3: k-means clustering of the biased words (Basta et al. 2020, §5.2.2, Tables 2–5).

For each word of the biased list (500 male- + 500 female-biased by the static embedding)
found in the corpus, one random contextual vector; k-means with k = 2; the accuracy is the
share of words whose cluster matches their original label, under the better of the two
cluster-to-label assignments, ``max(a, 1 − a)`` (Gonen & Goldberg 2019's alignment).
Higher is more biased; 0.5 is no gender information. Rows are unit-normalised first (as
the static vectors G&G clustered); repeated ``runs`` times with new draws and k-means seeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from sklearn.cluster import KMeans

from mgbias.contextual.repeated import Repeated, one_per_word, run_rng, run_seed
from mgbias.embeddings.vectors import unit_rows

__all__ = ["alignment_accuracy", "cluster_projection", "clustering_experiment", "kmeans_accuracy"]


def alignment_accuracy(clusters: np.ndarray, labels: np.ndarray) -> float:
    """``max(a, 1 − a)`` with ``a`` the share of ``clusters == labels`` (both 0/1)."""
    clusters, labels = np.asarray(clusters), np.asarray(labels)
    if clusters.shape != labels.shape or not clusters.size:
        raise ValueError(f"clusters {clusters.shape} and labels {labels.shape}: expected equal, >0")
    a = float(np.mean(clusters == labels))
    return max(a, 1.0 - a)


def kmeans_accuracy(matrix: np.ndarray, labels: np.ndarray, seed: int, n_init: int = 10) -> float:
    """k-means (k = 2, ``n_init`` starts, seeded) on unit rows; :func:`alignment_accuracy`."""
    kmeans = KMeans(n_clusters=2, n_init=n_init, random_state=seed)
    clusters = kmeans.fit_predict(unit_rows(np.asarray(matrix, dtype=np.float64)))
    return alignment_accuracy(clusters, labels)


def clustering_experiment(
    matrix: np.ndarray,
    words: Sequence[str],
    male: Mapping[str, bool],
    *,
    runs: int = 10,
    seed: int = 0,
    n_init: int = 10,
) -> Repeated:
    """Exp. 3 over ``runs`` runs; ``matrix`` row ``i`` is an occurrence of ``words[i]``.

    ``male[w]`` is the original label of each word (True = male-biased); occurrences of
    words without a label are ignored.
    """
    keep = np.array([w in male for w in words], dtype=bool)
    rows, kept = np.asarray(matrix)[keep], [w for w, k in zip(words, keep, strict=True) if k]
    if len({bool(male[w]) for w in kept}) < 2:
        raise ValueError("clustering needs words of both labels in the corpus")
    values = []
    for run in range(runs):
        distinct, picks = one_per_word(kept, run_rng(seed, "clustering", run))
        labels = np.array([bool(male[w]) for w in distinct], dtype=int)
        values.append(kmeans_accuracy(rows[picks], labels, run_seed(seed, "kmeans", run), n_init))
    n_male = sum(bool(male[w]) for w in set(kept))
    return Repeated(
        tuple(values), len(set(kept)), {"n_female": len(set(kept)) - n_male, "n_male": n_male}
    )


def cluster_projection(
    matrix: np.ndarray,
    words: Sequence[str],
    male: Mapping[str, bool],
    *,
    seed: int = 0,
    n_init: int = 10,
) -> dict:
    """Run 0 of :func:`clustering_experiment` in two dimensions (the paper's Figure 6).

    Returns ``{"words", "xy", "male", "cluster", "accuracy"}``: the distinct words, the
    first two principal components of their unit rows, their original labels, their
    k-means clusters and the run's accuracy (equal to run 0 of the experiment).
    """
    from sklearn.decomposition import PCA

    keep = np.array([w in male for w in words], dtype=bool)
    rows, kept = np.asarray(matrix)[keep], [w for w, k in zip(words, keep, strict=True) if k]
    if len({bool(male[w]) for w in kept}) < 2:
        raise ValueError("clustering needs words of both labels in the corpus")
    distinct, picks = one_per_word(kept, run_rng(seed, "clustering", 0))
    unit = unit_rows(np.asarray(rows[picks], dtype=np.float64))
    labels = np.array([bool(male[w]) for w in distinct], dtype=int)
    kmeans = KMeans(n_clusters=2, n_init=n_init, random_state=run_seed(seed, "kmeans", 0))
    clusters = kmeans.fit_predict(unit)
    xy = PCA(n_components=2, random_state=0).fit_transform(unit)
    return {
        "words": distinct,
        "xy": xy,
        "male": labels.astype(bool),
        "cluster": clusters,
        "accuracy": alignment_accuracy(clusters, labels),
    }
