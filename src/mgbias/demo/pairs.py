"""Demo gender pair benchmarks in the real CrowS-Pairs, StereoSet and multilingual layouts.

Each pair is one meaning of the demo grammar (:mod:`mgbias.demo.lexicon`), a
person who "is a" / "wants to be a" / "works as a" OCCUPATION (optionally with
a time or place phrase), rendered twice with only the subject's gender
swapped: he/she, the man/the woman, my father/my mother, a male/female first
name, plus whatever agrees with it (der Arzt/die Ärztin, médico/médica; with
``english_gender_marking``, English "a male/female nurse"). Every
language renders the same meanings, so the files of different languages are
translations of each other.

Direction, following CrowS-Pairs' conventions (:mod:`mgbias.datasets.crowspairs`;
the disadvantaged group is women):

- occupation stereotyped female (nurse, ...): ``sent_more`` = the woman,
  ``sent_less`` = the man, ``stereo`` (``sent_more`` demonstrates a stereotype
  about women);
- occupation stereotyped male (engineer, ...): ``sent_more`` = the man,
  ``sent_less`` = the woman, ``antistereo`` (``sent_less`` violates a
  stereotype about women).

``sent_more`` is the stereotypical sentence in both cases, the one a model
trained on the planted demo world should prefer.

Files written by :func:`write_demo_pairs`, per language (English always):

- ``crows_pairs_{lang}.csv``: the CrowS-Pairs CSV layout;
- ``stereoset_{lang}.json``: the StereoSet layout, one intrasentence example per
  pair (stereotype, anti-stereotype and an unrelated filler);
- ``multilingual_crows_pairs_{lang}.csv``: the layout of Steinborn et al.'s
  ``cps_translated_{lang}_formatted.csv`` (``ID,A_en,B_en,A_x,B_x,stereo_antistereo``).

Both CSV layouts end with one extra column, ``target``: the pair's occupation (its
English name, as StereoSet's ``target`` field). The loaders keep extra columns, and
``pair_datasets.<name>.cluster: target`` makes the significance tests treat the
pairs of one occupation as one unit (:func:`mgbias.stats.cluster_sign_flip_test`):
the 300 demo pairs reuse 16 occupations, and a model's preference for one
occupation's feminine form decides all of that occupation's pairs.

Same seed, same bytes; a language's files do not depend on which other
languages are written.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from mgbias.demo.lexicon import (
    CATEGORY_FEMALE,
    CATEGORY_MALE,
    LANGUAGES,
    MODIFIERS,
    OCCUPATION_FRAMES,
    OCCUPATIONS,
    PERSON_NOUNS,
    PREDICATE_OCCUPATION,
    SUBJECT_NAME,
    SUBJECT_NOUN,
    SUBJECT_PRONOUN,
    THINGS,
    Meaning,
    first_names,
    render,
)
from mgbias.files.atomic import write_json, write_text
from mgbias.languages import PIVOT
from mgbias.seeds import check_seed
from mgbias.wordlists.genders import FEMALE, MALE
from mgbias.workflow.mirror_layout import BENCHMARK_FILES

__all__ = [
    "DemoPair",
    "crows_pairs_path",
    "demo_pairs",
    "multilingual_crows_pairs_path",
    "n_candidate_pairs",
    "render_pair",
    "stereoset_path",
    "write_demo_pairs",
]

BIAS_TYPE = "gender"
STEREOSET_VERSION = "mgbias-demo-1"
# Key of the random stream, so the pairs do not share a stream with the demo world.
_PAIRS_STREAM_KEY = 101

_CROWS_PAIRS_HEADER = (
    "",
    "id",
    "sent_more",
    "sent_less",
    "stereo_antistereo",
    "bias_type",
    "annotations",
    "anon_writer",
    "anon_annotators",
    "target",
)
_MULTILINGUAL_HEADER = ("ID", "A_en", "B_en", "A_x", "B_x", "stereo_antistereo", "target")
_ANNOTATIONS = "[['gender'], ['gender'], ['gender'], ['gender'], ['gender']]"


class DemoPair(NamedTuple):
    """One gender-swapped pair: ``more`` is the stereotypical meaning, ``less`` its swap."""

    more: Meaning
    less: Meaning
    stereo_antistereo: str
    occupation: str


def _subjects() -> list[tuple[str, int]]:
    """(kind, index) of every subject usable for both genders with the same index."""
    n_names = min(len(first_names(MALE)), len(first_names(FEMALE)))
    return (
        [(SUBJECT_PRONOUN, 0)]
        + [(SUBJECT_NOUN, index) for index in range(len(PERSON_NOUNS))]
        + [(SUBJECT_NAME, index) for index in range(n_names)]
    )


def _radices() -> tuple[int, int, int, int]:
    # subject, occupation, frame, modifier (-1 = none, so one more than MODIFIERS)
    return (len(_subjects()), len(OCCUPATIONS), OCCUPATION_FRAMES, len(MODIFIERS) + 1)


def n_candidate_pairs() -> int:
    """Number of distinct pairs the grammar can make (the upper bound of ``n_pairs``)."""
    return int(np.prod(_radices()))


def _meaning(
    gender: str, subject: tuple[str, int], occupation: int, frame: int, mod: int
) -> Meaning:
    category = CATEGORY_MALE if gender == MALE else CATEGORY_FEMALE
    kind, index = subject
    return Meaning(category, gender, kind, index, PREDICATE_OCCUPATION, frame, occupation, mod)


def _decode(code: int, english_gender_marking: bool = False) -> DemoPair:
    subjects = _subjects()
    subject_count, occupation_count, frame_count, modifier_count = _radices()
    code, modifier = divmod(code, modifier_count)
    code, frame = divmod(code, frame_count)
    subject_index, occupation_index = divmod(code, occupation_count)
    subject = subjects[subject_index]
    occupation = OCCUPATIONS[occupation_index]
    stereotyped = occupation.stereotype
    swapped = FEMALE if stereotyped == MALE else MALE
    arguments = (subject, occupation_index, frame, modifier - 1)
    more, less = _meaning(stereotyped, *arguments), _meaning(swapped, *arguments)
    if english_gender_marking:
        more, less = more._replace(gender_marked=True), less._replace(gender_marked=True)
    return DemoPair(
        more=more,
        less=less,
        # sent_more about women demonstrates a stereotype about women: "stereo";
        # sent_less about women violates one: "antistereo" (CrowS-Pairs' README).
        stereo_antistereo="stereo" if stereotyped == FEMALE else "antistereo",
        occupation=occupation.en,
    )


def _check_count(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def demo_pairs(seed: int, n_pairs: int, english_gender_marking: bool = False) -> list[DemoPair]:
    """Draw ``n_pairs`` distinct gender pairs, without replacement, from a seeded stream.

    Parameters
    ----------
    seed : int
        Non-negative seed (``np.random.default_rng([seed, 101])``).
    n_pairs : int
        Number of pairs, at most :func:`n_candidate_pairs`.
    english_gender_marking : bool
        Say the occupation's gender with an adjective in English ("she is a female
        nurse" / "he is a male nurse"; :attr:`mgbias.demo.lexicon.Meaning.gender_marked`);
        the other languages render the same. The same pairs are drawn either way.

    Returns
    -------
    list of DemoPair
        In draw order. Both genders of the occupations occur, each occupation
        from its stereotyped gender's side in ``more``.

    Raises
    ------
    ValueError
        If ``seed`` or ``n_pairs`` is not a valid integer, or ``n_pairs`` exceeds
        the number of distinct pairs.
    """
    seed = check_seed(seed)
    n_pairs = _check_count("n_pairs", n_pairs, 1)
    total = n_candidate_pairs()
    if n_pairs > total:
        raise ValueError(f"n_pairs = {n_pairs} exceeds the {total} distinct demo pairs")
    rng = np.random.default_rng([seed, _PAIRS_STREAM_KEY])
    codes = rng.choice(total, size=n_pairs, replace=False)
    return [_decode(int(code), english_gender_marking) for code in codes]


def render_pair(pair: DemoPair, lang: str) -> tuple[str, str]:
    """``(sent_more, sent_less)`` of a pair in one language (see :func:`mgbias.demo.render`)."""
    return render(pair.more, lang), render(pair.less, lang)


def crows_pairs_path(out_dir: str | Path, lang: str) -> Path:
    """``{out_dir}/crows_pairs_{lang}.csv``."""
    return Path(out_dir) / BENCHMARK_FILES["crows_pairs"].format(lang=lang)


def stereoset_path(out_dir: str | Path, lang: str) -> Path:
    """``{out_dir}/stereoset_{lang}.json``."""
    return Path(out_dir) / BENCHMARK_FILES["stereoset"].format(lang=lang)


def multilingual_crows_pairs_path(out_dir: str | Path, lang: str) -> Path:
    """``{out_dir}/multilingual_crows_pairs_{lang}.csv``."""
    return Path(out_dir) / BENCHMARK_FILES["multilingual_crows_pairs"].format(lang=lang)


def _csv_text(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _crows_pairs_rows(pairs: Sequence[DemoPair], lang: str) -> list[list[object]]:
    rows: list[list[object]] = []
    for index, pair in enumerate(pairs):
        more, less = render_pair(pair, lang)
        rows.append(
            [
                index,
                index + 1,
                more,
                less,
                pair.stereo_antistereo,
                BIAS_TYPE,
                _ANNOTATIONS,
                "demo",
                "['demo']",
                pair.occupation,
            ]
        )
    return rows


def _multilingual_rows(pairs: Sequence[DemoPair], lang: str) -> list[list[object]]:
    rows: list[list[object]] = []
    for index, pair in enumerate(pairs):
        more_en, less_en = render_pair(pair, PIVOT)
        more, less = render_pair(pair, lang)
        # ID: the pair's row in crows_pairs_en.csv (its unnamed index column).
        rows.append([index, more_en, less_en, more, less, pair.stereo_antistereo, pair.occupation])
    return rows


def _hex_id(*parts: object) -> str:
    text = "\x1f".join(str(part) for part in parts)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _blank_span(more: str, less: str) -> tuple[list[str], list[str]]:
    """Common token prefix and suffix of two sentences (the rest becomes ``BLANK``)."""
    more_tokens, less_tokens = more.split(), less.split()
    prefix = 0
    while (
        prefix < min(len(more_tokens), len(less_tokens))
        and more_tokens[prefix] == less_tokens[prefix]
    ):
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(more_tokens), len(less_tokens)) - prefix
        and more_tokens[-1 - suffix] == less_tokens[-1 - suffix]
    ):
        suffix += 1
    tail = more_tokens[len(more_tokens) - suffix :] if suffix else []
    return more_tokens[:prefix], tail


def _unrelated_filler(index: int, lang: str) -> str:
    thing = getattr(THINGS[index % len(THINGS)], lang)
    return thing if isinstance(thing, str) else thing[0]


def _stereoset_document(pairs: Sequence[DemoPair], lang: str, seed: int) -> dict[str, Any]:
    examples = []
    for index, pair in enumerate(pairs):
        more, less = render_pair(pair, lang)
        prefix, suffix = _blank_span(more, less)
        unrelated = " ".join([*prefix, _unrelated_filler(index, lang), *suffix])
        sentences = [
            ("stereotype", more),
            ("anti-stereotype", less),
            ("unrelated", unrelated),
        ]
        shift = index % len(sentences)  # vary the order, as the real file does
        sentences = sentences[shift:] + sentences[:shift]
        examples.append(
            {
                "id": _hex_id(seed, lang, index),
                "target": pair.occupation,
                "bias_type": BIAS_TYPE,
                "context": " ".join([*prefix, "BLANK", *suffix]),
                "sentences": [
                    {
                        "sentence": sentence,
                        "id": _hex_id(seed, lang, index, label),
                        "labels": [{"label": label, "human_id": "demo"}],
                        "gold_label": label,
                    }
                    for label, sentence in sentences
                ],
            }
        )
    return {
        "version": STEREOSET_VERSION,
        "data": {"intersentence": [], "intrasentence": examples},
    }


def write_demo_pairs(
    out_dir: str | Path,
    languages: Sequence[str],
    seed: int,
    n_pairs: int,
    english_gender_marking: bool = False,
) -> list[Path]:
    """Write the demo gender pair benchmarks for English and ``languages``.

    Parameters
    ----------
    out_dir : str or Path
        Directory to write into (created if missing).
    languages : sequence of str
        Demo languages (a subset of ``de``, ``es``, ``fr``; ``en`` is always
        written and may be listed).
    seed : int
        Seed of the pair draw (:func:`demo_pairs`).
    n_pairs : int
        Pairs per file.
    english_gender_marking : bool
        Gender-marked English sentences (:func:`demo_pairs`).

    Returns
    -------
    list of Path
        Per language (English first, then ``languages`` in order):
        ``crows_pairs_{lang}.csv``, ``stereoset_{lang}.json``,
        ``multilingual_crows_pairs_{lang}.csv``. Each file is written
        atomically.

    Raises
    ------
    ValueError
        If a language is not a demo language or is listed twice, or as for
        :func:`demo_pairs`.
    """
    if isinstance(languages, str):
        raise ValueError(f"languages must be a sequence of codes, got the string {languages!r}")
    languages = list(languages)
    for lang in languages:
        if lang not in LANGUAGES:
            raise ValueError(f"unsupported demo language {lang!r}; expected one of {LANGUAGES}")
    if len(set(languages)) != len(languages):
        raise ValueError(f"languages has duplicates: {languages}")
    pairs = demo_pairs(seed, n_pairs, english_gender_marking)
    written: list[Path] = []
    for lang in [PIVOT, *(lang for lang in languages if lang != PIVOT)]:
        path = crows_pairs_path(out_dir, lang)
        write_text(path, _csv_text(_CROWS_PAIRS_HEADER, _crows_pairs_rows(pairs, lang)))
        written.append(path)
        path = stereoset_path(out_dir, lang)
        write_json(path, _stereoset_document(pairs, lang, seed))
        written.append(path)
        path = multilingual_crows_pairs_path(out_dir, lang)
        write_text(path, _csv_text(_MULTILINGUAL_HEADER, _multilingual_rows(pairs, lang)))
        written.append(path)
    return written
