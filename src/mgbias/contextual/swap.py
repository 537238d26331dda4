"""Gender swapping of sentences (Basta et al. 2020, §5.2.2 Exp. 1 and §5.3.1).

Each word of the equivalent list is replaced by its counterpart (he ↔ she, businessman ↔
businesswoman, …), in the case of the text (``she``/``She``/``SHE``). The sentence keeps
its bytes outside the replaced words, and its words (:mod:`.words`) keep their indices, so
word ``i`` of a sentence and of its twin are the same position.

A *token analyser* (:data:`Analyser`) tells the part of speech, grammatical gender, head
and dependency of each word; it is pluggable so the rules are testable without spaCy
(:mod:`mgbias.contextual.spacy_analysis` adapts a spaCy pipeline). What it decides:

- an ambiguous word — English "her", which is "his" (tag ``PRP$``) or "him" (``PRP``) —
  is resolved by its tag; without an analyser the sentence is refused (the paper does not
  say how "her" was swapped; refusing is the project's choice, rather than a guess);
- **grammatical agreement** (Spanish, French, German: :data:`~.agreement.AGREEMENT`): the
  determiners and adjectives depending on a swapped word and carrying its grammatical
  gender (``Gender=Masc|Fem|Neut``), and, when the swapped word is the subject, the
  predicate noun or adjective of the same gender with its own determiners and
  adjectives ("ella es una buena médica" → "él es un buen médico"). Nouns change by the
  profession pairs, determiners and adjectives by the language's rules
  (:mod:`.agreement`: tables, suffixes, German case, French elision);
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

from mgbias.contextual.agreement import (
    AGREEMENT,
    DETERMINERS,
    Agreement,
    Refused,
    inflect_adjective,
    match_case,
)
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
    ``gender`` ``"Masc"``, ``"Fem"``, ``"Neut"`` or None, ``head`` the index of the
    syntactic head (-1 for the root or unknown), ``dep`` the relation to it, ``tag`` a fine
    tag, ``case`` the UD case (``Nom``, ``Acc``, ``Dat``, ``Gen``; German determiners follow
    it), ``number`` ``Sing``/``Plur``, ``person`` (``1``-``3``) and ``possessor_number``
    (UD ``Number[psor]``), or None. German "sie"/"ihr" are "they", "you" or "their" by the
    last three.
    """

    pos: str = ""
    gender: str | None = None
    head: int = -1
    dep: str = ""
    tag: str = ""
    case: str | None = None
    number: str | None = None
    person: str | None = None
    possessor_number: str | None = None


#: Maps the words of one sentence to one :class:`TokenInfo` per word.
Analyser = Callable[[Sequence[str]], Sequence[TokenInfo]]

#: Counterparts of an ambiguous word chosen by its fine tag: English possessive and object "her".
AMBIGUOUS_BY_TAG = {("her", "PRP$"): "his", ("her", "PRP"): "him"}


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
        ``contraction``, ``no_case`` (a German determiner without its case),
        ``adjective`` (a German attributive adjective).
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


class Swapper:
    """Swaps the gender of sentences with one language's pairs.

    Parameters
    ----------
    pairs
        ``(female, male)`` pairs: equivalent words (and, where gender is marked on them,
        the professions' two forms), matched in lower case. A pair of one form
        (``("piloto", "piloto")``) is a noun whose gender only its determiners and
        adjectives show ("la piloto" → "el piloto"), swapped where the analyser gives
        its gender.
    lang
        Language code; selects the agreement rules (:data:`~.agreement.AGREEMENT`).
    analyser
        Token analyser, or None (then no agreement, "her" refused, the capital-letter
        proper-name rule).
    agreement
        Swap agreeing determiners, adjectives and predicates (default: when the language
        has agreement rules and an analyser is given).
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
        self.epicene: set[str] = set()
        for female, male in pairs:
            f, m = female.lower(), male.lower()
            if f == m:  # one form for both (piloto, médecin): the analyser tells its gender
                self.epicene.add(f)
                continue
            counterparts.setdefault(f, set()).add(m)
            counterparts.setdefault(m, set()).add(f)
            self.gender[f], self.gender[m] = "Fem", "Masc"
        self.counterparts = {w: tuple(sorted(c)) for w, c in counterparts.items()}
        self.lang = lang
        self.analyser = analyser
        if agreement is None:
            agreement = lang in AGREEMENT and analyser is not None
        if agreement and analyser is None:
            raise ValueError("agreement needs a token analyser (e.g. a spaCy pipeline)")
        if agreement and lang not in AGREEMENT:
            raise ValueError(
                f"no agreement rules for {lang!r} (have {sorted(AGREEMENT)}); "
                "agreement cannot be swapped"
            )
        self.agreement = agreement
        # a language without agreement rules keeps words as they are (lemma = lower case)
        self.rules = AGREEMENT.get(lang) or Agreement(lang)

    # -- one word ----------------------------------------------------------------------

    def _lemma(self, word: str, info: TokenInfo | None, previous: str = "") -> str:
        return self.rules.lemma(word, info, previous)

    def _counterpart(self, word: str, info: TokenInfo | None, previous: str = "") -> str:
        options = self.counterparts[self._lemma(word, info, previous)]
        if len(options) == 1:
            chosen = options[0]
        else:
            tag = info.tag if info is not None else ""
            chosen = AMBIGUOUS_BY_TAG.get((word.lower(), tag))
            if chosen is None:
                chosen = self.rules.resolve(word.lower(), options, previous.lower())
            if chosen is None or chosen not in options:
                raise Refused("ambiguous", word)
        if info is not None:
            chosen = self.rules.noun_form(chosen, info, word)
        return match_case(word, chosen)

    def _grammatical(self, word: str, natural: str) -> str:
        return self.rules.grammatical_gender(word.lower(), natural)

    def _agreeing(self, word: str, info: TokenInfo, to: str, before_noun: bool) -> str:
        if word.lower() in self.rules.contractions:
            raise Refused("contraction", word)
        if info.pos == "DET":
            return self.rules.determiner(word, info, to)
        if word.lower() in self.counterparts:
            return self._counterpart(word, info)
        if info.pos in {"ADJ", "VERB"}:
            return self.rules.adjective(word, info, to, before_noun)
        raise Refused("no_counterpart", word)

    # -- one sentence ------------------------------------------------------------------

    def swap(self, sentence: str) -> Swap:
        """Swap one sentence (see the module docstring for the rules)."""
        spans = word_spans(sentence)
        words = [sentence[s:e] for s, e in spans]
        if not any(self._lemma(w, None) in self.counterparts for w in words):
            return Swap(sentence, None, "unchanged")
        infos = list(self.analyser(words)) if self.analyser is not None else None
        if infos is not None and len(infos) != len(words):
            raise ValueError(
                f"the analyser returned {len(infos)} entries for {len(words)} words: {sentence!r}"
            )
        epicene = {
            i: infos[i].gender
            for i, w in enumerate(words)
            if self.agreement and w.lower() in self.epicene and infos[i].gender in {"Masc", "Fem"}
        }
        lemmas = {
            i: self._lemma(w, infos[i] if infos else None, words[i - 1] if i else "")
            for i, w in enumerate(words)
        }
        listed = [i for i in range(len(words)) if i in epicene or lemmas[i] in self.counterparts]
        if not listed:
            return Swap(sentence, None, "unchanged")
        try:
            for i in listed:
                if self.rules.ambiguous(words[i], infos[i] if infos else None):
                    raise Refused("ambiguous", words[i])
            replaced = {
                i: words[i]
                if i in epicene
                else self._counterpart(
                    words[i], infos[i] if infos else None, words[i - 1] if i else ""
                )
                for i in listed
            }
            # the new natural gender of each listed word
            genders = {i: _other(epicene.get(i) or self.gender[lemmas[i]]) for i in listed}
            agreement = (
                self._agreement(words, infos, listed, replaced, genders, epicene)
                if self.agreement
                else {}
            )
            changed = {**replaced, **agreement}  # agreement re-inflects listed possessives
            if self.agreement:
                self.rules.finish(words, changed, genders)
            self._check_names(words, infos, changed)
        except Refused as refusal:
            return Swap(
                sentence, None, "refused", refusal.reason, tuple(listed), detail=refusal.detail
            )
        return Swap(
            sentence,
            _assemble(sentence, spans, words, changed),
            "swapped",
            positions=tuple(listed),
            agreement=tuple(sorted(set(changed) - set(listed))),
        )

    def _agreement(
        self,
        words: Sequence[str],
        infos: Sequence[TokenInfo],
        listed: Sequence[int],
        replaced: Mapping[int, str],
        genders: dict[int, str],
        epicene: Mapping[int, str],
    ) -> dict[int, str]:
        """Words agreeing with the swapped ones, in their new gender; ``genders`` gains
        the new natural gender of each changed word."""
        changed: dict[int, str] = {}
        children: dict[int, list[int]] = {}
        for j, info in enumerate(infos):
            children.setdefault(info.head, []).append(j)

        def modifiers(i: int, gender: str) -> list[int]:
            return [
                j
                for j in children.get(i, [])
                if infos[j].pos in {"DET", "ADJ"}
                and (infos[j].gender or self.rules.shown_gender(words[j])) == gender
            ]

        def predicate(head: int, gender: str) -> bool:
            if infos[head].gender != gender:
                return False
            if infos[head].pos in {"NOUN", "ADJ"}:
                return True
            return infos[head].pos == "VERB" and self.rules.agreeing_participle(words, infos, head)

        for i in listed:
            lemma = self._lemma(words[i], infos[i], words[i - 1] if i else "")
            natural = epicene[i] if i in epicene else self.gender[lemma]
            to = "Masc" if natural == "Fem" else "Fem"
            old = self._grammatical(lemma, natural)
            new = to if i in epicene else self._grammatical(self._lemma(replaced[i], None), to)
            # the listed word's own determiners and adjectives: its new noun's gender
            for j in modifiers(i, old):
                if j in listed:  # a listed possessive (German sein/ihr): new ending
                    changed[j] = self.rules.reinflect(words[j], replaced[j], infos[j], new)
                else:
                    changed[j] = self._agreeing(words[j], infos[j], new, j < i)
                genders[j] = to
            head = infos[i].head
            subject = infos[i].dep.startswith("nsubj") or infos[i].dep == "expl:subj"
            if subject and 0 <= head < len(words) and head not in listed and predicate(head, old):
                # a predicate of the subject's gender, and its own modifiers
                changed[head] = self._agreeing(words[head], infos[head], to, False)
                genders[head] = to
                for j in modifiers(head, old):
                    if j != i and j not in listed:
                        changed[j] = self._agreeing(words[j], infos[j], to, j < head)
                        genders[j] = to
        return changed

    def _check_names(
        self, words: Sequence[str], infos: Sequence[TokenInfo] | None, changed: Mapping[int, str]
    ) -> None:
        for i in changed:
            for j in (i - 1, i + 1):
                if 0 <= j < len(words) and j not in changed and self._is_name(words, infos, j):
                    raise Refused("proper_name", words[j])

    def _is_name(self, words: Sequence[str], infos: Sequence[TokenInfo] | None, j: int) -> bool:
        if infos is not None:
            return infos[j].pos == "PROPN" and words[j].lower() not in self.counterparts
        word = words[j]
        if not word[:1].isupper() or word.lower() in self.counterparts:
            return False
        starts = j == 0 or words[j - 1] in {".", "!", "?", "«", '"', "“", "¿", "¡", ":"}
        return not starts


_ELIDED = ("'", "’")


def _other(gender: str) -> str:
    return "Masc" if gender == "Fem" else "Fem"


def _assemble(
    sentence: str,
    spans: Sequence[tuple[int, int]],
    words: Sequence[str],
    changed: Mapping[int, str],
) -> str:
    """The sentence with the changed words put in; an elided word ("l'") joins the next
    word, and a word that no longer elides is followed by a space ("l'oncle" → "la tante")."""
    pieces, last = [], 0
    for i, (start, end) in enumerate(spans):
        gap = sentence[last:start]
        if i > 0 and (i - 1 in changed or i in changed):
            before_old, before_new = words[i - 1], changed.get(i - 1, words[i - 1])
            if before_new.endswith(_ELIDED) and gap.isspace():
                gap = ""
            elif before_old.endswith(_ELIDED) and not before_new.endswith(_ELIDED) and not gap:
                gap = " "
        pieces += [gap, changed.get(i, words[i])]
        last = end
    pieces.append(sentence[last:])
    return "".join(pieces)


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
