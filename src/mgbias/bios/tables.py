"""Counts of the bios datasets: Zhao et al. (2020) Table 5 and the data of Figure 2.

Table 5 gives, per language, the number of occupations and of instances; Figure 2 the
instances per occupation and gender for the occupations with at least 200 instances.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from mgbias.atomic import atomic_path

TABLE5_COLUMNS = ["lang", "occupations", "instances", "female", "male"]
COUNT_COLUMNS = ["lang", "title", "female", "male", "total", "figure2"]

#: Figure 2 shows the occupations with at least this many instances.
FIGURE2_MIN = 200


def table5(datasets: Mapping[str, list[dict]]) -> list[dict]:
    """One row per language (in the order given): occupations, instances, F and M."""
    rows = []
    for lang, records in datasets.items():
        genders = Counter(record["gender"] for record in records)
        rows.append(
            {
                "lang": lang,
                "occupations": len({record["title"] for record in records}),
                "instances": len(records),
                "female": genders["F"],
                "male": genders["M"],
            }
        )
    return rows


def counts(datasets: Mapping[str, list[dict]], figure2_min: int = FIGURE2_MIN) -> list[dict]:
    """One row per language and occupation (sorted by title): F, M, total, in Figure 2."""
    rows = []
    for lang, records in datasets.items():
        by_title = Counter((record["title"], record["gender"]) for record in records)
        for title in sorted({record["title"] for record in records}):
            female, male = by_title[(title, "F")], by_title[(title, "M")]
            rows.append(
                {
                    "lang": lang,
                    "title": title,
                    "female": female,
                    "male": male,
                    "total": female + male,
                    "figure2": female + male >= figure2_min,
                }
            )
    return rows


def write_csv(path: str | Path, rows: list[dict], columns: list[str]) -> None:
    """``rows`` as CSV with ``columns`` (atomically)."""
    with atomic_path(path) as temp, open(temp, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def table5_markdown(rows: list[dict]) -> str:
    """Table 5 as Markdown: languages as columns, rows occupations and instances."""
    header = "| | " + " | ".join(row["lang"].upper() for row in rows) + " |"
    lines = [
        "Zhao et al. (2020), Table 5: the bios datasets (mgbias extraction).",
        "",
        header,
        "|---|" + "---|" * len(rows),
    ]
    for key, label in [
        ("occupations", "Occupations"),
        ("instances", "Instances"),
        ("female", "Female"),
        ("male", "Male"),
    ]:
        lines.append(f"| {label} | " + " | ".join(str(row[key]) for row in rows) + " |")
    return "\n".join(lines) + "\n"
