"""Multilingual CrowS-Pairs of Steinborn et al. (2022, §3.1): one CSV per language.

Layout of the released files (``data/cps_translated_{x}_formatted.csv`` of
VSteinborn/s_jsd-multilingual-bias, ``x`` in en, de, fi, id, th, ...)::

    ID,A_en,B_en,A_x,B_x,stereo_antistereo

- ``ID``: the row of the original CrowS-Pairs file the pair comes from (its
  unnamed 0-based index column, :mod:`mgbias.datasets.crowspairs`);
- ``A_en`` / ``B_en``: the edited English pair (names instead of pronouns);
- ``A_x`` / ``B_x``: their translation into language ``x`` (the column names
  are literally ``A_x`` and ``B_x``; the language is in the file name; in the
  English file ``A_x == A_en``);
- ``stereo_antistereo``: the direction label copied from CrowS-Pairs.

Which sentence is the stereotypical one: ``A`` is "the more stereotypical
CrowS-Pairs sentence" and ``B`` "the less stereotypical" one (the dataset's
README), i.e. ``A`` is CrowS-Pairs' ``sent_more`` for stereo and antistereo rows
alike (e.g. ``ID`` 9, antistereo: A = "The man was highly skilled in CAD
engineering ...", as in CrowS-Pairs), and the authors' code reads ``A_x`` as
``sent_more`` and ``B_x`` as ``sent_less``. So here too ``sent_more = A_x``.

There is no bias-type column: every pair is a ``gender`` pair (§3.1 selects
CrowS-Pairs' gender rows), so ``bias_type`` is ``"gender"`` unless the file
has a ``bias_type`` column. The authors' code drops rows whose ``A_x`` is
missing (untranslated); here a row with both ``A_x`` and ``B_x`` missing
(empty, or a marker such as ``NaN``: :func:`~mgbias.datasets.frame.is_missing`)
is dropped and counted in ``attrs["n_untranslated"]``, and a row with only one
of them missing is an error. A pair repeating an earlier row's translated
sentences is kept and counted in ``attrs["n_duplicate_pairs"]``.

The released files (en, de, fr, fi, id, th, zh, vi, ko, ar) each hold 212
pairs, with no empty cell, no untranslated row and no duplicated pair.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from mgbias.datasets.frame import (
    PAIR_COLUMNS,
    check_direction,
    is_missing,
    note_duplicate_pairs,
    read_csv_records,
    record_value,
    require_columns,
)

__all__ = ["language_from_file_name", "load_multilingual_crowspairs"]

#: Bias type of every pair (the dataset is built from CrowS-Pairs' gender rows).
DEFAULT_BIAS_TYPE = "gender"

_FILE_NAME_PATTERNS = (
    re.compile(r"^cps_translated_(?P<lang>[a-z]{2,3})_formatted\.csv$"),
    re.compile(r"^multilingual_crows_pairs_(?P<lang>[a-z]{2,3})\.csv$"),
)


def language_from_file_name(path: str | Path) -> str | None:
    """Language code in a file name such as ``cps_translated_de_formatted.csv``, else ``None``.

    Also recognises ``multilingual_crows_pairs_de.csv`` (the demo data's name).
    """
    name = Path(path).name
    for pattern in _FILE_NAME_PATTERNS:
        match = pattern.match(name)
        if match:
            return match.group("lang")
    return None


def _translation_columns(path: Path, header: list[str], language: str | None) -> tuple[str, str]:
    if "A_x" in header or "B_x" in header:
        return "A_x", "B_x"
    if language is not None and f"A_{language}" in header:
        return f"A_{language}", f"B_{language}"
    expected = "'A_x' and 'B_x'" + (
        f" (or 'A_{language}' and 'B_{language}')" if language is not None else ""
    )
    raise ValueError(
        f"{path}: missing column(s) {expected} in the header (line 1); found columns {header}"
    )


def load_multilingual_crowspairs(path: str | Path, language: str | None = None) -> pd.DataFrame:
    """Read one language's multilingual CrowS-Pairs CSV into the normalised pair table.

    Parameters
    ----------
    path : str or Path
        The CSV (columns ``ID``, ``A_en``, ``B_en``, ``A_x``, ``B_x``,
        ``stereo_antistereo``).
    language : str or None, optional
        Language of ``A_x``/``B_x``; by default taken from the file name
        (:func:`language_from_file_name`), else left empty. A file with
        ``A_{language}``/``B_{language}`` columns instead of ``A_x``/``B_x`` is
        read from those.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`~mgbias.datasets.frame.PAIR_COLUMNS` (``pair_id`` =
        ``ID``, ``sent_more`` = ``A_x``, ``sent_less`` = ``B_x``), then
        ``source_line``, ``language``, ``sent_more_en`` (``A_en``),
        ``sent_less_en`` (``B_en``) and any other columns of the file.
        ``attrs``: ``{"dataset": "multilingual_crows_pairs", "source": ...,
        "language": ..., "n_untranslated": ..., "n_duplicate_pairs": ...}``.

    Raises
    ------
    ValueError
        Naming the file, the line and the column: a missing column, a record
        with the wrong number of fields, only one side of a pair translated,
        an empty or missing (``NaN``, ...) English sentence, ``ID``,
        ``stereo_antistereo`` or ``bias_type``, an unknown
        ``stereo_antistereo`` label, or a duplicated ``ID``.
    """
    path = Path(path)
    header, records = read_csv_records(path)
    require_columns(path, header, ("ID", "A_en", "B_en", "stereo_antistereo"))
    if language is None:
        language = language_from_file_name(path)
    more_column, less_column = _translation_columns(path, header, language)
    require_columns(path, header, (more_column, less_column))
    used = {"ID", "A_en", "B_en", "stereo_antistereo", "bias_type", more_column, less_column}
    extra_columns = [column for column in header if column not in used]
    rows: list[dict[str, object]] = []
    seen: dict[str, int] = {}
    n_untranslated = 0
    checked = [more_column, less_column, "A_en", "B_en", "ID", "stereo_antistereo"]
    if "bias_type" in header:
        checked.append("bias_type")
    for line, record in records:
        more, less = record[more_column], record[less_column]
        if is_missing(more) and is_missing(less):
            n_untranslated += 1
            continue
        for column in checked:
            record_value(path, line, record, column)
        pair_id = record["ID"].strip()
        if pair_id in seen:
            raise ValueError(
                f"{path}, line {line}: ID {pair_id!r} already used on line {seen[pair_id]}"
            )
        seen[pair_id] = line
        bias_type = record.get("bias_type", DEFAULT_BIAS_TYPE).strip()
        row: dict[str, object] = {
            "pair_id": pair_id,
            "sent_more": more,
            "sent_less": less,
            "stereo_antistereo": check_direction(path, line, record["stereo_antistereo"].strip()),
            "bias_type": bias_type,
            "source_line": line,
            "language": language or "",
            "sent_more_en": record["A_en"],
            "sent_less_en": record["B_en"],
        }
        row.update({column: record[column] for column in extra_columns})
        rows.append(row)
    columns = [
        *PAIR_COLUMNS,
        "source_line",
        "language",
        "sent_more_en",
        "sent_less_en",
        *extra_columns,
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame["source_line"] = frame["source_line"].astype("int64")
    n_duplicates = note_duplicate_pairs(
        frame, [f"line {line}" for line in frame["source_line"]], path
    )
    frame.attrs = {
        "dataset": "multilingual_crows_pairs",
        "source": str(path),
        "language": language or "",
        "n_untranslated": n_untranslated,
        "n_duplicate_pairs": n_duplicates,
    }
    return frame
