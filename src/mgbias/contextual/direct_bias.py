"""Exp. 2: direct bias of profession occurrences on the gender direction (Basta et al. 2020, Eq. 1).

``DirectBias = (1/|N|) Σ_{w∈N} |cos(w, g)|`` (Bolukbasi et al. 2016, §4.1, c = 1), where
``N`` is the set of profession *occurrences* in sentences without any definitional or
equivalent word (§5.2.2 counts sentences, not word types), ``w`` their contextual vectors
and ``g`` the gender direction of Exp. 1; computed by
:func:`mgbias.embeddings.debias.direct_bias_of_rows`.

The paper calls this measure "less discriminating", and on the demo world a common-mode
projection can dominate it; so the result also carries the signed mean ``cos`` and the
*signed gap*: mean ``cos(w, g)`` over occurrences of male-stereotyped professions minus
that of female-stereotyped ones (``g`` points to male, so a positive gap is the planted
direction). A seeded bootstrap over occurrences gives a percentile interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from mgbias.contextual.repeated import run_rng
from mgbias.embeddings.debias import cosines_with, direct_bias_of_rows

__all__ = ["DirectBiasResult", "contextual_direct_bias"]

_BLOCK = 100  # bootstrap resamples drawn at once


@dataclass(frozen=True)
class DirectBiasResult:
    """Exp. 2 of one (corpus, layer).

    Attributes
    ----------
    value
        DirectBias_c.
    n
        Occurrences ``|N|``.
    signed_mean
        Mean ``cos(w, g)``.
    signed_gap
        Male- minus female-stereotyped mean ``cos`` (NaN without both kinds).
    ci
        Bootstrap percentile interval of ``value`` (NaNs without a bootstrap).
    per_word
        ``{word: {"n", "mean_cos", "mean_abs_cos"}}``.
    """

    value: float
    n: int
    signed_mean: float
    signed_gap: float
    ci: tuple[float, float]
    per_word: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "direct_bias": self.value,
            "n": self.n,
            "signed_mean": self.signed_mean,
            "signed_gap": self.signed_gap,
            "ci_low": self.ci[0],
            "ci_high": self.ci[1],
            "per_word": self.per_word,
        }


def contextual_direct_bias(
    matrix: np.ndarray,
    words: Sequence[str],
    g: np.ndarray,
    *,
    stereotype: Mapping[str, float] | None = None,
    c: float = 1.0,
    n_bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int = 0,
) -> DirectBiasResult:
    """Exp. 2 of occurrence vectors ``matrix`` (row ``i`` an occurrence of ``words[i]``).

    ``stereotype[w]`` > 0 marks a male-, < 0 a female-stereotyped profession (for the
    signed gap only). ``n_bootstrap`` resamples of the occurrences, seeded by ``seed``.
    """
    rows = np.asarray(matrix)
    words = list(words)
    if len(words) != len(rows) or not len(rows):
        raise ValueError(f"direct bias: {len(rows)} vectors for {len(words)} words; need n > 0")
    cosines = cosines_with(rows, g)
    value = direct_bias_of_rows(rows, g, c)
    word_array = np.asarray(words, dtype=object)
    per_word = {
        word: {
            "n": int((word_array == word).sum()),
            "mean_cos": float(cosines[word_array == word].mean()),
            "mean_abs_cos": float(np.abs(cosines[word_array == word]).mean()),
        }
        for word in sorted(set(words))
    }
    gap = float("nan")
    if stereotype is not None:
        sign = np.array([np.sign(stereotype.get(word, 0.0)) for word in words])
        if (sign > 0).any() and (sign < 0).any():
            gap = float(cosines[sign > 0].mean() - cosines[sign < 0].mean())
    ci = (float("nan"), float("nan"))
    if n_bootstrap > 0:
        rng = run_rng(seed, "direct_bias_bootstrap", 0)
        powered = np.abs(cosines) ** c
        means = np.concatenate(
            [
                powered[rng.integers(0, len(powered), size=(block, len(powered)))].mean(axis=1)
                for block in np.diff(np.r_[0:n_bootstrap:_BLOCK, n_bootstrap])
            ]
        )
        tail = (1 - confidence) / 2 * 100
        ci = (float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail)))
    return DirectBiasResult(value, len(rows), float(cosines.mean()), gap, ci, per_word)
