"""Statistics shared by the measures: McNemar's test, a counter-based random coin,
and the significance tests of the pair measures (sign test, one-sample t-test, and
their clustered counterparts for pairs that share a cause, such as a target word).

The MBE measure (Kaneko et al. 2022, §3) reports significance with McNemar's
test against an indicator function whose values are assigned at random. For
results that do not depend on how the male x female pair matrix is cut into
chunks, the random indicator of a pair is a pure function of
``(seed, row, col)`` (:func:`random_indicator`) rather than a draw from a
stateful generator.
"""

from __future__ import annotations

import functools

import numpy as np

from mgbias.seeds import check_seed

__all__ = [
    "EXACT_FLIPS_UP_TO",
    "EXACT_MCNEMAR_BELOW",
    "cluster_bootstrap_standard_error",
    "cluster_sign_flip_test",
    "finite_vector",
    "mcnemar_test",
    "mean_standard_error",
    "mean_zero_test",
    "proportion_interval",
    "random_indicator",
    "sign_test",
    "smallest_sign_p",
    "splitmix64_mix",
]

#: With ``exact=None``, :func:`mcnemar_test` uses the exact binomial test when
#: the number of discordant cases ``b + c`` is below this, else chi-square.
EXACT_MCNEMAR_BELOW = 25

# splitmix64 constants (Steele, Lea & Flood 2014, "Fast splittable pseudorandom
# number generators"; the finaliser is Stafford's "Mix13" variant of MurmurHash3's
# fmix64, which is what splitmix64 uses):
#: Increment of the splitmix64 state: 2**64 / golden ratio, rounded to an odd number.
GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
#: First multiplier of the splitmix64 finaliser.
MIX_MULTIPLIER_1 = np.uint64(0xBF58476D1CE4E5B9)
#: Second multiplier of the splitmix64 finaliser.
MIX_MULTIPLIER_2 = np.uint64(0x94D049BB133111EB)
#: Right shifts of the finaliser's three xor-shift steps.
MIX_SHIFTS = (np.uint64(30), np.uint64(27), np.uint64(31))
_TOP_BIT = np.uint64(1 << 63)


def mcnemar_test(b: int, c: int, *, exact: bool | None = None) -> tuple[float, float]:
    """McNemar's test for two paired binary classifications.

    Only the discordant counts matter: ``b`` cases where only method 1 says 1,
    ``c`` cases where only method 2 says 1. The test is delegated to
    :func:`statsmodels.stats.contingency_tables.mcnemar` on the table
    ``[[0, b], [c, 0]]`` (the concordant cells do not enter McNemar's test).

    Parameters
    ----------
    b, c : int
        Non-negative discordant counts.
    exact : bool or None, optional
        ``True``: exact binomial test; its statistic is ``min(b, c)``.
        ``False``: chi-square with continuity correction,
        ``(|b - c| - 1)**2 / (b + c)``.
        ``None`` (default): exact when ``b + c < 25``, else chi-square.

    Returns
    -------
    statistic : float
    p_value : float
        Two-sided p-value of the null hypothesis ``P(b-type) == P(c-type)``.
        With no discordant case (``b + c == 0``) there is no evidence either
        way and the result is ``(0.0, 1.0)`` whatever ``exact`` says (the
        chi-square formula would divide by zero).

    Raises
    ------
    ValueError
        If ``b`` or ``c`` is negative or not an integer.

    Examples
    --------
    >>> statistic, p_value = mcnemar_test(30, 10)
    >>> round(statistic, 3)
    9.025
    """
    for name, count in (("b", b), ("c", c)):
        if isinstance(count, bool) or not isinstance(count, int | np.integer):
            raise ValueError(f"McNemar count {name} must be an integer, got {count!r}")
        if count < 0:
            raise ValueError(f"McNemar count {name} must be non-negative, got {count}")
    b, c = int(b), int(c)
    if b + c == 0:
        return 0.0, 1.0
    if exact is None:
        exact = b + c < EXACT_MCNEMAR_BELOW
    # imported here: statsmodels costs every job that imports this module ~1.5 s
    from statsmodels.stats.contingency_tables import mcnemar

    result = mcnemar(np.array([[0, b], [c, 0]], dtype=np.int64), exact=exact, correction=True)
    return float(result.statistic), float(result.pvalue)


def splitmix64_mix(values: np.ndarray) -> np.ndarray:
    """Apply the splitmix64 output finaliser to an array of ``uint64``, in place.

    ``z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27; z *= 0x94D049BB133111EB;
    z ^= z >> 31`` with arithmetic modulo 2**64 (numpy integer arrays wrap
    silently on overflow).

    Parameters
    ----------
    values : np.ndarray of uint64
        Modified in place.

    Returns
    -------
    np.ndarray of uint64
        ``values`` itself, for chaining.
    """
    shift_1, shift_2, shift_3 = MIX_SHIFTS
    values ^= values >> shift_1
    values *= MIX_MULTIPLIER_1
    values ^= values >> shift_2
    values *= MIX_MULTIPLIER_2
    values ^= values >> shift_3
    return values


def _check_index_vector(indices: np.ndarray, name: str) -> np.ndarray:
    array = np.asarray(indices)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of indices, got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} must hold integers, got dtype {array.dtype}")
    if array.size and array.min() < 0:
        raise ValueError(f"{name} must be non-negative, got minimum {array.min()}")
    return array.astype(np.uint64)


def random_indicator(seed: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Fair pseudo-random coin for every ``(row, col)`` pair, a pure function of its inputs.

    The coin of a pair depends only on ``(seed, row, col)``, never on which
    other pairs are drawn in the same call, so a pair matrix scored in chunks
    gets the same coins as the whole matrix at once.

    Construction (splitmix64, vectorised in ``uint64`` arithmetic mod 2**64,
    with ``mix`` the finaliser :func:`splitmix64_mix` and ``G = GOLDEN_GAMMA``):

    1. ``key = mix(seed * G + G)``: a well-mixed per-seed key;
    2. ``row_key = mix(key + (row + 1) * G)``: the ``row``-th splitmix64 output
       of a generator seeded with ``key``;
    3. ``h = mix(row_key + (col + 1) * G)``: the ``col``-th splitmix64 output
       of a generator seeded with ``row_key``;
    4. the coin is the top bit of ``h``.

    Parameters
    ----------
    seed : int
        Non-negative seed; values of 2**64 and above are reduced modulo 2**64.
    rows, cols : 1-D arrays of non-negative integers
        Row and column indices (e.g. male and female sentence indices).

    Returns
    -------
    np.ndarray of bool, shape (len(rows), len(cols))
        ``out[i, j]`` is the coin of pair ``(rows[i], cols[j])``; ``True``
        with probability 1/2.

    Raises
    ------
    ValueError
        If ``seed`` is negative or not an integer, or ``rows``/``cols`` is not
        a 1-D array of non-negative integers.

    Examples
    --------
    >>> import numpy as np
    >>> coins = random_indicator(0, np.arange(3), np.arange(4))
    >>> coins.shape, coins.dtype
    ((3, 4), dtype('bool'))
    """
    seed = check_seed(seed)
    row_indices = _check_index_vector(rows, "rows")
    col_indices = _check_index_vector(cols, "cols")

    key = np.array([seed % 2**64], dtype=np.uint64)
    key *= GOLDEN_GAMMA
    key += GOLDEN_GAMMA
    splitmix64_mix(key)

    row_keys = row_indices + np.uint64(1)
    row_keys *= GOLDEN_GAMMA
    row_keys += key
    splitmix64_mix(row_keys)

    col_steps = col_indices + np.uint64(1)
    col_steps *= GOLDEN_GAMMA

    hashes = row_keys[:, None] + col_steps[None, :]
    splitmix64_mix(hashes)
    return hashes >= _TOP_BIT


def _check_count(count, name: str) -> int:
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {count!r}")
    return int(count)


def sign_test(n_more: int, n_less: int) -> float:
    """Two-sided exact sign test of "no preference" on the non-tied pairs.

    Under the null hypothesis each pair that is not tied is won by ``sent_more``
    or by ``sent_less`` with probability 1/2, independently, so ``n_more`` is
    Binomial(``n_more + n_less``, 1/2) (Conover 1999, §3.4, the sign test).
    Ties carry no information about the direction and are left out, whatever
    tie rule the score itself uses: under ``tie_rule="neutral"`` a tie counts
    as a loss in the score, so with ties the null expectation of the score is
    below 50, while this test still asks whether wins and losses are equally
    likely. The p-value is :func:`scipy.stats.binomtest`'s two-sided exact
    p-value (the sum of the probabilities of all outcomes no more likely than
    the one observed).

    Parameters
    ----------
    n_more, n_less : int
        Pairs won by ``sent_more`` and by ``sent_less``.

    Returns
    -------
    float
        The p-value; 1.0 when no pair is untied (no evidence either way).

    Raises
    ------
    ValueError
        If a count is negative or not an integer.

    Examples
    --------
    >>> round(sign_test(9, 1), 4)  # 2 * (1 + 10) / 2**10
    0.0215
    >>> sign_test(0, 0)
    1.0
    """
    wins, losses = _check_count(n_more, "n_more"), _check_count(n_less, "n_less")
    if wins + losses == 0:
        return 1.0
    from scipy.stats import binomtest  # here: importing scipy.stats takes seconds on some nodes

    return float(binomtest(wins, wins + losses, 0.5, alternative="two-sided").pvalue)


def proportion_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (Wilson 1927), as
    :meth:`scipy.stats.binomtest`'s ``proportion_ci(method="wilson")`` gives it: a
    confidence interval that stays inside [0, 1] and is not empty at 0 or ``n``
    successes; ``(nan, nan)`` for ``n = 0``.

    >>> low, high = proportion_interval(2, 30)
    >>> round(100 * low, 1), round(100 * high, 1)
    (1.8, 21.3)
    """
    hits, total = _check_count(successes, "successes"), _check_count(n, "n")
    if hits > total:
        raise ValueError(f"successes ({hits}) exceed n ({total})")
    if total == 0:
        return float("nan"), float("nan")
    from scipy.stats import binomtest  # here: importing scipy.stats takes seconds on some nodes

    interval = binomtest(hits, total).proportion_ci(confidence_level=level, method="wilson")
    return float(interval.low), float(interval.high)


def mean_standard_error(values) -> float:
    """The standard error of the mean of ``values``, ``sd(ddof=1) / sqrt(n)``
    (:func:`scipy.stats.sem`); NaN for fewer than two values (a NaN among them carries).

    >>> round(mean_standard_error([0.1, 0.3]), 6), mean_standard_error([1.0])
    (0.1, nan)
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2:
        return float("nan")
    from scipy.stats import sem  # here: importing scipy.stats takes seconds on some nodes

    return float(sem(values))


def smallest_sign_p(units: int) -> float:
    """The smallest two-sided p-value that :func:`sign_test` on ``units`` untied pairs, or
    :func:`cluster_sign_flip_test` on ``units`` clusters, can give: every unit on one
    side, ``min(1, 2 / 2**units)``. With five units or fewer it is at least 0.0625, so no
    outcome is significant at 0.05.

    >>> smallest_sign_p(5), smallest_sign_p(6)
    (0.0625, 0.03125)
    """
    return min(1.0, 2.0 * 0.5 ** _check_count(units, "units"))


def finite_vector(values, name: str = "values") -> np.ndarray:
    """``values`` as a 1-D float64 array; a ValueError names the shape or the first
    non-finite entry."""
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name}[{int(np.argmin(np.isfinite(array)))}] is not finite")
    return array


def mean_zero_test(values) -> float:
    """Two-sided one-sample t-test of "the mean is 0" (Student 1908).

    Used for S_JSD, a mean of per-pair scores whose sign gives the
    direction (Steinborn et al. 2022, Eq. 2): :func:`scipy.stats.ttest_1samp`
    against 0. The pairs are the independent units; the t statistic is the
    mean over its standard error, the same quantity the bootstrap standard
    error approximates. Its false-positive rate on simulated nulls (normal,
    heavy-tailed and skewed pair scores with mean 0, with and without zeros)
    is checked in the tests.

    Parameters
    ----------
    values : 1-D array-like of float
        One finite value per pair.

    Returns
    -------
    float
        The p-value; NaN with fewer than two values, 1.0 when every value is 0
        (no evidence either way), 0.0 when all values are equal and not 0.

    Raises
    ------
    ValueError
        If ``values`` is not 1-D or holds a non-finite value.

    Examples
    --------
    >>> mean_zero_test([0.0, 0.0, 0.0])
    1.0
    >>> round(mean_zero_test([-1.0, -2.0, -3.0, -2.0]), 4)
    0.0163
    """
    array = finite_vector(values)
    if array.size < 2:
        return float("nan")
    if np.all(array == array[0]):
        return 1.0 if array[0] == 0.0 else 0.0
    from scipy.stats import ttest_1samp

    return float(ttest_1samp(array, 0.0).pvalue)


#: :func:`cluster_sign_flip_test` enumerates all ``2**k`` sign flips up to this many
#: non-zero clusters (65,536 flips), and draws random flips above it.
EXACT_FLIPS_UP_TO = 16


def _cluster_sums(values, clusters) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values, cluster index per value, per-cluster sums)``; validates both inputs."""
    array = finite_vector(values)
    labels = np.asarray(clusters, dtype=object)
    if labels.shape != array.shape:
        raise ValueError(
            f"clusters must give one label per value: {labels.shape} labels for "
            f"{array.shape} values"
        )
    if labels.size and _missing(labels).any():
        raise ValueError(f"clusters[{int(np.argmax(_missing(labels)))}] is missing")
    _, index = np.unique(labels.astype(str), return_inverse=True)
    index = index.reshape(-1)
    return array, index, np.bincount(index, weights=array, minlength=int(index.max(initial=-1)) + 1)


def _missing(labels: np.ndarray) -> np.ndarray:
    """Whether each label is missing (None or a float NaN)."""
    return np.array(
        [label is None or (isinstance(label, float) and np.isnan(label)) for label in labels.flat]
    )


@functools.lru_cache(maxsize=EXACT_FLIPS_UP_TO + 1)
def _all_flips(k: int) -> np.ndarray:
    """The ``2**k`` sign patterns of ``k`` clusters, one per row (read-only)."""
    patterns = np.arange(2**k, dtype=np.int64)[:, None] >> np.arange(k, dtype=np.int64)
    signs = 1.0 - 2.0 * (patterns & 1)
    signs.flags.writeable = False
    return signs


def cluster_sign_flip_test(values, clusters, *, seed: int = 0, n_resamples: int = 9999) -> float:
    """Two-sided sign-flip test of "no preference" with clusters of pairs as the units.

    The sign test (:func:`sign_test`) and the t-test (:func:`mean_zero_test`) treat
    the pairs as independent. Pairs built from a few target words (the occupations
    of a template benchmark, the demo's pairs) are not: a model's preference for
    one word's feminine form decides every pair that uses the word, so the sign
    test counts one cause many times and its false-positive rate grows with the
    pairs per word. Here the units are the clusters: with ``S_c`` the sum of the
    values of cluster ``c`` and ``T = |sum_c S_c|``, the null hypothesis is that
    each ``S_c`` is symmetric about 0, independently across clusters, so every
    sign pattern ``(e_c S_c)`` with ``e_c`` in {-1, +1} is equally likely, and
    the p-value is the share of patterns with ``|sum_c e_c S_c| >= T``
    (Fisher's randomisation test on cluster sums; Good 2005, §3.6). Clusters
    whose sum is 0 do not change ``T`` under any flip and are left out.

    With one pair per cluster and values +1 (``sent_more`` wins) / -1 (loses) /
    0 (tie) this is the exact sign test: the same p-value as :func:`sign_test`.

    Parameters
    ----------
    values : 1-D array-like of float
        One signed value per pair, positive when ``sent_more`` is preferred:
        +1 / -1 / 0 for the count-based measures, a pair score for S_JSD.
    clusters : 1-D array-like
        One label per pair (any hashable; compared as strings).
    seed : int
        Seed of the random flips, used only above :data:`EXACT_FLIPS_UP_TO` non-zero
        clusters (below it all ``2**k`` flips are enumerated).
    n_resamples : int
        Random flips drawn above :data:`EXACT_FLIPS_UP_TO` clusters; the p-value is
        then ``(1 + hits) / (1 + n_resamples)``.

    Returns
    -------
    float
        The p-value; 1.0 when every cluster sums to 0 (no evidence either way).

    Raises
    ------
    ValueError
        If the lengths differ, a value is not finite, a label is missing, or
        ``seed`` / ``n_resamples`` is invalid.

    Examples
    --------
    >>> cluster_sign_flip_test([1, 1, 1, -1], ["a", "b", "c", "d"]) == sign_test(3, 1)
    True
    >>> cluster_sign_flip_test([1, 1, 1, 1, -1, -1], ["a", "a", "a", "a", "b", "b"])
    1.0
    """
    seed = check_seed(seed)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    _, _, sums = _cluster_sums(values, clusters)
    sums = sums[sums != 0.0]
    if sums.size == 0:
        return 1.0
    observed = abs(float(sums.sum()))
    # sums of the same numbers in another order may differ in the last bits
    tolerance = 1e-9 * float(np.abs(sums).sum())
    k = sums.size
    if k <= EXACT_FLIPS_UP_TO:
        return float(np.mean(np.abs(_all_flips(k) @ sums) >= observed - tolerance))
    rng = np.random.default_rng(seed)
    hits, left = 0, n_resamples
    chunk = max(1, 2**22 // k)  # about 32 MB of signs at a time
    while left:
        draws = min(chunk, left)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(draws, k))
        hits += int(np.count_nonzero(np.abs(signs @ sums) >= observed - tolerance))
        left -= draws
    return (1 + hits) / (1 + n_resamples)


def cluster_bootstrap_standard_error(
    values, clusters, *, seed: int, n_resamples: int = 1000
) -> float:
    """Standard error of the mean of ``values`` when whole clusters are resampled.

    Each resample draws as many clusters as there are, with replacement, and
    takes the mean of the values of the drawn clusters (a cluster drawn twice
    counts twice; Cameron & Miller 2015, §VI.A, the pairs cluster bootstrap).
    The standard error is the standard deviation (``ddof=1``) of those means. With
    one value per cluster it is the ordinary bootstrap of the mean.

    Parameters
    ----------
    values : 1-D array-like of float
        One value per pair (e.g. 100 x the pair's indicator).
    clusters : 1-D array-like
        One label per value.
    seed : int
        Seed of the resampling.
    n_resamples : int
        Bootstrap resamples (>= 2).

    Returns
    -------
    float
        The standard error; NaN with fewer than two clusters (undefined).

    Examples
    --------
    Two clusters of two: the resampled means are 100, 50 or 0 with probabilities
    1/4, 1/2, 1/4, so the standard error is about sqrt(1250) = 35.4:

    >>> se = cluster_bootstrap_standard_error([100.0, 100.0, 0.0, 0.0], ["a", "a", "b", "b"],
    ...                                       seed=0)
    >>> 32 < se < 39
    True
    """
    seed = check_seed(seed)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 2:
        raise ValueError(f"n_resamples must be an integer >= 2, got {n_resamples!r}")
    array, index, sums = _cluster_sums(values, clusters)
    sizes = np.bincount(index, minlength=sums.size).astype(np.float64)
    k = sums.size
    if k < 2:
        return float("nan")
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(k, np.full(k, 1.0 / k), size=n_resamples).astype(np.float64)
    means = (counts @ sums) / (counts @ sizes)
    return float(np.std(means, ddof=1))
