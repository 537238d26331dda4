"""MIBs word lists (Zhao et al. 2020, §2.2): occupation pairs and gender seed pairs.

The authors' repository (``MSR-LIT/MultilingualBias``, ``intrinsic/``) has per language:

- ``{lang}_male_def_occ`` and ``{lang}_female_def_occ``: index-aligned lines, one
  occupation form each. The English files hold one word per line; the other languages
  ``english<TAB>translation``. Line ``i`` of the two files is occupation pair ``i``
  (masculine, feminine).
- ``{lang}_gender_pairs.json``: the seed pairs, a JSON list of ``[female, male]``
  (female word first: ``[["she", "he"], ["woman", "man"]]``). The order matters: inBias
  compares masculine occupations with the male seeds. A pair whose first word is on a
  shipped male word list and second on a female one (:func:`seed_pair_looks_reversed`)
  is refused.

Translations and seeds are lower-cased on reading, as the authors' notebook does. A few
lines hold two tabs (``nurse<TAB><TAB>enfermero``); the notebook's ``split('\\t')[1]``
then reads an empty word, which its vocabulary filter drops. By default the translation
is the last field of the line; ``authors_split=True`` reproduces the notebook's reading.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path

from mgbias.errors import InputError
from mgbias.files.atomic import write_text
from mgbias.files.textio import decoding, read_text

__all__ = [
    "occupation_file_names",
    "read_occupation_pairs",
    "read_seed_pairs",
    "seed_pair_looks_reversed",
    "seed_file_name",
    "write_occupation_pairs",
    "write_seed_pairs",
]


def occupation_file_names(lang: str) -> tuple[str, str]:
    """``("{lang}_male_def_occ", "{lang}_female_def_occ")``."""
    return f"{lang}_male_def_occ", f"{lang}_female_def_occ"


def seed_file_name(lang: str) -> str:
    """``"{lang}_gender_pairs.json"``."""
    return f"{lang}_gender_pairs.json"


def _read_forms(path: Path, authors_split: bool) -> list[str]:
    forms = []
    with decoding(path), open(path, encoding="utf-8") as stream:
        for line_number, line in enumerate(stream, start=1):
            text = line.strip()
            if not text:
                raise InputError(f"{path}, line {line_number}: empty line; expected a word")
            fields = text.split("\t")
            if len(fields) == 1:
                forms.append(fields[0].lower())
            elif authors_split:
                forms.append(fields[1].lower())
            else:
                forms.append(next(f for f in reversed(fields) if f.strip()).strip().lower())
    return forms


def read_occupation_pairs(
    male_path: str | Path, female_path: str | Path, authors_split: bool = False
) -> list[tuple[str, str]]:
    """``(masculine, feminine)`` pairs from the two index-aligned MIBs files.

    Raises
    ------
    ValueError
        Files of different lengths, or an empty line, naming the file.
    """
    male = _read_forms(Path(male_path), authors_split)
    female = _read_forms(Path(female_path), authors_split)
    if len(male) != len(female):
        raise InputError(
            f"{male_path} has {len(male)} lines but {female_path} has {len(female)}; the "
            "files must be index-aligned"
        )
    return list(zip(male, female, strict=True))


@functools.cache
def _gender_words() -> tuple[frozenset[str], frozenset[str]]:
    """Female and male words of every shipped gender word list (all languages), the words
    on both sides left out."""
    from mgbias.wordlists import available, load_wordlist

    female = frozenset().union(*(load_wordlist(n) for n in available() if n.endswith("_female")))
    male = frozenset().union(*(load_wordlist(n) for n in available() if n.endswith("_male")))
    return female - male, male - female


def seed_pair_looks_reversed(first: str, second: str) -> bool:
    """Whether a ``[female, male]`` seed pair is the wrong way round: its first word is
    on a shipped male word list and its second on a female one (:mod:`mgbias.wordlists`:
    the English lists of Bolukbasi et al. and the German, Spanish and French ones).
    Words on neither list, or on both, are not judged."""
    female, male = _gender_words()
    return first.lower() in male and second.lower() in female


def read_seed_pairs(path: str | Path) -> list[tuple[str, str]]:
    """``(male, female)`` seed pairs from a MIBs ``[female, male]`` JSON list, lower-cased.

    Raises
    ------
    InputError
        Naming the file and item: not JSON, an item that is not two words, no pairs,
        or a pair the wrong way round (:func:`seed_pair_looks_reversed`: ``["he", "she"]``).
    """
    path = Path(path)
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise InputError(f"{path}: not valid JSON (line {error.lineno}): {error.msg}") from None
    pairs = []
    for i, item in enumerate(data if isinstance(data, list) else [data]):
        if not _is_word_pair(item):
            raise InputError(f"{path}: item {i} is {item!r}; expected [female, male]")
        female, male = item
        if seed_pair_looks_reversed(female, male):
            swapped = json.dumps([male, female], ensure_ascii=False)
            raise InputError(
                f"{path}: item {i} {json.dumps(item, ensure_ascii=False)} looks reversed: "
                f"{female!r} is a male word and {male!r} a female one; each seed pair is "
                f"[female, male], as in MIBs' {{lang}}_gender_pairs.json: write {swapped}"
            )
        pairs.append((male.lower(), female.lower()))
    if not pairs:
        raise InputError(f"{path}: no seed pairs")
    return pairs


def write_occupation_pairs(
    male_path: str | Path,
    female_path: str | Path,
    pairs: Sequence[tuple[str, str]],
    english: Sequence[tuple[str, str]] | None = None,
) -> None:
    """Write pairs in the MIBs layout; with ``english``, lines are ``english<TAB>form``."""
    if english is not None and len(english) != len(pairs):
        raise ValueError(f"{len(english)} English pairs for {len(pairs)} pairs")
    for gender, path in ((0, male_path), (1, female_path)):
        lines = []
        for i, pair in enumerate(pairs):
            prefix = "" if english is None else english[i][gender] + "\t"
            lines.append(prefix + pair[gender] + "\n")
        write_text(path, "".join(lines))


def write_seed_pairs(path: str | Path, pairs: Sequence[tuple[str, str]]) -> None:
    """Write ``(male, female)`` seed pairs as a MIBs ``[female, male]`` JSON list."""
    write_text(path, json.dumps([[f, m] for m, f in pairs], ensure_ascii=False, indent=1) + "\n")


def _is_word_pair(item) -> bool:
    return isinstance(item, list) and len(item) == 2 and all(isinstance(w, str) for w in item)
