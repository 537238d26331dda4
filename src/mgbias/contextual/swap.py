"""Gender swapping of sentences (Basta et al. 2020, §5.2.2 Exp. 1 and §5.3.1).

Each word of the equivalent list is replaced by its counterpart (he ↔ she, businessman ↔
businesswoman, …), in the case of the text (``she``/``She``/``SHE``). The sentence keeps
its bytes outside the replaced words, and its words (:mod:`.words`) keep their indices, so
word ``i`` of a sentence and of its twin are the same position.

A *token analyser* (:data:`Analyser`) tells the part of speech, grammatical gender, head
and dependency of each word; it is pluggable so the rules are testable without spaCy
(:mod:`mgbias.contextual.spacy_analysis` adapts a spaCy pipeline). What it decides:

- an ambiguous word — English "her", which is "his" (tag ``PRP$``) or "him" (``PRP``) —
  is resolved by its tag; without an analyser the sentence is refused (checklist B9);
- **grammatical agreement** (Spanish, any language given :data:`DETERMINERS`): the
  determiners and adjectives depending on a swapped word and carrying its gender
  (``Gender=Masc|Fem``), and, when the swapped word is the subject, the predicate noun or
  adjective of the same gender with its own determiners and adjectives ("ella es una
  buena médica" → "él es un buen médico"). Determiners change by table, nouns by the
  profession pairs, adjectives by the suffix rules of :func:`inflect_adjective`;
- **proper names**: a sentence with a proper name (``PROPN``) next to a swapped word
  ("presidente Barack Obama") is refused, never swapped. Without an analyser, a
  capitalised word that does not start the sentence counts as a proper name.

Refused sentences are counted by reason (:class:`SwapCounts`), as the paper's 5,848
hand-checked Spanish sentences cannot be reproduced automatically.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mgbias.contextual.words import word_spans

__all__ = [
    "AMBIGUOUS_BY_TAG",
    "DETERMINERS",
    "Analyser",
    "Swap",
    "SwapCounts",
    "Swapper",
    "TokenInfo",
    "inflect_adjective",
    "match_case",
    "swap_corpus",
]


@dataclass(frozen=True)
class TokenInfo:
    """What an analyser says about one word.

    ``pos`` is a Universal Dependencies tag (``NOUN``, ``PROPN``, ``DET``, ``ADJ``, …),
    ``gender`` ``"Masc"``, ``"Fem"`` or None, ``head`` the index of the syntactic head
    (-1 for the root or unknown), ``dep`` the relation to it, ``tag`` a fine tag.
    """

    pos: str = ""
    gender: str | None = None
    head: int = -1
    dep: str = ""
    tag: str = ""


#: Maps the words of one sentence to one :class:`TokenInfo` per word.
Analyser = Callable[[Sequence[str]], Sequence[TokenInfo]]

#: Counterparts of an ambiguous word chosen by its fine tag: English possessive and object "her".
AMBIGUOUS_BY_TAG = {("her", "PRP$"): "his", ("her", "PRP"): "him"}

#: Determiners by language: masculine ↔ feminine (contractions "del", "al" are refused).
DETERMINERS = {
    "es": {
        "el": "la", "los": "las", "un": "una", "unos": "unas", "este": "esta",
        "estos": "estas", "ese": "esa", "esos": "esas", "aquel": "aquella",
        "aquellos": "aquellas", "nuestro": "nuestra", "nuestros": "nuestras",
        "vuestro": "vuestra", "vuestros": "vuestras", "otro": "otra", "otros": "otras",
        "todo": "toda", "todos": "todas", "mucho": "mucha", "muchos": "muchas",
        "algún": "alguna", "alguno": "alguna", "algunos": "algunas", "ningún": "ninguna",
        "ninguno": "ninguna", "mismo": "misma", "mismos": "mismas", "cuyo": "cuya",
    },
}  # fmt: skip
_FEMININE_DETERMINERS = {
    lang: {f: m for m, f in table.items() if m not in {"alguno", "ninguno"}}
    for lang, table in DETERMINERS.items()
}
_CONTRACTIONS = frozenset({"del", "al"})
#: Masculine adjectives shortened before a masculine singular noun ("un buen médico").
_APOCOPE = {"bueno": "buen", "malo": "mal", "primero": "primer", "tercero": "tercer"}
_APOCOPATED_FEMININE = {short: long[:-1] + "a" for long, short in _APOCOPE.items()}

# (masculine suffix, feminine suffix), longest first
_ADJECTIVE_SUFFIXES = (
    ("ores", "oras"), ("ones", "onas"), ("eses", "esas"), ("os", "as"), ("or", "ora"),
    ("ón", "ona"), ("án", "ana"), ("és", "esa"), ("o", "a"),
)  # fmt: skip


def inflect_adjective(word: str, to: str) -> str | None:
    """A Spanish adjective in the other gender by its suffix, or None if no rule applies.

    Masculine → feminine: ``-o`` → ``-a``, ``-os`` → ``-as``, ``-or(es)`` → ``-ora(s)``,
    ``-ón`` → ``-ona``, ``-án`` → ``-ana``, ``-és`` → ``-esa``; feminine → masculine the
    reverse; ``buen``, ``mal``, ``primer``, ``tercer`` → ``buena``, ``mala``, ...
    Adjectives with one form for both genders (``inteligente``) carry no gender feature
    and are never asked for.
    """
    lower = word.lower()
    if to == "Fem" and lower in _APOCOPATED_FEMININE:
        return match_case(word, _APOCOPATED_FEMININE[lower])
    for masculine, feminine in _ADJECTIVE_SUFFIXES:
        source, target = (masculine, feminine) if to == "Fem" else (feminine, masculine)
        if lower.endswith(source) and len(lower) > len(source):
            return match_case(word, lower[: -len(source)] + target)
    return None


def match_case(source: str, target: str) -> str:
    """``target`` in the case pattern of ``source``: UPPER, Title or lower."""
    if len(source) > 1 and source.isupper():
        return target.upper()
    if source[:1].isupper():
        return target[:1].upper() + target[1:]
    return target


@dataclass(frozen=True)
class Swap:
    """One sentence and its swapped twin.

    Attributes
    ----------
    sentence
        The original.
    swapped
        The twin (None unless ``status == "swapped"``).
    status
        ``"swapped"``, ``"unchanged"`` (no list word) or ``"refused"``.
    reason
        Why a sentence was refused: ``proper_name``, ``ambiguous``, ``no_counterpart``,
        ``contraction``, ``mixed_gender``.
    positions
        Word indices of the list words swapped.
    agreement
        Word indices changed for agreement.
    detail
        The word behind a refusal.
    """

    sentence: str
    swapped: str | None
    status: str
    reason: str = ""
    positions: tuple[int, ...] = ()
    agreement: tuple[int, ...] = ()
    detail: str = ""


@dataclass(frozen=True)
class SwapCounts:
    """How many sentences were swapped, left unchanged, and refused (by reason)."""

    n_sentences: int
    n_swapped: int
    n_unchanged: int
    n_refused: int
    refused: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "n_sentences": self.n_sentences,
            "n_swapped": self.n_swapped,
            "n_unchanged": self.n_unchanged,
            "n_refused": self.n_refused,
            "refused": dict(sorted(self.refused.items())),
        }


class _Refused(Exception):
    def __init__(self, reason: str, detail: str):
        super().__init__(reason, detail)
        self.reason, self.detail = reason, detail


class Swapper:
    """Swaps the gender of sentences with one language's pairs.

    Parameters
    ----------
    pairs
        ``(female, male)`` pairs: equivalent words (and, where gender is marked on them,
        the professions' two forms), matched in lower case.
    lang
        Language code; selects the determiner table of agreement (:data:`DETERMINERS`).
    analyser
        Token analyser, or None (then no agreement, "her" refused, the capital-letter
        proper-name rule).
    agreement
        Swap agreeing determiners, adjectives and predicates (default: when the language
        has a determiner table and an analyser is given).
    """

    def __init__(
        self,
        pairs: Iterable[tuple[str, str]],
        *,
        lang: str = "en",
        analyser: Analyser | None = None,
        agreement: bool | None = None,
    ):
        counterparts: dict[str, set[str]] = {}
        self.gender: dict[str, str] = {}
        for female, male in pairs:
            f, m = female.lower(), male.lower()
            counterparts.setdefault(f, set()).add(m)
            counterparts.setdefault(m, set()).add(f)
            self.gender[f], self.gender[m] = "Fem", "Masc"
        self.counterparts = {w: tuple(sorted(c)) for w, c in counterparts.items()}
        self.lang = lang
        self.analyser = analyser
        if agreement is None:
            agreement = lang in DETERMINERS and analyser is not None
        if agreement and analyser is None:
            raise ValueError("agreement needs a token analyser (e.g. a spaCy pipeline)")
        if agreement and lang not in DETERMINERS:
            raise ValueError(
                f"no determiner table for {lang!r} (have {sorted(DETERMINERS)}); "
                "agreement cannot be swapped"
            )
        self.agreement = agreement

    # -- one word ----------------------------------------------------------------------

    def _counterpart(self, word: str, info: TokenInfo | None) -> str:
        options = self.counterparts[word.lower()]
        if len(options) == 1:
            return match_case(word, options[0])
        tag = info.tag if info is not None else ""
        chosen = AMBIGUOUS_BY_TAG.get((word.lower(), tag))
        if chosen is None or chosen not in options:
            raise _Refused("ambiguous", word)
        return match_case(word, chosen)

    def _agreeing(self, word: str, info: TokenInfo, to: str) -> str:
        lower = word.lower()
        if lower in _CONTRACTIONS:
            raise _Refused("contraction", word)
        if info.pos == "DET":
            table = DETERMINERS[self.lang] if to == "Fem" else _FEMININE_DETERMINERS[self.lang]
            if lower in table:
                return match_case(word, table[lower])
            raise _Refused("no_counterpart", word)
        if lower in self.counterparts:
            return self._counterpart(word, info)
        if info.pos == "ADJ":
            inflected = inflect_adjective(word, to)
            if inflected is not None:
                return inflected
        raise _Refused("no_counterpart", word)

    # -- one sentence ------------------------------------------------------------------

    def swap(self, sentence: str) -> Swap:
        """Swap one sentence (see the module docstring for the rules)."""
        spans = word_spans(sentence)
        words = [sentence[s:e] for s, e in spans]
        listed = [i for i, w in enumerate(words) if w.lower() in self.counterparts]
        if not listed:
            return Swap(sentence, None, "unchanged")
        infos = list(self.analyser(words)) if self.analyser is not None else None
        if infos is not None and len(infos) != len(words):
            raise ValueError(
                f"the analyser returned {len(infos)} entries for {len(words)} words: {sentence!r}"
            )
        try:
            replaced = {i: self._counterpart(words[i], infos[i] if infos else None) for i in listed}
            agreement = self._agreement(words, infos, listed) if self.agreement else {}
            changed = {**agreement, **replaced}
            self._check_names(words, infos, changed)
        except _Refused as refusal:
            return Swap(
                sentence, None, "refused", refusal.reason, tuple(listed), detail=refusal.detail
            )
        pieces, last = [], 0
        for i in sorted(changed):
            start, end = spans[i]
            pieces += [sentence[last:start], changed[i]]
            last = end
        pieces.append(sentence[last:])
        return Swap(
            sentence,
            "".join(pieces),
            "swapped",
            positions=tuple(listed),
            agreement=tuple(sorted(set(agreement) - set(listed))),
        )

    def _agreement(
        self, words: Sequence[str], infos: Sequence[TokenInfo], listed: Sequence[int]
    ) -> dict[int, str]:
        """Words agreeing with the swapped ones, in their new gender."""
        changed: dict[int, str] = {}
        children: dict[int, list[int]] = {}
        for j, info in enumerate(infos):
            children.setdefault(info.head, []).append(j)

        def modifiers(i: int, gender: str) -> list[int]:
            return [
                j
                for j in children.get(i, [])
                if infos[j].pos in {"DET", "ADJ"} and infos[j].gender == gender
            ]

        for i in listed:
            gender = self.gender[words[i].lower()]
            to = "Masc" if gender == "Fem" else "Fem"
            targets = modifiers(i, gender)
            head = infos[i].head
            if (
                infos[i].dep.startswith("nsubj")
                and 0 <= head < len(words)
                and infos[head].pos in {"NOUN", "ADJ"}
                and infos[head].gender == gender
            ):
                targets += [head] + [j for j in modifiers(head, gender) if j != i]
            for j in targets:
                if j not in listed:
                    new = self._agreeing(words[j], infos[j], to)
                    if to == "Masc" and infos[j].pos == "ADJ" and j < infos[j].head:
                        new = match_case(new, _APOCOPE.get(new.lower(), new.lower()))
                    changed[j] = new
        return changed

    def _check_names(
        self, words: Sequence[str], infos: Sequence[TokenInfo] | None, changed: Mapping[int, str]
    ) -> None:
        for i in changed:
            for j in (i - 1, i + 1):
                if 0 <= j < len(words) and j not in changed and self._is_name(words, infos, j):
                    raise _Refused("proper_name", words[j])

    def _is_name(self, words: Sequence[str], infos: Sequence[TokenInfo] | None, j: int) -> bool:
        if infos is not None:
            return infos[j].pos == "PROPN" and words[j].lower() not in self.counterparts
        word = words[j]
        if not word[:1].isupper() or word.lower() in self.counterparts:
            return False
        starts = j == 0 or words[j - 1] in {".", "!", "?", "«", '"', "“", "¿", "¡", ":"}
        return not starts


def swap_corpus(sentences: Iterable[str], swapper: Swapper) -> tuple[list[Swap], SwapCounts]:
    """Swap every sentence; the swaps in order and the counts."""
    swaps = [swapper.swap(sentence) for sentence in sentences]
    status = Counter(s.status for s in swaps)
    refused = Counter(s.reason for s in swaps if s.status == "refused")
    counts = SwapCounts(
        n_sentences=len(swaps),
        n_swapped=status["swapped"],
        n_unchanged=status["unchanged"],
        n_refused=status["refused"],
        refused=dict(refused),
    )
    return swaps, counts
