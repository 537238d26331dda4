"""Seeded demo world: parallel and monolingual corpora with a planted gender bias.

:func:`write_world` writes, inside a local mirror directory, files laid out exactly like
the real sources, so the download and reading code of a paper run is exercised unchanged:

- OPUS moses zips, ``OPUS-TED2020/v1/moses/de-en.txt.zip`` holding ``TED2020.de-en.de``,
  ``TED2020.de-en.en``, ``README`` and ``LICENSE`` (likewise GlobalVoices v2017q3);
- WMT news-crawl monolingual text, ``news-crawl/de/news.2021.de.shuffled.deduped.gz``;
- ``world.json``: the spec, meaning counts per file and the SHA-256 of every file.

The planted bias (the demo world of the default configuration, docs/demo.md) has two
knobs: the male:female ratio of gendered sentences (``male_ratio``) and the probability
that an occupation comes from the subject gender's stereotyped half (``occupation_bias``,
see :data:`~mgbias.demo.lexicon.STEREOTYPICALLY_MALE_OCCUPATIONS`). A balanced world sets
them to 1 and 0.5. Same spec, same bytes.

Two further knobs, off by default (a spec without them writes the same bytes as before
they existed), make the plant visible to contextual probes (Basta et al. 2020), which read
an occupation token's vector: ``occupation_subject_share`` of the sentences put the
occupation in subject position with a later possessive revealing the gender ("the doctor
calls his brother ."; occupation drawn with ``occupation_bias`` from the gender's half),
and ``gender_free_occupation_share`` are occupation sentences without any English gender
word ("the doctor reads a book ."; the other languages show the referent's gender, drawn
the same way).
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import json
import math
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mgbias.demo.lexicon import (
    ACTIVITIES,
    ADJECTIVES,
    CATEGORIES,
    CATEGORY_BOTH,
    CATEGORY_FEMALE,
    CATEGORY_MALE,
    CATEGORY_NEUTRAL,
    MODIFIERS,
    OCCUPATION_FRAMES,
    OCCUPATIONS,
    OCCUPATIONS_BY_STEREOTYPE,
    PERSON_NOUNS,
    POSSESSION_FRAMES,
    PREDICATE_ACTIVITY,
    PREDICATE_ADJECTIVE,
    PREDICATE_OCCUPATION,
    PREDICATE_POSSESSION,
    PREDICATE_RELATION,
    PREDICATE_THING,
    PREDICATE_WEATHER,
    PRONOUNS,
    RELATION_FRAMES,
    STEREOTYPICALLY_FEMALE_OCCUPATIONS,
    STEREOTYPICALLY_MALE_OCCUPATIONS,
    SUBJECT_NAME,
    SUBJECT_NOUN,
    SUBJECT_OCCUPATION,
    SUBJECT_PRONOUN,
    SUBJECT_THING,
    SUBJECT_WEATHER,
    THING_PREDICATES,
    THINGS,
    WEATHER,
    Meaning,
    first_names,
    possession_slots,
    predicate_has_place,
    relation_objects,
    render,
)
from mgbias.files.atomic import write_bytes
from mgbias.languages import PIVOT
from mgbias.seeds import check_seed
from mgbias.settings import settings_from_mapping
from mgbias.wordlists.genders import FEMALE, MALE, opposite
from mgbias.workflow.mirror_layout import MIRROR_NEWS_CRAWL, MIRROR_OPUS_ZIP

__all__ = [
    "DEFAULT_CORPORA",
    "MONOLINGUAL_SOURCE",
    "OPUS_CORPORA",
    "WorldSpec",
    "balanced",
    "describe_world",
    "monolingual_corpus",
    "monolingual_path",
    "opus_zip_path",
    "pair_name",
    "parallel_corpus",
    "planted",
    "sample_meanings",
    "supported_languages",
    "write_world",
]

#: Corpus name -> (OPUS directory, release), as on opus.nlpl.eu / object.pouta.csc.fi.
OPUS_CORPORA: dict[str, tuple[str, str]] = {
    "TED2020": ("OPUS-TED2020", "v1"),
    "GlobalVoices": ("OPUS-GlobalVoices", "v2017q3"),
}
DEFAULT_CORPORA: tuple[str, ...] = ("TED2020", "GlobalVoices")
#: Name of the monolingual source (WMT news-crawl layout).
MONOLINGUAL_SOURCE = "news-crawl"
MONOLINGUAL_YEAR = 2021
_TARGET_LANGUAGES: tuple[str, ...] = ("de", "es", "fr")

# Fixed zip member timestamp (zip cannot store dates before 1980).
_ZIP_DATE_TIME = (2020, 1, 1, 0, 0, 0)
_COMPRESS_LEVEL = 6
_WORLD_JSON = "world.json"
_FORMAT_VERSION = 1

# Stable keys of the random streams: a file's stream depends only on (seed, source,
# language), never on which other languages or corpora the world contains.
_SOURCE_STREAM_KEYS = {MONOLINGUAL_SOURCE: 0, "TED2020": 1, "GlobalVoices": 2}
_LANGUAGE_STREAM_KEYS = {"en": 0, "de": 1, "es": 2, "fr": 3}
#: The fourth key of the pronoun-drop stream (a stream of its own per corpus and language).
_DROP_STREAM_KEY = 1


def supported_languages() -> tuple[str, ...]:
    """Target languages the demo grammar renders (English is always the source side)."""
    return _TARGET_LANGUAGES


def pair_name(lang_a: str, lang_b: str) -> str:
    """OPUS pair name: the two codes sorted alphabetically ("de-en", "en-es")."""
    return "-".join(sorted((lang_a, lang_b)))


@dataclass(frozen=True)
class WorldSpec:
    """Everything that determines a demo world's bytes.

    Attributes
    ----------
    name
        Label of the world, e.g. ``"planted"`` or ``"balanced"``.
    seed
        Non-negative integer seed of every random stream.
    languages
        Non-English target languages, a subset of :func:`supported_languages`.
    n_parallel
        Sentence pairs per corpus and language pair.
    n_monolingual
        Sentences per language (English included) in the news-crawl text.
    male_ratio
        Male:female ratio among gendered sentences: a gendered sentence's subject is male
        with probability ``male_ratio / (1 + male_ratio)``.
    occupation_bias
        Probability that an occupation is drawn from the subject gender's stereotyped
        half; 0.5 means no association.
    neutral_share
        Share of sentences with no gender word on the English side.
    both_share
        Share of sentences with words of both genders on the English side.
    occupation_subject_share
        Share of occupation-subject sentences whose later possessive reveals the gender
        ("the doctor calls his brother ."); 0 (the default) writes none.
    gender_free_occupation_share
        Share of occupation-subject sentences without an English gender word ("the
        doctor reads a book ."); 0 (the default) writes none.
    pronoun_drop
        Probability that the translation of a parallel sentence with a pronoun subject
        drops the pronoun ("er ist arzt ." -> "ist arzt ."), as null-subject translations
        lose the gender (Kaneko et al. 2022, Figure 2); 0 (the default) drops none.
    english_gender_marking
        Share of occupation predicates whose English side says the gender with an
        adjective ("she is a female doctor"), as English renders a gendered form of the
        other languages (Ärztin, médica); 0 (the default) marks none. It puts the planted
        gender-occupation association next to the occupation in English too, where the
        demo MLM learns it (it does not learn it across "he is a"; docs/demo.md).
    mirrored
        Every gendered sentence is followed by its twin of the other gender, the same
        sentence otherwise ("il est ingénieur ." then "elle est ingénieure ."; a name
        becomes a name of the other gender drawn from the same uniform): the control
        world's corpora are then exactly balanced, not only in expectation. Without it,
        a balanced world's sample leans by chance and every model trained on it learns
        the lean, whatever its training seed (the full demo's French S_JSD: positive
        for 17 of 18 seeds, docs/demo.md). Requires ``male_ratio`` 1, ``occupation_bias`` 0.5 (the
        twins balance every association, so another value would be ignored) and
        ``neutral_share`` > 0 (a corpus of odd size ends on a sentence without gender).
        False (the default) writes no twin.
    """

    name: str
    seed: int
    languages: tuple[str, ...]
    n_parallel: int = 4000
    n_monolingual: int = 20000
    male_ratio: float = 1.0
    occupation_bias: float = 0.5
    neutral_share: float = 0.2
    both_share: float = 0.05
    occupation_subject_share: float = 0.0
    gender_free_occupation_share: float = 0.0
    pronoun_drop: float = 0.0
    english_gender_marking: float = 0.0
    mirrored: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.languages, str):
            raise ValueError(
                f"WorldSpec.languages must be a sequence of codes, got the string "
                f"{self.languages!r}"
            )
        object.__setattr__(self, "languages", tuple(self.languages))
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"WorldSpec.name must be a non-empty string, got {self.name!r}")
        check_seed(self.seed, "WorldSpec.seed")
        _check_int("n_parallel", self.n_parallel, minimum=1)
        _check_int("n_monolingual", self.n_monolingual, minimum=1)
        if not self.languages:
            raise ValueError(
                f"WorldSpec.languages is empty; expected at least one of {_TARGET_LANGUAGES}"
            )
        for lang in self.languages:
            if lang not in _TARGET_LANGUAGES:
                raise ValueError(
                    f"WorldSpec.languages: unsupported language {lang!r}; expected a subset "
                    f"of {_TARGET_LANGUAGES} (English is always the source side)"
                )
        if len(set(self.languages)) != len(self.languages):
            raise ValueError(f"WorldSpec.languages has duplicates: {self.languages}")
        if not (math.isfinite(self.male_ratio) and self.male_ratio > 0):
            raise ValueError(f"WorldSpec.male_ratio must be > 0, got {self.male_ratio!r}")
        for field in (*_SHARES, "pronoun_drop", "english_gender_marking"):
            value = getattr(self, field)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"WorldSpec.{field} must be in [0, 1], got {value!r}")
        if self.neutral_share + self.both_share > 1.0:
            raise ValueError(
                f"WorldSpec.neutral_share + both_share must be <= 1, got "
                f"{self.neutral_share} + {self.both_share}"
            )
        if not isinstance(self.mirrored, bool):
            raise ValueError(f"WorldSpec.mirrored must be true or false, got {self.mirrored!r}")
        if self.mirrored and (
            self.male_ratio != 1.0 or self.occupation_bias != 0.5 or self.neutral_share <= 0
        ):
            raise ValueError(
                "WorldSpec.mirrored writes every gendered sentence in both genders, so it "
                "needs male_ratio 1, occupation_bias 0.5 and neutral_share > 0; got "
                f"male_ratio {self.male_ratio}, occupation_bias {self.occupation_bias}, "
                f"neutral_share {self.neutral_share}"
            )
        total = sum(getattr(self, field) for field in _SHARES[1:])
        if total > 1.0 + 1e-12:
            raise ValueError(
                "WorldSpec.neutral_share + both_share + occupation_subject_share + "
                f"gender_free_occupation_share must be <= 1, got {total}"
            )

    @property
    def male_probability(self) -> float:
        """P(subject is male) for a gendered sentence: ``male_ratio / (1 + male_ratio)``."""
        return self.male_ratio / (1.0 + self.male_ratio)

    @property
    def occupation_subjects(self) -> bool:
        """Whether the world has occupation-subject sentences (either knob above 0)."""
        return self.occupation_subject_share > 0 or self.gender_free_occupation_share > 0

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON-ready values (languages as a list); the occupation-subject
        knobs and ``pronoun_drop`` only when set, so a world without them keeps its
        world.json bytes."""
        values = dataclasses.asdict(self)
        values["languages"] = list(self.languages)
        for field in _OPTIONAL_KNOBS:
            if not values[field]:
                del values[field]
        return values

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], where: str = "WorldSpec") -> WorldSpec:
        """Build a spec from a mapping (e.g. a config section or world.json's ``spec``,
        named by ``where``); unknown keys are an error, and ``name``, ``seed`` and
        ``languages`` are required (:func:`mgbias.settings.settings_from_mapping`)."""
        return settings_from_mapping(cls, values, where, what="world spec key(s)")


_SHARES = (
    "occupation_bias",
    "neutral_share",
    "both_share",
    "occupation_subject_share",
    "gender_free_occupation_share",
)
_OPTIONAL_KNOBS = (
    "occupation_subject_share",
    "gender_free_occupation_share",
    "pronoun_drop",
    "english_gender_marking",
    "mirrored",
)


def _check_int(field: str, value: Any, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"WorldSpec.{field} must be an integer >= {minimum}, got {value!r}")


def planted(seed: int, languages: Sequence[str] = _TARGET_LANGUAGES, **overrides: Any) -> WorldSpec:
    """A world with planted bias: 2:1 male sentences, occupation_bias 0.8 (overridable)."""
    values: dict[str, Any] = {"name": "planted", "male_ratio": 2.0, "occupation_bias": 0.8}
    values.update(overrides)
    return WorldSpec(seed=seed, languages=tuple(languages), **values)


def balanced(
    seed: int, languages: Sequence[str] = _TARGET_LANGUAGES, **overrides: Any
) -> WorldSpec:
    """The control world: 1:1 male:female sentences, no gender-occupation association."""
    values: dict[str, Any] = {"name": "balanced", "male_ratio": 1.0, "occupation_bias": 0.5}
    values.update(overrides)
    return WorldSpec(seed=seed, languages=tuple(languages), **values)


# --------------------------------------------------------------------------------------
# Sampling meanings
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TemplateMix:
    """How a source's sentences are composed (its register), independent of the bias.

    Attributes
    ----------
    subject_weights
        Relative weights of pronoun, person-noun and first-name subjects.
    predicate_weights
        Relative weights of occupation, adjective and activity predicates.
    modifier_probability
        Probability of a place/time modifier.
    modifier_pool
        Indices into MODIFIERS that the source uses.
    weather_share
        Share of neutral sentences about the weather (the rest are about things).
    """

    subject_weights: tuple[float, float, float]
    predicate_weights: tuple[float, float, float]
    modifier_probability: float
    modifier_pool: tuple[int, ...]
    weather_share: float


_EVERYDAY_MODIFIERS = tuple(i for i, modifier in enumerate(MODIFIERS) if not modifier.news)
_ALL_MODIFIERS = tuple(range(len(MODIFIERS)))

#: Register of each source: TED talks are conversational, GlobalVoices and news-crawl are
#: news-like (more names, more occupations, more place and time phrases).
TEMPLATE_MIXES: dict[str, TemplateMix] = {
    "TED2020": TemplateMix(
        subject_weights=(0.45, 0.35, 0.20),
        predicate_weights=(0.45, 0.25, 0.30),
        modifier_probability=0.35,
        modifier_pool=_EVERYDAY_MODIFIERS,
        weather_share=0.4,
    ),
    "GlobalVoices": TemplateMix(
        subject_weights=(0.30, 0.30, 0.40),
        predicate_weights=(0.55, 0.15, 0.30),
        modifier_probability=0.65,
        modifier_pool=_ALL_MODIFIERS,
        weather_share=0.2,
    ),
    MONOLINGUAL_SOURCE: TemplateMix(
        subject_weights=(0.35, 0.35, 0.30),
        predicate_weights=(0.50, 0.20, 0.30),
        modifier_probability=0.5,
        modifier_pool=_ALL_MODIFIERS,
        weather_share=0.3,
    ),
}

_SUBJECT_KINDS = (SUBJECT_PRONOUN, SUBJECT_NOUN, SUBJECT_NAME)
_PREDICATE_KINDS = (PREDICATE_OCCUPATION, PREDICATE_ADJECTIVE, PREDICATE_ACTIVITY)


def _pick(u: float, size: int) -> int:
    """Index in ``range(size)`` from a uniform draw in [0, 1)."""
    return min(int(u * size), size - 1)


def _choose(u: float, cumulative: Sequence[float]) -> int:
    for index, bound in enumerate(cumulative):
        if u < bound:
            return index
    return len(cumulative) - 1


def _cumulative(weights: Sequence[float]) -> list[float]:
    total = float(sum(weights))
    return list(np.cumsum(np.asarray(weights, dtype=float) / total))


def sample_meanings(
    spec: WorldSpec, mix: TemplateMix, n: int, rng: np.random.Generator
) -> list[Meaning]:
    """Draw ``n`` meanings with the spec's planted bias and the source's template mix.

    Each meaning uses one row of ten uniform draws, so the stream is consumed identically
    whatever the outcome. Category: neutral with ``neutral_share``, both genders with
    ``both_share``, else one gender; the subject is male with ``spec.male_probability``.
    An occupation comes from the subject gender's stereotyped half with probability
    ``spec.occupation_bias`` and is uniform within the half. With
    ``english_gender_marking``, that share of the occupation predicates say the gender
    with an adjective in English (the position of the frame's draw within its frame).
    With ``spec.mirrored``, each gendered meaning is followed by its twin
    (:func:`_twin`) and the rows are drawn until ``n`` meanings are made, a last
    gendered one that would leave its twin out skipped.

    With the occupation-subject knobs, the top ``occupation_subject_share`` of ``u[0]``
    gives a possession sentence with an occupation subject and the next
    ``gender_free_occupation_share`` a gender-free occupation sentence (an activity), the
    gender and the occupation drawn as above; without them no draw is read differently.

    Parameters
    ----------
    spec, mix
        The world and the source's register.
    n
        Number of meanings.
    rng
        The source's random stream.

    Returns
    -------
    list of Meaning
    """
    subject_cumulative = _cumulative(mix.subject_weights)
    predicate_cumulative = _cumulative(mix.predicate_weights)
    placeless_pool = tuple(i for i in mix.modifier_pool if not MODIFIERS[i].is_place)
    both_bound = spec.neutral_share + spec.both_share
    subject_bound = 1.0 - spec.occupation_subject_share
    free_bound = subject_bound - spec.gender_free_occupation_share
    knobs = spec.occupation_subjects
    meanings: list[Meaning] = []
    for u in _rows(rng, n, spec.mirrored):
        if len(meanings) == n:
            break
        if knobs and u[0] >= free_bound:
            meaning = _occupation_subject_meaning(u, spec, gender_free=u[0] < subject_bound)
        elif u[0] < spec.neutral_share:
            meaning = _neutral_meaning(u, mix)
        else:
            gender = MALE if u[1] < spec.male_probability else FEMALE
            subject_kind = _SUBJECT_KINDS[_choose(u[2], subject_cumulative)]
            subject_index = _subject_index(subject_kind, gender, u[3])
            if u[0] < both_bound:
                frame = _pick(u[5], RELATION_FRAMES)
                objects = relation_objects(frame)
                meaning = Meaning(
                    CATEGORY_BOTH,
                    gender,
                    subject_kind,
                    subject_index,
                    PREDICATE_RELATION,
                    frame,
                    objects[_pick(u[6], len(objects))],
                )
            else:
                predicate_kind = _PREDICATE_KINDS[_choose(u[4], predicate_cumulative)]
                frame, slot = _gendered_predicate(predicate_kind, gender, u, spec.occupation_bias)
                category = CATEGORY_MALE if gender == MALE else CATEGORY_FEMALE
                meaning = Meaning(
                    category, gender, subject_kind, subject_index, predicate_kind, frame, slot
                )
                if predicate_kind == PREDICATE_OCCUPATION and _marked(u[5], spec):
                    meaning = meaning._replace(gender_marked=True)
        if u[8] < mix.modifier_probability:
            pool = placeless_pool if predicate_has_place(meaning) else mix.modifier_pool
            meaning = meaning._replace(modifier_index=pool[_pick(u[9], len(pool))])
        if not spec.mirrored or meaning.gender is None:
            meanings.append(meaning)
        elif len(meanings) + 2 <= n:
            meanings.extend((meaning, _twin(meaning, u)))
    return meanings


def _rows(rng: np.random.Generator, n: int, more: bool) -> Iterator[list[float]]:
    """Rows of ten uniform draws: ``n`` of them, then (``more``) further blocks of ``n``."""
    yield from rng.random((n, 10)).tolist()
    while more:
        yield from rng.random((n, 10)).tolist()


def _twin(meaning: Meaning, u: list[float]) -> Meaning:
    """The same meaning about a person of the other gender (a mirrored world's twin).

    A first name is redrawn from the other gender's list with the same uniform
    (``u[3]``, as :func:`_subject_index`), as the lists differ in length; a relation's
    other person, a possessive and every gendered form follow the gender when
    rendered; the occupation, frame, slot and modifier are kept."""
    gender = opposite(meaning.gender)
    category = {CATEGORY_MALE: CATEGORY_FEMALE, CATEGORY_FEMALE: CATEGORY_MALE}.get(
        meaning.category, meaning.category
    )
    subject_index = meaning.subject_index
    if meaning.subject_kind == SUBJECT_NAME:
        subject_index = _subject_index(SUBJECT_NAME, gender, u[3])
    return meaning._replace(gender=gender, category=category, subject_index=subject_index)


def _marked(u: float, spec: WorldSpec) -> bool:
    """Whether an occupation predicate is gender-marked in English: the fraction of the
    frame's draw ``u`` within its frame, a uniform independent of the frame, below
    ``english_gender_marking`` (so a world without marking reads no draw differently)."""
    return u * OCCUPATION_FRAMES - _pick(u, OCCUPATION_FRAMES) < spec.english_gender_marking


def _occupation_subject_meaning(u: list[float], spec: WorldSpec, gender_free: bool) -> Meaning:
    """An occupation subject: a possession frame revealing the gender, or gender-free."""
    gender = MALE if u[1] < spec.male_probability else FEMALE
    half_gender = gender if u[6] < spec.occupation_bias else opposite(gender)
    half = OCCUPATIONS_BY_STEREOTYPE[half_gender]
    occupation = half[_pick(u[7], len(half))]
    if gender_free:
        return Meaning(
            CATEGORY_NEUTRAL,
            gender,
            SUBJECT_OCCUPATION,
            occupation,
            PREDICATE_ACTIVITY,
            0,
            _pick(u[3], len(ACTIVITIES)),
        )
    frame = _pick(u[5], POSSESSION_FRAMES)
    slots = possession_slots(frame)
    category = CATEGORY_MALE if gender == MALE else CATEGORY_FEMALE
    return Meaning(
        category,
        gender,
        SUBJECT_OCCUPATION,
        occupation,
        PREDICATE_POSSESSION,
        frame,
        slots[_pick(u[3], len(slots))],
    )


def _neutral_meaning(u: list[float], mix: TemplateMix) -> Meaning:
    if u[2] < mix.weather_share:
        return Meaning(
            CATEGORY_NEUTRAL,
            None,
            SUBJECT_WEATHER,
            0,
            PREDICATE_WEATHER,
            0,
            _pick(u[3], len(WEATHER)),
        )
    return Meaning(
        CATEGORY_NEUTRAL,
        None,
        SUBJECT_THING,
        _pick(u[3], len(THINGS)),
        PREDICATE_THING,
        0,
        _pick(u[6], len(THING_PREDICATES)),
    )


def _subject_index(subject_kind: str, gender: str, u: float) -> int:
    if subject_kind == SUBJECT_NOUN:
        return _pick(u, len(PERSON_NOUNS))
    if subject_kind == SUBJECT_NAME:
        return _pick(u, len(first_names(gender)))
    return 0


def _gendered_predicate(
    predicate_kind: str, gender: str, u: list[float], occupation_bias: float
) -> tuple[int, int]:
    """(frame, slot) of a one-gender predicate; the planted occupation association."""
    if predicate_kind == PREDICATE_OCCUPATION:
        half_gender = gender if u[6] < occupation_bias else opposite(gender)
        half = OCCUPATIONS_BY_STEREOTYPE[half_gender]
        return _pick(u[5], OCCUPATION_FRAMES), half[_pick(u[7], len(half))]
    if predicate_kind == PREDICATE_ADJECTIVE:
        return 0, _pick(u[6], len(ADJECTIVES))
    return 0, _pick(u[6], len(ACTIVITIES))


def _rng(spec: WorldSpec, source: str, lang: str) -> np.random.Generator:
    return np.random.default_rng(
        [spec.seed, _SOURCE_STREAM_KEYS[source], _LANGUAGE_STREAM_KEYS[lang]]
    )


def _parallel_meanings(spec: WorldSpec, corpus: str, lang: str) -> list[Meaning]:
    _check_corpus(corpus)
    _check_target(spec, lang)
    return sample_meanings(spec, TEMPLATE_MIXES[corpus], spec.n_parallel, _rng(spec, corpus, lang))


def _monolingual_meanings(spec: WorldSpec, lang: str) -> list[Meaning]:
    if lang != PIVOT:
        _check_target(spec, lang)
    mix = TEMPLATE_MIXES[MONOLINGUAL_SOURCE]
    return sample_meanings(spec, mix, spec.n_monolingual, _rng(spec, MONOLINGUAL_SOURCE, lang))


def _check_corpus(corpus: str) -> None:
    if corpus not in OPUS_CORPORA:
        raise ValueError(f"unknown corpus {corpus!r}; expected one of {sorted(OPUS_CORPORA)}")


def _check_target(spec: WorldSpec, lang: str) -> None:
    if lang not in spec.languages:
        raise ValueError(f"language {lang!r} is not in world {spec.name!r} ({spec.languages})")


def parallel_corpus(
    spec: WorldSpec, corpus: str, lang: str
) -> tuple[list[str], list[str], list[Meaning]]:
    """English sentences, their ``lang`` translations and the meanings behind them.

    Returns
    -------
    (list of str, list of str, list of Meaning)
        Line-aligned English side, target side and meanings of the ``en``-``lang`` pair.
    """
    meanings = _parallel_meanings(spec, corpus, lang)
    english = [render(meaning, PIVOT) for meaning in meanings]
    target = [render(meaning, lang) for meaning in meanings]
    if spec.pronoun_drop > 0:
        target = _drop_pronouns(spec, corpus, lang, meanings, target)
    return english, target, meanings


def _drop_pronouns(
    spec: WorldSpec, corpus: str, lang: str, meanings: Sequence[Meaning], target: list[str]
) -> list[str]:
    """``target`` with the subject pronoun of each pronoun-subject sentence dropped with
    probability ``spec.pronoun_drop``: one uniform per such sentence from a stream of its
    own, so the meanings and every other sentence keep their bytes."""
    rng = np.random.default_rng(
        [spec.seed, _SOURCE_STREAM_KEYS[corpus], _LANGUAGE_STREAM_KEYS[lang], _DROP_STREAM_KEY]
    )
    dropped = []
    for meaning, sentence in zip(meanings, target, strict=True):
        if meaning.subject_kind == SUBJECT_PRONOUN and rng.random() < spec.pronoun_drop:
            words = sentence.split(" ")
            pronoun = PRONOUNS[lang][meaning.gender]
            if pronoun in words:
                words.remove(pronoun)
                sentence = " ".join(words)
        dropped.append(sentence)
    return dropped


def monolingual_corpus(spec: WorldSpec, lang: str) -> tuple[list[str], list[Meaning]]:
    """The news-crawl sentences of one language (English or a target) and their meanings."""
    meanings = _monolingual_meanings(spec, lang)
    return [render(meaning, lang) for meaning in meanings], meanings


# --------------------------------------------------------------------------------------
# Counting (world.json)
# --------------------------------------------------------------------------------------


def count_meanings(meanings: Sequence[Meaning]) -> dict[str, Any]:
    """Counts per category, and occupation mentions by subject gender and stereotype.

    Returns
    -------
    dict
        ``{"n": ..., "male": ..., "female": ..., "neutral": ..., "both": ...,
        "occupations": {"male": {"male_stereotyped": a, "female_stereotyped": b},
        "female": {...}}}``; the ``occupations`` keys are the subject's gender. With the
        occupation-subject knobs, ``"occupation_subjects"`` counts those sentences the same
        way (gender-free ones by their referent's gender) under ``"gendered"`` and
        ``"gender_free"``.
    """
    counts: dict[str, Any] = {"n": len(meanings)}
    counts.update({category: 0 for category in CATEGORIES})
    occupations = {g: {f"{s}_stereotyped": 0 for s in (MALE, FEMALE)} for g in (MALE, FEMALE)}
    subjects = {
        kind: {g: {f"{s}_stereotyped": 0 for s in (MALE, FEMALE)} for g in (MALE, FEMALE)}
        for kind in ("gendered", "gender_free")
    }
    any_subject = False
    for meaning in meanings:
        counts[meaning.category] += 1
        if meaning.predicate_kind == PREDICATE_OCCUPATION:
            stereotype = OCCUPATIONS[meaning.slot_index].stereotype
            occupations[meaning.gender][f"{stereotype}_stereotyped"] += 1
        if meaning.subject_kind == SUBJECT_OCCUPATION:
            any_subject = True
            kind = "gender_free" if meaning.category == CATEGORY_NEUTRAL else "gendered"
            stereotype = OCCUPATIONS[meaning.subject_index].stereotype
            subjects[kind][meaning.gender][f"{stereotype}_stereotyped"] += 1
    counts["occupations"] = occupations
    if any_subject:
        counts["occupation_subjects"] = subjects
    return counts


def describe_world(spec: WorldSpec, corpora: Sequence[str] = DEFAULT_CORPORA) -> dict[str, Any]:
    """The spec and the counts of generated meanings per file (regenerated, not read).

    Returns
    -------
    dict
        ``{"format_version", "spec", "stereotypically_male_occupations",
        "stereotypically_female_occupations", "parallel": {corpus: {pair: counts}},
        "monolingual": {lang: counts}}``, counts as in :func:`count_meanings`.
        ``world.json`` written by :func:`write_world` holds this plus ``"files"``.
    """
    for corpus in corpora:
        _check_corpus(corpus)
    parallel = {
        corpus: {
            pair_name(PIVOT, lang): count_meanings(_parallel_meanings(spec, corpus, lang))
            for lang in spec.languages
        }
        for corpus in corpora
    }
    monolingual = {
        lang: count_meanings(_monolingual_meanings(spec, lang)) for lang in (PIVOT, *spec.languages)
    }
    return _description(spec, parallel, monolingual)


def _description(
    spec: WorldSpec,
    parallel: dict[str, dict[str, dict[str, Any]]],
    monolingual: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    return {
        "format_version": _FORMAT_VERSION,
        "spec": spec.to_dict(),
        "stereotypically_male_occupations": list(STEREOTYPICALLY_MALE_OCCUPATIONS),
        "stereotypically_female_occupations": list(STEREOTYPICALLY_FEMALE_OCCUPATIONS),
        "parallel": parallel,
        "monolingual": monolingual,
    }


# --------------------------------------------------------------------------------------
# Writing files in the real layouts
# --------------------------------------------------------------------------------------


def opus_zip_path(mirror_dir: Path, corpus: str, lang_a: str, lang_b: str) -> Path:
    """``{mirror}/OPUS-{corpus}/{version}/moses/{pair}.txt.zip``."""
    _check_corpus(corpus)
    opus_dir, version = OPUS_CORPORA[corpus]
    relative = MIRROR_OPUS_ZIP.format(
        opus_dir=opus_dir, release=version, pair=pair_name(lang_a, lang_b)
    )
    return Path(mirror_dir) / relative


def monolingual_path(mirror_dir: Path, lang: str, year: int = MONOLINGUAL_YEAR) -> Path:
    """``{mirror}/news-crawl/{lang}/news.{year}.{lang}.shuffled.deduped.gz``."""
    return Path(mirror_dir) / MIRROR_NEWS_CRAWL.format(lang=lang, year=year)


def _lines_bytes(lines: Sequence[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def _zip_bytes(members: Mapping[str, bytes]) -> bytes:
    """A zip archive with members in sorted order and fixed metadata (byte-reproducible)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, whatever the host
            info.external_attr = 0o100644 << 16
            archive.writestr(info, members[name], compresslevel=_COMPRESS_LEVEL)
    return buffer.getvalue()


def _gzip_bytes(data: bytes) -> bytes:
    """Gzip with mtime 0 and no file name in the header (byte-reproducible)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(
        filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=_COMPRESS_LEVEL
    ) as stream:
        stream.write(data)
    return buffer.getvalue()


def _opus_readme(spec: WorldSpec, corpus: str, pair: str, n_lines: int) -> bytes:
    opus_dir, version = OPUS_CORPORA[corpus]
    text = (
        f"{corpus} {version} ({pair}), moses format: demo stand-in\n\n"
        f"Synthetic parallel text generated by mgbias.demo for world {spec.name!r} "
        f"(seed {spec.seed}), laid out like {opus_dir}/{version}/moses/{pair}.txt.zip.\n"
        f"{n_lines} aligned sentences per language, one per line, UTF-8.\n"
        "Generated sentences carry a configurable, planted gender bias; they are not text\n"
        f"from the real {corpus} corpus.\n"
    )
    return text.encode("utf-8")


_LICENSE = (
    b"Synthetic text generated by mgbias.demo. No rights reserved: CC0 1.0 Universal\n"
    b"(https://creativecommons.org/publicdomain/zero/1.0/).\n"
)


def write_world(
    spec: WorldSpec, mirror_dir: Path, corpora: Sequence[str] = DEFAULT_CORPORA
) -> list[Path]:
    """Write the demo world into ``mirror_dir`` in the real sources' layouts.

    Parameters
    ----------
    spec
        The world.
    mirror_dir
        Root of the local mirror (created if missing).
    corpora
        OPUS corpora to write, keys of :data:`OPUS_CORPORA`.

    Returns
    -------
    list of Path
        The files written: one zip per corpus and language pair, one gzip per language
        (English first), then ``world.json``.
    """
    for corpus in corpora:
        _check_corpus(corpus)
    mirror_dir = Path(mirror_dir)
    written: list[Path] = []
    parallel_counts: dict[str, dict[str, dict[str, Any]]] = {}
    for corpus in corpora:
        parallel_counts[corpus] = {}
        for lang in spec.languages:
            english, target, meanings = parallel_corpus(spec, corpus, lang)
            pair = pair_name(PIVOT, lang)
            members = {
                f"{corpus}.{pair}.{PIVOT}": _lines_bytes(english),
                f"{corpus}.{pair}.{lang}": _lines_bytes(target),
                "README": _opus_readme(spec, corpus, pair, len(english)),
                "LICENSE": _LICENSE,
            }
            path = opus_zip_path(mirror_dir, corpus, PIVOT, lang)
            write_bytes(path, _zip_bytes(members))
            written.append(path)
            parallel_counts[corpus][pair] = count_meanings(meanings)
    monolingual_counts: dict[str, dict[str, Any]] = {}
    for lang in (PIVOT, *spec.languages):
        sentences, meanings = monolingual_corpus(spec, lang)
        path = monolingual_path(mirror_dir, lang)
        write_bytes(path, _gzip_bytes(_lines_bytes(sentences)))
        written.append(path)
        monolingual_counts[lang] = count_meanings(meanings)
    description = _description(spec, parallel_counts, monolingual_counts)
    description["files"] = {
        path.relative_to(mirror_dir).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in written
    }
    world_json = mirror_dir / _WORLD_JSON
    write_bytes(world_json, (json.dumps(description, indent=2, sort_keys=True) + "\n").encode())
    written.append(world_json)
    return written
