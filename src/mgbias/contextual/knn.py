"""Exp. 5: nearest neighbours of the biased professions (Basta et al. 2020, §5.2.2).

For the most female- and most male-biased professions (the paper: 100 + 100, by their
*original bias*, the projection on he − she in a static embedding) found in the corpus,
one random contextual vector each; for each profession ``i``, its ``k`` nearest
neighbours by cosine among the *other* professions (the paper: k = 100) and ``p_i``, the
share of male-biased (original bias > 0) neighbours. The score is Pearson's
``r(p_i, bias_i)``; repeated ``runs`` times.

Two artefacts are guarded against (§6.1.5 discusses the first):

- with ``k ≥ n − 1`` every neighbourhood is "all others", ``p_i`` depends only on the
  profession's own label, and ``r`` says nothing about the vectors (the paper's PubMed
  "always 1"): the score is NaN and ``degenerate`` is true;
- a profession is never its own neighbour, so even random vectors give a *negative* ``r``
  on small lists (≈ −0.3 on 16 words): each run also scores ``n_permutations`` random
  permutations of the biases over the professions, and ``null_mean`` is their mean, the
  level to compare ``r`` with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mgbias.contextual.repeated import Repeated, one_per_word, run_rng
from mgbias.embeddings.vectors import unit_rows

__all__ = ["knn_correlation", "knn_experiment", "neighbour_male_share"]


def neighbour_male_share(matrix: np.ndarray, male: np.ndarray, k: int) -> np.ndarray:
    """``p_i``: share of male rows among the ``k`` nearest other rows of row ``i`` (cosine).

    Ties in similarity are broken by row order (stable sort).
    """
    unit = unit_rows(np.asarray(matrix, dtype=np.float64))
    similarity = unit @ unit.T
    np.fill_diagonal(similarity, -np.inf)
    nearest = np.argsort(-similarity, axis=1, kind="stable")[:, :k]
    return np.asarray(male, dtype=np.float64)[nearest].mean(axis=1)


def knn_correlation(matrix: np.ndarray, bias: np.ndarray, k: int) -> float:
    """Pearson ``r(p_i, bias_i)`` with ``p_i`` from :func:`neighbour_male_share`.

    NaN when ``k ≥ n − 1`` (degenerate) or when ``p`` or ``bias`` is constant.
    """
    bias = np.asarray(bias, dtype=np.float64)
    if k >= len(bias) - 1:
        return float("nan")
    share = neighbour_male_share(matrix, bias > 0, k)
    if np.ptp(share) == 0 or np.ptp(bias) == 0:
        return float("nan")
    return float(np.corrcoef(share, bias)[0, 1])


def knn_experiment(
    matrix: np.ndarray,
    words: Sequence[str],
    bias: Mapping[str, float],
    *,
    k: int = 100,
    runs: int = 10,
    seed: int = 0,
    n_permutations: int = 100,
) -> Repeated:
    """Exp. 5 over ``runs`` runs; ``matrix`` row ``i`` is an occurrence of ``words[i]``.

    ``bias[w]`` is the original bias of profession ``w`` (> 0 male); occurrences of other
    words are ignored. ``extra`` holds ``k``, ``degenerate``, ``null_mean`` (the mean
    permutation-null ``r``) and ``n_female``/``n_male``.
    """
    keep = np.array([w in bias for w in words], dtype=bool)
    rows, kept = np.asarray(matrix)[keep], [w for w, kk in zip(words, keep, strict=True) if kk]
    n = len(set(kept))
    degenerate = k >= n - 1
    values, null = [], []
    for run in range(runs):
        rng = run_rng(seed, "knn", run)
        distinct, picks = one_per_word(kept, rng)
        scores = np.array([bias[w] for w in distinct], dtype=np.float64)
        x = rows[picks]
        values.append(knn_correlation(x, scores, k))
        if not degenerate:
            null.extend(
                knn_correlation(x, rng.permutation(scores), k) for _ in range(n_permutations)
            )
    n_male = sum(bias[w] > 0 for w in set(kept))
    return Repeated(
        tuple(values),
        n,
        {
            "k": k,
            "degenerate": bool(degenerate),
            "null_mean": float(np.nanmean(null)) if null else float("nan"),
            "n_female": n - n_male,
            "n_male": n_male,
        },
    )
