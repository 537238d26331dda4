"""Word lists for the static-embedding experiments of the demo world (Zhao et al. 2020).

The demo lexicon (:mod:`mgbias.demo.lexicon`) knows each concept's surface forms in every
language, so the resources that the paper downloads can be generated from it, in the
same file formats:

- **bilingual dictionaries** (MUSE format, :func:`dictionary_pairs`): single-token
  concepts (occupations, person nouns, pronouns, adjectives, verbs and objects of the
  activities, things, weather words, one-word time adverbs) split into a training and a
  test part by concept (:func:`split_concepts`), every source form paired with every target
  form of the same concept, so both gendered forms count as translations;
- **MIBs-style lists** (:func:`occupation_pairs`, :func:`seed_pairs`): (masculine,
  feminine) pairs per language, index-aligned across languages. As in MIBs, the
  strong-gendered pairs (distinct English forms: the person nouns that are not seeds,
  king/queen, uncle/aunt, ...) come first and the weak-gendered ones (the occupations,
  one English form) after them; :func:`n_strong` counts the first. The seed pairs are the
  subject pronouns and six person nouns (man/woman, boy/girl, father/mother, son/daughter,
  brother/sister, husband/wife).

Hard debiasing of the demo's English vectors uses the shipped debiaswe lists unchanged:
they hold every gendered English word of the lexicon and none of its occupations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mgbias.demo.lexicon import (
    ACTIVITIES,
    ADJECTIVES,
    FEMALE,
    LANGUAGES,
    MALE,
    MODIFIERS,
    OCCUPATIONS,
    PERSON_NOUNS,
    PRONOUNS,
    THINGS,
    WEATHER,
    PersonNoun,
)
from mgbias.embeddings.dictionaries import (
    TEST_SPLIT,
    TRAIN_SPLIT,
    dictionary_name,
    write_dictionary,
)
from mgbias.embeddings.mibs import (
    occupation_file_names,
    seed_file_name,
    write_occupation_pairs,
    write_seed_pairs,
)
from mgbias.seeds import check_seed

__all__ = [
    "DEMO_FASTTEXT",
    "SEED_NOUNS",
    "Concept",
    "concepts",
    "dictionary_pairs",
    "n_strong",
    "occupation_pairs",
    "seed_pairs",
    "split_concepts",
    "write_dictionaries",
    "write_mibs_lists",
]

#: fastText settings that recover the planted bias from a demo world's 20,000 sentences
#: per language (about 1 s per language on one thread). Character n-grams are off: with
#: them, a feminine form shares most n-grams with its masculine form (lehrer/lehrerin), which
#: in this small vocabulary ties the two together and hides the planted association (German
#: and French inBias then come out higher in the balanced world than in the planted one).
DEMO_FASTTEXT: dict[str, int] = {"dim": 50, "epoch": 20, "minCount": 5, "minn": 0, "maxn": 0}

#: English male forms of the person nouns used as gender seeds (with the pronouns).
SEED_NOUNS: tuple[str, ...] = ("man", "boy", "father", "son", "brother", "husband")


@dataclass(frozen=True)
class Concept:
    """One meaning and its single-token surface forms per language."""

    name: str
    forms: dict[str, tuple[str, ...]]


def _forms(*words: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(words))


def _last(phrase: str) -> str:
    return phrase.split()[-1]


def _first(phrase: str) -> str:
    return phrase.split()[0]


def _person_forms(noun: PersonNoun, g: int) -> dict[str, tuple[str, ...]]:
    return {
        "en": (noun.en[g],),
        "de": (noun.de[g].nominative,),
        "es": (noun.es[g],),
        "fr": (noun.fr[g],),
    }


def concepts() -> list[Concept]:
    """Every single-token concept of the lexicon, in a fixed order (English name unique)."""
    found: list[Concept] = []
    for occupation in OCCUPATIONS:
        found.append(
            Concept(
                occupation.en,
                {
                    "en": (occupation.en,),
                    "de": _forms(*occupation.de),
                    "es": _forms(*occupation.es),
                    "fr": _forms(*occupation.fr),
                },
            )
        )
    for noun in PERSON_NOUNS:
        for g in (0, 1):
            found.append(Concept(noun.en[g], _person_forms(noun, g)))
    for gender in (MALE, FEMALE):
        found.append(
            Concept(PRONOUNS["en"][gender], {lang: (PRONOUNS[lang][gender],) for lang in LANGUAGES})
        )
    for adjective in ADJECTIVES:
        found.append(
            Concept(
                adjective.en,
                {
                    "en": (adjective.en,),
                    "de": (adjective.de,),
                    "es": _forms(*adjective.es),
                    "fr": _forms(*adjective.fr),
                },
            )
        )
    for activity in ACTIVITIES:
        verb = {
            "en": (_first(activity.en),),
            "de": (activity.de[0],),
            "es": (_first(activity.es),),
            "fr": (_first(activity.fr),),
        }
        obj = {
            "en": (_last(activity.en),),
            "de": (_last(activity.de[1]),),
            "es": (_last(activity.es),),
            "fr": (_last(activity.fr),),
        }
        found += [Concept(verb["en"][0], verb), Concept(obj["en"][0], obj)]
    for thing in THINGS:
        found.append(
            Concept(
                _last(thing.en),
                {
                    "en": (_last(thing.en),),
                    "de": (_last(thing.de),),
                    "es": (_last(thing.es[0]),),
                    "fr": (_last(thing.fr[0]),),
                },
            )
        )
    for row in WEATHER:
        found.append(Concept(row[0], {lang: (row[i],) for i, lang in enumerate(LANGUAGES)}))
    for modifier in MODIFIERS:
        words = {lang: getattr(modifier, lang).split() for lang in LANGUAGES}
        if all(len(w) == 1 for w in words.values()):
            found.append(Concept(words["en"][0], {lang: (w[0],) for lang, w in words.items()}))
    unique: dict[str, Concept] = {}
    for concept in found:
        unique.setdefault(concept.name, concept)
    return list(unique.values())


def split_concepts(
    seed: int, test_fraction: float = 0.25, inventory: Sequence[Concept] | None = None
) -> tuple[list[Concept], list[Concept]]:
    """Seeded split of the concepts into a training and a test part (no concept in both)."""
    check_seed(seed)
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must lie strictly between 0 and 1, got {test_fraction}")
    inventory = list(concepts() if inventory is None else inventory)
    order = np.random.default_rng(seed).permutation(len(inventory))
    n_test = max(1, round(test_fraction * len(inventory)))
    test = sorted(order[:n_test].tolist())
    train = sorted(order[n_test:].tolist())
    return [inventory[i] for i in train], [inventory[i] for i in test]


def dictionary_pairs(src: str, tgt: str, inventory: Sequence[Concept]) -> list[tuple[str, str]]:
    """Every (source form, target form) of each concept, without repeats, in order."""
    for lang in (src, tgt):
        if lang not in LANGUAGES:
            raise ValueError(f"unsupported language {lang!r}; expected one of {LANGUAGES}")
    pairs = [
        (a, b) for concept in inventory for a in concept.forms[src] for b in concept.forms[tgt]
    ]
    return list(dict.fromkeys(pairs))


def write_dictionaries(
    out_dir: str | Path,
    languages: Sequence[str],
    seed: int,
    test_fraction: float = 0.25,
) -> list[Path]:
    """Write ``{src}-{tgt}.0-5000.txt`` and ``.5000-6500.txt`` for every ordered pair.

    The names are MUSE's; the training file holds the training concepts and the test file
    the others.
    """
    train, test = split_concepts(seed, test_fraction)
    written = []
    for src in languages:
        for tgt in languages:
            if src == tgt:
                continue
            for split, part in ((TRAIN_SPLIT, train), (TEST_SPLIT, test)):
                path = Path(out_dir) / dictionary_name(src, tgt, split)
                write_dictionary(path, dictionary_pairs(src, tgt, part))
                written.append(path)
    return written


def _strong_nouns() -> list[PersonNoun]:
    return [noun for noun in PERSON_NOUNS if noun.en[0] not in SEED_NOUNS]


def _noun_pair(noun: PersonNoun, lang: str) -> tuple[str, str]:
    if lang == "de":
        return noun.de[0].nominative, noun.de[1].nominative
    return getattr(noun, lang)


def occupation_pairs(lang: str) -> list[tuple[str, str]]:
    """MIBs-style (masculine, feminine) pairs: strong-gendered person nouns, then occupations.

    English occupations have one form, which stands on both sides (weak-gendered).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; expected one of {LANGUAGES}")
    pairs = [_noun_pair(noun, lang) for noun in _strong_nouns()]
    for occupation in OCCUPATIONS:
        pairs.append((occupation.en, occupation.en) if lang == "en" else getattr(occupation, lang))
    return pairs


def n_strong() -> int:
    """Number of leading pairs whose English forms differ (the strong-gendered block)."""
    count = 0
    for male, female in occupation_pairs("en"):
        if male == female:
            break
        count += 1
    return count


def seed_pairs(lang: str) -> list[tuple[str, str]]:
    """(male, female) seed pairs: the subject pronouns and :data:`SEED_NOUNS`."""
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}; expected one of {LANGUAGES}")
    pairs = [(PRONOUNS[lang][MALE], PRONOUNS[lang][FEMALE])]
    nouns = {noun.en[0]: noun for noun in PERSON_NOUNS}
    pairs += [_noun_pair(nouns[name], lang) for name in SEED_NOUNS]
    return pairs


def write_mibs_lists(out_dir: str | Path, languages: Sequence[str]) -> list[Path]:
    """Write the MIBs layout: ``{lang}_male_def_occ``, ``{lang}_female_def_occ`` (English
    one word per line, others ``english<TAB>form``) and ``{lang}_gender_pairs.json``."""
    out_dir = Path(out_dir)
    english = occupation_pairs("en")
    written = []
    for lang in languages:
        male_name, female_name = occupation_file_names(lang)
        male, female = out_dir / male_name, out_dir / female_name
        write_occupation_pairs(
            male, female, occupation_pairs(lang), None if lang == "en" else english
        )
        seeds = out_dir / seed_file_name(lang)
        write_seed_pairs(seeds, seed_pairs(lang))
        written += [male, female, seeds]
    return written
