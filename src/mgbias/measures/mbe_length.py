"""Whether the lengths of MBE's two sentence sets, not the model, may decide its score.

AULA (Kaneko et al. 2022, Eq. 1) is a mean over a sentence's tokens, and it rises with
the sentence's length: a longer sentence gives each token more context. On the demo's
mined sentences Spearman's rho between AULA and the token count is 0.52 to 0.60 for the
planted and the balanced model alike. Eq. 2 compares every male sentence with every
female one, so when the male sentences are longer than the female ones (mined sentences
of a real corpus are different sentences), ``I(A(m) > A(f))`` favours them for their
length, and MBE moves away from 50 with no gender preference of the model at all. The
permutation test does not see this: it asks whether the labels carry information about
the scores, and a length difference is such information.

:func:`set_lengths` measures both halves of that path, each with a standard test: the
two sets' token counts (Mann-Whitney U, two-sided) and AULA's relation with the token
count over all sentences (Spearman). :meth:`SetLengths.leans` is true when both are
significant and the direction they push MBE in is the side of 50 the score lies on; the
verdict then names the lengths instead of a preference (:mod:`mgbias.api.mlm`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

from mgbias.wordlists.genders import FEMALE, MALE

__all__ = ["LENGTH_COLUMNS", "SetLengths", "length_record", "set_lengths"]


@dataclass(frozen=True)
class SetLengths:
    """The token counts of MBE's two sets and AULA's relation with them.

    Attributes
    ----------
    male, female : float
        Mean token count of the male and of the female sentences.
    p_value : float
        Mann-Whitney U test (two-sided) of the two sets' token counts.
    rho, rho_p_value : float
        Spearman's rank correlation of AULA with the token count over all sentences,
        and its p-value (NaN where either is constant).
    """

    male: float
    female: float
    p_value: float
    rho: float
    rho_p_value: float

    @property
    def push(self) -> int:
        """+1 where the lengths push MBE above 50 (the longer set is male and AULA rises
        with length, or the shorter set is male and AULA falls), -1 below, 0 neither."""
        if np.isnan(self.rho):
            return 0
        return int(np.sign(self.male - self.female) * np.sign(self.rho))

    def leans(self, score: float, alpha: float) -> bool:
        """Both tests below ``alpha`` and the push on the side of 50 ``score`` lies on."""
        return bool(
            self.p_value < alpha
            and self.rho_p_value < alpha
            and self.push != 0
            and self.push == np.sign(score - 50.0)
        )

    def words(self) -> str:
        """``"the male sentences are longer (14.2 against 12.9 tokens on average, p =
        0.003) and AULA rises with length (Spearman rho = 0.55)"``."""
        longer = "male" if self.male > self.female else "female"
        high, low = max(self.male, self.female), min(self.male, self.female)
        trend = "rises" if self.rho > 0 else "falls"
        return (
            f"the {longer} sentences are longer ({high:.1f} against {low:.1f} tokens on "
            f"average, p = {self.p_value:.2g}) and AULA {trend} with length (Spearman rho "
            f"= {self.rho:.2f})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {f"length_{key}": value for key, value in asdict(self).items()}


def length_record(lengths: SetLengths, score: float, alpha: float) -> dict[str, Any]:
    """The ``length_*`` fields of an MBE record (:data:`LENGTH_COLUMNS`): the numbers and
    ``length_lean``, whether they may decide ``score``."""
    return {**lengths.to_dict(), "length_lean": lengths.leans(score, alpha)}


def set_lengths(
    lengths: Sequence[int], scores: Sequence[float], genders: Sequence[str]
) -> SetLengths:
    """:class:`SetLengths` of sentences with token counts ``lengths``, AULA ``scores`` and
    ``genders`` (``"male"`` / ``"female"``, :mod:`mgbias.wordlists.genders`).

    >>> lengths = [5, 6, 7, 8, 9, 10]
    >>> found = set_lengths(lengths, [-3.0, -2.9, -2.5, -2.2, -2.0, -1.9],
    ...                     ["female"] * 3 + ["male"] * 3)
    >>> found.male, found.female, round(found.rho, 2), found.push
    (9.0, 6.0, 1.0, 1)
    """
    from scipy import stats

    counts = np.asarray(lengths, dtype=np.float64)
    values = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(genders)
    if not counts.shape == values.shape == labels.shape or counts.ndim != 1:
        raise ValueError(
            f"lengths, scores and genders must be 1-D of one length, got shapes "
            f"{counts.shape}, {values.shape}, {labels.shape}"
        )
    male, female = counts[labels == MALE], counts[labels == FEMALE]
    if not len(male) or not len(female):
        raise ValueError("set_lengths needs male and female sentences")
    p_value = float(stats.mannwhitneyu(male, female, alternative="two-sided").pvalue)
    if np.ptp(counts) == 0 or np.ptp(values) == 0:
        rho, rho_p = float("nan"), float("nan")
    else:
        rho, rho_p = (float(v) for v in stats.spearmanr(counts, values))
    return SetLengths(float(male.mean()), float(female.mean()), p_value, rho, rho_p)


#: The ``length_*`` fields of an MBE record and table (:func:`length_record`).
LENGTH_COLUMNS = (*(f"length_{field.name}" for field in fields(SetLengths)), "length_lean")
