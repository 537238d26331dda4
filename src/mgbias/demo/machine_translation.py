"""A stand-in for machine translation with gender bias (Kaneko et al. 2022, Tables 4-5, MT).

The paper's MT rows score Google-translated CrowS-Pairs, whose translations "could
produce gender-biased translations" (§5.2). The demo renders its own pairs exactly, so
this module makes the bias: each sentence of a pair file is, with probability ``flip``,
"translated" with its female words in their masculine form (she -> he, her -> his,
woman -> man, ...). A pair whose two sentences differ only in those words then becomes
a tie, which Eq. 3 counts as not preferring the stereotypical sentence, so MT's
difference to HT grows with ``flip``. The draws are nested: one uniform per sentence
(seeded), flipped when below ``flip``, so a larger ``flip`` flips a superset.
English only: the demo's other languages mark gender on articles and agreement too.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mgbias.atomic import write_text
from mgbias.demo.lexicon import ENGLISH_POSSESSIVES, PERSON_NOUNS, PRONOUNS
from mgbias.genders import FEMALE, MALE

#: The pair columns the flip applies to.
SENTENCE_COLUMNS = ("sent_more", "sent_less")


def masculine_forms(lang: str) -> dict[str, str]:
    """Female word -> its masculine form, from the demo lexicon (English only)."""
    if lang != "en":
        raise ValueError(
            f"the demo machine translation is English only (got {lang!r}): the other demo "
            "languages mark gender on articles and agreement as well"
        )
    forms = {PRONOUNS["en"][FEMALE]: PRONOUNS["en"][MALE]}
    forms[ENGLISH_POSSESSIVES[FEMALE]] = ENGLISH_POSSESSIVES[MALE]
    for noun in PERSON_NOUNS:
        male, female = noun.en
        forms[female] = male
    return forms


def masculinise(sentence: str, forms: dict[str, str]) -> str:
    """``sentence`` (space-separated tokens, as the demo writes them) with every female
    word replaced by its masculine form."""
    return " ".join(forms.get(token, token) for token in sentence.split(" "))


def flip_draws(n_rows: int, seed: int) -> np.ndarray:
    """One uniform per (row, sentence column), seeded: shape ``(n_rows, 2)``."""
    return np.random.default_rng([seed, 20220]).random((n_rows, len(SENTENCE_COLUMNS)))


def machine_translate_rows(
    rows: Sequence[dict[str, str]], lang: str, flip: float, seed: int
) -> list[dict[str, str]]:
    """The rows of a CrowS-Pairs CSV with each sentence masculinised with probability
    ``flip`` (nested in ``flip`` for one ``seed``); other columns are kept."""
    if not 0.0 <= flip <= 1.0:
        raise ValueError(f"flip must be in [0, 1], got {flip!r}")
    forms = masculine_forms(lang)
    draws = flip_draws(len(rows), seed)
    out = []
    for row, row_draws in zip(rows, draws, strict=True):
        row = dict(row)
        for column, draw in zip(SENTENCE_COLUMNS, row_draws, strict=True):
            if draw < flip:
                row[column] = masculinise(row[column], forms)
        out.append(row)
    return out


def write_machine_translation(
    source: str | Path, output: str | Path, lang: str, flip: float, seed: int
) -> int:
    """Read a CrowS-Pairs CSV, write its machine-translated copy; return the rows changed."""
    with open(source, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = list(reader.fieldnames or [])
        missing = [column for column in SENTENCE_COLUMNS if column not in fields]
        if missing:
            raise ValueError(f"{source}: no column(s) {missing}; expected a CrowS-Pairs CSV")
        rows = list(reader)
    translated = machine_translate_rows(rows, lang, flip, seed)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(translated)
    write_text(output, buffer.getvalue())
    return sum(a != b for a, b in zip(rows, translated, strict=True))
