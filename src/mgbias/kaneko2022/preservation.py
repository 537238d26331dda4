"""Gender preservation in translation (Kaneko et al. 2022, Figure 2).

Among the mined male (female) sentence pairs whose English side contains the token
"he" ("she"), the share whose target side contains a translation of it, per
language and gender, before downsampling. The translations are the subject pronouns
of ``mgbias/resources/pronoun_translations.yaml``; paraphrases are missed, so the
share is a conservative underestimate (the paper's footnote 35).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any

from mgbias.files.yaml_lines import loads_yaml
from mgbias.wordlists.gender_words import english_tokens, gender_of
from mgbias.wordlists.genders import FEMALE, MALE

#: The English pronoun each gender's sentences are checked for.
ENGLISH_PRONOUNS = {MALE: "he", FEMALE: "she"}


@cache
def pronoun_translations() -> dict[str, dict[str, Any]]:
    """The shipped translations of "he" and "she", per language."""
    text = (
        resources.files("mgbias.resources")
        .joinpath("pronoun_translations.yaml")
        .read_text(encoding="utf-8")
    )
    return loads_yaml(text, "mgbias/resources/pronoun_translations.yaml")


def pronoun_patterns(
    lang: str, translations: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, re.Pattern[str]]:
    """One compiled pattern per gender matching a translation of its English pronoun.

    Raises
    ------
    ValueError
        If ``lang`` has no entry (naming the languages that have one) or the entry
        lacks ``script``, ``he`` or ``she``.
    """
    translations = pronoun_translations() if translations is None else translations
    if lang not in translations:
        raise ValueError(
            f"no translations of 'he'/'she' for {lang!r} in pronoun_translations.yaml; "
            f"languages with an entry: {sorted(translations)}"
        )
    entry = translations[lang]
    missing = [key for key in ("script", "he", "she") if key not in entry]
    if missing or entry["script"] not in ("words", "characters"):
        raise ValueError(
            f"pronoun_translations.yaml, {lang!r}: expected keys script (words or "
            f"characters), he and she; missing {missing}, script {entry.get('script')!r}"
        )
    patterns = {}
    for gender, pronoun in ENGLISH_PRONOUNS.items():
        alternatives = "|".join(f"(?:{word})" for word in entry[pronoun])
        if entry["script"] == "words":
            patterns[gender] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
        else:
            patterns[gender] = re.compile(alternatives)
    return patterns


@dataclass
class Preservation:
    """Counts of one language: sentences with the English pronoun, and those preserving it."""

    n_male: int = 0
    n_male_preserved: int = 0
    n_female: int = 0
    n_female_preserved: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def gender_preservation(
    pairs: Iterable[tuple[str, str]],
    female: frozenset[str],
    male: frozenset[str],
    patterns: Mapping[str, re.Pattern[str]],
) -> Preservation:
    """Count, over ``(english, target)`` pairs, the mined male (female) sentences whose
    English side has "he" ("she"), and those whose target matches ``patterns[gender]``.

    A pair is mined as in :func:`mgbias.kaneko2022.mining.mine_parallel`: its English side has
    words of exactly one of the lists ``female`` and ``male``, and its target side is
    not empty.
    """
    counts = Preservation()
    for english, target in pairs:
        if not target.strip():
            continue
        gender = gender_of(english, female, male)
        if gender not in ENGLISH_PRONOUNS:
            continue
        if ENGLISH_PRONOUNS[gender] not in english_tokens(english):
            continue
        preserved = patterns[gender].search(target) is not None
        if gender == MALE:
            counts.n_male += 1
            counts.n_male_preserved += preserved
        else:
            counts.n_female += 1
            counts.n_female_preserved += preserved
    return counts


PRESERVATION_COLUMNS = ["world", "corpus", "lang", "gender", "n", "n_preserved", "pct"]


def preservation_rows(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Two rows (male, female) of the Figure 2 table from one job's record."""
    rows = []
    for gender in (MALE, FEMALE):
        n = int(record[f"n_{gender}"])
        kept = int(record[f"n_{gender}_preserved"])
        rows.append(
            {
                "world": record["world"],
                "corpus": record["corpus"],
                "lang": record["lang"],
                "gender": gender,
                "n": n,
                "n_preserved": kept,
                "pct": 100.0 * kept / n if n else float("nan"),
            }
        )
    return rows
