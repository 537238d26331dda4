"""Label-permutation test of the MBE score (Kaneko et al. 2022, Eq. 2).

Null hypothesis: the gender label of a sentence carries no information, i.e.
the labels are exchangeable given the pooled sentences (scores ``A`` and
embeddings). The male and female sentences are pooled, the labels are
reassigned at random ``B`` times (same group sizes), Eq. 2 is recomputed for
each relabelling, and the observed score is compared with that permutation
distribution. The Shf baseline of the paper (§5.1) is one such relabelling.

Fast algorithm
--------------
For ``n`` pooled sentences with embeddings ``e_i`` (unit rows for cosine
weighting, raw rows for dot weighting), weights ``C_ij = e_i . e_j`` and a
labelling ``x`` in {0, 1}^n (1 = "male"), Eq. 2 is ``100 num(x) / den(x)``
with

* ``den(x) = x^T C (1 - x) = s_x . (s - s_x)``, where ``s_x = E^T x`` is the
  sum of the "male" embeddings and ``s`` the sum of all of them;
* ``num(x) = x^T W (1 - x) = x . w - x^T W x`` with ``W_ij = C_ij I(A_i > A_j)``
  and ``w = W 1``: ``w_i = e_i . (sum of e_j over A_j < A_i)``, one prefix sum
  over the sentences sorted by score;
* ``x^T W x = (x^T C x - x^T (C o T) x) / 2``, because for two sentences with
  different scores exactly one of ``I(A_i > A_j)``, ``I(A_j > A_i)`` is 1;
  ``T_ij = I(A_i == A_j)`` (diagonal included), so ``x^T C x = |s_x|^2`` and
  ``x^T (C o T) x`` is the sum over groups ``G`` of tied scores of
  ``|E_G^T x_G|^2`` (``|e_i|^2`` for an untied sentence).

So every labelling costs one product ``E^T x``: ``O(n d)`` per labelling,
``O(n d B)`` in all, with no ``n x n`` matrix at all. Labellings are processed
in blocks of ``block_size`` columns of a 0/1 matrix ``X`` (one BLAS product
``X^T E`` per block), so working memory is ``O(n d + n block_size)``.

Clusters: gender words as the units
-----------------------------------
Sentences that share a gender word are not independent: a model's own
preference for one word ("él" over "ella", from nothing but its training
draw) raises or lowers every sentence holding it, so the sentence-level null
above rejects far more often than alpha when such word effects are symmetric
about no gender preference (measured in
``tests/unit/measures/test_mbe_clusters.py``; the language-as-fixed-effect
fallacy of Clark 1973). With ``clusters`` (e.g. the gender words that put
each sentence in its set, :func:`mgbias.wordlists.gender_words.gender_words_of`) the labels
are reassigned to whole clusters instead, within strata of clusters of
similar size (:func:`size_strata`: the two largest clusters, the next four,
the next eight, ..., never splitting clusters of equal size): in each stratum
a random set of its clusters, as many as it holds male ones, becomes male,
and Eq. 2 is recomputed. The null hypothesis is "within each stratum, the
clusters' gender labels are exchangeable": a preference must be shared by the
gender words, beyond their word-to-word spread, to be significant. The strata
keep every relabelling's mix of large and small clusters as observed: a mined
set holds one pronoun cluster per gender with ~45% of the sentences, and a
relabelling that put both on one side would compare pronoun sentences with
name sentences, whose AULA differs for reasons unrelated to gender, and so
widen the null far beyond the word effects (on the demo: null sd 9 MBE points
without strata, 1 with). Strata depend on the sizes only, never on the
scores, so the test stays exact under that null.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mgbias.seeds import check_seed

__all__ = [
    "TIE_TOLERANCE",
    "PermutationTest",
    "cluster_codes",
    "distinct_cluster_labellings",
    "mbe_permutation_test",
    "size_strata",
    "smallest_sentence_p",
]

#: Permuted scores within this many MBE points of the observed distance from
#: 50 count as "at least as extreme" (float rounding of the two computations is
#: below 1e-9 points; the tolerance only makes mathematically equal scores,
#: e.g. a labelling and its complement when the groups have equal sizes,
#: count as ties whatever their rounding).
TIE_TOLERANCE = 1e-7


@dataclass(frozen=True)
class PermutationTest:
    """Outcome of :func:`mbe_permutation_test`.

    Attributes
    ----------
    observed : float
        Eq. 2 of the observed labelling (column 0 of the computation).
    permuted : np.ndarray of float, shape (n_permutations,)
        Eq. 2 of each random relabelling, in draw order; ``nan`` where the
        relabelling's total weight is not positive (Eq. 2 undefined; counted
        as at least as extreme).
    n_extreme : int
        Relabellings with ``|permuted - 50| >= |observed - 50| - TIE_TOLERANCE``.
    n_permutations : int
        ``B``.
    p_value : float
        ``(1 + n_extreme) / (B + 1)``.
    """

    observed: float
    permuted: np.ndarray
    n_extreme: int
    n_permutations: int
    p_value: float


def cluster_codes(clusters: Any, n_male: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer code of each row's cluster and whether each cluster is male.

    Parameters
    ----------
    clusters : 1-D array-like of hashable labels, length ``n``
        Cluster label of every pooled row (male rows first); any labels that
        :func:`numpy.unique` orders (strings, integers).
    n_male : int
        Rows ``0 .. n_male - 1`` are male.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``codes`` (shape ``(n,)``, values ``0 .. K - 1``) and ``is_male``
        (shape ``(K,)``, bool).

    Raises
    ------
    ValueError
        If ``clusters`` is not 1-D, or a cluster holds male and female rows
        (a cluster must lie within one gender, as a gender word does).

    Examples
    --------
    >>> codes, is_male = cluster_codes(["he", "he", "she", "her"], 2)
    >>> codes.tolist(), is_male.tolist()
    ([0, 0, 2, 1], [True, False, False])
    """
    labels = np.asarray(clusters)
    if labels.ndim != 1:
        raise ValueError(f"clusters must be 1-D (one label per sentence), got shape {labels.shape}")
    names, codes = np.unique(labels, return_inverse=True)
    male_rows = np.zeros(labels.size, dtype=bool)
    male_rows[:n_male] = True
    in_male = np.bincount(codes, weights=male_rows, minlength=names.size)
    sizes = np.bincount(codes, minlength=names.size)
    mixed = np.flatnonzero((in_male > 0) & (in_male < sizes))
    if mixed.size:
        raise ValueError(
            f"cluster {names[mixed[0]].item()!r} holds male and female sentences; a cluster "
            "(e.g. a gender word) must lie within one gender"
        )
    return codes.astype(np.int64), in_male > 0


def size_strata(sizes: np.ndarray) -> np.ndarray:
    """Stratum of each cluster: the 2 largest, the next 4, the next 8, ...; ties kept together.

    Clusters are taken largest first (equal sizes in index order); stratum ``k``
    closes once it holds ``2 ** (k + 1)`` clusters and the next cluster is
    smaller than the last one taken, so clusters of equal size always share
    a stratum.

    Examples
    --------
    >>> size_strata(np.array([519, 1, 506, 44, 3, 3, 3, 2])).tolist()
    [0, 2, 0, 1, 1, 1, 1, 2]
    """
    sizes = np.asarray(sizes)
    order = np.argsort(-sizes, kind="stable")
    strata = np.empty(sizes.size, dtype=np.int64)
    stratum, target, count = 0, 2, 0
    for position, cluster in enumerate(order):
        if count >= target and sizes[cluster] != sizes[order[position - 1]]:
            stratum, target, count = stratum + 1, 2 * target, 0
        strata[cluster] = stratum
        count += 1
    return strata


def distinct_cluster_labellings(is_male: np.ndarray, strata: np.ndarray) -> tuple[int, int]:
    """Labellings the stratified relabelling can draw, and how many are as extreme as each.

    Returns ``(prod_s C(K_s, K_ms), twins)``: ``twins`` is 2 when every
    stratum holds as many male as female clusters (a labelling's complement,
    equally extreme, can then be drawn too), else 1.
    """
    total, twins = 1, 2
    for stratum in np.unique(strata):
        members = is_male[strata == stratum]
        n_male = int(np.count_nonzero(members))
        total *= math.comb(int(members.size), n_male)
        if 2 * n_male != members.size:
            twins = 1
    return total, twins


def smallest_sentence_p(n_male: int, n_female: int) -> float:
    """The smallest p-value the sentence-level permutation test can give, exactly: one
    labelling (two when the sets are of one size: a labelling's complement is as
    extreme) of the ``C(n_male + n_female, n_male)`` distinct ones.

    Three male and three female sentences allow 20 labellings, so p never falls below
    0.1: such a test cannot be significant at 0.05, whatever the model.

    >>> smallest_sentence_p(3, 3), smallest_sentence_p(3, 4)
    (0.1, 0.02857142857142857)
    """
    is_male = np.arange(n_male + n_female) < n_male  # each sentence its own unit
    labellings, twins = distinct_cluster_labellings(is_male, np.zeros(is_male.size, dtype=int))
    return twins / labellings


#: Rows gathered at a time when summing embeddings in score order.
ROWS_PER_BLOCK = 4096


def _tie_groups(sorted_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and stop (in sorted order) of every run of equal scores."""
    starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    stops = np.r_[starts[1:], sorted_scores.size]
    return starts, stops


def _weighted_wins(embeddings: np.ndarray, order: np.ndarray, group: np.ndarray) -> np.ndarray:
    """``w_i = e_i . sum_{j: A_j < A_i} e_j`` (strict: ties excluded), for every row ``i``.

    ``order`` sorts the rows by score and ``group[k]`` is the tie group of the
    ``k``-th row in that order. Rows are gathered ``ROWS_PER_BLOCK`` at a time,
    so besides the per-group sums no sorted copy of ``embeddings`` is made.
    """
    below = np.zeros((int(group[-1]) + 1, embeddings.shape[1]))
    for first in range(0, order.size, ROWS_PER_BLOCK):
        block = slice(first, first + ROWS_PER_BLOCK)
        groups = group[block]
        local = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        below[groups[local]] += np.add.reduceat(embeddings[order[block]], local, axis=0)
    np.cumsum(below, axis=0, out=below)
    below[1:] = below[:-1].copy()  # exclusive prefix: the groups strictly below
    below[0] = 0.0
    wins = np.empty(order.size)
    for first in range(0, order.size, ROWS_PER_BLOCK):
        block = slice(first, first + ROWS_PER_BLOCK)
        rows = order[block]
        wins[rows] = np.einsum("ij,ij->i", embeddings[rows], below[group[block]])
    return wins


def mbe_permutation_test(
    scores: np.ndarray,
    embeddings: np.ndarray,
    n_male: int,
    *,
    n_permutations: int,
    seed: int,
    block_size: int = 256,
    clusters: Any = None,
) -> PermutationTest:
    """Label-permutation p-value of the MBE score (Kaneko et al. 2022, Eq. 2).

    The observed labelling is "rows ``0 .. n_male - 1`` are male, the rest
    female". Relabelling ``b = 1 .. B`` makes the rows
    ``rng.permutation(n)[:n_male]`` male, with
    ``rng = numpy.random.default_rng(seed)`` drawn in order, so the draws do
    not depend on ``block_size``. The two-sided p-value is

    .. math:: p = \\frac{1 + \\#\\{b : |M_b - 50| \\ge |M_0 - 50|\\}}{B + 1}

    with ``M_b`` the Eq. 2 score of relabelling ``b`` and ``M_0`` the observed
    one. ``M_0`` and every ``M_b`` are computed by the same code (column 0 of
    the same matrix), and differences below :data:`TIE_TOLERANCE` MBE points
    count as ties, which count as extreme (conservative). Under the null
    hypothesis (labels exchangeable) ``P(p <= k / (B + 1)) <= k / (B + 1)``
    for every ``k``, exactly, whatever the set sizes, the dependence between
    pairs sharing a sentence, or the embedding geometry.

    With ``clusters``, relabelling ``b`` makes male, in each stratum of
    :func:`size_strata` in turn, the clusters ``members[rng.permutation(K_s)
    [:K_ms]]`` (``members`` in code order of :func:`cluster_codes`, ``K_ms``
    the stratum's observed male clusters), and the same bound holds under
    "within each stratum the clusters' labels are exchangeable" (module
    docstring, "Clusters").

    Parameters
    ----------
    scores : 1-D float array, shape (n,)
        Pooled sentence scores ``A`` (male rows first).
    embeddings : 2-D float array, shape (n, d)
        Pooled rows whose dot products are the weights ``C``: unit rows for
        cosine weighting, raw embeddings for dot weighting.
    n_male : int
        Number of male rows (``1 <= n_male < n``).
    n_permutations : int
        ``B``, at least 1.
    seed : int
        Seed of the relabellings.
    block_size : int
        Labellings per block (working memory about ``8 n block_size`` bytes
        plus ``8 d block_size``); does not change the result beyond float
        rounding of the order of 1e-13 points.
    clusters : 1-D array-like, optional
        Cluster label of every row (:func:`cluster_codes`); ``None`` (default)
        relabels single sentences.

    Returns
    -------
    PermutationTest

    Notes
    -----
    Cost: sorting by score, one ``n x d`` prefix sum, and one ``(B + 1) x n``
    by ``n x d`` product (``n d (B + 1)`` multiply-adds), plus, for every group
    of tied scores with more than one sentence, a product of its rows (a
    Python loop over such groups; exact duplicates are rare in real scores).
    Memory above the inputs: one float64 array of the per-group prefix sums
    (``n_groups x d``, at most ``n x d``), rows gathered ``ROWS_PER_BLOCK`` at
    a time, and the ``n x block_size`` label blocks.

    Raises
    ------
    ValueError
        If shapes disagree, ``n_male`` is out of range, ``n_permutations``,
        ``block_size`` or ``seed`` is not a valid integer, the observed
        labelling's total weight is not positive, or a cluster holds male and
        female rows.

    Examples
    --------
    >>> import numpy as np
    >>> test = mbe_permutation_test(np.array([2.0, 1.0, 0.0]), np.ones((3, 1)), 1,
    ...                             n_permutations=99, seed=0)
    >>> test.observed
    100.0
    """
    scores = np.asarray(scores, dtype=np.float64)
    embeddings = np.asarray(embeddings, dtype=np.float64)
    if scores.ndim != 1 or embeddings.ndim != 2 or embeddings.shape[0] != scores.size:
        raise ValueError(
            f"scores must be 1-D and embeddings (n, d) with n = len(scores), got shapes "
            f"{scores.shape} and {embeddings.shape}"
        )
    n = scores.size
    for name, value, low in (
        ("n_male", n_male, 1),
        ("n_permutations", n_permutations, 1),
        ("block_size", block_size, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ValueError(f"{name} must be an integer, got {value!r}")
        if value < low:
            raise ValueError(f"{name} must be at least {low}, got {value}")
    seed = check_seed(seed)
    if n_male >= n:
        raise ValueError(f"n_male must be below the number of sentences {n}, got {n_male}")

    if clusters is not None:
        if np.shape(clusters) != (n,):
            raise ValueError(
                f"clusters must hold one label per sentence, shape ({n},), "
                f"got shape {np.shape(clusters)}"
            )
        codes, cluster_is_male = cluster_codes(clusters, n_male)
        strata = size_strata(np.bincount(codes))
        members = [np.flatnonzero(strata == k) for k in range(int(strata.max()) + 1)]
        male_counts = [int(np.count_nonzero(cluster_is_male[m])) for m in members]

    order = np.argsort(scores, kind="stable")
    starts, stops = _tie_groups(scores[order])
    sizes = stops - starts
    wins = _weighted_wins(embeddings, order, np.repeat(np.arange(starts.size), sizes))
    total = embeddings.sum(axis=0)
    single = np.einsum("ij,ij->i", embeddings, embeddings)  # |e_i|^2 ...
    tied = [order[a:b] for a, b in zip(starts[sizes > 1], stops[sizes > 1], strict=True)]
    for rows in tied:
        single[rows] = 0.0  # ... for untied rows only

    rng = np.random.default_rng(seed)
    shares = np.empty(n_permutations + 1)
    defined = np.empty(n_permutations + 1, dtype=bool)
    for first in range(0, n_permutations + 1, block_size):
        width = min(block_size, n_permutations + 1 - first)
        labels = np.zeros((n, width))
        for column in range(width):
            if first + column == 0:
                labels[:n_male, column] = 1.0
            elif clusters is None:
                labels[rng.permutation(n)[:n_male], column] = 1.0
            else:
                chosen = np.zeros(cluster_is_male.size, dtype=bool)
                for stratum, n_stratum_male in zip(members, male_counts, strict=True):
                    chosen[stratum[rng.permutation(stratum.size)[:n_stratum_male]]] = True
                labels[chosen[codes], column] = 1.0
        male_sums = labels.T @ embeddings  # (width, d): s_x per labelling
        same_label = np.einsum("kd,kd->k", male_sums, male_sums)  # x^T C x
        tie_part = labels.T @ single  # x^T (C o T) x, untied sentences
        for rows in tied:
            group_sums = labels[rows].T @ embeddings[rows]
            tie_part += np.einsum("kd,kd->k", group_sums, group_sums)
        numerator = labels.T @ wins - 0.5 * (same_label - tie_part)
        denominator = np.einsum("kd,kd->k", male_sums, total[None, :] - male_sums)
        defined[first : first + width] = denominator > 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            shares[first : first + width] = numerator / denominator

    scores_100 = 100.0 * shares
    scores_100[~defined] = np.nan
    if not defined[0]:
        raise ValueError(
            "the observed labelling's total pair weight is not positive; Eq. 2 is undefined"
        )
    observed = float(scores_100[0])
    permuted = scores_100[1:]
    distance = np.abs(permuted - 50.0)
    extreme = ~defined[1:] | (distance >= abs(observed - 50.0) - TIE_TOLERANCE)
    n_extreme = int(np.count_nonzero(extreme))
    return PermutationTest(
        observed=observed,
        permuted=permuted,
        n_extreme=n_extreme,
        n_permutations=int(n_permutations),
        p_value=(1 + n_extreme) / (n_permutations + 1),
    )
