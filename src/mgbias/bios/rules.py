"""Per-language extraction rules of the multilingual BiosBias (Zhao et al. 2020, §4.1).

The constants, patterns and marker lists follow the authors' extractor
(MSR-LIT/MultilingualBias, ``extrinsic`` scripts): a page must contain the language
marker; a line of 150-1000 characters must have the "is a" pattern within 40 characters
of its start, followed by a title from the language's lexicon (directly, or after one
word not ending in a comma).

Title lexicons: the authors' ``freq_titles_{es,de,fr}.json`` and BiosBias's
``freq_titles.json`` map surface forms to normalised English titles. They are not
shipped here; :func:`load_title_lexicon` reads a file of that format (leniently: the
authors' Spanish file has a stray trailing ``}``). :func:`demo_titles` reads the small
project lexicons of the same shape (``data/titles_<lang>.json``, forms written by the
project, both genders where a language inflects them), used by default and in tests.

First/second-person lists are the project's own: the authors reject such lines, but
their exact word lists are not reproduced here. German adds the authors' check
for the formal ``Sie``/``Ihre`` after a word, case-sensitive (lower-case ``sie`` is
the female marker).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from mgbias.errors import InputError
from mgbias.files.textio import read_text

logger = logging.getLogger(__name__)

MIN_LENGTH = 150
MAX_LINE_LEN = 1000
MAX_PRECEDE = 40

LANGUAGES = ("en", "es", "de", "fr")

EXCLUDED_TITLES = frozenset(
    {"real_estate_broker", "landscape_architect", "massage_therapist", "magician", "acupuncturist"}
)


def demo_titles(lang: str) -> dict[str, str]:
    """The project's demo title lexicon of ``lang``: ``data/titles_<lang>.json`` (see README)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no bio extraction rules for language {lang!r}; known: {LANGUAGES}")
    text = resources.files("mgbias.bios").joinpath("data", f"titles_{lang}.json").read_text("utf-8")
    return json.loads(text)


def _words(words: list[str]) -> re.Pattern[str]:
    alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class LanguageRules:
    """Everything the extractor needs for one language."""

    lang: str
    iso639_3: str
    page_marker: str
    isa: tuple[str, ...]
    male: re.Pattern[str]
    female: re.Pattern[str]
    person: tuple[re.Pattern[str], ...]
    conjunction: str
    sentence_end: re.Pattern[str]
    titles: Mapping[str, str]
    title_re: re.Pattern[str]
    scrub_words: tuple[str, ...]
    ner_label: str

    def title_of(self, surface: str) -> str:
        """The normalised title of a matched surface form (case-insensitive lookup)."""
        return self._lower_titles()[surface.lower()]

    def _lower_titles(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.titles.items()}


def title_regex(surfaces: list[str]) -> re.Pattern[str]:
    """The alternation of ``surfaces`` (longest first), each followed by ``\\b``; any case."""
    if not surfaces:
        raise ValueError("empty title lexicon")
    alternation = "|".join(re.escape(s) for s in sorted(surfaces, key=len, reverse=True))
    return re.compile(rf"(?:{alternation})\b", re.IGNORECASE)


def load_title_lexicon(path: str | Path) -> dict[str, str]:
    """Read a ``freq_titles*.json`` (surface form -> title), tolerating trailing ``}``/commas."""
    text = read_text(path).strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        fixed = text.rstrip("} \n\t").rstrip().rstrip(",") + "}"
        try:
            data = json.loads(fixed)
        except json.JSONDecodeError as err:
            raise InputError(f"{path}: not a title lexicon (JSON object): {err}") from None
        logger.warning("%s: repaired trailing characters of an invalid JSON object", path)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise InputError(f"{path}: expected a JSON object of surface form -> title")
    return data


_SPEC = {
    "en": dict(
        iso639_3="eng",
        page_marker="the",
        isa=(" is a ", " is an "),
        male=["mr", "his", "he", "him", "himself"],
        female=["mrs", "ms", "hers", "she", "her", "herself"],
        person=[["i", "me", "my", "mine", "myself", "we", "our", "ours", "you", "your", "yours"]],
        conjunction=" and ",
        sentence_end=r"\. +[A-Z]",
        scrub=["he", "she", "her", "his", "him", "hers", "himself", "herself", "mr", "mrs", "ms"],
        ner_label="PERSON",
    ),
    "es": dict(
        iso639_3="spa",
        page_marker=" es ",
        isa=(" es un ", " es una "),
        male=["el sr", "es un", "el señor", "el suyo", "los suyos", "él", "él mismo", "sí mismo"],
        female=[
            "la sra",
            "es una",
            "la señora",
            "la suya",
            "las suyas",
            "ella",
            "ella misma",
            "sí misma",
        ],
        person=[["yo", "mi", "mis", "nosotros", "nosotras", "nuestro", "nuestra", "tú", "usted"]],
        conjunction=" y ",
        sentence_end=r"\. +[A-ZÉ]",
        scrub=["él", "ella", "suya", "suyo", "su", "él mismo", "ella misma", "mr", "mrs", "ms"],
        ner_label="PER",
    ),
    "de": dict(
        iso639_3="deu",
        page_marker=" ist ",
        isa=(" ist ",),
        male=["er", "seine", "seiner", "seines", "ihn", "ihm", "herr"],
        female=["sie", "ihre", "ihres", "sie selbst", "frau", "fräulein"],
        person=[["ich", "mich", "mir", "mein", "meine", "wir", "uns", "unser", "du", "dich"]],
        conjunction=" und ",
        sentence_end=r"\. +[A-ZÉ]",
        scrub=[
            "er",
            "sie",
            "ihr",
            "seine",
            "ihm",
            "ihres",
            "selbst",
            "sie selber",
            "herr",
            "frau",
            "mr",
            "mrs",
            "ms",
        ],
        ner_label="PER",
    ),
    "fr": dict(
        iso639_3="fra",
        page_marker=" est ",
        isa=(" est ",),
        male=["monsieur", "il", "celui", "lui-même", "sa personne"],
        female=["mme", "elle", "celle", "elle-même"],
        person=[["je", "moi", "mon", "mes", "nous", "notre", "nos", "tu", "toi", "vous", "votre"]],
        conjunction=" y ",
        sentence_end=r"\. +[A-ZÉ]",
        scrub=[
            "il",
            "elle",
            "celui",
            "lui-même",
            "elle-même",
            "monsieur",
            "mme",
            "mr",
            "mrs",
            "ms",
        ],
        ner_label="PER",
    ),
}

_GERMAN_FORMAL = re.compile(r"\w (?:Sie|Ihre)\b")


def rules_for(
    lang: str, titles: Mapping[str, str] | None = None, *, french_conjunction_fix: bool = False
) -> LanguageRules:
    """The rules of ``lang`` (en, es, de, fr) with ``titles`` (default :func:`demo_titles`).

    ``french_conjunction_fix`` makes French reject "title et" instead of the authors'
    "title y" (a Spanish word; kept by default for fidelity).
    """
    if lang not in _SPEC:
        raise ValueError(f"no bio extraction rules for language {lang!r}; known: {LANGUAGES}")
    spec = _SPEC[lang]
    titles = dict(demo_titles(lang) if titles is None else titles)
    person = tuple(_words(words) for words in spec["person"])
    if lang == "de":
        person = person + (_GERMAN_FORMAL,)
    conjunction = " et " if (lang == "fr" and french_conjunction_fix) else spec["conjunction"]
    return LanguageRules(
        lang=lang,
        iso639_3=spec["iso639_3"],
        page_marker=spec["page_marker"],
        isa=spec["isa"],
        male=_words(spec["male"]),
        female=_words(spec["female"]),
        person=person,
        conjunction=conjunction,
        sentence_end=re.compile(spec["sentence_end"]),
        titles=titles,
        title_re=title_regex(list(titles)),
        scrub_words=tuple(spec["scrub"]),
        ner_label=spec["ner_label"],
    )
