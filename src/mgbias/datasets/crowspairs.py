"""CrowS-Pairs CSV (Nangia et al. 2020): ``data/crows_pairs_anonymized.csv`` of nyu-mll/crows-pairs.

Layout of the released file: a header
``,id,sent_more,sent_less,stereo_antistereo,bias_type,annotations,anon_writer,anon_annotators``
whose first, unnamed column is a 0-based row index written by pandas, then
one pair per record (fields quoted when they contain commas or quotes).

Meaning of the columns (the dataset's README): ``sent_more`` is the more
stereotypical sentence and ``sent_less`` the less stereotypical one, in every
row. ``stereo_antistereo`` says which of them concerns the historically
disadvantaged group: ``stereo`` = ``sent_more`` demonstrates a stereotype of
that group; ``antistereo`` = ``sent_less`` violates a stereotype of that group
(e.g. "The woman was highly skilled in CAD engineering." is ``sent_less`` of a
``gender`` ``antistereo`` pair). Either way the stereotypical sentence is
``sent_more``, so measures compare ``sent_more`` against ``sent_less`` for all
rows, as CrowS-Pairs' own metric does.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from mgbias.datasets.frame import (
    PAIR_COLUMNS,
    check_direction,
    note_duplicate_pairs,
    read_csv_records,
    record_value,
    require_columns,
)
from mgbias.files.atomic import atomic_path

__all__ = ["CSV_COLUMNS", "REQUIRED_COLUMNS", "load_crowspairs", "write_crowspairs"]

#: Columns a CrowS-Pairs CSV must have.
REQUIRED_COLUMNS = ("sent_more", "sent_less", "stereo_antistereo", "bias_type")

#: Columns of a CrowS-Pairs CSV written by :func:`write_crowspairs` (the unnamed
#: first one is the 0-based row index, as in the released file).
CSV_COLUMNS = ("", "sent_more", "sent_less", "stereo_antistereo", "bias_type")

#: Name given to the file's unnamed first column (the 0-based row index).
SOURCE_ROW_COLUMN = "source_row"


def load_crowspairs(path: str | Path) -> pd.DataFrame:
    """Read a CrowS-Pairs CSV into the normalised pair table.

    Parameters
    ----------
    path : str or Path
        The CSV (``crows_pairs_anonymized.csv`` or a file in the same layout).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`~mgbias.datasets.frame.PAIR_COLUMNS`, then ``source_line``,
        then every other column of the file in file order, all as strings.
        ``pair_id`` is the ``id`` column when present, else the unnamed index
        column, else the 0-based data row number. The unnamed first column is
        kept as ``source_row`` (it is the ``ID`` that the multilingual
        CrowS-Pairs of Steinborn et al. refers to). ``attrs``:
        ``{"dataset": "crows_pairs", "source": str(path),
        "n_duplicate_pairs": ...}``. A row with the same ``sent_more`` and
        ``sent_less`` as an earlier row is kept, counted in
        ``n_duplicate_pairs`` and logged (the released file has one such
        pair, lines 1462 and 1505).

    Raises
    ------
    ValueError
        Naming the file, the line and the column: a missing required column,
        a record with the wrong number of fields, an empty or missing
        (``NaN``, ``null``, ...; :data:`~mgbias.datasets.frame.MISSING_MARKERS`)
        sentence, direction, bias type or pair id, an unknown
        ``stereo_antistereo`` label, or a duplicated ``pair_id``.
    """
    path = Path(path)
    header, records = read_csv_records(path)
    require_columns(path, header, REQUIRED_COLUMNS)
    id_column = "id" if "id" in header else ("" if "" in header else None)
    extra_columns = [
        column for column in header if column not in REQUIRED_COLUMNS and column != "id"
    ]
    rows: list[dict[str, object]] = []
    seen: dict[str, int] = {}
    for row_number, (line, record) in enumerate(records):
        for column in REQUIRED_COLUMNS:
            record_value(path, line, record, column)
        if id_column is not None:
            pair_id = record_value(path, line, record, id_column).strip()
        else:
            pair_id = str(row_number)
        if pair_id in seen:
            raise ValueError(
                f"{path}, line {line}: pair id {pair_id!r} already used on line {seen[pair_id]}"
            )
        seen[pair_id] = line
        row: dict[str, object] = {
            "pair_id": pair_id,
            "sent_more": record["sent_more"],
            "sent_less": record["sent_less"],
            "stereo_antistereo": check_direction(path, line, record["stereo_antistereo"].strip()),
            "bias_type": record["bias_type"].strip(),
            "source_line": line,
        }
        for column in extra_columns:
            row[SOURCE_ROW_COLUMN if column == "" else column] = record[column]
        rows.append(row)
    columns = [*PAIR_COLUMNS, "source_line"] + [
        SOURCE_ROW_COLUMN if column == "" else column for column in extra_columns
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame["source_line"] = frame["source_line"].astype("int64")
    n_duplicates = note_duplicate_pairs(
        frame, [f"line {line}" for line in frame["source_line"]], path
    )
    frame.attrs = {"dataset": "crows_pairs", "source": str(path), "n_duplicate_pairs": n_duplicates}
    return frame


def write_crowspairs(
    rows: Iterable[tuple[str, str, str, str]],
    path: str | Path,
    columns: Mapping[str, Sequence[str]] | None = None,
) -> int:
    """Write pairs as a CrowS-Pairs CSV (atomically) that :func:`load_crowspairs` reads.

    ``rows`` are ``(sent_more, sent_less, stereo_antistereo, bias_type)``, one per pair,
    in file order; the index column numbers them from 0. ``columns`` adds columns after
    those, one value per pair each (e.g. ``target``, the word a pair's preference hangs
    on, to cluster the pairs by). Returns the number written.

    Raises
    ------
    ValueError
        If an added column has another number of values than there are pairs (the
        file is then not written).
    """
    columns = dict(columns or {})
    n = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([*CSV_COLUMNS, *columns])
        for n, (more, less, direction, bias_type) in enumerate(rows, start=1):
            extra = [values[n - 1] if n <= len(values) else "" for values in columns.values()]
            writer.writerow([n - 1, more, less, direction, bias_type, *extra])
        short = [name for name, values in columns.items() if len(values) != n]
        if short:
            raise ValueError(
                f"{path}: column(s) {short} have another number of values than the {n} pairs"
            )
    return n
