"""Which words of a corpus the probes read: the probe plan (Basta et al. 2020, §5.2).

From a corpus and the lists, :func:`plan_probes` decides every target word whose vector
the experiments need, so that one extraction pass (:mod:`.hidden`) serves them all:

- **Exp. 1**: up to ``n_pca_sentences`` random sentences holding a definitional word that
  swap cleanly (:mod:`.swap`); each definitional word in the sentence and in its twin,
  the twins being appended to the sentence list;
- **Exp. 2**: every profession occurrence in a sentence without any definitional or
  equivalent word (Table 1's "lines in direct bias");
- **Exp. 3–5**: occurrences of the biased-list, extended-list and profession words, at
  most ``max_per_word`` per word (a seeded sample), as each run draws one per word;
- **Exp. 6** (languages with grammatical gender, given a ``noun_analyser``): occurrences
  of nouns the analyser marks ``Masc`` or ``Fem`` (part of speech ``NOUN``), list words
  and professions excluded; a noun type takes the gender of most of its occurrences
  (ties dropped), at most ``max_per_word`` occurrences per type.

Words are matched in lower case. The plan is a pure function of its inputs and the seed,
JSON-serialisable (:meth:`ProbePlan.to_dict`), so the extraction and the experiments can
run in separate jobs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from mgbias.contextual.lists import ProbeLists
from mgbias.contextual.repeated import run_rng
from mgbias.contextual.swap import Analyser, Swapper, swap_corpus
from mgbias.contextual.words import words as split_words

__all__ = ["CorpusNouns", "ProbePlan", "corpus_nouns", "plan_probes"]


@dataclass(frozen=True)
class ProbePlan:
    """Sentences (corpus, then swapped twins), targets, and the role of each target.

    Attributes
    ----------
    sentences
        Corpus sentences followed by the twins of Exp. 1.
    n_corpus
        How many of ``sentences`` are the corpus.
    targets
        ``(n, 2)`` ``(sentence, word)`` rows, sorted, distinct.
    words
        The lower-case word of each target.
    pca_female, pca_male
        Target indices of the female and the male side of each Exp. 1 pair.
    direct
        Target indices of Exp. 2 (profession occurrences in sentences without list words).
    occurrences
        Target indices of list-word occurrences for Exp. 3–5.
    swap_counts
        Swap statistics of the sentences holding a definitional word.
    n_direct_lines
        Sentences contributing to Exp. 2.
    nouns
        Target indices of the noun occurrences of Exp. 6.
    noun_masculine
        The grammatical gender of each of ``nouns`` (True: masculine).
    """

    sentences: tuple[str, ...]
    n_corpus: int
    targets: np.ndarray
    words: tuple[str, ...]
    pca_female: np.ndarray
    pca_male: np.ndarray
    direct: np.ndarray
    occurrences: np.ndarray
    swap_counts: dict = field(default_factory=dict)
    n_direct_lines: int = 0
    nouns: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    noun_masculine: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def to_dict(self) -> dict:
        return {
            "sentences": list(self.sentences),
            "n_corpus": self.n_corpus,
            "targets": self.targets.tolist(),
            "words": list(self.words),
            "pca_female": self.pca_female.tolist(),
            "pca_male": self.pca_male.tolist(),
            "direct": self.direct.tolist(),
            "occurrences": self.occurrences.tolist(),
            "swap_counts": self.swap_counts,
            "n_direct_lines": self.n_direct_lines,
            "nouns": self.nouns.tolist(),
            "noun_masculine": self.noun_masculine.tolist(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> ProbePlan:
        def ints(key, shape=(-1,)):
            return np.asarray(data[key], dtype=np.int64).reshape(shape)

        return cls(
            sentences=tuple(data["sentences"]),
            n_corpus=int(data["n_corpus"]),
            targets=ints("targets", (-1, 2)),
            words=tuple(data["words"]),
            pca_female=ints("pca_female"),
            pca_male=ints("pca_male"),
            direct=ints("direct"),
            occurrences=ints("occurrences"),
            swap_counts=dict(data.get("swap_counts", {})),
            n_direct_lines=int(data.get("n_direct_lines", 0)),
            nouns=np.asarray(data.get("nouns", []), dtype=np.int64),
            noun_masculine=np.asarray(data.get("noun_masculine", []), dtype=bool),
        )


def plan_probes(
    sentences: Sequence[str],
    lists: ProbeLists,
    swapper: Swapper,
    *,
    probe_words: Iterable[str] = (),
    n_pca_sentences: int = 1000,
    max_per_word: int = 20,
    seed: int = 0,
    noun_analyser: Analyser | None = None,
    nouns: CorpusNouns | None = None,
) -> ProbePlan:
    """The probe plan of a corpus.

    Parameters
    ----------
    sentences
        The corpus, one sentence per item.
    lists
        Definitional, equivalent and profession lists of the language.
    swapper
        Swaps the sentences of Exp. 1.
    probe_words
        Words of Exp. 3–5 (biased and extended lists, professions); lower case.
    n_pca_sentences
        Sentences of Exp. 1 (a seeded sample of those that swap cleanly).
    max_per_word
        Occurrences kept per probe word (a seeded sample; <= 0 keeps all).
    noun_analyser
        Tags the nouns of Exp. 6 (None: no nouns, as in English).
    nouns
        The corpus's nouns already tagged (:func:`corpus_nouns`), instead of tagging
        them again with ``noun_analyser``.
    """
    definitional = lists.definitional_words
    gendered = lists.gendered_words
    professions = {w.lower() for w in lists.professions}
    wanted = {w.lower() for w in probe_words} | professions
    split = [[w.lower() for w in split_words(s)] for s in sentences]

    # Exp. 1: sentences with a definitional word, swapped
    holding = [i for i, ws in enumerate(split) if definitional.intersection(ws)]
    swaps, counts = swap_corpus([sentences[i] for i in holding], swapper)
    clean = [(i, s) for i, s in zip(holding, swaps, strict=True) if s.status == "swapped"]
    rng = run_rng(seed, "pca_sentences", 0)
    if len(clean) > n_pca_sentences:
        chosen = np.sort(rng.choice(len(clean), size=n_pca_sentences, replace=False))
        clean = [clean[k] for k in chosen]
    all_sentences = list(sentences)
    pairs: list[tuple[tuple[int, int], tuple[int, int], bool]] = []  # (orig, twin, orig female)
    for i, swap in clean:
        twin = len(all_sentences)
        all_sentences.append(swap.swapped)
        for position in swap.positions:
            word = split[i][position]
            if word in definitional:
                female = swapper.gender[word] == "Fem"
                pairs.append(((i, position), (twin, position), female))

    # Exp. 2: professions in sentences without list words
    direct_targets = [
        (i, j)
        for i, ws in enumerate(split)
        if not gendered.intersection(ws)
        for j, w in enumerate(ws)
        if w in professions
    ]
    n_direct_lines = len({i for i, _ in direct_targets})

    # Exp. 3-5: occurrences of the probe words
    by_word: dict[str, list[tuple[int, int]]] = {}
    for i, ws in enumerate(split):
        for j, w in enumerate(ws):
            if w in wanted:
                by_word.setdefault(w, []).append((i, j))
    occurrence_targets = []
    rng = run_rng(seed, "occurrences", 0)
    for w in sorted(by_word):
        found = by_word[w]
        if 0 < max_per_word < len(found):
            found = [found[k] for k in np.sort(rng.choice(len(found), max_per_word, False))]
        occurrence_targets.extend(found)

    # Exp. 6: nouns of grammatical gender
    if nouns is None and noun_analyser is not None:
        nouns = corpus_nouns(sentences, noun_analyser)
    noun_targets, noun_male = _gendered_nouns(
        nouns, gendered | professions | wanted, max_per_word, seed
    )

    every = {t for pair in pairs for t in pair[:2]} | set(direct_targets) | set(occurrence_targets)
    every |= set(noun_targets)
    targets = np.array(sorted(every), dtype=np.int64).reshape(-1, 2)
    row = {tuple(t): k for k, t in enumerate(targets.tolist())}
    words = tuple(
        split[s][w] if s < len(split) else split_words(all_sentences[s])[w].lower()
        for s, w in targets.tolist()
    )
    female_side = [row[orig if f else twin] for orig, twin, f in pairs]
    male_side = [row[twin if f else orig] for orig, twin, f in pairs]
    return ProbePlan(
        sentences=tuple(all_sentences),
        n_corpus=len(sentences),
        targets=targets,
        words=words,
        pca_female=np.array(female_side, dtype=np.int64),
        pca_male=np.array(male_side, dtype=np.int64),
        direct=np.array([row[t] for t in direct_targets], dtype=np.int64),
        occurrences=np.array([row[t] for t in occurrence_targets], dtype=np.int64),
        swap_counts=counts.to_dict(),
        n_direct_lines=n_direct_lines,
        nouns=np.array([row[t] for t in noun_targets], dtype=np.int64),
        noun_masculine=np.array(noun_male, dtype=bool),
    )


def _gendered_nouns(
    nouns: CorpusNouns | None,
    excluded: frozenset[str] | set[str],
    max_per_word: int,
    seed: int,
) -> tuple[list[tuple[int, int]], list[bool]]:
    """Noun occurrences with a grammatical gender, one gender per type (see the module)."""
    if nouns is None:
        return [], []
    rng = run_rng(seed, "nouns", 0)
    targets, male = [], []
    for w, masculine in nouns.genders().items():
        if w in excluded:
            continue
        found = nouns.occurrences[w]
        if 0 < max_per_word < len(found):
            found = [found[k] for k in np.sort(rng.choice(len(found), max_per_word, False))]
        targets.extend(found)
        male.extend([masculine] * len(found))
    return targets, male


@dataclass(frozen=True)
class CorpusNouns:
    """The nouns of a corpus an analyser marks ``Masc`` or ``Fem``, by lower-case type:
    their ``(sentence, word)`` occurrences and ``[feminine, masculine]`` votes. One
    analysis serves Exp. 6 and the static Spanish lists (§5.3.2)."""

    occurrences: dict[str, list[tuple[int, int]]]
    votes: dict[str, list[int]]

    def genders(self) -> dict[str, bool]:
        """``{noun: True if masculine}`` by most of its occurrences (ties dropped), sorted."""
        return {w: masc > fem for w, (fem, masc) in sorted(self.votes.items()) if fem != masc}


def corpus_nouns(sentences: Sequence[str], analyser: Analyser) -> CorpusNouns:
    """Tag the nouns of ``sentences`` with ``analyser`` (:class:`CorpusNouns`)."""
    occurrences: dict[str, list[tuple[int, int]]] = {}
    votes: dict[str, list[int]] = {}
    # the analyser reads the words in their case (a capital marks a name)
    cased = [split_words(s) for s in sentences]
    many = getattr(analyser, "many", None)
    analysed = many(cased) if many is not None else [analyser(ws) for ws in cased]
    for i, (ws, infos) in enumerate(zip(cased, analysed, strict=True)):
        for j, (word, info) in enumerate(zip(ws, infos, strict=True)):
            w = word.lower()
            if info.pos == "NOUN" and info.gender in {"Masc", "Fem"} and w.isalpha():
                occurrences.setdefault(w, []).append((i, j))
                votes.setdefault(w, [0, 0])[info.gender == "Masc"] += 1
    return CorpusNouns(occurrences, votes)
