"""Gendered sentence sets: the TSV files between mining and scoring.

One file per (world, corpus, language) with a header ``gender<TAB>sentence``
and one row per target-language sentence, female rows first. The row order
is the order of the score cache built from the file.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from mgbias.atomic import atomic_path
from mgbias.errors import InputError
from mgbias.genders import FEMALE, GENDERS, MALE
from mgbias.textio import decoding

HEADER = ["gender", "sentence"]


def write_gendered_sentences(
    path: str | Path, female: Iterable[str], male: Iterable[str]
) -> tuple[int, int]:
    """Write the female then the male sentences; return both counts."""
    counts = {}
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(HEADER)
        for gender, sentences in ((FEMALE, female), (MALE, male)):
            counts[gender] = 0
            for sentence in sentences:
                writer.writerow([gender, sentence.rstrip("\n")])
                counts[gender] += 1
    return counts[FEMALE], counts[MALE]


def read_gendered_sentences(path: str | Path) -> tuple[np.ndarray, list[str]]:
    """Return ``(genders, sentences)``; errors name the file and the line."""
    genders: list[str] = []
    sentences: list[str] = []
    with decoding(path), open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        header = next(reader, None)
        if header != HEADER:
            raise InputError(f"{path}:1: expected the header {HEADER}, found {header}")
        for line, row in enumerate(reader, start=2):
            if len(row) != 2 or row[0] not in GENDERS:
                raise InputError(
                    f"{path}:{line}: expected '<{'|'.join(GENDERS)}><TAB><sentence>', found {row!r}"
                )
            genders.append(row[0])
            sentences.append(row[1])
    return np.asarray(genders), sentences
