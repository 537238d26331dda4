"""Lexicon and grammar of the demo world: one meaning, four languages.

A :class:`Meaning` is an abstract sentence (who, doing what, optionally where or when).
:func:`render` turns it into a lowercase, space-tokenised sentence ending in ``" ."`` in
English (en), German (de), Spanish (es) or French (fr), with correct gender agreement:
pronouns (he/er/él/il vs. she/sie/ella/elle), articles and possessives (der/die,
el/la, le/la, sein/ihr, son/sa), occupation nouns (Arzt/Ärztin, médico/médica,
infirmier/infirmière) and adjectives (alto/alta, grand/grande). Renderings of the same
meaning are translations of each other, so parallel corpora built from them are aligned.

The English side uses neutral occupation nouns ("doctor", "nurse"); its gender lives in
pronouns, possessives, person nouns and first names, all of which are in the shipped word
lists (``mgbias.wordlists``).

Two optional sentence kinds put an occupation in subject position (the contextual probes
of Basta et al. 2020 read the occupation token's vector): a possession frame whose later
possessive reveals the person's gender ("the doctor calls his brother .", "the nurse reads
her book ."), and gender-free occupation sentences ("the doctor reads a book ."), whose
English side has no gender word while the other languages show the referent's gender in
the occupation's form and article ("la médica lee un libro .").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from mgbias.wordlists import load_wordlist
from mgbias.wordlists.genders import FEMALE, GENDERS, MALE, opposite

LANGUAGES: tuple[str, ...] = ("en", "de", "es", "fr")

# Meaning categories, named after the genders present on the English side.
CATEGORY_MALE = MALE
CATEGORY_FEMALE = FEMALE
CATEGORY_NEUTRAL = "neutral"
CATEGORY_BOTH = "both"
CATEGORIES: tuple[str, ...] = (CATEGORY_MALE, CATEGORY_FEMALE, CATEGORY_NEUTRAL, CATEGORY_BOTH)


# --------------------------------------------------------------------------------------
# Occupations
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Occupation:
    """An occupation with its gendered forms; ``(male form, female form)`` per language.

    ``stereotype`` is the gender the planted bias associates with the occupation.
    """

    en: str
    de: tuple[str, str]
    es: tuple[str, str]
    fr: tuple[str, str]
    stereotype: str


# fmt: off
OCCUPATIONS: tuple[Occupation, ...] = (
    # Stereotypically male half.
    Occupation("engineer", ("ingenieur", "ingenieurin"), ("ingeniero", "ingeniera"),
               ("ingénieur", "ingénieure"), MALE),
    Occupation("doctor", ("arzt", "ärztin"), ("médico", "médica"),
               ("médecin", "médecin"), MALE),
    Occupation("pilot", ("pilot", "pilotin"), ("piloto", "piloto"),
               ("pilote", "pilote"), MALE),
    Occupation("mechanic", ("mechaniker", "mechanikerin"), ("mecánico", "mecánica"),
               ("mécanicien", "mécanicienne"), MALE),
    Occupation("programmer", ("programmierer", "programmiererin"),
               ("programador", "programadora"), ("programmeur", "programmeuse"), MALE),
    Occupation("farmer", ("bauer", "bäuerin"), ("granjero", "granjera"),
               ("agriculteur", "agricultrice"), MALE),
    Occupation("scientist", ("wissenschaftler", "wissenschaftlerin"),
               ("científico", "científica"), ("scientifique", "scientifique"), MALE),
    Occupation("lawyer", ("anwalt", "anwältin"), ("abogado", "abogada"),
               ("avocat", "avocate"), MALE),
    # Stereotypically female half.
    Occupation("nurse", ("krankenpfleger", "krankenpflegerin"), ("enfermero", "enfermera"),
               ("infirmier", "infirmière"), FEMALE),
    Occupation("teacher", ("lehrer", "lehrerin"), ("profesor", "profesora"),
               ("enseignant", "enseignante"), FEMALE),
    Occupation("secretary", ("sekretär", "sekretärin"), ("secretario", "secretaria"),
               ("secrétaire", "secrétaire"), FEMALE),
    Occupation("hairdresser", ("friseur", "friseurin"), ("peluquero", "peluquera"),
               ("coiffeur", "coiffeuse"), FEMALE),
    Occupation("dancer", ("tänzer", "tänzerin"), ("bailarín", "bailarina"),
               ("danseur", "danseuse"), FEMALE),
    Occupation("librarian", ("bibliothekar", "bibliothekarin"),
               ("bibliotecario", "bibliotecaria"), ("bibliothécaire", "bibliothécaire"), FEMALE),
    Occupation("singer", ("sänger", "sängerin"), ("cantante", "cantante"),
               ("chanteur", "chanteuse"), FEMALE),
    Occupation("cashier", ("kassierer", "kassiererin"), ("cajero", "cajera"),
               ("caissier", "caissière"), FEMALE),
)
# fmt: on

#: English names of the occupations the planted bias associates with men.
STEREOTYPICALLY_MALE_OCCUPATIONS: tuple[str, ...] = tuple(
    occupation.en for occupation in OCCUPATIONS if occupation.stereotype == MALE
)
#: English names of the occupations the planted bias associates with women.
STEREOTYPICALLY_FEMALE_OCCUPATIONS: tuple[str, ...] = tuple(
    occupation.en for occupation in OCCUPATIONS if occupation.stereotype == FEMALE
)
#: Indices into OCCUPATIONS of each gender's stereotyped half.
OCCUPATIONS_BY_STEREOTYPE: dict[str, tuple[int, ...]] = {
    gender: tuple(i for i, occ in enumerate(OCCUPATIONS) if occ.stereotype == gender)
    for gender in GENDERS
}

# --------------------------------------------------------------------------------------
# People: pronouns, person nouns, first names
# --------------------------------------------------------------------------------------

PRONOUNS: dict[str, dict[str, str]] = {
    "en": {MALE: "he", FEMALE: "she"},
    "de": {MALE: "er", FEMALE: "sie"},
    "es": {MALE: "él", FEMALE: "ella"},
    "fr": {MALE: "il", FEMALE: "elle"},
}
ENGLISH_POSSESSIVES: dict[str, str] = {MALE: "his", FEMALE: "her"}
#: The adjectives of a gender-marked English occupation ("a female doctor"); both are
#: in the English gender word lists (``en_male``, ``en_female``).
ENGLISH_GENDER_ADJECTIVES: dict[str, str] = {MALE: "male", FEMALE: "female"}


def demo_targets(lang: str) -> list[str]:
    """The occupations as the targets of a template probe in ``lang``: the English nouns,
    elsewhere each occupation's masculine and feminine form (once where both are the same),
    in :data:`OCCUPATIONS` order (:func:`mgbias.finetune.probe_targets.template_targets`,
    ``"demo"``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"the demo world has no language {lang!r}; expected one of {LANGUAGES}")
    if lang == "en":
        return [occupation.en for occupation in OCCUPATIONS]
    forms = [form for occupation in OCCUPATIONS for form in getattr(occupation, lang)]
    return list(dict.fromkeys(forms))


class GermanNoun(NamedTuple):
    """A German noun: nominative form, accusative form, grammatical gender (m/f/n)."""

    nominative: str
    accusative: str
    grammatical_gender: str


@dataclass(frozen=True)
class PersonNoun:
    """A pair of person nouns, ``(male, female)`` per language.

    ``kin`` nouns take a possessive ("my father", "calls her brother"); the others take an
    article ("the man", "met a woman"). Spanish and French grammatical gender equals the
    person's gender; German has its own (das Mädchen is neuter).
    """

    en: tuple[str, str]
    de: tuple[GermanNoun, GermanNoun]
    es: tuple[str, str]
    fr: tuple[str, str]
    kin: bool


def _de(nominative: str, gender: str, accusative: str | None = None) -> GermanNoun:
    return GermanNoun(nominative, accusative or nominative, gender)


# fmt: off
PERSON_NOUNS: tuple[PersonNoun, ...] = (
    PersonNoun(("man", "woman"), (_de("mann", "m"), _de("frau", "f")),
               ("hombre", "mujer"), ("homme", "femme"), kin=False),
    PersonNoun(("boy", "girl"), (_de("junge", "m", "jungen"), _de("mädchen", "n")),
               ("chico", "chica"), ("garçon", "fille"), kin=False),
    PersonNoun(("king", "queen"), (_de("könig", "m"), _de("königin", "f")),
               ("rey", "reina"), ("roi", "reine"), kin=False),
    PersonNoun(("gentleman", "lady"), (_de("herr", "m", "herrn"), _de("dame", "f")),
               ("caballero", "dama"), ("monsieur", "dame"), kin=False),
    PersonNoun(("father", "mother"), (_de("vater", "m"), _de("mutter", "f")),
               ("padre", "madre"), ("père", "mère"), kin=True),
    PersonNoun(("brother", "sister"), (_de("bruder", "m"), _de("schwester", "f")),
               ("hermano", "hermana"), ("frère", "sœur"), kin=True),
    PersonNoun(("son", "daughter"), (_de("sohn", "m"), _de("tochter", "f")),
               ("hijo", "hija"), ("fils", "fille"), kin=True),
    PersonNoun(("husband", "wife"), (_de("ehemann", "m"), _de("ehefrau", "f")),
               ("esposo", "esposa"), ("mari", "femme"), kin=True),
    PersonNoun(("uncle", "aunt"), (_de("onkel", "m"), _de("tante", "f")),
               ("tío", "tía"), ("oncle", "tante"), kin=True),
    PersonNoun(("grandfather", "grandmother"), (_de("großvater", "m"), _de("großmutter", "f")),
               ("abuelo", "abuela"), ("grand-père", "grand-mère"), kin=True),
    PersonNoun(("nephew", "niece"), (_de("neffe", "m", "neffen"), _de("nichte", "f")),
               ("sobrino", "sobrina"), ("neveu", "nièce"), kin=True),
    PersonNoun(("boyfriend", "girlfriend"), (_de("freund", "m"), _de("freundin", "f")),
               ("novio", "novia"), ("copain", "copine"), kin=True),
)
# fmt: on

KIN_NOUNS: tuple[int, ...] = tuple(i for i, noun in enumerate(PERSON_NOUNS) if noun.kin)
NON_KIN_NOUNS: tuple[int, ...] = tuple(i for i, noun in enumerate(PERSON_NOUNS) if not noun.kin)

_NAME_LISTS: dict[str, str] = {MALE: "en_male_names", FEMALE: "en_female_names"}


@cache
def first_names(gender: str) -> tuple[str, ...]:
    """First names of one gender, sorted, from the shipped name lists."""
    return tuple(sorted(load_wordlist(_NAME_LISTS[gender])))


# --------------------------------------------------------------------------------------
# Predicates
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adjective:
    """A predicative adjective.

    German predicative adjectives do not inflect; Spanish ones take ``ser`` or ``estar``
    (``es_copula``) and a ``(male, female)`` form; French ones a ``(male, female)`` form.
    """

    en: str
    de: str
    es_copula: str
    es: tuple[str, str]
    fr: tuple[str, str]


# fmt: off
ADJECTIVES: tuple[Adjective, ...] = (
    Adjective("tall", "groß", "es", ("alto", "alta"), ("grand", "grande")),
    Adjective("short", "klein", "es", ("bajo", "baja"), ("petit", "petite")),
    Adjective("strong", "stark", "es", ("fuerte", "fuerte"), ("fort", "forte")),
    Adjective("kind", "freundlich", "es", ("amable", "amable"), ("gentil", "gentille")),
    Adjective("smart", "klug", "es", ("inteligente", "inteligente"),
              ("intelligent", "intelligente")),
    Adjective("famous", "berühmt", "es", ("famoso", "famosa"), ("célèbre", "célèbre")),
    Adjective("rich", "reich", "es", ("rico", "rica"), ("riche", "riche")),
    Adjective("young", "jung", "es", ("joven", "joven"), ("jeune", "jeune")),
    Adjective("tired", "müde", "está", ("cansado", "cansada"), ("fatigué", "fatiguée")),
    Adjective("happy", "glücklich", "está", ("contento", "contenta"), ("content", "contente")),
    Adjective("busy", "beschäftigt", "está", ("ocupado", "ocupada"), ("occupé", "occupée")),
    Adjective("calm", "ruhig", "está", ("tranquilo", "tranquila"), ("calme", "calme")),
)
# fmt: on


@dataclass(frozen=True)
class Activity:
    """A verb phrase without gender agreement.

    German is split into ``(finite verb, rest)`` so that a modifier can go between them.
    ``has_place`` marks phrases that already say where (no place modifier is added).
    """

    en: str
    de: tuple[str, str]
    es: str
    fr: str
    has_place: bool = False


# fmt: off
ACTIVITIES: tuple[Activity, ...] = (
    Activity("works in the city", ("arbeitet", "in der stadt"), "trabaja en la ciudad",
             "travaille en ville", has_place=True),
    Activity("lives in the village", ("wohnt", "im dorf"), "vive en el pueblo",
             "habite au village", has_place=True),
    Activity("reads a book", ("liest", "ein buch"), "lee un libro", "lit un livre"),
    Activity("writes a letter", ("schreibt", "einen brief"), "escribe una carta",
             "écrit une lettre"),
    Activity("plays football", ("spielt", "fußball"), "juega al fútbol", "joue au football"),
    Activity("drives a car", ("fährt", "ein auto"), "conduce un coche", "conduit une voiture"),
    Activity("cooks dinner", ("kocht", "das abendessen"), "cocina la cena", "prépare le dîner"),
    Activity("sings a song", ("singt", "ein lied"), "canta una canción", "chante une chanson"),
    Activity("buys bread", ("kauft", "brot"), "compra pan", "achète du pain"),
    Activity("watches a film", ("sieht", "einen film"), "ve una película", "regarde un film"),
)
# fmt: on

# Frames per predicate kind. Occupation frames: 0 "is a", 1 "wants to be a", 2 "works as a".
OCCUPATION_FRAMES: int = 3
# Relation frames (a person of the other gender): 0 "met a", 1 "calls POSS", 2 "visits POSS".
RELATION_FRAMES: int = 3
RELATION_MET = 0


def relation_objects(frame_index: int) -> tuple[int, ...]:
    """Indices into PERSON_NOUNS usable as the object of a relation frame."""
    return NON_KIN_NOUNS if frame_index == RELATION_MET else KIN_NOUNS


@dataclass(frozen=True)
class Possession:
    """A thing a person owns, with the verb of the possession frame ("reads his book").

    ``de`` is ``(verb, noun, grammatical gender m/f/n)``, ``es`` ``(verb, noun)`` (``su``
    does not agree with the owner), ``fr`` ``(verb, noun, grammatical gender)``: the French
    possessive agrees with the thing (son livre, sa voiture), not with the owner.
    """

    en: tuple[str, str]
    de: tuple[str, str, str]
    es: tuple[str, str]
    fr: tuple[str, str, str]


# fmt: off
POSSESSIONS: tuple[Possession, ...] = (
    Possession(("reads", "book"), ("liest", "buch", "n"), ("lee", "libro"),
               ("lit", "livre", MALE)),
    Possession(("drives", "car"), ("fährt", "auto", "n"), ("conduce", "coche"),
               ("conduit", "voiture", FEMALE)),
    Possession(("sells", "house"), ("verkauft", "haus", "n"), ("vende", "casa"),
               ("vend", "maison", FEMALE)),
    Possession(("carries", "bag"), ("trägt", "tasche", "f"), ("lleva", "bolso"),
               ("porte", "sac", MALE)),
    Possession(("loses", "key"), ("verliert", "schlüssel", "m"), ("pierde", "llave"),
               ("perd", "clé", FEMALE)),
)
# fmt: on

# Possession frames: 0 "calls POSS kin" (a kin noun of the owner's gender, so that the
# sentence has one gender), 1 "VERB POSS thing" (index into POSSESSIONS).
POSSESSION_FRAMES: int = 2
POSSESSION_KIN = 0


def possession_slots(frame_index: int) -> tuple[int, ...]:
    """Slot indices of a possession frame: KIN_NOUNS (into PERSON_NOUNS) or POSSESSIONS."""
    return KIN_NOUNS if frame_index == POSSESSION_KIN else tuple(range(len(POSSESSIONS)))


# --------------------------------------------------------------------------------------
# Neutral subjects (no person, no gender on the English side)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Thing:
    """A non-person subject; ``(noun phrase, grammatical gender)`` in es and fr."""

    en: str
    de: str
    es: tuple[str, str]
    fr: tuple[str, str]


# fmt: off
THINGS: tuple[Thing, ...] = (
    Thing("the team", "das team", ("el equipo", MALE), ("l'équipe", FEMALE)),
    Thing("the company", "die firma", ("la empresa", FEMALE), ("l'entreprise", FEMALE)),
    Thing("the school", "die schule", ("la escuela", FEMALE), ("l'école", FEMALE)),
    Thing("the museum", "das museum", ("el museo", MALE), ("le musée", MALE)),
    Thing("the library", "die bibliothek", ("la biblioteca", FEMALE),
          ("la bibliothèque", FEMALE)),
    Thing("the hospital", "das krankenhaus", ("el hospital", MALE), ("l'hôpital", MALE)),
    Thing("the restaurant", "das restaurant", ("el restaurante", MALE),
          ("le restaurant", MALE)),
)
# fmt: on

# Predicates for things: (en, de (verb, rest), es (copula, m, f), fr (verb, m, f)).
# Agreement here is grammatical gender of the thing, never a person's gender.
# fmt: off
THING_PREDICATES: tuple[tuple[str, tuple[str, str], tuple[str, str, str], tuple[str, str, str]],
                        ...] = (
    ("is new", ("ist", "neu"), ("es", "nuevo", "nueva"), ("est", "nouveau", "nouvelle")),
    ("is famous", ("ist", "berühmt"), ("es", "famoso", "famosa"), ("est", "célèbre", "célèbre")),
    ("is closed", ("ist", "geschlossen"), ("está", "cerrado", "cerrada"),
     ("est", "fermé", "fermée")),
    ("needs money", ("braucht", "geld"), ("necesita", "dinero", "dinero"),
     ("a", "besoin d'argent", "besoin d'argent")),
)
# fmt: on

# "the weather is X": (en, de, es, fr).
WEATHER: tuple[tuple[str, str, str, str], ...] = (
    ("good", "gut", "bueno", "beau"),
    ("bad", "schlecht", "malo", "mauvais"),
    ("cold", "kalt", "frío", "froid"),
    ("warm", "warm", "cálido", "doux"),
)
_WEATHER_SUBJECT = {"en": "the weather", "de": "das wetter", "es": "el tiempo", "fr": "le temps"}
_WEATHER_COPULA = {"en": "is", "de": "ist", "es": "es", "fr": "est"}

# --------------------------------------------------------------------------------------
# Modifiers (place / time), placed at the end, or after the finite verb in German
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    """An optional adverbial; ``news`` marks the news-like register."""

    en: str
    de: str
    es: str
    fr: str
    is_place: bool = False
    news: bool = False


# fmt: off
MODIFIERS: tuple[Modifier, ...] = (
    Modifier("today", "heute", "hoy", "aujourd'hui"),
    Modifier("every day", "jeden tag", "cada día", "chaque jour"),
    Modifier("in the morning", "am morgen", "por la mañana", "le matin"),
    Modifier("at night", "nachts", "por la noche", "la nuit"),
    Modifier("now", "jetzt", "ahora", "maintenant"),
    Modifier("in the city", "in der stadt", "en la ciudad", "en ville", is_place=True),
    Modifier("in the village", "im dorf", "en el pueblo", "au village", is_place=True),
    Modifier("this week", "diese woche", "esta semana", "cette semaine", news=True),
    Modifier("since last year", "seit letztem jahr", "desde el año pasado",
             "depuis l'année dernière", news=True),
    Modifier("according to the report", "laut dem bericht", "según el informe",
             "selon le rapport", news=True),
    Modifier("in the capital", "in der hauptstadt", "en la capital", "dans la capitale",
             is_place=True, news=True),
    Modifier("in the region", "in der region", "en la región", "dans la région",
             is_place=True, news=True),
    Modifier("in paris", "in paris", "en parís", "à paris", is_place=True, news=True),
    Modifier("in berlin", "in berlin", "en berlín", "à berlin", is_place=True, news=True),
)
# fmt: on

# --------------------------------------------------------------------------------------
# Meanings and rendering
# --------------------------------------------------------------------------------------

SUBJECT_PRONOUN = "pronoun"
SUBJECT_NOUN = "noun"
SUBJECT_NAME = "name"
SUBJECT_THING = "thing"
SUBJECT_WEATHER = "weather"
SUBJECT_OCCUPATION = "occupation"

PREDICATE_OCCUPATION = "occupation"
PREDICATE_ADJECTIVE = "adjective"
PREDICATE_ACTIVITY = "activity"
PREDICATE_RELATION = "relation"
PREDICATE_THING = "thing"
PREDICATE_WEATHER = "weather"
PREDICATE_POSSESSION = "possession"


class Meaning(NamedTuple):
    """An abstract sentence, rendered into every language by :func:`render`.

    Attributes
    ----------
    category
        Genders on the English side: ``"male"``, ``"female"``, ``"neutral"`` or ``"both"``.
    gender
        The subject's gender (:data:`mgbias.wordlists.genders.MALE` or ``FEMALE``); ``None`` for
        neutral meanings without a person. A gender-free occupation sentence is neutral
        (no gender word in English) but has its referent's gender, which the other
        languages show.
    subject_kind
        ``"pronoun"``, ``"noun"`` (index into PERSON_NOUNS), ``"name"`` (index into
        ``first_names(gender)``), ``"thing"`` (index into THINGS), ``"weather"`` or
        ``"occupation"`` (index into OCCUPATIONS: "the doctor").
    subject_index
        Index into the table of ``subject_kind``.
    predicate_kind
        ``"occupation"``, ``"adjective"``, ``"activity"``, ``"relation"`` (a person of the
        other gender: category ``"both"``), ``"thing"``, ``"weather"`` or ``"possession"``
        (the subject's kin or thing with a possessive: "calls his brother").
    frame_index
        Frame within the kind (e.g. occupation "is a" / "wants to be a" / "works as a").
    slot_index
        Index into OCCUPATIONS, ADJECTIVES, ACTIVITIES, PERSON_NOUNS (relation object,
        possessed kin), THING_PREDICATES, WEATHER or POSSESSIONS.
    modifier_index
        Index into MODIFIERS, or -1 for none.
    gender_marked
        An occupation predicate whose English side says the subject's gender with an
        adjective ("she is a female doctor", "he is a male nurse"), as English renders
        the gendered forms of German, Spanish and French (Ärztin, médica: "female
        doctor"); the other languages are unchanged. False for every other meaning.
    """

    category: str
    gender: str | None
    subject_kind: str
    subject_index: int
    predicate_kind: str
    frame_index: int
    slot_index: int
    modifier_index: int = -1
    gender_marked: bool = False


def _gender_index(gender: str) -> int:
    return 0 if gender == MALE else 1


def _english_article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _french_starts_with_vowel(word: str) -> bool:
    # Every h-initial noun of this lexicon (homme, hôpital) has a mute h.
    return word[0] in "aeiouéèêâîôh"


def _german_determiner(kind: str, grammatical_gender: str, accusative: bool) -> str:
    """German article or possessive for a noun: ``kind`` in def/indef/mein/sein/ihr."""
    if kind == "def":
        table = {"m": ("der", "den"), "f": ("die", "die"), "n": ("das", "das")}
        return table[grammatical_gender][int(accusative)]
    stem = "ein" if kind == "indef" else kind
    if grammatical_gender == "f":
        return stem + "e"
    if grammatical_gender == "m" and accusative:
        return stem + "en"
    return stem


def _french_determiner(kind: str, gender: str, noun: str) -> str:
    """French article or possessive: ``kind`` in def/indef/mon/son; returns "l'" unspaced."""
    vowel = _french_starts_with_vowel(noun)
    if kind == "def":
        return "l'" if vowel else ("le" if gender == MALE else "la")
    if kind == "indef":
        return "un" if gender == MALE else "une"
    # Possessives: mon/ma, son/sa; the masculine form also before a vowel ("mon école").
    return kind if (gender == MALE or vowel) else kind[0] + "a"


def _join_french(determiner: str, noun: str) -> str:
    return determiner + noun if determiner.endswith("'") else f"{determiner} {noun}"


def _person_noun_phrase(
    noun: PersonNoun, gender: str, lang: str, determiner: str, accusative: bool = False
) -> str:
    """A person noun with a determiner.

    ``determiner`` is ``"the"``, ``"a"`` (indefinite), ``"my"`` or ``"poss-"`` followed by
    :data:`~mgbias.wordlists.genders.MALE` or ``FEMALE`` (possessive of a male/female owner:
    his/her, sein/ihr, su, son/sa).
    """
    g = _gender_index(gender)
    if lang == "en":
        word = noun.en[g]
        words = {"the": "the", "a": _english_article(word), "my": "my"}
        if determiner.startswith("poss-"):
            return f"{ENGLISH_POSSESSIVES[determiner.removeprefix('poss-')]} {word}"
        return f"{words[determiner]} {word}"
    if lang == "de":
        german = noun.de[g]
        form = german.accusative if accusative else german.nominative
        kinds = {
            "the": "def",
            "a": "indef",
            "my": "mein",
            f"poss-{MALE}": "sein",
            f"poss-{FEMALE}": "ihr",
        }
        return (
            f"{_german_determiner(kinds[determiner], german.grammatical_gender, accusative)} {form}"
        )
    if lang == "es":
        word = noun.es[g]
        if determiner == "the":
            return f"{'el' if gender == MALE else 'la'} {word}"
        if determiner == "a":
            return f"{'un' if gender == MALE else 'una'} {word}"
        return f"{'mi' if determiner == 'my' else 'su'} {word}"
    if lang == "fr":
        word = noun.fr[g]
        kinds = {
            "the": "def",
            "a": "indef",
            "my": "mon",
            f"poss-{MALE}": "son",
            f"poss-{FEMALE}": "son",
        }
        return _join_french(_french_determiner(kinds[determiner], gender, word), word)
    raise ValueError(f"unsupported language {lang!r}; expected one of {LANGUAGES}")


def _subject(meaning: Meaning, lang: str) -> str:
    kind = meaning.subject_kind
    if kind == SUBJECT_PRONOUN:
        return PRONOUNS[lang][meaning.gender]
    if kind == SUBJECT_NAME:
        return first_names(meaning.gender)[meaning.subject_index]
    if kind == SUBJECT_NOUN:
        noun = PERSON_NOUNS[meaning.subject_index]
        return _person_noun_phrase(noun, meaning.gender, lang, "my" if noun.kin else "the")
    if kind == SUBJECT_THING:
        thing = THINGS[meaning.subject_index]
        value = getattr(thing, lang)
        return value if isinstance(value, str) else value[0]
    if kind == SUBJECT_WEATHER:
        return _WEATHER_SUBJECT[lang]
    if kind == SUBJECT_OCCUPATION:
        return _occupation_subject(meaning, lang)
    raise ValueError(f"unknown subject kind {kind!r}")


def _occupation_subject(meaning: Meaning, lang: str) -> str:
    """ "the doctor", "die ärztin", "la médica", "l'ingénieure": the referent's gender."""
    occupation = OCCUPATIONS[meaning.subject_index]
    if lang == "en":
        return f"the {occupation.en}"
    form = getattr(occupation, lang)[_gender_index(meaning.gender)]
    if lang == "de":
        return f"{'der' if meaning.gender == MALE else 'die'} {form}"
    if lang == "es":
        return f"{'el' if meaning.gender == MALE else 'la'} {form}"
    return _join_french(_french_determiner("def", meaning.gender, form), form)


def _occupation_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    occupation = OCCUPATIONS[meaning.slot_index]
    frame = meaning.frame_index
    if lang == "en":
        if meaning.gender_marked:
            noun = f"a {ENGLISH_GENDER_ADJECTIVES[meaning.gender]} {occupation.en}"
        else:
            noun = f"{_english_article(occupation.en)} {occupation.en}"
        return (("is ", "wants to be ", "works as ")[frame] + noun, "")
    form = getattr(occupation, lang)[_gender_index(meaning.gender)]
    if lang == "de":
        return (("ist", form), ("will", f"{form} werden"), ("arbeitet", f"als {form}"))[frame]
    if lang == "es":
        return (("es ", "quiere ser ", "trabaja como ")[frame] + form, "")
    return (("est ", "veut être ", "travaille comme ")[frame] + form, "")


def _adjective_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    adjective = ADJECTIVES[meaning.slot_index]
    g = _gender_index(meaning.gender)
    if lang == "en":
        return (f"is {adjective.en}", "")
    if lang == "de":
        return ("ist", adjective.de)
    if lang == "es":
        return (f"{adjective.es_copula} {adjective.es[g]}", "")
    return (f"est {adjective.fr[g]}", "")


def _activity_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    activity = ACTIVITIES[meaning.slot_index]
    if lang == "de":
        return activity.de
    return (getattr(activity, lang), "")


def _relation_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    other_gender = opposite(meaning.gender)
    noun = PERSON_NOUNS[meaning.slot_index]
    frame = meaning.frame_index
    determiner = "a" if frame == RELATION_MET else f"poss-{meaning.gender}"
    obj = _person_noun_phrase(noun, other_gender, lang, determiner, accusative=True)
    if lang == "en":
        return (("met ", "calls ", "visits ")[frame] + obj, "")
    if lang == "de":
        return (("traf", obj), ("ruft", f"{obj} an"), ("besucht", obj))[frame]
    if lang == "es":
        return (("conoció a ", "llama a ", "visita a ")[frame] + obj, "")
    return (("a rencontré ", "appelle ", "rend visite à ")[frame] + obj, "")


def _possession_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    gender = meaning.gender
    if meaning.frame_index == POSSESSION_KIN:
        noun = PERSON_NOUNS[meaning.slot_index]
        obj = _person_noun_phrase(noun, gender, lang, f"poss-{gender}", accusative=True)
        if lang == "en":
            return (f"calls {obj}", "")
        if lang == "de":
            return ("ruft", f"{obj} an")
        if lang == "es":
            return (f"llama a {obj}", "")
        return (f"appelle {obj}", "")
    thing = POSSESSIONS[meaning.slot_index]
    if lang == "en":
        return (f"{thing.en[0]} {ENGLISH_POSSESSIVES[gender]} {thing.en[1]}", "")
    if lang == "de":
        verb, noun, grammatical_gender = thing.de
        owner = "sein" if gender == MALE else "ihr"
        return (verb, f"{_german_determiner(owner, grammatical_gender, True)} {noun}")
    if lang == "es":
        return (f"{thing.es[0]} su {thing.es[1]}", "")
    verb, noun, grammatical_gender = thing.fr
    return (f"{verb} {_french_determiner('son', grammatical_gender, noun)} {noun}", "")


def _thing_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    en, de, es, fr = THING_PREDICATES[meaning.slot_index]
    thing = THINGS[meaning.subject_index]
    if lang == "en":
        return (en, "")
    if lang == "de":
        return de
    if lang == "es":
        copula, male_form, female_form = es
        return (f"{copula} {male_form if thing.es[1] == MALE else female_form}", "")
    verb, male_form, female_form = fr
    return (f"{verb} {male_form if thing.fr[1] == MALE else female_form}", "")


def _weather_predicate(meaning: Meaning, lang: str) -> tuple[str, str]:
    word = WEATHER[meaning.slot_index][LANGUAGES.index(lang)]
    if lang == "de":
        return ("ist", word)
    return (f"{_WEATHER_COPULA[lang]} {word}", "")


_PREDICATES = {
    PREDICATE_OCCUPATION: _occupation_predicate,
    PREDICATE_ADJECTIVE: _adjective_predicate,
    PREDICATE_ACTIVITY: _activity_predicate,
    PREDICATE_RELATION: _relation_predicate,
    PREDICATE_THING: _thing_predicate,
    PREDICATE_WEATHER: _weather_predicate,
    PREDICATE_POSSESSION: _possession_predicate,
}


def render(meaning: Meaning, lang: str) -> str:
    """Render a meaning as a lowercase sentence in one language.

    Tokens are separated by single spaces and the sentence ends with ``" ."``. The modifier
    goes at the end, except in German where it follows the finite verb (verb-second order:
    "sie will heute ärztin werden").

    Parameters
    ----------
    meaning
        The abstract sentence.
    lang
        One of :data:`LANGUAGES`.

    Returns
    -------
    str

    Examples
    --------
    >>> m = Meaning("female", "female", "pronoun", 0, "occupation", 1, 1, 0)
    >>> render(m, "en"), render(m, "de")
    ('she wants to be a doctor today .', 'sie will heute ärztin werden .')
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; expected one of {LANGUAGES}")
    head, tail = _PREDICATES[meaning.predicate_kind](meaning, lang)
    parts = [_subject(meaning, lang), head]
    if meaning.modifier_index >= 0:
        parts.append(getattr(MODIFIERS[meaning.modifier_index], lang))
    if tail:
        parts.append(tail)
    parts.append(".")
    return " ".join(parts)


def predicate_has_place(meaning: Meaning) -> bool:
    """Whether the predicate already says where (then no place modifier is added)."""
    return meaning.predicate_kind == PREDICATE_ACTIVITY and ACTIVITIES[meaning.slot_index].has_place


def english_gendered_vocabulary() -> dict[str, frozenset[str]]:
    """Every English word the grammar uses to mark a person's gender, per gender.

    Returns
    -------
    dict
        ``{MALE: words, FEMALE: words}``: pronouns, possessives, the gender adjectives of
        marked occupations, person nouns and first names.
    """
    vocabulary = {}
    for gender in GENDERS:
        g = _gender_index(gender)
        words = {
            PRONOUNS["en"][gender],
            ENGLISH_POSSESSIVES[gender],
            ENGLISH_GENDER_ADJECTIVES[gender],
        }
        words.update(noun.en[g] for noun in PERSON_NOUNS)
        words.update(first_names(gender))
        vocabulary[gender] = frozenset(words)
    return vocabulary
