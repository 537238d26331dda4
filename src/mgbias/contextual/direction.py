"""Exp. 1 and Exp. 6: gender directions of contextual vectors (Basta et al. 2020, §5.2.2, §5.3.2).

- :func:`swap_pca` (Exp. 1, Figs. 2–5 and 7): PCA with 10 components of the vectors of a
  definitional word in a sentence (``v``) and in its gender-swapped twin (``v'``). As in
  Bolukbasi et al.'s code (debiaswe ``doPCA``), each pair is centred on its own mean (rows
  ``±(v − v')/2``), reusing :func:`mgbias.embeddings.debias.pair_centred_pca`: a global
  centring of the differences would subtract their mean — the very direction sought
  (§5.2.2 does not say how the differences are centred; ``centring="global"`` is kept for
  comparison). ``g`` = PC1, oriented so
  that ``⟨g, v_male − v_female⟩ > 0`` on average.
- :func:`grammatical_direction` (Exp. 6): linear discriminant analysis (one component) of
  masculine versus feminine nouns; accuracy held out by noun *type* (a test noun is never
  seen in training), over repeated random training sets; ``d_g`` = the unit LDA scaling
  vector, masculine positive.
- :func:`orthogonalise` (Eq. 2): ``d_s = d_pca − ⟨d_pca, d_g⟩ d_g``, renormalised.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from mgbias.contextual.repeated import Repeated, run_rng
from mgbias.embeddings.debias import pair_centred_pca

logger = logging.getLogger(__name__)

__all__ = [
    "CENTRINGS",
    "GenderDirection",
    "GrammaticalDirection",
    "grammatical_direction",
    "orthogonalise",
    "swap_pca",
    "type_split",
]

CENTRINGS = ("pair", "global")


@dataclass(frozen=True)
class GenderDirection:
    """Exp. 1: the gender direction and the PCA's explained variance.

    Attributes
    ----------
    direction
        ``g`` (unit, float64), ``⟨g, male − female⟩ > 0`` on average.
    explained_variance_ratio
        Share of the total variance of each component (PC1 first; Figs. 2–5).
    n_pairs
        Sentence/twin pairs used.
    centring
        ``"pair"`` (Bolukbasi) or ``"global"``.
    """

    direction: np.ndarray
    explained_variance_ratio: np.ndarray
    n_pairs: int
    centring: str

    def to_dict(self) -> dict:
        return {
            "explained_variance_ratio": self.explained_variance_ratio.tolist(),
            "n_pairs": self.n_pairs,
            "centring": self.centring,
            "direction": self.direction.tolist(),
        }


def swap_pca(
    female: np.ndarray, male: np.ndarray, n_components: int = 10, centring: str = "pair"
) -> GenderDirection:
    """Exp. 1 on ``(n, d)`` vectors of the female and the male form of each pair.

    Row ``i`` of ``female`` and ``male`` are the same definitional word position in a
    sentence and in its swapped twin (whichever of the two held the female word).
    """
    female = np.asarray(female, dtype=np.float64)
    male = np.asarray(male, dtype=np.float64)
    if centring == "pair":
        components, ratios = pair_centred_pca(female, male, n_components)
    elif centring == "global":
        if female.shape != male.shape or female.ndim != 2 or len(female) < 2:
            raise ValueError(f"swap_pca: shapes {female.shape} and {male.shape}; need (n>=2, d)")
        differences = male - female
        pca = PCA(n_components=min(n_components, *differences.shape)).fit(differences)
        components, ratios = pca.components_, pca.explained_variance_ratio_
    else:
        raise ValueError(f"centring {centring!r}: expected one of {CENTRINGS}")
    g = components[0] / np.linalg.norm(components[0])
    if float(np.mean((male - female) @ g)) < 0:
        g = -g
    return GenderDirection(g, np.asarray(ratios, dtype=np.float64), len(female), centring)


def orthogonalise(d_pca: np.ndarray, d_g: np.ndarray) -> tuple[np.ndarray, float]:
    """Eq. 2: ``d_s = d_pca − ⟨d_pca, d_g⟩ d_g`` (``d_g`` unit-normalised first), renormalised.

    Returns ``(d_s, ⟨d_pca, d_g⟩)``.
    """
    d_pca = np.asarray(d_pca, dtype=np.float64)
    d_g = np.asarray(d_g, dtype=np.float64)
    d_g = d_g / np.linalg.norm(d_g)
    dot = float(d_pca @ d_g)
    d_s = d_pca - dot * d_g
    norm = np.linalg.norm(d_s)
    if norm == 0:
        raise ValueError("d_pca is parallel to d_g: nothing is left after Eq. 2")
    return d_s / norm, dot


#: Held-out LDA accuracy (by noun type) below which the grammatical direction is flagged
#: weak and a warning logged (Basta et al. 2020 report 0.45–0.65 for ELMo).
LDA_WEAK_ACCURACY = 0.6


@dataclass(frozen=True)
class GrammaticalDirection:
    """Exp. 6: the LDA grammatical-gender direction and its accuracy.

    Attributes
    ----------
    direction
        ``d_g`` (unit), fitted on every noun occurrence; masculine projects higher.
    held_out
        Accuracy on the noun types left out of each run's training set.
    train
        Accuracy on each run's training occurrences.
    n_types
        Noun types ``(feminine, masculine)``.
    """

    direction: np.ndarray
    held_out: Repeated
    train: Repeated
    n_types: tuple[int, int]

    @property
    def weak(self) -> bool:
        """Held-out accuracy below :data:`LDA_WEAK_ACCURACY`: ``d_g`` is near chance (the
        paper's own 0.45–0.65), so Eq. 2 and the grammar lists rest on a weak direction."""
        return not self.held_out.mean >= LDA_WEAK_ACCURACY

    def to_dict(self) -> dict:
        return {
            "held_out": self.held_out.to_dict(),
            "train": self.train.to_dict(),
            "n_types": list(self.n_types),
            "weak": self.weak,
        }


def _lda_direction(
    x: np.ndarray, masculine: np.ndarray
) -> tuple[np.ndarray, LinearDiscriminantAnalysis]:
    lda = LinearDiscriminantAnalysis(n_components=1).fit(x, masculine)
    d = lda.scalings_[:, 0] / np.linalg.norm(lda.scalings_[:, 0])
    if np.mean(x[masculine == 1] @ d) < np.mean(x[masculine == 0] @ d):
        d = -d
    return d, lda


def type_split(
    nouns: Sequence[str], masculine: Sequence[bool], per_gender: int, rng: np.random.Generator
) -> np.ndarray:
    """Training mask of one LDA run (Exp. 6): ``per_gender`` random noun *types* of each
    gender, with every occurrence of them; the other types' occurrences are the test set,
    so no noun type is in both (a noun's gender is a property of its type)."""
    nouns = np.asarray(nouns, dtype=object).astype(str)
    male = np.asarray(masculine, dtype=int)
    both = set(nouns[male == 0]) & set(nouns[male == 1])
    if both:
        raise ValueError(
            f"type_split: {len(both)} noun type(s) labelled with both genders, e.g. "
            f"{sorted(both)[:3]}; a type must have one gender to be held out"
        )
    chosen: set[str] = set()
    for g in (0, 1):
        types = sorted(set(nouns[male == g]))
        if per_gender > len(types):
            raise ValueError(
                f"type_split: {per_gender} training types asked of {len(types)} "
                f"{'masculine' if g else 'feminine'} noun types"
            )
        chosen.update(rng.choice(types, size=per_gender, replace=False).tolist())
    return np.array([noun in chosen for noun in nouns], dtype=bool)


def grammatical_direction(
    matrix: np.ndarray,
    nouns: Sequence[str],
    masculine: Sequence[bool],
    *,
    n_train: int = 3000,
    runs: int = 10,
    seed: int = 0,
) -> GrammaticalDirection:
    """LDA of masculine vs feminine noun occurrences, held out by noun type.

    Row ``i`` of ``matrix`` is an occurrence of noun ``nouns[i]`` whose grammatical gender
    is ``masculine[i]``. Each run draws ``n_train`` noun types per gender (at most half of
    the types of the smaller gender) for training, with all their occurrences, and tests
    on the occurrences of the other types.
    """
    x = np.asarray(matrix, dtype=np.float64)
    nouns = np.asarray(nouns, dtype=object).astype(str)
    male = np.asarray(masculine, dtype=int)
    types = {g: sorted(set(nouns[male == g])) for g in (0, 1)}
    if min(len(types[0]), len(types[1])) < 2:
        raise ValueError(
            f"grammatical direction: {len(types[0])} feminine and {len(types[1])} masculine "
            "noun types; need at least 2 of each to hold types out"
        )
    per_gender = min(n_train, len(types[0]) // 2, len(types[1]) // 2)
    held, trained = [], []
    for run in range(runs):
        in_train = type_split(nouns, male, per_gender, run_rng(seed, "lda", run))
        _, lda = _lda_direction(x[in_train], male[in_train])
        trained.append(float(lda.score(x[in_train], male[in_train])))
        held.append(float(lda.score(x[~in_train], male[~in_train])))
    direction, _ = _lda_direction(x, male)
    n_types = (len(types[0]), len(types[1]))
    result = GrammaticalDirection(
        direction,
        Repeated(tuple(held), len(nouns), {"n_train_types_per_gender": per_gender}),
        Repeated(tuple(trained), len(nouns), {"n_train_types_per_gender": per_gender}),
        n_types,
    )
    if result.weak:
        logger.warning(
            "grammatical direction: held-out LDA accuracy %.3f (by noun type) is below %.2f; "
            "d_g, Eq. 2's semantic direction and the grammar lists rest on a weak direction",
            result.held_out.mean,
            LDA_WEAK_ACCURACY,
        )
    return result
