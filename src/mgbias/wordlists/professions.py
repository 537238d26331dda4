"""The professions of Bolukbasi et al. (2016), and which of them are gender-neutral.

Shipped: the profession list of Bolukbasi et al. (2016),
``mgbias/resources/professions_bolukbasi2016.json`` (tolga-b/debiaswe,
``data/professions.json``, MIT license; the notice is in
``NOTICE-professions_bolukbasi2016.txt`` beside it): 320 entries ``[word,
definitional, stereotypical]``, scores in [-1, 1] (negative = female). Kaneko,
Bollegala & Okazaki (2023, §3.4) average Figure 2 over its "gender- and
stereotype-neutral" occupations, read here as the 21 entries with both scores
0 (``neutral``). Multi-word entries join their words with ``_``
("alter_ego"); targets spell them with a space.

The template probes take it (``bolukbasi2016``) among their target lists
(:func:`mgbias.finetune.probe_targets.template_targets`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mgbias.errors import InputError
from mgbias.files.atomic import read_json
from mgbias.resources import resource_path

__all__ = ["BOLUKBASI_FILE", "load_professions"]

BOLUKBASI_FILE = "professions_bolukbasi2016.json"


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
