"""Male-oriented pair scores, for correlating pair measures with the male rate r.

Kaneko, Bollegala & Okazaki (2023) correlate each measure's score with the
share r of male sentences a model was fine-tuned on. SSS, CPS, AUL and AULA
are "% of pairs in which the stereotypical sentence is preferred" (their
papers; :mod:`mgbias.measures.preference`), which is not a male-vs-female
direction: CrowS-Pairs gender pairs are stereotypes about women in some rows
and about men in others. A score that should rise with r needs each pair's
*male* side (the paper does not say how it oriented these scores; orienting each pair
by its gendered words is the project's reading):

- the **modified words** of a pair are the words not shared by its two
  sentences: the two word sequences (:func:`mgbias.wordlists.gender_words.english_tokens`:
  lowercased runs of letters and digits) aligned with
  ``difflib.SequenceMatcher`` as in :func:`mgbias.pairs.tokens.shared_token_indices`
  (Nangia et al.'s convention, on words instead of a model's subwords, so
  every model of a grid is scored on the same pairs);
- the **male side** is the sentence whose modified words hold a word of the
  male list and none of the female list, while the other sentence's modified
  words hold a female word and no male word (an entry of several words counts
  if one of its words is modified);
- every other pair is **unorientable** and dropped, counted by reason
  (:data:`ORIENTATIONS`): no list word among the modified words, list words
  on one side only, the same gender on both sides, or both genders on a side.

The oriented score of a measure is ``100 x #(pairs where the male sentence
scores higher) / n`` over the oriented pairs (:func:`oriented_preference`;
ties and edge pairs as in :func:`mgbias.measures.preference.compare_pairs`).
Swapping the two sentences of every pair leaves it unchanged, whereas the
paper-literal "% stereotypical preferred" becomes 100 minus itself.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from mgbias.measures import pair
from mgbias.measures.edges import EDGE_FLAGS, PairEdges
from mgbias.measures.preference import PairPreferenceResult, compare_pairs
from mgbias.pairs.tokens import shared_token_indices
from mgbias.wordlists.gender_words import english_tokens

__all__ = [
    "MALE_LESS",
    "MALE_MORE",
    "ORIENTATIONS",
    "ORIENTED_COLUMNS",
    "OrientedResult",
    "modified_word_mask",
    "orient_pair",
    "orient_pairs",
    "oriented_pair_scores",
    "oriented_preference",
]

MALE_MORE = "male_more"
MALE_LESS = "male_less"
#: Orientation of a pair: the first two are oriented, the others name why a pair is not.
ORIENTATIONS = (MALE_MORE, MALE_LESS, "no_gender_word", "one_side", "same_gender", "mixed")

#: Columns of :func:`oriented_pair_scores`.
ORIENTED_COLUMNS = [
    "measure",
    "direction",
    "score",
    "n",
    "n_preferred",
    "n_ties",
    "n_edge",
    "n_pairs",
    "n_unorientable",
]


def modified_word_mask(
    sentence_a: str, sentence_b: str
) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """The words of both sentences and which of them are modified (not shared).

    Returns
    -------
    tuple
        ``(words_a, modified_a, words_b, modified_b)``; ``modified_*`` are bool
        arrays, one entry per word.

    Examples
    --------
    >>> words_a, mod_a, words_b, mod_b = modified_word_mask("He is a nurse.", "She is a nurse.")
    >>> words_a, mod_a.tolist(), mod_b.tolist()
    (['he', 'is', 'a', 'nurse'], [True, False, False, False], [True, False, False, False])
    """
    words_a, words_b = english_tokens(sentence_a), english_tokens(sentence_b)
    vocabulary: dict[str, int] = {}
    ids_a = [vocabulary.setdefault(word, len(vocabulary)) for word in words_a]
    ids_b = [vocabulary.setdefault(word, len(vocabulary)) for word in words_b]
    shared_a, shared_b = shared_token_indices(ids_a, ids_b)
    modified_a = np.ones(len(words_a), dtype=bool)
    modified_b = np.ones(len(words_b), dtype=bool)
    modified_a[shared_a] = False
    modified_b[shared_b] = False
    return words_a, modified_a, words_b, modified_b


def _entries(words: Collection[str]) -> list[tuple[str, ...]]:
    entries = []
    for word in words:
        tokens = tuple(english_tokens(word))
        if not tokens:
            raise ValueError(f"word list entry {word!r} has no word characters")
        entries.append(tokens)
    return entries


def _holds(words: list[str], modified: np.ndarray, entries: list[tuple[str, ...]]) -> bool:
    """Does an entry occur in ``words`` with at least one of its words modified?"""
    for entry in entries:
        n = len(entry)
        for start in range(len(words) - n + 1):
            if tuple(words[start : start + n]) == entry and modified[start : start + n].any():
                return True
    return False


def _orientation(male_a: bool, female_a: bool, male_b: bool, female_b: bool) -> str:
    if male_a and not female_a and female_b and not male_b:
        return MALE_MORE
    if male_b and not female_b and female_a and not male_a:
        return MALE_LESS
    if (male_a and female_a) or (male_b and female_b):
        return "mixed"
    if not (male_a or female_a or male_b or female_b):
        return "no_gender_word"
    if (male_a or female_a) != (male_b or female_b):
        return "one_side"
    return "same_gender"


def orient_pair(
    sent_more: str, sent_less: str, male: Collection[str], female: Collection[str]
) -> str:
    """Which sentence of a pair is the male one (see the module docstring).

    Returns
    -------
    str
        ``"male_more"`` (``sent_more`` is the male sentence), ``"male_less"``,
        or the reason the pair cannot be oriented (:data:`ORIENTATIONS`).

    Examples
    --------
    >>> orient_pair("He is a nurse.", "She is a nurse.", {"he"}, {"she"})
    'male_more'
    >>> orient_pair("She is a nurse.", "He is a nurse.", {"he"}, {"she"})
    'male_less'
    >>> orient_pair("He is a nurse.", "He is a doctor.", {"he"}, {"she"})
    'no_gender_word'
    """
    return orient_pairs([sent_more], [sent_less], male, female)[0]


def orient_pairs(
    sent_more: Sequence[str],
    sent_less: Sequence[str],
    male: Collection[str],
    female: Collection[str],
) -> list[str]:
    """:func:`orient_pair` of every pair.

    Raises
    ------
    ValueError
        If the two sequences differ in length, the lists share an entry, or an
        entry has no word characters.
    """
    if len(sent_more) != len(sent_less):
        raise ValueError(
            f"orient_pairs: {len(sent_more)} sent_more but {len(sent_less)} sent_less sentences"
        )
    male_entries, female_entries = _entries(male), _entries(female)
    overlap = sorted(set(male_entries) & set(female_entries))
    if overlap:
        raise ValueError(f"word(s) in both the male and the female list: {overlap}")
    result = []
    for more, less in zip(sent_more, sent_less, strict=True):
        words_a, modified_a, words_b, modified_b = modified_word_mask(str(more), str(less))
        result.append(
            _orientation(
                _holds(words_a, modified_a, male_entries),
                _holds(words_a, modified_a, female_entries),
                _holds(words_b, modified_b, male_entries),
                _holds(words_b, modified_b, female_entries),
            )
        )
    return result


@dataclass(frozen=True)
class OrientedResult:
    """Outcome of :func:`oriented_preference`.

    Attributes
    ----------
    score : float
        100 x share of the oriented pairs in which the male sentence scores
        higher (ties per the tie rule); NaN if no pair is counted.
    n_pairs : int
        Pairs given.
    n_unorientable : int
        Pairs dropped because they cannot be oriented.
    preference : PairPreferenceResult
        :func:`~mgbias.measures.preference.compare_pairs` on the oriented pairs,
        with the male sentence in the role of ``sent_more`` (``n_more`` =
        pairs preferring the male sentence).
    """

    score: float
    n_pairs: int
    n_unorientable: int
    preference: PairPreferenceResult

    def to_dict(self) -> dict[str, Any]:
        record = {key: value for key, value in asdict(self).items() if key != "preference"}
        record.update(
            {
                "n": self.preference.n_counted,
                "n_male_preferred": self.preference.n_more,
                "n_female_preferred": self.preference.n_less,
                "n_ties": self.preference.n_ties,
                "n_edge": self.preference.n_edge,
                "direction": "score > 50: the male sentence is preferred",
            }
        )
        return record


def oriented_preference(
    more_scores: Any,
    less_scores: Any,
    orientation: Sequence[str],
    *,
    tie_rule: str = "neutral",
    round_to: int | None = None,
    edge: Any = None,
) -> OrientedResult:
    """Percent of oriented pairs in which the model prefers the male sentence.

    ``100 x #(score(male) > score(female)) / n`` over the pairs that
    :func:`orient_pairs` orients; ties, rounding and edge pairs as in
    :func:`~mgbias.measures.preference.compare_pairs`.

    Parameters
    ----------
    more_scores, less_scores : 1-D array-like of float
        Sentence scores of ``sent_more`` and ``sent_less`` (higher = preferred).
    orientation : sequence of str
        Per pair, an entry of :data:`ORIENTATIONS`.
    tie_rule, round_to, edge
        As for :func:`~mgbias.measures.preference.compare_pairs` (``edge``: one flag
        per pair given).

    Examples
    --------
    >>> result = oriented_preference([-1.0, -2.0, -3.0], [-2.0, -1.0, -1.0],
    ...                              ["male_more", "male_less", "one_side"])
    >>> result.score, result.n_unorientable
    (100.0, 1)
    """
    more = np.asarray(more_scores, dtype=np.float64)
    less = np.asarray(less_scores, dtype=np.float64)
    sides = np.asarray(list(orientation), dtype=object)
    if not more.shape == less.shape == sides.shape or more.ndim != 1:
        raise ValueError(
            f"oriented_preference: {more.shape} more scores, {less.shape} less scores and "
            f"{sides.shape} orientations; expected one of each per pair"
        )
    unknown = sorted(set(sides.tolist()) - set(ORIENTATIONS))
    if unknown:
        raise ValueError(f"unknown orientation(s) {unknown}; expected some of {ORIENTATIONS}")
    male_more = sides == MALE_MORE
    kept = male_more | (sides == MALE_LESS)
    edges = np.zeros(more.size, dtype=bool) if edge is None else np.asarray(edge, dtype=bool)
    if edges.shape != more.shape:
        raise ValueError(f"edge must hold one flag per pair ({more.size}), got {edges.shape}")
    male = np.where(male_more, more, less)[kept]
    female = np.where(male_more, less, more)[kept]
    preference = compare_pairs(male, female, tie_rule=tie_rule, round_to=round_to, edge=edges[kept])
    return OrientedResult(
        score=preference.score if preference.n_counted else math.nan,
        n_pairs=int(more.size),
        n_unorientable=int((~kept).sum()),
        preference=preference,
    )


def _edges(per_pair: pd.DataFrame) -> PairEdges | None:
    if not set(EDGE_FLAGS) <= set(per_pair.columns):
        return None
    return PairEdges(*(per_pair[flag].astype(str).eq("True").to_numpy() for flag in EDGE_FLAGS))


def oriented_pair_scores(
    per_pair: pd.DataFrame,
    orientation: Sequence[str],
    *,
    measures: Sequence[str] | None = None,
    tie_rule: str = "neutral",
) -> pd.DataFrame:
    """Male-oriented and paper-literal scores of the pair measures from a per-pair table.

    Parameters
    ----------
    per_pair : pandas.DataFrame
        :func:`mgbias.pairs.scoring.per_pair_table` (``mgbias score --per-pair``,
        the workflow's per-pair CSV): ``{measure}_more``, ``{measure}_less`` and
        the edge flags.
    orientation : sequence of str
        :func:`orient_pairs` of its ``sent_more``/``sent_less``.
    measures : sequence of str, optional
        Pair measures with sentence scores (default: all of them,
        :func:`mgbias.measures.pair.oriented`: ``sss``, ``cps``, ``aul``, ``aula``).
    tie_rule : str
        As for :func:`~mgbias.measures.preference.compare_pairs`; each measure's
        scores are rounded as its record says (CPS: 3 decimals) as
        :func:`mgbias.pairs.scoring.pair_measures` does.

    Returns
    -------
    pandas.DataFrame
        :data:`ORIENTED_COLUMNS`, two rows per measure: ``direction = "male"``
        (% of oriented pairs preferring the male sentence,
        :func:`oriented_preference`) and ``direction = "stereo"`` (the
        paper-literal % of all pairs preferring ``sent_more``, as
        :func:`~mgbias.pairs.scoring.pair_measures`). ``n`` = pairs in the
        denominator, ``n_preferred`` = pairs won by the male (stereo:
        ``sent_more``) sentence, ``n_pairs`` = pairs in the table,
        ``n_unorientable`` = pairs dropped for the male direction (0 for stereo).
    """
    oriented = pair.oriented()
    measures = oriented if measures is None else measures
    unknown = [m for m in measures if m not in oriented]
    if unknown:
        raise ValueError(f"unknown measure(s) {unknown}; expected some of {oriented}")
    if len(orientation) != len(per_pair):
        raise ValueError(
            f"{len(orientation)} orientations for a per-pair table of {len(per_pair)} pairs"
        )
    edges = _edges(per_pair)
    rows = []
    for measure in measures:
        columns = [f"{measure}_more", f"{measure}_less"]
        missing = [column for column in columns if column not in per_pair.columns]
        if missing:
            raise ValueError(f"the per-pair table has no column(s) {missing}")
        more, less = (per_pair[column].to_numpy(dtype=np.float64) for column in columns)
        record = pair.pair_measure(measure)
        edge = None if edges is None else edges.for_measure(record)
        options = {"tie_rule": tie_rule, "round_to": record.round_to, "edge": edge}
        male = oriented_preference(more, less, orientation, **options)
        stereo = compare_pairs(more, less, **options)
        for direction, score, result, dropped in (
            ("male", male.score, male.preference, male.n_unorientable),
            ("stereo", stereo.score, stereo, 0),
        ):
            rows.append(
                (
                    measure,
                    direction,
                    score,
                    result.n_counted,
                    result.n_more,
                    result.n_ties,
                    result.n_edge,
                    len(per_pair),
                    dropped,
                )
            )
    return pd.DataFrame(rows, columns=ORIENTED_COLUMNS)
