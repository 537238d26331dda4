"""Bilingual dictionaries in the MUSE format (Conneau et al. 2018).

One translation pair per line, ``source target``, separated by a space or a tab; a source
word may have several lines (several translations). MUSE ships each language pair as a
training split ``xx-yy.0-5000.txt`` and a test split ``xx-yy.5000-6500.txt``: the 0-5000th
and 5000-6500th most frequent source words. fastText's RCSLS trains on the first and
evaluates on the second (``alignment/example.sh``).
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Container, Iterable, Sequence
from pathlib import Path

from mgbias.errors import InputError
from mgbias.files.atomic import atomic_path
from mgbias.files.textio import decoding

__all__ = [
    "MIN_COVERAGE",
    "TEST_SPLIT",
    "TRAIN_SPLIT",
    "check_coverage",
    "check_test_coverage",
    "covered_source_words",
    "dictionary_name",
    "read_dictionary",
    "source_words",
    "translations",
    "write_dictionary",
]

#: MUSE's training split: the 5,000 most frequent source words.
TRAIN_SPLIT = "0-5000"
#: MUSE's test split: source words of frequency rank 5,000 to 6,500.
TEST_SPLIT = "5000-6500"


#: The share of a dictionary's pairs (training) or source words (test) that must be in
#: the vocabularies. A dictionary of other languages finds only the strings the languages
#: share (names, numbers): 1 of 76 pairs (1.3%) in the demo's Spanish and German spaces
#: with its English-German dictionary. Vectors of a smaller vocabulary than the
#: dictionary's find far more than that, though not all: MUSE's issue #47 shows a run
#: that found half of its pairs. The bar sits between the two.
MIN_COVERAGE = 0.1


def covered_source_words(
    pairs: Sequence[tuple[str, str]], source: Container[str], target: Container[str]
) -> list[str]:
    """The source words (first-seen order) in ``source`` with a translation in ``target``."""
    gold = translations(pairs)
    return [
        word
        for word in source_words(pairs)
        if word in source and any(t in target for t in gold[word])
    ]


def check_coverage(found: int, total: int, what: str, where: str, maxload: int = -1) -> None:
    """Refuse a dictionary of which fewer than :data:`MIN_COVERAGE` of ``total`` were found.

    ``what`` names the counted items (``"training pairs"``), ``where`` the dictionary and
    the vectors, ``maxload`` the words read of each (``<= 0``: all), for the message.

    Raises
    ------
    InputError
        ``"{where}: 1 of 76 training pairs (1.3%) are in the vectors (their first 200000
        words), fewer than 10%: ..."``.
    """
    if total and found >= MIN_COVERAGE * total:
        return
    share = f" ({found / total:.1%})" if total else ""
    read = f" (their first {maxload} words)" if maxload > 0 else ""
    raise InputError(
        f"{where}: {found} of {total} {what}{share} are in the vectors{read}, fewer than "
        f"{MIN_COVERAGE:.0%}: the dictionary does not fit these vectors; check the languages "
        f"and the files' order{' (or read more words: maxload)' if read else ''}"
    )


def check_test_coverage(
    pairs: Sequence[tuple[str, str]],
    source: Container[str],
    target: Container[str],
    where: str,
    maxload: int = -1,
) -> None:
    """:func:`check_coverage` of a test dictionary: its source words with a translation,
    of all its source words (:func:`covered_source_words`)."""
    check_coverage(
        len(covered_source_words(pairs, source, target)),
        len(source_words(pairs)),
        "source words",
        where,
        maxload,
    )


def dictionary_name(src: str, tgt: str, split: str) -> str:
    """MUSE file name of a split, e.g. ``dictionary_name("en", "es", TRAIN_SPLIT)``.

    Returns ``"en-es.0-5000.txt"``.
    """
    return f"{src}-{tgt}.{split}.txt"


def read_dictionary(path: str | Path) -> list[tuple[str, str]]:
    """The ``(source, target)`` pairs of a MUSE dictionary, in file order.

    Lines are split on runs of spaces or tabs; blank lines are skipped. A gzip file
    (``.gz``) is read decompressed.

    Raises
    ------
    ValueError
        A non-blank line without exactly two fields, naming the file and line.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    pairs: list[tuple[str, str]] = []
    with decoding(path), opener(path, "rt", encoding="utf-8") as stream:
        for line_number, line in enumerate(_gzip_checked(stream, path), start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2:
                raise InputError(
                    f"{path}, line {line_number}: expected 'source target' (two words separated "
                    f"by a space or tab), got {line.rstrip()!r}"
                )
            pairs.append((fields[0], fields[1]))
    return pairs


def _gzip_checked(stream, path: Path):
    try:
        yield from stream
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise InputError(f"{path}: a corrupt or truncated gzip file ({error})") from None


def source_words(pairs: Iterable[tuple[str, str]]) -> list[str]:
    """Distinct source words in order of first appearance."""
    return list(dict.fromkeys(source for source, _ in pairs))


def translations(pairs: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    """Source word -> its set of gold translations."""
    gold: dict[str, set[str]] = {}
    for source, target in pairs:
        gold.setdefault(source, set()).add(target)
    return gold


def write_dictionary(path: str | Path, pairs: Iterable[tuple[str, str]]) -> None:
    """Write pairs as ``source target`` lines (MUSE format), atomically."""
    lines = []
    for source, target in pairs:
        for word in (source, target):
            if not word or any(ch.isspace() for ch in word):
                raise ValueError(
                    f"{path}: word {word!r} cannot be written to a dictionary (empty or holds "
                    "whitespace)"
                )
        lines.append(f"{source} {target}\n")
    with atomic_path(path) as tmp:
        tmp.write_text("".join(lines), encoding="utf-8")
