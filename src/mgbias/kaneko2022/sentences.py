"""Gendered sentence sets: the TSV files between mining and scoring.

One file per (world, corpus, language) with a header ``gender<TAB>sentence``
and one row per target-language sentence, female rows first. The row order
is the order of the score cache built from the file.

A file written by the mining rule has a third column, ``gender_words``: the
English word-list entries that made the row's sentence gendered (tokens joined
by a space, entries joined by :data:`mgbias.kaneko2022.mining.WORD_SEPARATOR`, e.g.
``ex wife|she``). Readers accept both forms; :func:`read_gender_words` tells
them apart. (This module does not import :mod:`mgbias.kaneko2022.mining`, so that a change
to the mining code does not rerun the scoring rules that read these files.)
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from mgbias.errors import InputError
from mgbias.files.atomic import atomic_path
from mgbias.files.textio import decoding
from mgbias.wordlists.genders import FEMALE, GENDERS, MALE

HEADER = ["gender", "sentence"]
#: The header of a file that records each sentence's gender words.
HEADER_WITH_WORDS = [*HEADER, "gender_words"]


def _check_words(words: str, where: str) -> str:
    """``words`` if it is not empty (every mined sentence matched a word)."""
    if not words:
        raise InputError(
            f"{where}: expected the gender words (word-list entries joined by '|'), "
            "found an empty field"
        )
    return words


def _rows(
    sentences: Iterable[str], words: Iterable[str] | None, gender: str
) -> Iterator[list[str]]:
    """The rows of one gender, with the words column when ``words`` is given."""
    if words is None:
        for sentence in sentences:
            yield [gender, sentence.rstrip("\n")]
        return
    sentence_iter, words_iter = iter(sentences), iter(words)
    index = 0
    for index, sentence in enumerate(sentence_iter, start=1):
        entry = next(words_iter, None)
        if entry is None:
            raise ValueError(
                f"{gender}_words: ended after {index - 1} entries, but {gender} sentence "
                f"{index} needs one; expected one entry per sentence"
            )
        where = f"{gender}_words entry {index}"
        yield [gender, sentence.rstrip("\n"), _check_words(entry.rstrip("\n"), where)]
    if next(words_iter, None) is not None:
        raise ValueError(
            f"{gender}_words: more entries than the {index} {gender} sentences; "
            "expected one entry per sentence"
        )


def write_gendered_sentences(
    path: str | Path,
    female: Iterable[str],
    male: Iterable[str],
    *,
    female_words: Iterable[str] | None = None,
    male_words: Iterable[str] | None = None,
) -> tuple[int, int]:
    """Write the female then the male sentences; return both counts.

    Parameters
    ----------
    path
        The TSV file, written atomically.
    female, male
        The sentences, one per item (a trailing ``\\n`` is dropped).
    female_words, male_words
        Optional (both or neither): each sentence's gender words, aligned item by
        item with ``female`` and ``male`` (e.g. the lines of the words files of
        :func:`mgbias.kaneko2022.mining.mine_gendered_sentences`). With them the header is
        ``gender<TAB>sentence<TAB>gender_words``; without, ``gender<TAB>sentence``.

    Raises
    ------
    ValueError
        Only one of the words iterables given, one of a different length than its
        sentences, or an empty entry; nothing is written then.
    """
    if (female_words is None) != (male_words is None):
        raise ValueError("female_words, male_words: expected both or neither")
    header = HEADER if female_words is None else HEADER_WITH_WORDS
    counts = {}
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(header)
        for gender, sentences, words in (
            (FEMALE, female, female_words),
            (MALE, male, male_words),
        ):
            counts[gender] = 0
            for row in _rows(sentences, words, gender):
                writer.writerow(row)
                counts[gender] += 1
    return counts[FEMALE], counts[MALE]


def _read_rows(path: str | Path) -> tuple[list[str], list[list[str]]]:
    """The header and the checked rows of a sentence file; errors name file and line."""
    with decoding(path), open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        header = next(reader, None)
        if header not in (HEADER, HEADER_WITH_WORDS):
            raise InputError(
                f"{path}:1: expected the header {HEADER} or {HEADER_WITH_WORDS}, found {header}"
            )
        expected = f"<{'|'.join(GENDERS)}><TAB><sentence>"
        if header == HEADER_WITH_WORDS:
            expected += "<TAB><gender words>"
        rows = []
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header) or row[0] not in GENDERS:
                raise InputError(f"{path}:{line}: expected '{expected}', found {row!r}")
            if header == HEADER_WITH_WORDS:
                _check_words(row[2], f"{path}:{line}")
            rows.append(row)
    return header, rows


def read_gendered_sentences(path: str | Path) -> tuple[np.ndarray, list[str]]:
    """Return ``(genders, sentences)``; errors name the file and the line.

    Reads files with and without the ``gender_words`` column.
    """
    _, rows = _read_rows(path)
    return np.asarray([row[0] for row in rows]), [row[1] for row in rows]


def read_gender_words(path: str | Path) -> list[str] | None:
    """Return the ``gender_words`` column in row order, or None for a 2-column file.

    Each item is one sentence's word-list entries joined by
    :data:`mgbias.kaneko2022.mining.WORD_SEPARATOR`; split it to get the entries.

    Raises
    ------
    InputError
        As :func:`read_gendered_sentences`, and for an empty words field; the message
        names the file and the line.
    """
    header, rows = _read_rows(path)
    if header == HEADER:
        return None
    return [row[2] for row in rows]
