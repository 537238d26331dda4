"""A stand-in for machine translation with gender bias (Kaneko et al. 2022, Tables 4-5, MT).

The paper's MT rows score Google-translated CrowS-Pairs, whose translations "could
produce gender-biased translations" (§5.2). The demo renders its own pairs exactly, so
this module makes the bias: the female sentence of each pair is, with probability
``flip``, "translated" with its subject in the masculine form, with everything that
agrees with it (she -> he, Ärztin -> Arzt, la ingeniera -> el ingeniero). The demo's
two sentences of a pair differ only in the subject's gender, so that masculine
rendering is the pair's male sentence (a name subject becomes the male name of the
same rank). The pair then becomes a tie, which Eq. 3 counts as not preferring the
stereotypical sentence, so MT's difference to HT grows with ``flip``, in every demo
language. The female sentence is ``sent_more`` of a ``stereo`` pair and ``sent_less``
of an ``antistereo`` one (the demo writes each occupation's stereotyped gender as
``sent_more``). The draws are nested: one uniform per sentence (seeded), applied to the
female one and flipped when below ``flip``, so a larger ``flip`` flips a superset.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mgbias.demo.lexicon import LANGUAGES
from mgbias.files.atomic import write_text

#: The pair columns, in draw order.
SENTENCE_COLUMNS = ("sent_more", "sent_less")


def female_column(direction: str) -> int:
    """The index in :data:`SENTENCE_COLUMNS` of a demo pair's female sentence."""
    if direction not in ("stereo", "antistereo"):
        raise ValueError(f"stereo_antistereo is {direction!r}; expected 'stereo' or 'antistereo'")
    return 0 if direction == "stereo" else 1


def flip_draws(n_rows: int, seed: int) -> np.ndarray:
    """One uniform per (row, sentence column), seeded: shape ``(n_rows, 2)``."""
    return np.random.default_rng([seed, 20220]).random((n_rows, len(SENTENCE_COLUMNS)))


def machine_translate_rows(
    rows: Sequence[dict[str, str]], lang: str, flip: float, seed: int
) -> list[dict[str, str]]:
    """The rows of a demo CrowS-Pairs CSV with each female sentence rendered masculine
    with probability ``flip`` (nested in ``flip`` for one ``seed``); other columns kept."""
    if not 0.0 <= flip <= 1.0:
        raise ValueError(f"flip must be in [0, 1], got {flip!r}")
    if lang not in LANGUAGES:
        raise ValueError(f"no demo language {lang!r}; expected one of {list(LANGUAGES)}")
    draws = flip_draws(len(rows), seed)
    out = []
    for row, row_draws in zip(rows, draws, strict=True):
        row = dict(row)
        female = female_column(row["stereo_antistereo"])
        if row_draws[female] < flip:
            row[SENTENCE_COLUMNS[female]] = row[SENTENCE_COLUMNS[1 - female]]
        out.append(row)
    return out


def write_machine_translation(
    source: str | Path, output: str | Path, lang: str, flip: float, seed: int
) -> int:
    """Read a CrowS-Pairs CSV, write its machine-translated copy; return the rows changed."""
    with open(source, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = list(reader.fieldnames or [])
        missing = [c for c in (*SENTENCE_COLUMNS, "stereo_antistereo") if c not in fields]
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
