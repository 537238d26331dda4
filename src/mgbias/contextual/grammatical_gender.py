"""Experiments 6–9 of Basta et al. (2020, §5.3.2), the grammatical-gender experiments:
Spanish, where gender is also grammatical (and, beyond the paper, French and German, run
the same way).

- **Exp. 6** (:func:`grammatical_gender_directions`, Fig. 7): the *semantic* direction
  ``d_pca`` is the pair-centred PCA of swapped definitional words (Exp. 1,
  :func:`~.direction.swap_pca`); the *grammatical* direction ``d_g`` is the LDA of
  masculine versus feminine noun occurrences, held out by noun type
  (:func:`~.direction.grammatical_direction`); the direction used is
  ``d_s = d_pca − ⟨d_pca, d_g⟩ d_g`` (Eq. 2, :func:`~.direction.orthogonalise`). The
  paper notes a "slight decrease" of the variance explained after Eq. 2:
  :func:`variance_share` gives the share of the pair-centred variance along ``d_pca``
  and along ``d_s``.
- **Exp. 7** (:func:`form_direct_bias`, Table 6, Fig. 9): direct bias (Eq. 1, c = 1) of
  profession occurrences, separately for the feminine forms, the masculine forms and both
  pooled (Table 6's "together", 0.098, is no mean of its other two rows; here it is
  computed on the pooled occurrences), on ``d_s`` and
  on ``d_g`` (§6.2.2 names both directions; Table 6 prints only the semantic one).
- **Exp. 8–9** (Table 7): k-means (Exp. 3) and the RBF SVM (Exp. 4) on two lists: the
  *semantic* list (male- versus female-biased words) and the *grammar* list (masculine
  versus feminine words). With static vectors they are the top words along ``d_s`` and
  ``d_g`` (:func:`static_grammatical_gender_lists`); without them, the professions by their bias
  (:func:`semantic_list`) and the professions' masculine and feminine forms
  (:func:`grammar_list`).
- :func:`direction_projections` (Figs. 8 and 9): each word's mean ``cos`` with ``d_s``
  and ``d_g``, x and y of the figures (the paper does not name their axes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mgbias.contextual.direction import (
    GrammaticalDirection,
    grammatical_direction,
    orthogonalise,
    swap_pca,
)
from mgbias.embeddings.debias import cosines_with, direct_bias_of_rows

__all__ = [
    "FORMS",
    "GrammaticalGenderDirections",
    "direction_projections",
    "form_direct_bias",
    "form_genders",
    "grammar_list",
    "semantic_list",
    "grammatical_gender_directions",
    "static_grammatical_gender_lists",
    "variance_share",
]

#: Rows of Table 6: feminine forms, masculine forms, both pooled.
FORMS = ("female", "male", "all")


def variance_share(female: np.ndarray, male: np.ndarray, direction: np.ndarray) -> float:
    """Share of the pair-centred variance of the pairs along the unit ``direction``.

    The rows are ``±(v_f − v_m)/2`` (mean 0), as in the swap PCA; the share is
    ``Σ ⟨r, u⟩² / Σ ‖r‖²``, which equals PC1's explained-variance ratio for ``u`` = PC1.
    """
    half = (np.asarray(male, np.float64) - np.asarray(female, np.float64)) / 2
    total = float(np.sum(half**2))
    if total == 0:
        raise ValueError("variance_share: every pair is identical (no variance)")
    u = np.asarray(direction, np.float64)
    u = u / np.linalg.norm(u)
    return float(np.sum((half @ u) ** 2) / total)


@dataclass(frozen=True)
class GrammaticalGenderDirections:
    """Exp. 6 of one (corpus, layer).

    Attributes
    ----------
    pca
        ``d_pca`` (unit, male-ward), from the swap PCA.
    explained_variance_ratio
        The swap PCA's ratios (Fig. 7).
    grammatical
        The LDA result: ``d_g`` (unit, masculine-ward) and its accuracies by noun type.
    semantic
        ``d_s`` after Eq. 2 (unit).
    dot
        ``⟨d_pca, d_g⟩`` before Eq. 2.
    variance_pca, variance_semantic
        :func:`variance_share` along ``d_pca`` and along ``d_s``.
    """

    pca: np.ndarray
    explained_variance_ratio: np.ndarray
    grammatical: GrammaticalDirection
    semantic: np.ndarray
    dot: float
    variance_pca: float
    variance_semantic: float

    @property
    def directions(self) -> dict[str, np.ndarray]:
        """``{"semantic": d_s, "grammatical": d_g}``."""
        return {"semantic": self.semantic, "grammatical": self.grammatical.direction}

    def to_dict(self) -> dict:
        return {
            "explained_variance_ratio": self.explained_variance_ratio.tolist(),
            "lda": self.grammatical.to_dict(),
            "dot_pca_grammatical": self.dot,
            "dot_semantic_grammatical": float(self.semantic @ self.grammatical.direction),
            "variance_pca": self.variance_pca,
            "variance_semantic": self.variance_semantic,
        }


def grammatical_gender_directions(
    female: np.ndarray,
    male: np.ndarray,
    nouns_matrix: np.ndarray,
    nouns: Sequence[str],
    masculine: Sequence[bool],
    *,
    n_components: int = 10,
    n_train: int = 3000,
    runs: int = 10,
    seed: int = 0,
) -> GrammaticalGenderDirections:
    """Exp. 6: ``d_pca`` from the swapped pairs, ``d_g`` from the nouns, ``d_s`` by Eq. 2.

    ``female``/``male`` are the ``(n, d)`` vectors of each swapped definitional word in
    its feminine and masculine sentence; row ``i`` of ``nouns_matrix`` is an occurrence of
    ``nouns[i]`` of grammatical gender ``masculine[i]``.
    """
    pca = swap_pca(female, male, n_components)
    grammatical = grammatical_direction(
        nouns_matrix, nouns, masculine, n_train=n_train, runs=runs, seed=seed
    )
    semantic, dot = orthogonalise(pca.direction, grammatical.direction)
    return GrammaticalGenderDirections(
        pca=pca.direction,
        explained_variance_ratio=pca.explained_variance_ratio,
        grammatical=grammatical,
        semantic=semantic,
        dot=dot,
        variance_pca=variance_share(female, male, pca.direction),
        variance_semantic=variance_share(female, male, semantic),
    )


def form_genders(profession_pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{form: "female" | "male"}`` of the ``(female, male)`` profession pairs (lower
    case); a form listed with both genders (``piloto``/``piloto``) is left out."""
    seen: dict[str, set[str]] = {}
    for female, male in profession_pairs:
        seen.setdefault(female.lower(), set()).add("female")
        seen.setdefault(male.lower(), set()).add("male")
    return {w: next(iter(g)) for w, g in seen.items() if len(g) == 1}


def form_direct_bias(
    matrix: np.ndarray,
    words: Sequence[str],
    forms: Mapping[str, str],
    directions: Mapping[str, np.ndarray],
) -> list[dict]:
    """Exp. 7 (Table 6): Eq. 1 per direction on the feminine, masculine and all forms.

    Row ``i`` of ``matrix`` is an occurrence of the profession form ``words[i]``;
    ``forms`` gives each form's grammatical gender (:func:`form_genders`); a form not in
    it counts for ``"all"`` only. Returns one dict per (direction, forms) with
    ``direction``, ``forms``, ``value`` (NaN without occurrences) and ``n``.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    kinds = np.array([forms.get(w, "") for w in words], dtype=object)
    out = []
    for name, direction in directions.items():
        for kind in FORMS:
            mask = np.ones(len(words), bool) if kind == "all" else kinds == kind
            n = int(mask.sum())
            value = direct_bias_of_rows(matrix[mask], direction) if n else float("nan")
            out.append({"direction": name, "forms": kind, "value": float(value), "n": n})
    return out


def grammar_list(profession_pairs: Iterable[tuple[str, str]]) -> dict[str, bool]:
    """The grammar list without static vectors: ``{form: True if masculine}``."""
    return {w: g == "male" for w, g in form_genders(profession_pairs).items()}


def semantic_list(bias: Mapping[str, float]) -> dict[str, bool]:
    """The semantic list without static vectors: ``{word: True if male-biased}`` (every
    gendered form of a profession carries the profession's bias)."""
    return {w.lower(): b > 0 for w, b in bias.items() if b != 0}


def direction_projections(
    matrix: np.ndarray, words: Sequence[str], directions: Mapping[str, np.ndarray]
) -> dict[str, dict]:
    """Figs. 8–9: ``{word: {"n", <direction>: mean cos, ...}}`` over each word's rows."""
    matrix = np.asarray(matrix, dtype=np.float64)
    words = np.asarray(words, dtype=object)
    cos = {name: cosines_with(matrix, d) for name, d in directions.items()} if len(words) else {}
    out: dict[str, dict] = {}
    for word in sorted(set(words.tolist())):
        mask = words == word
        out[word] = {"n": int(mask.sum())} | {
            name: float(np.mean(values[mask])) for name, values in cos.items()
        }
    return out


def static_grammatical_gender_lists(
    vectors,
    definitional: Sequence[tuple[str, str]],
    noun_genders: Mapping[str, bool],
    *,
    n: int,
    top_n: int = 50_000,
    exclude: Iterable[str] = (),
    seed: int = 0,
):
    """Exp. 8–9's lists from static vectors (§5.3.2): ``(semantic, grammar)``
    :class:`~.biased_words.BiasedWords` of ``n`` words per side.

    ``d_pca`` = the pair-centred PCA of the definitional pairs' static vectors, ``d_g``
    = the LDA of the static vectors of the nouns of known gender (``noun_genders``,
    ``{noun: True if masculine}``), ``d_s`` by Eq. 2; the semantic list ranks the
    vocabulary on ``d_s``, the grammar list on ``d_g`` (:func:`~.biased_words.biased_words`).

    Raises
    ------
    ValueError
        If fewer than 2 definitional pairs or nouns of each gender are in the vocabulary.
    """
    from mgbias.contextual.biased_words import biased_words

    pairs = [(f, m) for f, m in definitional if f in vectors and m in vectors]
    nouns = sorted(w for w in noun_genders if w in vectors)
    if len(pairs) < 2 or len({noun_genders[w] for w in nouns}) < 2:
        raise ValueError(
            f"{vectors.source}: {len(pairs)} definitional pairs and {len(nouns)} gendered "
            "nouns in the vocabulary; need >= 2 pairs and nouns of both genders"
        )
    female = vectors.rows([f for f, _ in pairs]).astype(np.float64)
    male = vectors.rows([m for _, m in pairs]).astype(np.float64)
    masculine = [noun_genders[w] for w in nouns]
    directions = grammatical_gender_directions(
        female,
        male,
        vectors.rows(nouns).astype(np.float64),
        nouns,
        masculine,
        runs=1,
        seed=seed,
    )
    excluded = set(exclude)
    semantic = biased_words(
        vectors, n, direction=directions.semantic, top_n=top_n, exclude=excluded
    )
    grammar = biased_words(
        vectors, n, direction=directions.grammatical.direction, top_n=top_n, exclude=excluded
    )
    return semantic, grammar
