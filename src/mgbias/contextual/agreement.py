"""Grammatical agreement of a gender swap, per language (Basta et al. 2020, §5.3.1).

When the swap (:mod:`.swap`) turns "la médica" into "el médico", the words agreeing with
the swapped one change too. What changes, and how, is the language's:

- **Spanish** (:class:`SpanishAgreement`): determiners by table (el ↔ la, un ↔ una,
  este ↔ esta, ...), adjectives by suffix (-o ↔ -a, -or ↔ -ora, ...), the apocope of a
  masculine adjective before its noun (buen, mal, primer); contractions (del, al) are
  refused, as their article cannot change alone.
- **French** (:class:`FrenchAgreement`): determiners by table (le ↔ la, un ↔ une, son ↔ sa,
  ce/cet ↔ cette, ...) with elision re-chosen for the word that follows ("l'oncle" ↔ "la
  tante", "ma amie" is "mon amie"); "femme" and "fille" are wife and daughter after a
  possessive, else woman and girl; adjectives by suffix and a table of irregular ones
  (gentil ↔ gentille, beau ↔ belle, heureux ↔ heureuse, -é ↔ -ée, + e), in the plural
  too; contractions (du, au) refused; impersonal "il" ("il y a") is left alone.
- **German** (:class:`GermanAgreement`): a determiner is re-inflected for the case of its
  noun phrase (``Case=`` of the analyser) and the grammatical gender of the new noun
  (der/den/dem/des ↔ die/der, ein/einen/einem ↔ eine/einer, sein-/ihr- likewise; "das
  Mädchen" is neuter). The owner's possessive (sein ↔ ihr) is a listed word whose ending
  is re-chosen when its noun is swapped too ("seine Mutter" → "ihren Vater" in the
  accusative). Weak nouns take their oblique form outside the nominative singular ("den
  Jungen", "dem Herrn"), plural nouns their dative -n ("den Männern"), masculine ones
  their genitive -(e)s ("meiner Frau" → "meines Mannes"), and personal
  pronouns their case (sie → ihn in the accusative, ihr → ihm in the dative); "sie"/"ihr"
  as "they", "you" or "their" are left alone, and a possessive "ihr-" whose possessor the
  analyser does not call singular (her or their?) refuses its sentence.
  Attributive adjectives, whose endings also depend on the determiner, are refused;
  predicative ones do not inflect.

Every rule returns the new word in the case pattern of the old one, or raises
:class:`Refused` with a reason, which the swap counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "AGREEMENT",
    "DETERMINERS",
    "Agreement",
    "FrenchAgreement",
    "GERMAN_OWNER_FORMS",
    "GermanAgreement",
    "Refused",
    "SpanishAgreement",
    "french_adjective",
    "french_plural_adjective",
    "german_determiner",
    "inflect_adjective",
    "match_case",
]


class Refused(Exception):
    """A sentence the swap will not change: ``reason`` (counted) and the word behind it."""

    def __init__(self, reason: str, detail: str):
        super().__init__(reason, detail)
        self.reason, self.detail = reason, detail


def match_case(source: str, target: str) -> str:
    """``target`` in the case pattern of ``source``: UPPER (two letters or more), Title or
    lower ("L'" is Title: "La")."""
    if sum(c.isalpha() for c in source) > 1 and source.isupper():
        return target.upper()
    if source[:1].isupper():
        return target[:1].upper() + target[1:]
    return target


def _other(gender: str) -> str:
    return "Masc" if gender == "Fem" else "Fem"


#: Determiners masculine → feminine by language (Spanish, French); German inflects
#: by case (:func:`german_determiner`).
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
    "fr": {
        "le": "la", "un": "une", "mon": "ma", "ton": "ta", "son": "sa", "ce": "cette",
        "cet": "cette", "aucun": "aucune", "quel": "quelle", "certain": "certaine",
        "tout": "toute", "tous": "toutes", "quels": "quelles", "certains": "certaines",
        "nul": "nulle",
    },
}  # fmt: skip
_FEMININE = {
    lang: {f: m for m, f in table.items() if m not in {"alguno", "ninguno", "cet"}}
    for lang, table in DETERMINERS.items()
}


@dataclass(frozen=True)
class Agreement:
    """The agreement rules of one language (see the module docstring).

    ``contractions`` are refused where they would have to agree; ``neuter`` nouns are
    listed words whose grammatical gender is neuter (German "mädchen"); ``invariable``
    determiners have one form for both genders (kept as they are).
    """

    lang: str
    contractions: frozenset[str] = frozenset()
    neuter: frozenset[str] = frozenset()
    invariable: frozenset[str] = frozenset()

    def grammatical_gender(self, word: str, natural: str) -> str:
        """The grammatical gender of a listed word of natural gender ``natural``."""
        return "Neut" if word.lower() in self.neuter else natural

    def lemma(self, word: str, info, previous: str = "") -> str:
        """The list entry a word of the text stands for (lower case; "" for none), given
        its analysis and the word before it."""
        return word.lower()

    def noun_form(self, noun: str, info, source: str = "") -> str:
        """The counterpart ``noun`` of the word ``source`` in the form its place needs
        (German case endings)."""
        return noun

    def ambiguous(self, word: str, info) -> bool:
        """Whether a listed word may not be gendered at all (the sentence is refused)."""
        return False

    def determiner(self, word: str, info, to: str) -> str:
        """The determiner ``word`` agreeing with a noun of gender ``to``."""
        lower = word.lower()
        if lower in self.invariable:
            return word  # French l' is re-chosen by finish() for the word that follows
        table = DETERMINERS[self.lang] if to == "Fem" else _FEMININE[self.lang]
        if lower in table:
            return match_case(word, table[lower])
        raise Refused("no_counterpart", word)

    def adjective(self, word: str, info, to: str, before_noun: bool) -> str:
        """The adjective ``word`` in gender ``to``."""
        raise Refused("no_counterpart", word)

    def reinflect(self, listed: str, new: str, info, to: str) -> str:
        """A listed determiner (German possessive) whose noun is swapped as well."""
        return new

    def resolve(self, word: str, options, previous: str) -> str | None:
        """The counterpart of a word with several, by the word before it (None: refuse)."""
        return None

    def shown_gender(self, word: str) -> str | None:
        """The gender a determiner's form shows (for an analyser that gives none)."""
        table = DETERMINERS.get(self.lang, {})
        lower = word.lower()
        if lower in table:
            return "Masc"
        return "Fem" if lower in _FEMININE.get(self.lang, {}) else None

    def agreeing_participle(self, words, infos, head: int) -> bool:
        """Whether the verb ``head`` is a participle agreeing with its subject."""
        return False

    def finish(self, words, changed: dict[int, str], genders: dict[int, str]) -> None:
        """Last adjustments on the whole sentence (French elision)."""


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


#: Masculine Spanish adjectives shortened before a masculine singular noun ("un buen médico").
_APOCOPE = {"bueno": "buen", "malo": "mal", "primero": "primer", "tercero": "tercer"}
_APOCOPATED_FEMININE = {short: long[:-1] + "a" for long, short in _APOCOPE.items()}
# (masculine suffix, feminine suffix), longest first
_ADJECTIVE_SUFFIXES = (
    ("ores", "oras"), ("ones", "onas"), ("eses", "esas"), ("os", "as"), ("or", "ora"),
    ("ón", "ona"), ("án", "ana"), ("és", "esa"), ("o", "a"),
)  # fmt: skip


@dataclass(frozen=True)
class SpanishAgreement(Agreement):
    lang: str = "es"
    contractions: frozenset[str] = frozenset({"del", "al"})
    invariable: frozenset[str] = frozenset(
        {"mi", "tu", "su", "mis", "tus", "sus", "cada", "cualquier"}
    )

    def adjective(self, word: str, info, to: str, before_noun: bool) -> str:
        inflected = inflect_adjective(word, to)
        if inflected is None:
            raise Refused("no_counterpart", word)
        if to == "Masc" and before_noun:
            inflected = match_case(inflected, _APOCOPE.get(inflected.lower(), inflected.lower()))
        return inflected


# --- French ----------------------------------------------------------------------------

_FRENCH_IRREGULAR = {
    "beau": "belle", "bel": "belle", "nouveau": "nouvelle", "nouvel": "nouvelle",
    "vieux": "vieille", "vieil": "vieille", "fou": "folle", "blanc": "blanche",
    "franc": "franche", "long": "longue", "frais": "fraîche", "doux": "douce",
    "faux": "fausse", "roux": "rousse", "gros": "grosse", "bas": "basse", "gras": "grasse",
    "épais": "épaisse", "gentil": "gentille", "public": "publique", "grec": "grecque",
    "sec": "sèche", "favori": "favorite", "bon": "bonne", "meilleur": "meilleure",
    "malin": "maligne", "bénin": "bénigne", "jaloux": "jalouse",
}  # fmt: skip
_FRENCH_IRREGULAR_MASCULINE = {
    f: m for m, f in _FRENCH_IRREGULAR.items() if m not in {"bel", "nouvel", "vieil"}
}
# (masculine suffix, feminine suffix), longest first
_FRENCH_SUFFIXES = (
    ("ien", "ienne"), ("éen", "éenne"), ("eux", "euse"), ("eur", "euse"), ("teur", "trice"),
    ("on", "onne"), ("el", "elle"), ("et", "ette"), ("if", "ive"), ("er", "ère"),
)  # fmt: skip
_FRENCH_FEMININE_SUFFIXES = (
    ("ienne", "ien"), ("éenne", "éen"), ("euse", "eux"), ("trice", "teur"), ("onne", "on"),
    ("elle", "el"), ("ette", "et"), ("ive", "if"), ("ère", "er"),
)  # fmt: skip
_VOWELS = "aeiouyéèêëàâîïôûùœh"
#: French words read as kin after a possessive: (counterpart then, ...).
_FRENCH_KIN_READING = {"femme": ("mari",), "fille": ("fils",)}
_FRENCH_POSSESSIVES = frozenset({"mon", "ma", "ton", "ta", "son", "sa", "notre", "votre", "leur"})
_ETRE = frozenset(
    {"est", "sont", "était", "étaient", "été", "être", "sera", "seront", "serait", "fut",
     "suis", "es", "sommes", "êtes"}
)  # fmt: skip
#: French determiners with one form for both genders (plural, elided, possessive of many).
_FRENCH_INVARIABLE = frozenset(
    {"l'", "l’", "les", "des", "aux", "ces", "mes", "tes", "ses", "nos", "vos", "notre",
     "votre", "leur", "leurs", "chaque", "plusieurs", "quelques"}
)  # fmt: skip


def french_adjective(word: str, to: str) -> str:
    """A French adjective in gender ``to``: a table of irregular ones, then suffix rules
    (-eux ↔ -euse, -if ↔ -ive, -er ↔ -ère, -el ↔ -elle, -ien ↔ -ienne, -on ↔ -onne,
    -et ↔ -ette), then the feminine -e (added, or removed; a masculine ending in -e is
    invariable). -eur becomes -euse (menteur); -euse becomes -eux (heureuse)."""
    lower = word.lower()
    if to == "Fem":
        if lower in _FRENCH_IRREGULAR:
            return match_case(word, _FRENCH_IRREGULAR[lower])
        if lower.endswith("eur") and not lower.endswith("teur"):
            return match_case(word, lower[:-3] + "euse")
        for masculine, feminine in _FRENCH_SUFFIXES:
            if lower.endswith(masculine) and masculine != "eur":
                return match_case(word, lower[: -len(masculine)] + feminine)
        return match_case(word, lower if lower.endswith("e") else lower + "e")
    if lower in _FRENCH_IRREGULAR_MASCULINE:
        return match_case(word, _FRENCH_IRREGULAR_MASCULINE[lower])
    for feminine, masculine in _FRENCH_FEMININE_SUFFIXES:
        if lower.endswith(feminine):
            return match_case(word, lower[: -len(feminine)] + masculine)
    if lower.endswith("e") and len(lower) > 2:
        return match_case(word, lower[:-1])
    return word


def french_plural_adjective(word: str, to: str) -> str:
    """A plural French adjective in gender ``to``: the singular's rule, then the plural
    -s (inaugurés ↔ inaugurées, heureux → heureuses, belles → beaux)."""
    lower = word.lower()
    if to == "Fem":
        single = lower if lower.endswith("x") and not lower.endswith("aux") else lower[:-1]
        plural = {"beaux": "belles", "nouveaux": "nouvelles"}.get(lower)
        return match_case(word, plural or french_adjective(single, "Fem") + "s")
    plural = {"belles": "beaux", "nouvelles": "nouveaux"}.get(lower)
    if plural is None:
        single = french_adjective(lower[:-1], "Masc")
        plural = single if single.endswith(("s", "x")) else single + "s"
    return match_case(word, plural)


@dataclass(frozen=True)
class FrenchAgreement(Agreement):
    lang: str = "fr"
    contractions: frozenset[str] = frozenset({"du", "au"})
    invariable: frozenset[str] = _FRENCH_INVARIABLE

    def lemma(self, word: str, info, previous: str = "") -> str:
        """Impersonal "il" ("il y a", "il faut": UD ``expl``) is not a gendered word."""
        lower = word.lower()
        if lower == "il" and info is not None and info.dep.startswith("expl"):
            return ""
        return lower

    def adjective(self, word: str, info, to: str, before_noun: bool) -> str:
        if getattr(info, "number", None) == "Plur" and word.lower().endswith(("s", "x")):
            return french_plural_adjective(word, to)
        return french_adjective(word, to)

    def resolve(self, word: str, options, previous: str) -> str | None:
        """ "femme" is wife (mari) and "fille" daughter (fils) after a possessive
        ("sa femme", "ma fille"), else woman (homme) and girl (garçon)."""
        kin = _FRENCH_KIN_READING.get(word)
        if kin is None:
            return None
        if previous in _FRENCH_POSSESSIVES:
            return kin[0]
        return next((o for o in options if o != kin[0]), None)

    def agreeing_participle(self, words, infos, head: int) -> bool:
        """A participle with être ("elle est partie", "il est devenu"), not with avoir."""
        return any(
            info.head == head
            and (info.dep.startswith("aux") or info.dep == "cop")
            and words[j].lower() in _ETRE
            for j, info in enumerate(infos)
        )

    def finish(self, words, changed: dict[int, str], genders: dict[int, str]) -> None:
        """Elision before the (new) next word: le/la/l', ma/mon, ce/cet."""
        for i in range(len(words) - 1):
            if i + 1 not in changed:
                continue
            det = changed.get(i, words[i])
            lower, after = det.lower(), changed[i + 1].lower()
            vowel = after[:1] in _VOWELS
            gender = genders.get(i + 1)
            if lower in {"le", "la", "l'", "l’"} and gender in {"Masc", "Fem"}:
                new = "l'" if vowel else ("le" if gender == "Masc" else "la")
            elif lower in {"ma", "ta", "sa"} and vowel:
                new = {"ma": "mon", "ta": "ton", "sa": "son"}[lower]
            elif lower in {"ce", "cet"} and gender == "Masc":
                new = "cet" if vowel else "ce"
            else:
                continue
            if new != lower:
                changed[i] = match_case(det, new)


# --- German ----------------------------------------------------------------------------

_GERMAN_DEFINITE = {
    "Nom": {"Masc": "der", "Fem": "die", "Neut": "das"},
    "Acc": {"Masc": "den", "Fem": "die", "Neut": "das"},
    "Dat": {"Masc": "dem", "Fem": "der", "Neut": "dem"},
    "Gen": {"Masc": "des", "Fem": "der", "Neut": "des"},
}
#: Endings of ein-words (ein, kein, mein, sein, ihr, ...) and of der-words (dieser, jeder).
_EIN_ENDINGS = {
    "Nom": {"Masc": "", "Fem": "e", "Neut": ""},
    "Acc": {"Masc": "en", "Fem": "e", "Neut": ""},
    "Dat": {"Masc": "em", "Fem": "er", "Neut": "em"},
    "Gen": {"Masc": "es", "Fem": "er", "Neut": "es"},
}
_DER_ENDINGS = {
    "Nom": {"Masc": "er", "Fem": "e", "Neut": "es"},
    "Acc": {"Masc": "en", "Fem": "e", "Neut": "es"},
    "Dat": {"Masc": "em", "Fem": "er", "Neut": "em"},
    "Gen": {"Masc": "es", "Fem": "er", "Neut": "es"},
}
_EIN_STEMS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser")
_DER_STEMS = ("dies", "jen", "jed", "welch", "manch", "solch")
_DEFINITE_FORMS = frozenset({"der", "die", "das", "den", "dem", "des"})
#: Weak masculine nouns: nominative singular → the form of every other singular case.
GERMAN_WEAK_NOUNS = {
    "junge": "jungen", "herr": "herrn", "neffe": "neffen", "prinz": "prinzen",
    "kollege": "kollegen", "student": "studenten", "präsident": "präsidenten",
    "architekt": "architekten", "diplomat": "diplomaten", "psychologe": "psychologen",
    "biologe": "biologen", "fotograf": "fotografen", "philosoph": "philosophen",
    "chirurg": "chirurgen", "kerl": "kerl",
}  # fmt: skip
_WEAK_OBLIQUE = {oblique: nominative for nominative, oblique in GERMAN_WEAK_NOUNS.items()}
#: Masculine person nouns of the German lists with a genitive -(e)s (des Mannes).
_MASCULINE = frozenset(
    {"mann", "vater", "sohn", "bruder", "ehemann", "onkel", "großvater", "enkel", "könig",
     "freund", "bräutigam", "papa", "mönch", "kerl"}
)  # fmt: skip
#: Personal pronouns by case: er/ihn/ihm, sie/sie/ihr.
_GERMAN_PRONOUN_CASES = {("er", "Acc"): "ihn", ("er", "Dat"): "ihm", ("sie", "Dat"): "ihr"}
#: The owner's possessive in every ending, and words after which a capital starts a sentence.
GERMAN_OWNER_FORMS = frozenset(
    stem + ending for stem in ("sein", "ihr") for ending in ("", "e", "en", "em", "er", "es")
)
_SENTENCE_OPENERS = frozenset({".", "!", "?", ":", '"', "„", "“", "«", "»", "(", "-"})


def german_determiner(word: str, case: str, gender: str) -> str | None:
    """The German determiner of ``word``'s kind (definite, ein-word, der-word) in ``case``
    (Nom/Acc/Dat/Gen) and ``gender`` (Masc/Fem/Neut), singular; None if not a determiner."""
    lower = word.lower()
    if lower in _DEFINITE_FORMS:
        return match_case(word, _GERMAN_DEFINITE[case][gender])
    for stems, endings in ((_EIN_STEMS, _EIN_ENDINGS), (_DER_STEMS, _DER_ENDINGS)):
        for stem in stems:
            if lower.startswith(stem) and lower[len(stem) :] in {"", "e", "en", "em", "er", "es"}:
                return match_case(word, stem + endings[case][gender])
    return None


@dataclass(frozen=True)
class GermanAgreement(Agreement):
    lang: str = "de"
    contractions: frozenset[str] = frozenset({"im", "am", "zum", "zur", "vom", "beim", "ins"})
    neuter: frozenset[str] = field(default_factory=lambda: frozenset({"mädchen", "fräulein"}))

    def _case(self, word: str, info) -> str:
        case = getattr(info, "case", None)
        if case not in _GERMAN_DEFINITE or getattr(info, "number", None) == "Plur":
            raise Refused("no_case", word)
        return case

    def lemma(self, word: str, info, previous: str = "") -> str:
        """Weak nouns' oblique forms stand for their nominative ("jungen": "junge"); "sie"
        and the ihr-/sein- forms are not a gendered word when they are a verb ("sein", to
        be), plural ("sie" they, "ihre" their: ``Number`` or ``Number[psor]`` Plur), second
        person ("ihr" you), or capitalised inside a sentence (the polite "Sie", "Ihr")."""
        lower = word.lower()
        if lower == "sie" or lower in GERMAN_OWNER_FORMS:
            if info is not None and (
                info.pos in {"VERB", "AUX"}
                or info.person in {"1", "2"}
                or (lower == "sie" and info.number == "Plur")
                or info.possessor_number == "Plur"
            ):
                return ""
            if word[:1].isupper() and previous and previous not in _SENTENCE_OPENERS:
                return ""
        if lower in {"ihn", "ihm"}:
            return "er"  # him: swapped by case (noun_form)
        if lower == "ihr" and info is not None and info.pos == "PRON":
            return "sie"  # dative "to her"
        if lower in _WEAK_OBLIQUE and getattr(info, "number", None) != "Plur":
            return _WEAK_OBLIQUE[lower]
        if (info is None or info.case == "Gen") and lower.endswith("s"):
            for ending in ("es", "s"):  # des Mannes: mann
                if lower[: -len(ending)] in _MASCULINE:
                    return lower[: -len(ending)]
        return lower

    def noun_form(self, noun: str, info, source: str = "") -> str:
        lower = noun.lower()
        case = getattr(info, "case", None)
        pronoun = _GERMAN_PRONOUN_CASES.get((lower, case))
        if pronoun is not None:
            return match_case(noun, pronoun)
        if case == "Dat" and getattr(info, "number", None) == "Plur":
            # only where the text shows the dative plural itself (Frauen, Töchtern)
            if source.lower().endswith("n") and not lower.endswith(("n", "s")):
                return match_case(noun, lower + "n")  # den Männern
        if case == "Gen" and getattr(info, "number", None) == "Sing" and lower in _MASCULINE:
            ending = "s" if lower.endswith(("er", "el", "en", "e")) else "es"
            return match_case(noun, lower + ending)  # des Mannes, meines Vaters
        plural = getattr(info, "number", None) == "Plur"
        if lower in GERMAN_WEAK_NOUNS and case not in {None, "Nom"} and not plural:
            return match_case(noun, GERMAN_WEAK_NOUNS[lower])
        return noun

    def ambiguous(self, word: str, info) -> bool:
        """An ihr- possessive is "her" or "their" (or the polite "your"): refused unless
        the analyser says its possessor is singular (UD ``Number[psor]=Sing``)."""
        lower = word.lower()
        return (
            info is not None
            and lower.startswith("ihr")
            and lower in GERMAN_OWNER_FORMS
            and info.possessor_number != "Sing"
        )

    def determiner(self, word: str, info, to: str) -> str:
        new = german_determiner(word, self._case(word, info), to)
        if new is None:
            raise Refused("no_counterpart", word)
        return new

    def adjective(self, word: str, info, to: str, before_noun: bool) -> str:
        raise Refused("adjective", word)

    def reinflect(self, listed: str, new: str, info, to: str) -> str:
        again = german_determiner(new, self._case(listed, info), to)
        return new if again is None else again


#: Agreement rules by language.
AGREEMENT: dict[str, Agreement] = {
    "es": SpanishAgreement(),
    "fr": FrenchAgreement(),
    "de": GermanAgreement(),
}
