"""A token analyser of the demo grammar (German, French, Spanish), from its lexicon.

The gender swap and the nouns of Exp. 6 (Basta et al. 2020) need each word's part of
speech, grammatical gender, head and, in German, case (:class:`~mgbias.contextual.swap.
TokenInfo`). No German spaCy pipeline installs here, and the demo's sentences are
generated, so their analysis is known: :func:`demo_analyser` reads it off the lexicon
(:mod:`mgbias.demo.lexicon`), as a parser of the demo grammar would:

- pronouns, person nouns, occupations, the things' nouns, first names (``PROPN``) and
  adjectives come from the lexicon's tables with their grammatical gender (German
  "mädchen" is neuter; an occupation or adjective with one form for both genders has
  none of its own);
- a determiner attaches to the noun after it, and an inanimate noun not in the tables
  takes the gender its determiner shows (la ville, un livre);
- the subject is the first noun phrase (``nsubj``); after a copula (est, ist, es, está)
  its head is the predicate adjective or noun, else the subject has no head;
- German case: the subject and the predicate are nominative, a noun phrase after a
  preposition dative, any other accusative (the demo's objects are).

It analyses any sentence of the demo grammar; a word it does not know is ``X``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

from mgbias.contextual.agreement import GERMAN_OWNER_FORMS
from mgbias.contextual.swap import Analyser, TokenInfo
from mgbias.demo.lexicon import (
    ADJECTIVES,
    OCCUPATIONS,
    PERSON_NOUNS,
    POSSESSIONS,
    PRONOUNS,
    THING_PREDICATES,
    THINGS,
    first_names,
)
from mgbias.wordlists.genders import FEMALE, GENDERS, MALE

__all__ = ["demo_analyser"]

_UD = {MALE: "Masc", FEMALE: "Fem", "m": "Masc", "f": "Fem", "n": "Neut"}

#: German nouns of the demo's activities, modifiers and predicates, with their gender.
_GERMAN_THINGS = {
    "stadt": "f", "dorf": "n", "buch": "n", "brief": "m", "fußball": "m", "auto": "n",
    "abendessen": "n", "lied": "n", "brot": "n", "film": "m", "tag": "m", "morgen": "m",
    "woche": "f", "jahr": "n", "bericht": "m", "hauptstadt": "f", "region": "f",
    "wetter": "n", "geld": "n", "team": "n", "firma": "f", "schule": "f", "museum": "n",
    "bibliothek": "f", "krankenhaus": "n", "restaurant": "n", "haus": "n", "tasche": "f",
    "schlüssel": "m", "paris": "n", "berlin": "n",
}  # fmt: skip
_GERMAN_DETERMINERS = frozenset(
    {"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer",
     "mein", "meine", "meinen", "meinem", "meiner", "sein", "seine", "seinen", "seinem",
     "seiner", "ihr", "ihre", "ihren", "ihrem", "ihrer", "diese", "jeden", "letztem"}
)  # fmt: skip
_FRENCH_DETERMINERS = {
    "le": "Masc", "la": "Fem", "l'": None, "un": "Masc", "une": "Fem", "mon": "Masc",
    "ma": "Fem", "son": "Masc", "sa": "Fem", "ce": "Masc", "cet": "Masc", "cette": "Fem",
    "du": "Masc", "au": "Masc", "chaque": None, "d'": None,
}  # fmt: skip
_SPANISH_DETERMINERS = {
    "el": "Masc", "la": "Fem", "un": "Masc", "una": "Fem", "mi": None, "su": None,
    "al": "Masc", "del": "Masc", "cada": None, "esta": "Fem", "este": "Masc",
}  # fmt: skip
_COPULAS = {"de": {"ist"}, "fr": {"est"}, "es": {"es", "está"}}
_PREPOSITIONS = {
    "de": {"in", "laut", "seit", "am", "im", "mit", "von", "zu", "bei", "nach", "aus"},
    "fr": {"à", "en", "de", "dans", "selon", "depuis", "comme"},
    "es": {"en", "a", "de", "por", "según", "desde", "como"},
}


def _pairs(values) -> list[tuple[str, str]]:
    """``(form, UD gender)`` of a (male, female) pair; a form shared by both: no gender."""
    male, female = values
    if male == female:
        return [(male, "")]
    return [(male, "Masc"), (female, "Fem")]


@functools.cache
def _lexicon(lang: str) -> tuple[dict, dict, dict, frozenset]:
    """``nouns`` {word: gender}, ``adjectives``, ``pronouns``, names of ``lang``."""
    nouns: dict[str, str] = {}
    adjectives: dict[str, str] = {}
    for noun in PERSON_NOUNS:
        if lang == "de":
            for german in noun.de:
                nouns[german.nominative] = nouns[german.accusative] = _UD[german.grammatical_gender]
        else:
            nouns.update(_pairs(getattr(noun, lang)))
    for occupation in OCCUPATIONS:
        nouns.update(_pairs(getattr(occupation, lang)))
    if lang == "de":
        nouns.update({w: _UD[g] for w, g in _GERMAN_THINGS.items()})
        for possession in POSSESSIONS:
            nouns[possession.de[1]] = _UD[possession.de[2]]
    else:
        for thing in THINGS:
            phrase, gender = getattr(thing, lang)
            nouns[phrase.split(" ")[-1].split("'")[-1]] = _UD[gender]
        if lang == "fr":
            for possession in POSSESSIONS:
                nouns[possession.fr[1]] = _UD[possession.fr[2]]
        for adjective in ADJECTIVES:
            adjectives.update(_pairs(getattr(adjective, lang)))
        for _, _, es, fr in THING_PREDICATES:
            forms = es[1:] if lang == "es" else fr[1:]
            if " " not in forms[0]:
                adjectives.update(_pairs(forms))
    pronouns = {PRONOUNS[lang][g]: _UD[g] for g in GENDERS}
    names = frozenset(name for g in GENDERS for name in first_names(g))
    return nouns, adjectives, pronouns, names


def _analyse(lang: str, words: Sequence[str]) -> list[TokenInfo]:
    nouns, adjectives, pronouns, names = _lexicon(lang)
    determiners = {"de": {}, "fr": _FRENCH_DETERMINERS, "es": _SPANISH_DETERMINERS}[lang]
    lower = [w.lower() for w in words]
    n = len(words)
    pos = ["X"] * n
    gender: list[str | None] = [None] * n
    for i, w in enumerate(lower):
        if w in pronouns:
            pos[i], gender[i] = "PRON", pronouns[w]
        elif w in names:
            pos[i] = "PROPN"
        elif w in nouns and not (i > 0 and lower[i - 1] in _COPULAS[lang] and w in adjectives):
            pos[i], gender[i] = "NOUN", nouns[w] or None
        elif w in adjectives:
            pos[i], gender[i] = "ADJ", adjectives[w] or None
        elif w in determiners or (lang == "de" and w in _GERMAN_DETERMINERS):
            pos[i] = "DET"
        elif w in _PREPOSITIONS[lang]:
            pos[i] = "ADP"
        elif w == ".":
            pos[i] = "PUNCT"
    for i in range(1, n):
        # a word the lexicon's tables do not hold, after a determiner: a noun
        if pos[i] == "X" and pos[i - 1] == "DET" and lower[i].isalpha():
            pos[i] = "NOUN"
    head = [-1] * n
    dep = [""] * n
    for i in range(n):
        if pos[i] == "DET":
            nxt = next((j for j in range(i + 1, min(n, i + 3)) if pos[j] == "NOUN"), -1)
            head[i], dep[i] = nxt, "det"
            shown = determiners.get(lower[i])
            if nxt >= 0 and gender[nxt] is None and shown:
                gender[nxt] = shown  # "la médecin", "un livre"
            if nxt >= 0:
                gender[i] = gender[nxt]
    # the subject: the first pronoun, noun or name; a copula's predicate is its head
    subject = next((i for i in range(n) if pos[i] in {"PRON", "NOUN", "PROPN"}), -1)
    case = [None] * n
    if subject >= 0:
        dep[subject] = "nsubj"
        after = subject + 1
        if after < n and lower[after] in _COPULAS[lang]:
            # the first adjective or bare noun after the copula (not "in der stadt")
            determined = {head[j] for j in range(n) if pos[j] == "DET"}
            predicate = next(
                (
                    j
                    for j in range(after + 1, n)
                    if pos[j] in {"ADJ", "NOUN"}
                    and j not in determined
                    and pos[j - 1] != "ADP"
                    and lower[j - 1] not in {"am", "im"}
                ),
                -1,
            )
            if predicate >= 0:
                head[subject] = predicate
                if gender[predicate] is None and pos[predicate] == "NOUN":
                    gender[predicate] = gender[subject]
    if lang == "de":
        predicate_words = {"ist", "als", "werden", "will"}
        preposition = False
        for i in range(n):
            if pos[i] == "ADP" or lower[i] in {"am", "im"}:
                preposition = True
            if pos[i] in {"NOUN", "PRON", "PROPN"}:
                if i == subject or (i > 0 and lower[i - 1] in predicate_words):
                    case[i] = "Nom"
                elif i + 1 < n and lower[i + 1] == "werden":
                    case[i] = "Nom"
                else:
                    case[i] = "Dat" if preposition else "Acc"
                preposition = False
        for i in range(n):
            if pos[i] == "DET" and head[i] >= 0:
                case[i] = case[head[i]]
    number = ["Sing" if p in {"NOUN", "DET", "PRON", "ADJ"} else None for p in pos]
    owners = GERMAN_OWNER_FORMS if lang == "de" else frozenset()
    return [
        TokenInfo(
            pos=pos[i],
            gender=gender[i],
            head=head[i],
            dep=dep[i],
            case=case[i],
            number=number[i],
            person="3" if pos[i] == "PRON" else None,
            # the demo's owners are one person ("sein buch", "ihre mutter")
            possessor_number="Sing" if lower[i] in owners else None,
        )
        for i in range(n)
    ]


@functools.cache
def demo_analyser(lang: str) -> Analyser:
    """The demo grammar's analyser of ``lang`` (``de``, ``fr`` or ``es``).

    Raises
    ------
    ValueError
        For another language.
    """
    if lang not in _COPULAS:
        raise ValueError(f"the demo analyser knows de, fr and es, not {lang!r}")

    def analyse(words: Sequence[str]) -> list[TokenInfo]:
        return _analyse(lang, words)

    return analyse


#: The token analysers the demo adds to the spaCy pipelines, by name (``spacy: demo``):
#: ``analysers=`` of :func:`mgbias.contextual.steps.plan_corpus` and
#: :func:`~mgbias.contextual.steps.grammatical_nouns`.
ANALYSERS: Mapping[str, Callable[[str], Analyser]] = {"demo": demo_analyser}
