"""Gender word lists: shipped data files and a loader for user-supplied lists.

A word list is a UTF-8 text file with one lowercase entry per line. Blank lines and lines
whose first non-blank character is ``#`` (comments, e.g. a header citing the source) are
skipped. An entry is a single token: multi-word expressions join their words with ``_``
("hair_salon"), as in the lists of Bolukbasi et al. (2016).

Shipped lists (``available()``):

- ``en_female`` / ``en_male``: the gender word lists of Bolukbasi et al. (2016) as distributed
  in the gn_glove repository (Zhao et al. 2018), used by the MBE paper (Kaneko et al. 2022,
  §3.1) to find gendered English sentences.
- ``en_female_names`` / ``en_male_names``: common US first names.
- ``kaneko2023_en_female`` / ``kaneko2023_en_male``: the word lists V_f and V_m of Kaneko,
  Bollegala and Okazaki (2023, §3.1), as printed, used to mine the gendered sentences of
  bias-controlled fine-tuning (:mod:`mgbias.finetune.gendered_text`).
- ``kaneko2023_{de,es,fr}_female`` / ``kaneko2023_{de,es,fr}_male``: their German, Spanish
  and French counterparts, made for mgbias (the paper is English only); each file's header
  says what was translated, what was left out and which entries are ambiguous on real text.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from mgbias.errors import InputError
from mgbias.files.textio import decoding

__all__ = [
    "available",
    "kaneko2023_lists",
    "load_gender_words",
    "load_wordlist",
    "parse_wordlist",
]

_DATA_PACKAGE = "mgbias.wordlists"
_DATA_DIR = "data"
_SUFFIX = ".txt"


def available() -> list[str]:
    """Names of the word lists shipped with mgbias, sorted.

    Returns
    -------
    list of str
        File names in ``mgbias/wordlists/data`` without the ``.txt`` suffix, e.g.
        ``["en_female", "en_female_names", "en_male", "en_male_names"]``.
    """
    data_dir = resources.files(_DATA_PACKAGE).joinpath(_DATA_DIR)
    return sorted(
        entry.name[: -len(_SUFFIX)]
        for entry in data_dir.iterdir()
        if entry.is_file() and entry.name.endswith(_SUFFIX)
    )


def kaneko2023_lists(lang: str) -> tuple[tuple[str], tuple[str]] | None:
    """The shipped ``(female, male)`` list names of Kaneko et al. (2023) for ``lang``
    (``kaneko2023_{lang}_female``, ``..._male``), or ``None`` where none is shipped.

    >>> kaneko2023_lists("de"), kaneko2023_lists("xx")
    ((('kaneko2023_de_female',), ('kaneko2023_de_male',)), None)
    """
    female, male = f"kaneko2023_{lang}_female", f"kaneko2023_{lang}_male"
    shipped = available()
    return ((female,), (male,)) if female in shipped and male in shipped else None


def parse_wordlist(lines: Iterable[str], source: str) -> frozenset[str]:
    """Parse the lines of a word list.

    Parameters
    ----------
    lines
        The file's lines (with or without trailing newlines).
    source
        Name of the file, used in error messages.

    Returns
    -------
    frozenset of str
        The lowercased entries.

    Raises
    ------
    ValueError
        If an entry contains whitespace (names ``source`` and the 1-based line number).
    """
    entries: set[str] = set()
    for line_number, raw_line in enumerate(lines, start=1):
        entry = raw_line.strip()
        if not entry or entry.startswith("#"):
            continue
        if len(entry.split()) != 1:
            raise InputError(
                f"{source}, line {line_number}: entry {entry!r} contains whitespace; expected "
                "one word per line (join the words of a multi-word entry with '_')"
            )
        entries.add(entry.lower())
    return frozenset(entries)


@cache
def _load_shipped(name: str) -> frozenset[str]:
    resource = resources.files(_DATA_PACKAGE).joinpath(_DATA_DIR, name + _SUFFIX)
    text = resource.read_text(encoding="utf-8")
    return parse_wordlist(text.splitlines(), source=f"shipped word list {name!r} ({resource})")


def load_wordlist(name_or_path: str | Path) -> frozenset[str]:
    """Load a shipped word list by name, or a word list file by path.

    Parameters
    ----------
    name_or_path
        A name from :func:`available` (e.g. ``"en_female"``) or the path of a text file in the
        same format.

    Returns
    -------
    frozenset of str
        The lowercased entries.

    Raises
    ------
    FileNotFoundError
        If ``name_or_path`` is neither a shipped list nor an existing file.
    ValueError
        If an entry contains whitespace (the message names the file and line).

    Examples
    --------
    >>> "she" in load_wordlist("en_female")
    True
    """
    if isinstance(name_or_path, str) and name_or_path in available():
        return _load_shipped(name_or_path)
    path = Path(name_or_path)
    if not path.is_file():
        raise FileNotFoundError(
            f"word list {str(name_or_path)!r} is neither a shipped list "
            f"(available: {', '.join(available())}) nor an existing file"
        )
    with decoding(path), path.open(encoding="utf-8") as handle:
        return parse_wordlist(handle, source=str(path))


def _as_list_names(lists: Sequence[str | Path] | str | Path) -> list[str | Path]:
    # A bare string is one list name, not a sequence of one-character names.
    if isinstance(lists, str | Path):
        return [lists]
    return list(lists)


def load_gender_words(
    female: Sequence[str | Path] | str,
    male: Sequence[str | Path] | str,
    on_overlap: Literal["error", "drop"] = "error",
) -> tuple[frozenset[str], frozenset[str]]:
    """Union of word lists per gender.

    Parameters
    ----------
    female, male
        Word list names or paths (see :func:`load_wordlist`); a single name is accepted.
    on_overlap
        What to do with words found in both genders: ``"error"`` raises, ``"drop"`` removes
        them from both sets with a warning. A word in both sets would make a sentence count
        as both female and male (MBE, Kaneko et al. 2022, §3.1, keeps only sentences with
        words of one gender).

    Returns
    -------
    (frozenset of str, frozenset of str)
        Female words and male words, disjoint.

    Raises
    ------
    ValueError
        If ``on_overlap="error"`` and a word is in both genders (the words are named), or if
        ``on_overlap`` is not one of the two values.
    """
    if on_overlap not in ("error", "drop"):
        raise ValueError(f"on_overlap must be 'error' or 'drop', got {on_overlap!r}")
    female_names = _as_list_names(female)
    male_names = _as_list_names(male)
    female_words = frozenset().union(*(load_wordlist(name) for name in female_names))
    male_words = frozenset().union(*(load_wordlist(name) for name in male_names))
    overlap = sorted(female_words & male_words)
    if overlap:
        description = (
            f"{len(overlap)} word(s) in both the female lists {[str(n) for n in female_names]} "
            f"and the male lists {[str(n) for n in male_names]}: {', '.join(overlap)}"
        )
        if on_overlap == "error":
            raise ValueError(description + " (pass on_overlap='drop' to remove them from both)")
        warnings.warn("dropping " + description, UserWarning, stacklevel=2)
        female_words = female_words - frozenset(overlap)
        male_words = male_words - frozenset(overlap)
    return female_words, male_words
