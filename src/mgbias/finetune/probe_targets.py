"""Targets of the template probes: occupations, and which of them are gender-neutral.

The Bolukbasi et al. (2016) professions are :mod:`mgbias.wordlists.professions`'s
(:func:`~mgbias.wordlists.professions.load_professions`); the demo world's occupations
are :mod:`mgbias.demo.lexicon`'s. :func:`template_targets` names the target lists the
template probes accept:

- ``"bolukbasi2016"``: all 320 professions (English), ``neutral`` = both scores 0;
- ``"bolukbasi2016_neutral"``: only the 21 neutral ones;
- ``"demo"``: the occupations of the demo world (:func:`mgbias.demo.lexicon.demo_targets`).
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

from mgbias.demo.lexicon import demo_targets
from mgbias.errors import InputError
from mgbias.files.textio import read_text
from mgbias.wordlists.professions import load_professions

__all__ = ["TARGET_LISTS", "template_targets"]

#: Target lists known by name (see the module docstring).
TARGET_LISTS = ("bolukbasi2016", "bolukbasi2016_neutral", "demo")


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
        targets = demo_targets(lang)
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
