"""The "biased" word lists of Gonen & Goldberg (2019), derived from any static vectors.

Basta et al. (2020) cluster the 500 + 500 words with the largest projection on the
he − she direction of a static embedding (the *biased list*) and classify the 2,500 +
2,500 (English) or 5,000 + 5,000 (Spanish) next ones (the *extended biased list*); the
lists were G&G's, from word2vec GoogleNews, and are not public. This module makes them
from whatever :class:`~mgbias.embeddings.vectors.Vectors` are configured, with the
procedure G&G describe:

- the direction: ``he − she`` by default (any unit vector can be given instead: the
  Spanish semantic ``d_s`` or grammatical ``d_g`` of Exp. 8–9);
- the bias of a word: ``cos(E_w, g)`` (:func:`projection_bias`), > 0 male;
- the vocabulary: the ``top_n`` most frequent words (file order), lower-case and
  alphabetic, minus the gendered words (``exclude``: Bolukbasi's gender-specific words
  and the equalize pairs);
- the lists: the ``n`` words of largest positive and of largest negative bias.

A pure function of its inputs: ties keep the vocabulary order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from mgbias.embeddings.debias import cosines_with
from mgbias.embeddings.vectors import Vectors

__all__ = ["BiasedWords", "biased_words", "he_she_direction", "projection_bias"]


def he_she_direction(vectors: Vectors, male: str = "he", female: str = "she") -> np.ndarray:
    """``(E_he − E_she) / ‖E_he − E_she‖`` (float64); KeyError naming a missing word."""
    d = vectors.vector(male).astype(np.float64) - vectors.vector(female).astype(np.float64)
    return d / np.linalg.norm(d)


def projection_bias(vectors: Vectors, words: Iterable[str], g: np.ndarray) -> dict[str, float]:
    """``{w: cos(E_w, g)}`` for the words in the vocabulary (the "original bias")."""
    present = [w for w in words if w in vectors]
    if not present:
        return {}
    return dict(zip(present, cosines_with(vectors.rows(present), g).tolist(), strict=True))


@dataclass(frozen=True)
class BiasedWords:
    """Male- and female-biased words, most biased first, and every candidate's bias."""

    male: tuple[str, ...]
    female: tuple[str, ...]
    bias: dict

    def labels(self) -> dict[str, bool]:
        """``{word: True if male-biased}`` over both lists."""
        return {**{w: False for w in self.female}, **{w: True for w in self.male}}

    def slice(self, start: int, stop: int) -> BiasedWords:
        """Ranks ``start .. stop-1`` of each list (G&G's extended list follows the first)."""
        male, female = self.male[start:stop], self.female[start:stop]
        return BiasedWords(male, female, {w: self.bias[w] for w in male + female})


def biased_words(
    vectors: Vectors,
    n: int,
    *,
    direction: np.ndarray | None = None,
    top_n: int = 50_000,
    exclude: Iterable[str] = (),
) -> BiasedWords:
    """The ``n`` most male- and ``n`` most female-biased words of ``vectors``.

    Parameters
    ----------
    vectors
        Static vectors, most frequent first.
    n
        Words per gender (500 for the biased list; 500 + 2,500 to slice off the extended).
    direction
        Default :func:`he_she_direction`.
    top_n
        Vocabulary considered (``<= 0``: all).
    exclude
        Gendered words left out (compared in lower case).

    Raises
    ------
    ValueError
        If fewer than ``n`` candidates have each sign.
    """
    g = he_she_direction(vectors) if direction is None else np.asarray(direction, np.float64)
    excluded = {w.lower() for w in exclude}
    head = vectors.head(top_n)
    candidates = [w for w in head.words if w.isalpha() and w.islower() and w not in excluded]
    if not candidates:
        raise ValueError(f"{vectors.source}: no lower-case alphabetic word to rank")
    cos = cosines_with(head.rows(candidates), g)
    # ties keep the vocabulary order in both lists
    male = [candidates[i] for i in np.argsort(-cos, kind="stable") if cos[i] > 0][:n]
    female = [candidates[i] for i in np.argsort(cos, kind="stable") if cos[i] < 0][:n]
    if len(male) < n or len(female) < n:
        raise ValueError(
            f"{vectors.source}: {len(male)} male- and {len(female)} female-biased candidates "
            f"among the top {top_n} words; {n} of each were asked for"
        )
    position = {w: i for i, w in enumerate(candidates)}
    bias = {w: float(cos[position[w]]) for w in male + female}
    return BiasedWords(tuple(male), tuple(female), bias)
