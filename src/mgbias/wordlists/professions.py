"""Targets of the template probes: occupations, and which of them are gender-neutral.

Shipped: the profession list of Bolukbasi et al. (2016),
``mgbias/resources/professions_bolukbasi2016.json`` (tolga-b/debiaswe,
``data/professions.json``, MIT license; the notice is in
``NOTICE-professions_bolukbasi2016.txt`` beside it): 320 entries ``[word,
definitional, stereotypical]``, scores in [-1, 1] (negative = female). Kaneko,
Bollegala & Okazaki (2023, §3.4) average Figure 2 over its "gender- and
stereotype-neutral" occupations, read here as the 21 entries with both scores
0 (``neutral``). Multi-word entries join their words with ``_``
("alter_ego"); targets spell them with a space.

:func:`template_targets` names the target lists the probes accept:

- ``"bolukbasi2016"``: all 320 professions (English), ``neutral`` = both scores 0;
- ``"bolukbasi2016_neutral"``: only the 21 neutral ones;
- ``"demo"``: the occupations of the demo world (:data:`mgbias.demo.lexicon.OCCUPATIONS`).
  English nouns there carry no gender, so all 16 are neutral. German, Spanish
  and French nouns do ("arzt"/"ärztin"): each occupation enters with its
  masculine and its feminine form (once where both are the same, "pilote"),
  so that grammatical agreement with the pronoun cancels over the list; all
  are marked neutral, i.e. used for Figure 2;
- a path: a ``.json`` file in the Bolukbasi format, or a text file with one
  target per line (``#`` comments, ``_`` for spaces), all neutral.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mgbias.atomic import read_json
from mgbias.errors import InputError
from mgbias.resources import resource_path
from mgbias.textio import read_text

__all__ = ["BOLUKBASI_FILE", "TARGET_LISTS", "load_professions", "template_targets"]

BOLUKBASI_FILE = "professions_bolukbasi2016.json"

#: Target lists known by name (see the module docstring).
TARGET_LISTS = ("bolukbasi2016", "bolukbasi2016_neutral", "demo")


def _parse_professions(entries: object, source: str) -> pd.DataFrame:
    if not isinstance(entries, list) or not entries:
        raise InputError(
            f"{source}: expected a non-empty JSON list of [word, definitional, "
            "stereotypical] entries"
        )
    rows = []
    for index, entry in enumerate(entries):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or not all(isinstance(value, int | float) for value in entry[1:])
        ):
            raise InputError(
                f"{source}, entry {index}: expected [word, definitional, stereotypical] "
                f"(a string and two numbers), got {entry!r}"
            )
        rows.append((entry[0], float(entry[1]), float(entry[2])))
    frame = pd.DataFrame(rows, columns=["profession", "definitional", "stereotypical"])
    duplicated = frame["profession"][frame["profession"].duplicated()]
    if not duplicated.empty:
        raise InputError(f"{source}: profession(s) listed twice: {sorted(set(duplicated))}")
    frame["target"] = frame["profession"].str.replace("_", " ", regex=False)
    frame["neutral"] = (frame["definitional"] == 0.0) & (frame["stereotypical"] == 0.0)
    return frame


def load_professions(path: str | Path | None = None) -> pd.DataFrame:
    """The profession list of Bolukbasi et al. (2016) with its two gender scores.

    Parameters
    ----------
    path : str or Path, optional
        A file in the same JSON format; default the shipped list.

    Returns
    -------
    pandas.DataFrame
        ``profession`` (as in the file), ``definitional``, ``stereotypical``,
        ``target`` (``_`` replaced by a space) and ``neutral`` (both scores 0),
        in file order.

    Raises
    ------
    ValueError
        If the file is not a list of ``[word, number, number]`` or lists a word twice.

    Examples
    --------
    >>> professions = load_professions()
    >>> len(professions), int(professions.neutral.sum())
    (320, 21)
    """
    source = Path(path) if path is not None else resource_path(BOLUKBASI_FILE)
    return _parse_professions(read_json(source), str(source))


def _demo_targets(lang: str) -> list[str]:
    from mgbias.demo.lexicon import LANGUAGES, OCCUPATIONS

    if lang not in LANGUAGES:
        raise ValueError(f"the demo world has no language {lang!r}; expected one of {LANGUAGES}")
    if lang == "en":
        return [occupation.en for occupation in OCCUPATIONS]
    forms = [form for occupation in OCCUPATIONS for form in getattr(occupation, lang)]
    return list(dict.fromkeys(forms))


def _text_targets(path: Path) -> list[str]:
    targets = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        if len(entry.split()) != 1:
            raise InputError(
                f"{path}, line {number}: {entry!r} contains whitespace; expected one target per "
                "line (join the words of a multi-word target with '_')"
            )
        targets.append(entry.replace("_", " "))
    if not targets:
        raise InputError(f"{path}: no target (one per line expected)")
    return targets


def template_targets(source: str | Path, lang: str) -> pd.DataFrame:
    """The targets of a template probe and which of them are neutral (for Figure 2).

    Parameters
    ----------
    source : str or Path
        A name of :data:`TARGET_LISTS` or a file (see the module docstring).
    lang : str
        The language the targets are for; the Bolukbasi lists are English only.

    Returns
    -------
    pandas.DataFrame
        ``target`` (unique, in list order) and ``neutral`` (bool).

    Raises
    ------
    ValueError
        On an unknown name, a Bolukbasi list asked for another language than
        English, or a malformed file.
    FileNotFoundError
        If ``source`` is neither a known name nor an existing file.
    """
    name = str(source)
    if name in ("bolukbasi2016", "bolukbasi2016_neutral"):
        if lang != "en":
            raise ValueError(
                f"target list {name!r} is English; language {lang!r} needs its own list "
                "(a file, or 'demo' for the demo world)"
            )
        professions = load_professions()
        if name.endswith("_neutral"):
            professions = professions[professions["neutral"]]
        return professions[["target", "neutral"]].reset_index(drop=True)
    if name == "demo":
        targets = _demo_targets(lang)
        return pd.DataFrame({"target": targets, "neutral": True})
    path = Path(source)
    if not path.is_file():
        raise FileNotFoundError(
            f"target list {name!r} is neither a known list ({', '.join(TARGET_LISTS)}) nor "
            "an existing file"
        )
    if path.suffix == ".json":
        professions = load_professions(path)
        return professions[["target", "neutral"]].reset_index(drop=True)
    targets = list(dict.fromkeys(_text_targets(path)))
    return pd.DataFrame({"target": targets, "neutral": True})
