"""MBE: Multilingual Bias Evaluation score (Kaneko et al. 2022, §3, Eq. 2).

Given sentence scores ``A`` (AULA, Eq. 1) of the male sentences ``T_m`` and
female sentences ``T_f`` of a language, and their sentence embeddings:

.. math::

    \\mathrm{MBE} = 100 \\times
        \\frac{\\sum_{m \\in T_m} \\sum_{f \\in T_f} C(m, f)\\, \\mathbb{I}(A(m) > A(f))}
             {\\sum_{m \\in T_m} \\sum_{f \\in T_f} C(m, f)}

over ALL male x female pairs, with ``C`` the cosine similarity of the sentence
embeddings. Direction: by this formula a score ABOVE 50 means the model
prefers the male sentences (gives them higher likelihood). The paper's prose
(§3) states the opposite ("below 50 = male bias"); we follow the formula, and
every result says which group is preferred in :attr:`MBEResult.preferred`: the
group the score leans to when the test rejects (``p < alpha``), else ``"none"``
(a score away from 50 that the test cannot tell from chance prefers no group).

Significance. The paper (§3) names McNemar's test of the model's indicator
against a randomly assigned indicator. Its indicators share comparison sets
and are dependent, so that reading is anti-conservative (see
:func:`mbe_score`); the default here is a label-permutation test
(:func:`mgbias.measures.mbe_permutation.mbe_permutation_test`): male and female
labels are reassigned at random and Eq. 2 recomputed; ``p < alpha`` is
significant. With cluster labels (the gender words that put each sentence in
its set) whole clusters are relabelled instead, so that a model's own
preference for one gender word does not pass for a gender preference
(``mbe_score``'s ``male_clusters``; calibrated in
``tests/unit/measures/test_mbe_clusters.py``). The Shf baseline (§5.1) pools
and shuffles the two sets before scoring (:func:`shuffled_baseline`) and is
tested sentence by sentence.

The pair matrix can exceed 10^8 entries, so it is scored in tiles of at most
``chunk_size x chunk_size`` pairs (:func:`pair_tiles`); Eq. 2 itself is
:func:`eq2_score` over those tiles, and the McNemar tests count their units
in the same pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from mgbias.measures.aula import aula
from mgbias.measures.mbe_permutation import (
    cluster_codes,
    distinct_cluster_labellings,
    mbe_permutation_test,
    size_strata,
)
from mgbias.seeds import check_seed
from mgbias.stats import mcnemar_test, random_indicator, splitmix64_mix
from mgbias.wordlists.genders import FEMALE, MALE

__all__ = [
    "TESTS",
    "WEIGHTINGS",
    "NO_PREFERENCE",
    "MBEResult",
    "PairTile",
    "check_mbe_options",
    "eq2_score",
    "mbe_of_sentences",
    "mbe_score",
    "pair_tiles",
    "shuffled_baseline",
]

#: Pair weightings ``C(m, f)``: "cosine" (the paper) or "dot" (the published code).
WEIGHTINGS = ("cosine", "dot")

#: Significance tests: label permutation (default) or McNemar's test per sentence or per pair.
TESTS = ("permutation", "mcnemar_sentence", "mcnemar_pair")

#: Default number of random relabellings of the permutation test (p in steps of 1/1000).
DEFAULT_PERMUTATIONS = 999

#: How to read a score; repeated in :meth:`MBEResult.to_dict`.
DIRECTION_NOTE = (
    "score > 50: male sentences preferred (higher A(T)); score < 50: female sentences "
    "preferred; 50: no preference (Kaneko et al. 2022, Eq. 2)"
)


@dataclass(frozen=True)
class MBEResult:
    """Outcome of :func:`mbe_score`.

    Attributes
    ----------
    score : float
        ``100 * sum C(m,f) I(A(m) > A(f)) / sum C(m,f)`` (Eq. 2).
    n_male, n_female : int
        Number of male and female sentences.
    n_comparisons : int
        ``n_male * n_female``: the (male, female) sentence pairs Eq. 2 sums over.
    weighting : str
        ``"cosine"`` or ``"dot"``.
    b : int or None
        McNemar tests: units (sentences or pairs, see ``test``) where the
        model's indicator is 1 and the random indicator 0. ``None`` for the
        permutation test.
    c : int or None
        McNemar tests: units where the model's indicator is 0 and the random
        indicator 1. ``None`` for the permutation test.
    statistic : float or None
        McNemar tests: the statistic of :func:`mgbias.stats.mcnemar_test` on
        ``b`` and ``c``. Permutation test: ``None`` (its statistic is
        ``|score - 50|`` itself).
    p_value : float
        Two-sided p-value of the selected test.
    significant : bool
        ``p_value < alpha``.
    preferred : str
        When ``significant``: ``"male"`` if ``score > 50``, ``"female"`` if
        ``score < 50`` (direction by the formula, see the module docstring);
        otherwise :data:`NO_PREFERENCE` (``"none"``), whatever side of 50 the
        score lies on.
    test : str
        The significance test, one of :data:`TESTS`.
    n_permutations : int or None
        Random relabellings of the permutation test; ``None`` for McNemar.
    n_clusters : int or None
        Clusters (e.g. gender words) the permutation test relabelled as units,
        male and female together; ``None`` when its units were the sentences.
    """

    score: float
    n_male: int
    n_female: int
    n_comparisons: int
    weighting: str
    b: int | None
    c: int | None
    statistic: float | None
    p_value: float
    significant: bool
    preferred: str
    test: str = "permutation"
    n_permutations: int | None = None
    n_clusters: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of all fields plus ``"direction"``, a note on how to read the score."""
        record = asdict(self)
        record["direction"] = DIRECTION_NOTE
        return record


#: ``preferred`` of a result whose test does not reject: no group is preferred.
NO_PREFERENCE = "none"


def _preferred_group(score: float, significant: bool) -> str:
    """The group a significant score leans to, else :data:`NO_PREFERENCE`."""
    if significant and score > 50.0:
        return MALE
    if significant and score < 50.0:
        return FEMALE
    return NO_PREFERENCE


def _check_scores(scores: Any, name: str) -> np.ndarray:
    array = np.asarray(scores, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one score per sentence), got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty; MBE needs at least one sentence per gender")
    if not np.isfinite(array).all():
        raise ValueError(f"{name}[{int(np.argmin(np.isfinite(array)))}] is not finite")
    return array


def _check_embeddings(embeddings: Any, name: str, n_rows: int, scores_name: str) -> np.ndarray:
    array = np.asarray(embeddings, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] != n_rows:
        raise ValueError(
            f"{name} must have shape ({n_rows}, d) (one row per entry of {scores_name}), "
            f"got shape {array.shape}"
        )
    if array.shape[1] == 0:
        raise ValueError(f"{name} has embedding dimension 0, got shape {array.shape}")
    if not np.isfinite(array).all():
        row = int(np.flatnonzero(~np.isfinite(array).all(axis=1))[0])
        raise ValueError(f"{name}[{row}] holds a non-finite value")
    return array


def _check_inputs(
    male_scores: Any, female_scores: Any, male_emb: Any, female_emb: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    male = _check_scores(male_scores, "male_scores")
    female = _check_scores(female_scores, "female_scores")
    male_vectors = _check_embeddings(male_emb, "male_emb", male.size, "male_scores")
    female_vectors = _check_embeddings(female_emb, "female_emb", female.size, "female_scores")
    if male_vectors.shape[1] != female_vectors.shape[1]:
        raise ValueError(
            f"female_emb must have the embedding dimension of male_emb "
            f"({male_vectors.shape[1]}), got shape {female_vectors.shape}"
        )
    return male, female, male_vectors, female_vectors


def _unit_rows(embeddings: np.ndarray, name: str) -> np.ndarray:
    norms = np.linalg.norm(embeddings, axis=1)
    zero = np.flatnonzero(norms == 0.0)
    if zero.size:
        raise ValueError(
            f"{name}[{int(zero[0])}] is the zero vector; its cosine similarity is undefined"
        )
    return embeddings / norms[:, None]


@dataclass(frozen=True)
class PairTile:
    """One tile of the male x female pair matrix (:func:`pair_tiles`).

    Attributes
    ----------
    rows, cols : slice
        The male sentences (rows) and female sentences (columns) of the tile,
        as index ranges into the whole sets.
    weights : np.ndarray of float64, shape (n_rows, n_cols)
        The pair weights ``C(m, f)``.
    male_wins : np.ndarray of bool, shape (n_rows, n_cols)
        The indicator ``I(A(m) > A(f))``.
    """

    rows: slice
    cols: slice
    weights: np.ndarray
    male_wins: np.ndarray


def pair_tiles(
    male: np.ndarray,
    female: np.ndarray,
    male_vectors: np.ndarray,
    female_vectors: np.ndarray,
    chunk_size: int,
) -> Iterator[PairTile]:
    """The male x female pair matrix in tiles of at most ``chunk_size x chunk_size`` pairs.

    Tiles come row block by row block, each row block column block by column
    block. The weight of a pair is the dot product of its two embedding rows:
    the cosine similarity when the rows are unit vectors (``weighting="cosine"``
    of :func:`mbe_score`, which normalises them first).

    Parameters
    ----------
    male, female : 1-D float arrays
        Sentence scores ``A(T)`` of the male and female sentences.
    male_vectors, female_vectors : 2-D float arrays, shapes (n_male, d) and (n_female, d)
        Their embeddings.
    chunk_size : int
        The most rows and columns a tile has (a positive integer).

    Yields
    ------
    PairTile
    """
    for row_start in range(0, male.size, chunk_size):
        rows = slice(row_start, min(row_start + chunk_size, male.size))
        male_tile_vectors, male_tile_scores = male_vectors[rows], male[rows, None]
        for col_start in range(0, female.size, chunk_size):
            cols = slice(col_start, min(col_start + chunk_size, female.size))
            weights = male_tile_vectors @ female_vectors[cols].T
            yield PairTile(rows, cols, weights, male_tile_scores > female[None, cols])


def eq2_score(tiles: Iterable[PairTile], *, weighting: str = "cosine") -> float:
    """Eq. 2 of Kaneko et al. (2022) over the tiles of the pair matrix.

    .. math::

        \\mathrm{MBE} = 100 \\times
            \\frac{\\sum_{m, f} C(m, f)\\, \\mathbb{I}(A(m) > A(f))}{\\sum_{m, f} C(m, f)}

    Each tile's two sums are taken in float64 (``np.sum``), and the tiles'
    sums added exactly (``math.fsum``), in tile order. ``weighting`` only
    names the weights in the error message.

    Raises
    ------
    ValueError
        If the total weight ``sum C(m, f)`` is not positive.

    Examples
    --------
    >>> import numpy as np
    >>> tiles = pair_tiles(np.array([1.0, 0.0]), np.array([0.5]),
    ...                    np.array([[1.0], [3.0]]), np.array([[1.0]]), chunk_size=1)
    >>> eq2_score(tiles, weighting="dot")  # 100 * 1 / (1 + 3)
    25.0
    """
    weighted_hits: list[float] = []  # per-tile sums of C(m, f) * I(A(m) > A(f))
    weight_totals: list[float] = []  # per-tile sums of C(m, f)
    for tile in tiles:
        weighted_hits.append(float(np.sum(tile.weights, where=tile.male_wins)))
        weight_totals.append(float(np.sum(tile.weights)))
    total_weight = math.fsum(weight_totals)
    if not total_weight > 0.0:
        raise ValueError(
            f"the total pair weight sum C(m, f) is {total_weight}, not positive; "
            f"the {weighting} weighted share of Eq. 2 is undefined for these embeddings"
        )
    return 100.0 * (math.fsum(weighted_hits) / total_weight)


def mbe_score(
    male_scores: np.ndarray,
    female_scores: np.ndarray,
    male_emb: np.ndarray,
    female_emb: np.ndarray,
    *,
    weighting: str = "cosine",
    chunk_size: int = 2048,
    seed: int = 0,
    alpha: float = 0.05,
    test: str = "permutation",
    n_permutations: int = DEFAULT_PERMUTATIONS,
    male_clusters: Sequence[Any] | None = None,
    female_clusters: Sequence[Any] | None = None,
) -> MBEResult:
    """MBE bias score over all male x female sentence pairs (Kaneko et al. 2022, Eq. 2).

    Parameters
    ----------
    male_scores, female_scores : 1-D float arrays
        Sentence scores ``A(T)`` (AULA, Eq. 1) of the male and female sentences.
    male_emb, female_emb : 2-D float arrays, shapes (n_male, d) and (n_female, d)
        Sentence embeddings (mean last-layer hidden state over non-special tokens).
    weighting : {"cosine", "dot"}
        Pair weight ``C(m, f)``.

        * ``"cosine"`` (default, the paper): cosine similarity of the two
          embeddings; embeddings are normalised once, up front.
        * ``"dot"``: raw dot products. The published code divides the whole
          dot-product matrix by the product of the two embedding matrices'
          Frobenius norms, a single constant rather than per-pair norms. The
          constant cancels between numerator and denominator of Eq. 2, so raw
          dot products reproduce that code's scores (and ranking of models)
          exactly, up to float rounding.

        Weights may be negative (the formula does not forbid it), in which case
        the score is not confined to [0, 100]; a total weight that is not
        positive is an error.
    chunk_size : int
        The pair matrix is scored in tiles of at most ``chunk_size`` male rows x
        ``chunk_size`` female columns, so working memory is O(chunk_size**2)
        values (about 30 bytes per pair: weights, hash arrays, indicators) plus
        one float64 copy of the embeddings, whatever the set sizes. The
        permutation test adds per-score-group embedding sums (at most another
        ``n x d`` float64 array) and ``n x 256`` label blocks; its memory and
        time on large sets: ``python benchmarks/mbe.py``. Counts (``n_comparisons``,
        ``b``, ``c``) and therefore the test are identical for every chunk size;
        ``score`` sums the weights in a different order per chunk size and so
        agrees to float rounding (about 1e-13 relative). The permutation test
        does not use the tiles (it needs no pair matrix, see Notes), so its
        p-value does not depend on ``chunk_size`` at all.
    seed : int
        Seed of the test: the relabellings of the permutation test
        (``numpy.random.default_rng(seed)``) or the random indicator of
        McNemar's test (:func:`mgbias.stats.random_indicator`).
    alpha : float
        Significance level; ``significant = p_value < alpha``.
    test : {"permutation", "mcnemar_sentence", "mcnemar_pair"}
        Significance test (see Notes). Default: the label-permutation test.
    n_permutations : int
        Random relabellings ``B`` of the permutation test (ignored by McNemar).
        The smallest attainable p-value is ``1 / (B + 1)``, so ``B`` must make
        it smaller than ``alpha``.
    male_clusters, female_clusters : sequences, optional
        A cluster label per male (female) sentence, e.g. the gender words that
        put it in its set (:func:`mgbias.wordlists.gender_words.gender_words_of`); give both
        or neither. The permutation test then relabels whole clusters, not
        sentences (:mod:`mgbias.measures.mbe_permutation`, "Clusters"), so a
        preference must be shared by the gender words, beyond their
        word-to-word spread, to be significant. The score does not change.

    Returns
    -------
    MBEResult

    Notes
    -----
    Significance. ``"permutation"`` (default): the male and female sentences
    are pooled, the labels reassigned at random ``n_permutations`` times (same
    group sizes), Eq. 2 recomputed each time, and ``p = (1 + #{|MBE_perm - 50|
    >= |MBE - 50|}) / (B + 1)``
    (:func:`mgbias.measures.mbe_permutation.mbe_permutation_test`). It tests
    "the gender label carries no information about the sentence's score
    (given the pooled sentences)", and is exact for it: on simulated null
    worlds it rejects at the nominal rate (``benchmarks/mbe.py``,
    ``tests/unit/measures/test_mbe_permutation.py``). The Shf baseline is one such
    relabelling. Exchangeability is stronger than "Eq. 2 has expectation 50":
    if gender changed only, say, the spread of the scores or the embeddings,
    the test may reject although the score stays near 50, so read a
    significant result together with its distance from 50.

    The paper instead compares the MLM with "randomly assigned results of the
    indicator function" by McNemar's test: "For each sentence, the presence or
    absence of bias is predicted by two methods, MLM and Random" (§3). The
    published code has no test, so the unit is a choice; both readings are
    kept for comparison with the paper, but

    .. warning::
       Both McNemar readings are anti-conservative: every sentence's (or
       pair's) indicator is computed against the same opposite set, so the
       indicators are dependent while McNemar's test assumes independent
       units. On null worlds (i.i.d. normal scores, uniform random
       embeddings, 300 sentences per gender, 200 draws, ``python
       benchmarks/mbe.py``) they reject 19.5% (sentence) and 82.5% (pair) of
       the time at ``alpha = 0.05`` (the permutation test: 7.5%, inside the
       99% binomial band of 5%, 1.5%-9.5%); with 1,000 sentences per gender,
       15% and 91.5% (permutation test: 2%). Do not read their p-values as
       error rates.

    * ``"mcnemar_sentence"``: a male sentence ``m`` is biased when its
      weighted share of wins, ``sum_f C(m,f) I(A(m) > A(f)) / sum_f C(m,f)``,
      exceeds one half; a female sentence ``f`` is biased when the male
      sentences beat it on more than half of its weight. Each of the
      ``n_male + n_female`` sentences is compared with a seeded fair coin
      ``random_indicator(seed, i, 0)``.
    * ``"mcnemar_pair"``: every pair's ``I(A(m) > A(f))`` is compared with the
      coin ``random_indicator(seed, m, f)`` (drawn from global indices,
      independent of chunking). With thousands of sentences the p-value is
      far too small (on random scores of 20,000 x 20,000 sentences it is 0).

    ``b`` counts units with model 1 / random 0, ``c`` units with model 0 /
    random 1, and :func:`mgbias.stats.mcnemar_test` decides (exact binomial
    below 25 discordant units, else chi-square with continuity correction).
    To reproduce the paper's reading select ``test="mcnemar_sentence"``.

    Ties ``A(m) == A(f)`` count 0 in the indicator (strict ``>``, as in Eq. 2)
    but stay in the denominator.

    Raises
    ------
    ValueError
        If scores are not 1-D, empty or non-finite; if an embedding matrix is
        not ``(n, d)`` with one row per score, the two dimensions differ, or it
        holds non-finite values or (for cosine) a zero vector; if
        ``weighting``, ``chunk_size``, ``alpha``, ``test``, ``n_permutations``
        or ``seed`` is invalid (including ``1 / (n_permutations + 1) >=
        alpha``, which could never be significant); or if the total weight is
        not positive; or if clusters are given for only one gender, with
        another length than their scores, to a McNemar test, span both
        genders, or allow fewer than ``1 / alpha`` distinct labellings (too
        few clusters to ever be significant).

    Examples
    --------
    >>> import numpy as np
    >>> result = mbe_score(np.array([-1.0, -2.0]), np.array([-1.5]),
    ...                    np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 1.0]]))
    >>> result.score, result.preferred
    (50.0, 'none')
    """
    seed = check_seed(seed)
    check_mbe_options(
        weighting=weighting,
        chunk_size=chunk_size,
        alpha=alpha,
        test=test,
        n_permutations=n_permutations,
    )
    by_permutation = test == "permutation"

    male, female, male_vectors, female_vectors = _check_inputs(
        male_scores, female_scores, male_emb, female_emb
    )
    pooled_clusters = check_mbe_clusters(
        male_clusters, female_clusters, male.size, female.size, test=test, alpha=alpha
    )
    if weighting == "cosine":
        male_vectors = _unit_rows(male_vectors, "male_emb")
        female_vectors = _unit_rows(female_vectors, "female_emb")
    if by_permutation:  # one pooled copy, the two sets are views of it
        pooled_vectors = np.concatenate([male_vectors, female_vectors])
        male_vectors, female_vectors = pooled_vectors[: male.size], pooled_vectors[male.size :]

    tiles = pair_tiles(male, female, male_vectors, female_vectors, chunk_size)
    counter = None if by_permutation else _mcnemar_counter(test, seed, male.size, female.size)
    if counter is not None:  # McNemar's units are counted in Eq. 2's pass over the tiles
        tiles = _tapped(tiles, counter.add)
    score = eq2_score(tiles, weighting=weighting)
    if counter is None:  # the permutation test
        permutation = mbe_permutation_test(
            np.concatenate([male, female]),
            pooled_vectors,
            male.size,
            n_permutations=n_permutations,
            seed=seed,
            clusters=pooled_clusters,
        )
        b = c = statistic = None
        p_value = permutation.p_value
    else:
        b, c = counter.counts()
        statistic, p_value = mcnemar_test(b, c)
    return MBEResult(
        score=score,
        n_male=int(male.size),
        n_female=int(female.size),
        n_comparisons=int(male.size) * int(female.size),
        weighting=weighting,
        b=b,
        c=c,
        statistic=statistic,
        p_value=p_value,
        significant=bool(p_value < alpha),
        preferred=_preferred_group(score, bool(p_value < alpha)),
        test=test,
        n_permutations=int(n_permutations) if by_permutation else None,
        n_clusters=None if pooled_clusters is None else int(np.unique(pooled_clusters).size),
    )


def check_mbe_clusters(
    male_clusters: Any, female_clusters: Any, n_male: int, n_female: int, *, test: str, alpha: float
) -> np.ndarray | None:
    """The pooled cluster labels (male first), or ``None``.

    Raises ``ValueError`` for clusters :func:`mbe_score` would refuse (see its
    Raises), so a caller can refuse them before it loads a model.
    """
    if male_clusters is None and female_clusters is None:
        return None
    if male_clusters is None or female_clusters is None:
        raise ValueError("give male_clusters and female_clusters together, or neither")
    if test != "permutation":
        raise ValueError(f"clusters need the permutation test, not test={test!r}")
    for name, labels, size in (
        ("male_clusters", male_clusters, n_male),
        ("female_clusters", female_clusters, n_female),
    ):
        if np.shape(labels) != (size,):
            raise ValueError(
                f"{name} must hold one label per sentence, shape ({size},), "
                f"got shape {np.shape(labels)}"
            )
    pooled = np.concatenate([np.asarray(male_clusters), np.asarray(female_clusters)])
    codes, is_male = cluster_codes(pooled, n_male)
    labellings, twins = distinct_cluster_labellings(is_male, size_strata(np.bincount(codes)))
    if twins / labellings >= alpha:
        raise ValueError(
            f"{int(is_male.sum())} male and {int((~is_male).sum())} female clusters allow only "
            f"{labellings} distinct labellings within their size strata, so p could never fall "
            f"below alpha={alpha}; "
            "the clustered test needs more clusters (gender words), or test sentence by "
            "sentence (mbe.cluster: null; mgbias mbe --units sentences)"
        )
    return pooled


def check_mbe_options(
    *,
    weighting: str = "cosine",
    chunk_size: int = 2048,
    alpha: float = 0.05,
    test: str = "permutation",
    n_permutations: int = DEFAULT_PERMUTATIONS,
) -> None:
    """Raise ``ValueError`` for an option :func:`mbe_score` would refuse, before any scoring.

    The checks of :func:`mbe_score`'s Raises section that need no data: so a
    caller can refuse bad options before it loads a model.
    """
    if weighting not in WEIGHTINGS:
        raise ValueError(f"weighting must be one of {WEIGHTINGS}, got {weighting!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int | np.integer):
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}")
    if test == "permutation":
        _check_permutations(n_permutations, alpha)


def _check_permutations(n_permutations: Any, alpha: float) -> None:
    if isinstance(n_permutations, bool) or not isinstance(n_permutations, int | np.integer):
        raise ValueError(f"n_permutations must be a positive integer, got {n_permutations!r}")
    if n_permutations < 1:
        raise ValueError(f"n_permutations must be a positive integer, got {n_permutations}")
    if 1.0 / (n_permutations + 1) >= alpha:
        needed = math.floor(1.0 / alpha)
        raise ValueError(
            f"n_permutations={n_permutations} can never give p < alpha={alpha} (the smallest "
            f"p-value is 1 / (n_permutations + 1)); use at least {needed}"
        )


def _sentence_discordance(
    male_hits: np.ndarray,
    male_weight: np.ndarray,
    female_hits: np.ndarray,
    female_weight: np.ndarray,
    seed: int,
) -> tuple[int, int]:
    """McNemar's discordant counts with the sentence as the unit (see :func:`mbe_score`).

    A male sentence says "biased towards male" when it wins more than half of
    its weight; a female sentence when it loses more than half of its weight
    to male sentences. Sentence ``i`` (males first, then females) is compared
    with the coin ``random_indicator(seed, i, 0)``.
    """
    model = np.concatenate([male_hits > 0.5 * male_weight, female_hits > 0.5 * female_weight])
    units = np.arange(model.size)
    coin = random_indicator(seed, units, np.zeros(1, dtype=np.int64))[:, 0]
    b = int(np.count_nonzero(model & ~coin))
    c = int(np.count_nonzero(~model & coin))
    return b, c


def _pair_discordance(tile: PairTile, seed: int) -> tuple[int, int]:
    """McNemar's discordant counts of one tile with the pair as the unit (see :func:`mbe_score`).

    Pair ``(m, f)`` is compared with the coin ``random_indicator(seed, m, f)``
    of its global indices, so the counts summed over the tiles do not depend
    on the tiling.
    """
    rows = np.arange(tile.rows.start, tile.rows.stop)
    cols = np.arange(tile.cols.start, tile.cols.stop)
    random_says_male = random_indicator(seed, rows, cols)
    n_model = int(np.count_nonzero(tile.male_wins))
    n_random = int(np.count_nonzero(random_says_male))
    n_both = int(np.count_nonzero(tile.male_wins & random_says_male))
    return n_model - n_both, n_random - n_both


class _SentenceCounter:
    """``test="mcnemar_sentence"``: per-sentence sums of ``C * I`` and ``C``, tile by tile."""

    def __init__(self, seed: int, n_male: int, n_female: int) -> None:
        self.seed = seed
        self.male_hits, self.male_weight = np.zeros(n_male), np.zeros(n_male)
        self.female_hits, self.female_weight = np.zeros(n_female), np.zeros(n_female)

    def add(self, tile: PairTile) -> None:
        hits = np.where(tile.male_wins, tile.weights, 0.0)
        self.male_hits[tile.rows] += hits.sum(axis=1)
        self.male_weight[tile.rows] += tile.weights.sum(axis=1)
        self.female_hits[tile.cols] += hits.sum(axis=0)
        self.female_weight[tile.cols] += tile.weights.sum(axis=0)

    def counts(self) -> tuple[int, int]:
        return _sentence_discordance(
            self.male_hits, self.male_weight, self.female_hits, self.female_weight, self.seed
        )


class _PairCounter:
    """``test="mcnemar_pair"``: the discordant pair counts, summed tile by tile."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.b = self.c = 0

    def add(self, tile: PairTile) -> None:
        b, c = _pair_discordance(tile, self.seed)
        self.b += b
        self.c += c

    def counts(self) -> tuple[int, int]:
        return self.b, self.c


def _mcnemar_counter(
    test: str, seed: int, n_male: int, n_female: int
) -> _SentenceCounter | _PairCounter:
    if test == "mcnemar_sentence":
        return _SentenceCounter(seed, n_male, n_female)
    return _PairCounter(seed)


def _tapped(tiles: Iterable[PairTile], consume: Callable[[PairTile], None]) -> Iterator[PairTile]:
    """The tiles, each handed to ``consume`` on its way (one pass feeds two consumers)."""
    for tile in tiles:
        consume(tile)
        yield tile


def shuffled_baseline(
    male_scores: np.ndarray,
    female_scores: np.ndarray,
    male_emb: np.ndarray,
    female_emb: np.ndarray,
    *,
    seed: int = 0,
    **kw: Any,
) -> MBEResult:
    """Shf baseline (Kaneko et al. 2022, §5.1): MBE of a random split of the pooled sentences.

    Male and female sentences (scores with their embeddings) are pooled, permuted
    with ``numpy.random.default_rng(seed)``, and split into a pseudo-"male" set of
    the original male size and a pseudo-"female" set of the original female
    size, which are scored exactly like :func:`mbe_score`. Gender no longer
    separates the sets, so the score should lie near 50.

    Parameters
    ----------
    male_scores, female_scores, male_emb, female_emb
        As for :func:`mbe_score`.
    seed : int
        Seeds the split. The split's score is tested like :func:`mbe_score`'s
        with the derived seed :func:`baseline_test_seed` ``(seed)``, so the
        test's own relabellings are not the split's draw again.
    **kw
        Passed to :func:`mbe_score` (``weighting``, ``chunk_size``, ``alpha``,
        ``test``, ``n_permutations``).

    Returns
    -------
    MBEResult
        ``preferred`` names the pseudo-sets ("male" = the first split).
    """
    male, female, male_vectors, female_vectors = _check_inputs(
        male_scores, female_scores, male_emb, female_emb
    )
    pooled_scores = np.concatenate([male, female])
    pooled_vectors = np.concatenate([male_vectors, female_vectors])
    order = np.random.default_rng(check_seed(seed)).permutation(pooled_scores.size)
    first, second = order[: male.size], order[male.size :]
    return mbe_score(
        pooled_scores[first],
        pooled_scores[second],
        pooled_vectors[first],
        pooled_vectors[second],
        seed=baseline_test_seed(seed),
        **kw,
    )


def baseline_test_seed(seed: int) -> int:
    """Seed of the Shf baseline's test: the splitmix64 finaliser of ``seed + 1`` (mod 2**64).

    :func:`shuffled_baseline` splits the pool with ``default_rng(seed)``; its
    permutation test must not draw that same permutation again as its first
    relabelling, so it gets this derived seed.
    """
    mixed = splitmix64_mix(np.array([(int(seed) + 1) % 2**64], dtype=np.uint64))
    return int(mixed[0])


def mbe_of_sentences(
    logprobs: Sequence[np.ndarray],
    attention: Sequence[np.ndarray],
    embeddings: np.ndarray,
    genders: Sequence[str],
    *,
    seed: int = 0,
    clusters: Sequence[Any] | None = None,
    **options: Any,
) -> tuple[MBEResult, MBEResult, np.ndarray]:
    """Steps 2 and 3 of MBE (Kaneko et al. 2022, §3) from one unmasked pass over a sentence set.

    The AULA of every sentence (Eq. 1, :func:`mgbias.measures.aula.aula`), then Eq. 2
    over the male and female sentences (:func:`mbe_score`) and the Shf baseline
    (:func:`shuffled_baseline`), both with ``seed``. The workflow's ``mbe`` rule and
    :func:`mgbias.api.mlm.mbe` both call this, so they give the same numbers for the same
    pass.

    Parameters
    ----------
    logprobs, attention, embeddings
        Of every sentence, as :class:`mgbias.mlm.scores.SentenceScores` holds them.
    genders : sequence of str
        ``"male"`` or ``"female"`` (:mod:`mgbias.wordlists.genders`) per sentence.
    seed : int
        Seed of the test and of the Shf split.
    clusters : sequence, optional
        A cluster label per sentence (e.g. its gender words): the test of the
        score relabels clusters, not sentences (:func:`mbe_score`,
        ``male_clusters``). The Shf baseline's random split mixes every
        cluster into both halves, so it is tested sentence by sentence.
    **options
        ``weighting``, ``chunk_size``, ``alpha``, ``test``, ``n_permutations``
        (:func:`mbe_score`).

    Returns
    -------
    (MBEResult, MBEResult, numpy.ndarray)
        The score, the Shf baseline, and the AULA of every sentence in input order.
    """
    labels = np.asarray(genders)
    unknown = sorted(set(labels.tolist()) - {MALE, FEMALE})
    if unknown:
        raise ValueError(f"genders must be {MALE!r} or {FEMALE!r}, got {unknown}")
    likelihood = aula(logprobs, attention)
    vectors = np.asarray(embeddings)
    male, female = labels == MALE, labels == FEMALE
    args = (likelihood[male], likelihood[female], vectors[male], vectors[female])
    by_cluster = {}
    if clusters is not None:
        units = np.asarray(clusters)
        if units.shape != labels.shape:
            raise ValueError(
                f"clusters must hold one label per sentence, shape {labels.shape}, "
                f"got shape {units.shape}"
            )
        by_cluster = {"male_clusters": units[male], "female_clusters": units[female]}
    result = mbe_score(*args, seed=seed, **by_cluster, **options)
    baseline = shuffled_baseline(*args, seed=seed, **options)
    return result, baseline, likelihood
