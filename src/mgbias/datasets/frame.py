"""The normalised pair table shared by every pair-benchmark loader, and CSV reading.

Every loader returns a :class:`pandas.DataFrame` whose first columns are
:data:`PAIR_COLUMNS`:

- ``pair_id`` (str): the benchmark's own id of the pair;
- ``sent_more`` (str): the more stereotypical sentence;
- ``sent_less`` (str): the less stereotypical sentence;
- ``stereo_antistereo`` (str): ``"stereo"`` or ``"antistereo"`` (CrowS-Pairs'
  direction label; which group the stereotype concerns, not which column is
  stereotypical: ``sent_more`` always is);
- ``bias_type`` (str): e.g. ``"gender"``;

followed by ``source_line`` (int, 1-based line of the record in a CSV file;
absent for JSON) and the source's other columns. ``frame.attrs`` holds
``"dataset"``, ``"source"`` (the file path) and ``"n_duplicate_pairs"``.

Missing values: a cell the loader uses that is empty, whitespace only, or one
of pandas' missing-value markers (:data:`MISSING_MARKERS`: ``NaN``, ``nan``,
``NULL``, ``None``, ``N/A``, ...; the forms a NaN takes when a table goes
through pandas and back to text) is an error naming the file, the line and the
column (:func:`record_value`). Columns a loader does not use are not checked.

Duplicated pairs: a row with the same ``sent_more`` and ``sent_less`` as an
earlier row is kept (the benchmark's own count of pairs is what papers report),
counted in ``attrs["n_duplicate_pairs"]`` and logged once
(:func:`note_duplicate_pairs`). A duplicated pair *id* is an error.
"""

from __future__ import annotations

import csv
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from mgbias.errors import InputError
from mgbias.files.textio import decoding

__all__ = [
    "DIRECTIONS",
    "MISSING_MARKERS",
    "PAIR_COLUMNS",
    "check_direction",
    "filter_bias_type",
    "is_missing",
    "note_duplicate_pairs",
    "read_csv_records",
    "record_value",
    "require_columns",
]

log = logging.getLogger(__name__)

#: Cell texts read as a missing value: pandas' default ``na_values`` of ``read_csv``,
#: i.e. what a NaN becomes when a table is written by pandas or a spreadsheet.
MISSING_MARKERS = frozenset(
    {
        "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
        "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
    }
)  # fmt: skip

#: Duplicated pairs named in the log line, at most.
DUPLICATES_LISTED = 5


def is_missing(value: str) -> bool:
    """True if a cell is empty, whitespace only or a marker of :data:`MISSING_MARKERS`."""
    return value.strip() in MISSING_MARKERS


def record_value(path: str | Path, line: int, record: Mapping[str, str], column: str) -> str:
    """The cell ``column`` of a CSV record, which must hold a value.

    Returns
    -------
    str
        The cell as read (not stripped).

    Raises
    ------
    ValueError
        ``"<file>, line <n>: column '<column>' is empty"`` for an empty or
        whitespace-only cell, ``"... holds 'NaN', a missing-value marker"`` for
        one of :data:`MISSING_MARKERS`.
    """
    value = record[column]
    if not value.strip():
        raise ValueError(f"{path}, line {line}: column {column!r} is empty")
    if is_missing(value):
        raise ValueError(
            f"{path}, line {line}: column {column!r} holds {value!r}, a missing-value marker; "
            "expected a value"
        )
    return value


def note_duplicate_pairs(frame: pd.DataFrame, places: Sequence[str], source: str | Path) -> int:
    """Count rows repeating an earlier row's ``sent_more`` and ``sent_less``; log them once.

    Parameters
    ----------
    frame : pandas.DataFrame
        A pair table (columns ``sent_more``, ``sent_less``).
    places : sequence of str
        Where each row comes from, for the log (``"line 12"``,
        ``"data.intrasentence[3] (id 'abc')"``).
    source : str or Path
        The file, for the log.

    Returns
    -------
    int
        The number of duplicated rows (each kept); one warning names the
        first :data:`DUPLICATES_LISTED` of them and the row each repeats.
    """
    first_place: dict[tuple[str, str], str] = {}
    repeats: list[str] = []
    for more, less, place in zip(frame["sent_more"], frame["sent_less"], places, strict=True):
        key = (more, less)
        if key in first_place:
            repeats.append(f"{place} repeats {first_place[key]}")
        else:
            first_place[key] = place
    if repeats:
        shown = "; ".join(repeats[:DUPLICATES_LISTED])
        extra = len(repeats) - DUPLICATES_LISTED
        more_text = f"; and {extra} more" if extra > 0 else ""
        log.warning(
            "%s: %d duplicated pair(s) (the same sent_more and sent_less as an earlier row), "
            "kept: %s%s",
            source,
            len(repeats),
            shown,
            more_text,
        )
    return len(repeats)


def duplicate_pair_count(frame: pd.DataFrame) -> int:
    """Rows of ``frame`` whose ``sent_more`` and ``sent_less`` repeat an earlier row."""
    if frame.empty:
        return 0
    return int(frame.duplicated(["sent_more", "sent_less"], keep="first").sum())


#: Normalised columns, in order, at the front of every loaded pair table.
PAIR_COLUMNS = ("pair_id", "sent_more", "sent_less", "stereo_antistereo", "bias_type")

#: Values of ``stereo_antistereo``.
DIRECTIONS = ("stereo", "antistereo")


def require_columns(path: str | Path, header: Sequence[str], required: Sequence[str]) -> None:
    """Raise a ValueError naming the file and every required column missing from ``header``."""
    missing = [column for column in required if column not in header]
    if missing:
        raise ValueError(
            f"{path}: missing column(s) {missing} in the header (line 1); "
            f"found columns {list(header)}"
        )


def read_csv_records(path: str | Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """Header and records of a UTF-8 CSV file, each record with the line it starts on.

    Parameters
    ----------
    path : str or Path
        CSV file with a header row (a UTF-8 byte-order mark is ignored).

    Returns
    -------
    header : list of str
        Column names; an empty first name (a pandas index column) is kept as ``""``.
    records : list of (int, dict)
        ``(line, {column: value})`` for each non-blank record, ``line`` being
        the 1-based line where the record starts (quoted fields may span lines).

    Raises
    ------
    ValueError
        If the file is empty, a column name is duplicated, or a record has a
        different number of fields than the header (naming the line).
    """
    path = Path(path)
    with decoding(path), open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        lines = _csv_rows(reader, path)
        header = next(lines, None)
        if header is None:
            raise InputError(f"{path}: empty file; expected a CSV header on line 1")
        rows: list[tuple[int, dict[str, str]]] = []
        duplicates = sorted({name for name in header if header.count(name) > 1})
        if duplicates:
            raise ValueError(f"{path}: duplicate column name(s) {duplicates} in the header")
        previous_line = reader.line_num
        for fields in lines:
            line = previous_line + 1
            previous_line = reader.line_num
            if not fields:
                continue
            if len(fields) != len(header):
                raise ValueError(
                    f"{path}, line {line}: {len(fields)} fields but the header has "
                    f"{len(header)} columns"
                )
            rows.append((line, dict(zip(header, fields, strict=True))))
    return header, rows


def _csv_rows(reader, path: Path):
    """The reader's rows; a ``csv.Error`` (a NUL byte, say) named by file and line."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            line = reader.line_num + 1
            raise InputError(f"{path}, line {line}: not a CSV row: {error}") from None


def check_direction(path: str | Path, line: int | str, value: str) -> str:
    """Return ``value`` if it is a valid ``stereo_antistereo`` label, else raise naming the row."""
    if value not in DIRECTIONS:
        raise ValueError(
            f"{path}, {_where(line)}: stereo_antistereo is {value!r}; expected one of {DIRECTIONS}"
        )
    return value


def _where(line: int | str) -> str:
    return f"line {line}" if isinstance(line, int) else str(line)


ALL_BIAS_TYPES = "all"


def filter_bias_type(frame: pd.DataFrame, bias_type: str = "gender") -> pd.DataFrame:
    """Rows of one bias type, under the dataset's own name for it.

    CrowS-Pairs names the types ``race-color``, ``socioeconomic``, ``gender``,
    ``disability``, ``nationality``, ``sexual-orientation``,
    ``physical-appearance``, ``religion`` and ``age``; StereoSet ``gender``,
    ``profession``, ``race`` and ``religion``; the multilingual CrowS-Pairs
    holds ``gender`` only. Matching is exact; ``"all"`` keeps every row
    (Steinborn et al. 2022, Table 3, scores the whole CrowS-Pairs).

    Parameters
    ----------
    frame : pandas.DataFrame
        A pair table with a ``bias_type`` column.
    bias_type : str, optional
        Default ``"gender"``; ``"all"`` for every type.

    Returns
    -------
    pandas.DataFrame
        The matching rows (a copy, index reset), with ``frame.attrs`` kept;
        ``attrs["n_duplicate_pairs"]``, where present, counts the duplicated
        pairs among the kept rows.

    Raises
    ------
    ValueError
        If the frame has no ``bias_type`` column, or no row has ``bias_type``
        (the message lists the available types).
    """
    if "bias_type" not in frame.columns:
        raise ValueError(f"frame has no 'bias_type' column; found columns {list(frame.columns)}")
    if bias_type == ALL_BIAS_TYPES:
        selected = frame.reset_index(drop=True)
        selected.attrs = dict(frame.attrs)
        return selected
    available = sorted(frame["bias_type"].dropna().unique())
    if bias_type not in available:
        source = frame.attrs.get("source", "the frame")
        raise ValueError(
            f"unknown bias type {bias_type!r} in {source}; available bias types: {available}"
        )
    selected = frame.loc[frame["bias_type"] == bias_type].reset_index(drop=True)
    selected.attrs = dict(frame.attrs)
    if "n_duplicate_pairs" in selected.attrs:
        selected.attrs["n_duplicate_pairs"] = duplicate_pair_count(selected)
    return selected
