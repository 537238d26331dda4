"""Counts of the bios datasets: Zhao et al. (2020) Table 5 and the data of Figure 2; the
classifier tables (6-11, 14-18) of the runs' metrics.

Table 5 gives, per language, the number of occupations and of instances; Figure 2 the
instances per occupation and gender for the occupations with at least 200 instances.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from mgbias.files.atomic import atomic_path

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


#: The classifier's metrics (accuracies and |Diff| in points), each followed by its
#: standard error over the seeded runs (:func:`mgbias.bios.experiment.metric_standard_errors`).
METRIC_COLUMNS = [
    "avg", "avg_se", "female", "female_se", "male", "male_se", "diff", "diff_se",
]  # fmt: skip

MONOLINGUAL_COLUMNS = [
    "table", "world", "lang", "space", "text", "sampling", "runs", *METRIC_COLUMNS, "arrow",
]  # fmt: skip


def _metric_cells(result: Mapping) -> dict:
    """The metrics and their standard errors of one result, rounded to 2 decimals (a
    standard error NaN where the result has none: one run)."""
    return {
        key: round(float(result.get(key, math.nan)), 2)
        if key.endswith("_se")
        else round(result[key], 2)
        for key in METRIC_COLUMNS
    }


def metric_text(row: Mapping, key: str) -> str:
    """A metric cell of the Markdown tables: ``"85.12 ± 0.40"``, or ``"85.12"`` without a
    standard error (one run)."""
    se = row.get(f"{key}_se", math.nan)
    text = f"{row[key]:.2f}"
    return text if se is None or math.isnan(float(se)) else f"{text} ± {float(se):.2f}"


#: The paper's table of the monolingual runs (scrubbed bios, original sampling).
MONOLINGUAL_TABLE = {"en": "6", "es": "6", "de": "14", "fr": "14"}


def paper_table(lang: str, text: str, sampling: str) -> str:
    """Zhao et al.'s table of a monolingual run ("" for the variants beyond the paper)."""
    if text == "scrubbed" and sampling == "original":
        return MONOLINGUAL_TABLE.get(lang, "")
    return ""


def arrow(diff: float, reference: float) -> str:
    """``up`` if |Diff| exceeds the language's own space's, ``down`` if below, else ""."""
    if diff > reference:
        return "up"
    if diff < reference:
        return "down"
    return ""


def monolingual_rows(results: list[dict]) -> list[dict]:
    """Rows of the monolingual table, in the order given; ``results``: dicts with world,
    lang, space, text, sampling, runs and the metrics avg, female, male, diff. The arrow
    compares |Diff| with the row of the language's own space (same world, text and
    sampling), if configured."""
    own = {
        (r["world"], r["lang"], r["text"], r["sampling"]): r["diff"]
        for r in results
        if r["space"] == r["lang"]
    }
    rows = []
    for r in results:
        reference = own.get((r["world"], r["lang"], r["text"], r["sampling"]))
        rows.append(
            {
                "table": paper_table(r["lang"], r["text"], r["sampling"]),
                **{key: r[key] for key in ("world", "lang", "space", "text", "sampling")},
                "runs": r["runs"],
                **_metric_cells(r),
                "arrow": ""
                if reference is None or r["space"] == r["lang"]
                else arrow(r["diff"], reference),
            }
        )
    return rows


def monolingual_markdown(rows: list[dict]) -> str:
    """One Markdown table per world and language, in the shape of Tables 6 and 14."""
    marks = {"up": " ↑", "down": " ↓", "": ""}
    lines = [
        "Zhao et al. (2020), Tables 6 and 14 (scrubbed, original): the occupation "
        "classifier per embedding space (mgbias demo or run); accuracies and |Diff| in "
        "points; arrows compare |Diff| with the language's own space.",
    ]
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["world"], row["lang"]), []).append(row)
    for (world, lang), group in groups.items():
        lines += [
            "",
            f"**{lang.upper()} ({world})**",
            "",
            "| Table | Space | Text | Sampling | Avg. | Female | Male | \\|Diff\\| |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in group:
            lines.append(
                f"| {row['table']} | {row['space']} | {row['text']} | {row['sampling']} | "
                f"{metric_text(row, 'avg')} | {metric_text(row, 'female')} | "
                f"{metric_text(row, 'male')} | {metric_text(row, 'diff')}{marks[row['arrow']]} |"
            )
    return "\n".join(lines) + "\n"


TRANSFER_COLUMNS = [
    "table", "world", "src", "tgt", "src_space", "tgt_space", "text", "sampling", "runs",
    *METRIC_COLUMNS,
]  # fmt: skip

#: The paper's transfer tables per language pair: (unbalanced, balanced).
TRANSFER_TABLES = {
    frozenset({"en", "es"}): ("7", "8"),
    frozenset({"en", "de"}): ("15", "17"),
    frozenset({"en", "fr"}): ("16", "18"),
}


def transfer_table(
    src: str, tgt: str, src_space: str, tgt_space: str, text: str, sampling: str
) -> str:
    """Zhao et al.'s table of a transfer run: 7/15/16 (unbalanced), 8/17/18 (balanced),
    9 for the EN-ES runs aligned to ENDEB; "" beyond the paper."""
    tables = TRANSFER_TABLES.get(frozenset({src, tgt}))
    if tables is None or text != "scrubbed":
        return ""
    if sampling == "original":
        return tables[0]
    if tables[0] == "7" and "endeb" in (src_space + tgt_space):
        return "9"
    return tables[1]


def transfer_rows(results: list[dict]) -> list[dict]:
    """Rows of the transfer table, in the order given (``results``: dicts with the
    experiment keys, runs and the metrics)."""
    keys = ("world", "src", "tgt", "src_space", "tgt_space", "text", "sampling")
    return [
        {
            "table": transfer_table(*(r[k] for k in keys[1:])),
            **{key: r[key] for key in keys},
            "runs": r["runs"],
            **_metric_cells(r),
        }
        for r in results
    ]


def transfer_markdown(rows: list[dict]) -> str:
    """One Markdown table per world and direction, in the shape of Tables 7-9, 15-18."""
    lines = [
        "Zhao et al. (2020), Tables 7-9 and 15-18: train on the source language (Src. "
        "space), fine-tune on a share of the target's training bios (Tgt. space), test on "
        "the target; accuracies and |Diff| in points.",
    ]
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["world"], row["src"], row["tgt"]), []).append(row)
    for (world, src, tgt), group in groups.items():
        lines += [
            "",
            f"**{src.upper()} → {tgt.upper()} ({world})**",
            "",
            "| Table | Src. | Tgt. | Text | Sampling | Avg. | Female | Male | \\|Diff\\| |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for row in group:
            lines.append(
                f"| {row['table']} | {row['src_space']} | {row['tgt_space']} | {row['text']} | "
                f"{row['sampling']} | {metric_text(row, 'avg')} | {metric_text(row, 'female')} | "
                f"{metric_text(row, 'male')} | {metric_text(row, 'diff')} |"
            )
    return "\n".join(lines) + "\n"


ENCODER_COLUMNS = [
    "table", "world", "lang", "encoder", "text", "sampling", "runs", *METRIC_COLUMNS,
]  # fmt: skip
ENCODER_TRANSFER_COLUMNS = [
    "table", "world", "src", "tgt", "encoder", "text", "sampling", "runs", *METRIC_COLUMNS,
]  # fmt: skip

#: The paper's row order of Tables 10 and 11 (other languages follow, sorted).
LANGUAGE_ORDER = ("en", "es", "de", "fr")


def _language_rank(lang: str) -> tuple[int, str]:
    return (LANGUAGE_ORDER.index(lang) if lang in LANGUAGE_ORDER else len(LANGUAGE_ORDER), lang)


def _encoder_row(r: dict, table: str, keys: tuple[str, ...], space: str) -> dict:
    return {
        "table": table if (r["text"], r["sampling"]) == ("scrubbed", "original") else "",
        **{key: r[key] for key in keys},
        "encoder": r[space],
        "text": r["text"],
        "sampling": r["sampling"],
        "runs": r["runs"],
        **_metric_cells(r),
    }


def encoder_rows(results: list[dict]) -> list[dict]:
    """Table 10: the monolingual runs on the encoder (``results``: dicts with world,
    lang, space, text, sampling, runs and the metrics), ordered by world, encoder and
    variant, then language (EN, ES, DE, FR); ``table`` 10 for scrubbed, original."""
    rows = [_encoder_row(r, "10", ("world", "lang"), "space") for r in results]
    return sorted(
        rows,
        key=lambda r: (
            (r["world"], r["encoder"], r["table"] == "", r["text"], r["sampling"])
            + _language_rank(r["lang"])
        ),
    )


def encoder_transfer_rows(results: list[dict]) -> list[dict]:
    """Table 11: the transfer runs on the encoder, ordered as :func:`encoder_rows` by
    source, then target language."""
    rows = [_encoder_row(r, "11", ("world", "src", "tgt"), "src_space") for r in results]
    return sorted(
        rows,
        key=lambda r: (
            (r["world"], r["encoder"], r["table"] == "", r["text"], r["sampling"])
            + _language_rank(r["src"])
            + _language_rank(r["tgt"])
        ),
    )


def _encoder_markdown(rows: list[dict], title: str, label) -> str:
    lines = [title]
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        key = (row["table"], row["world"], row["encoder"], row["text"], row["sampling"])
        groups.setdefault(key, []).append(row)
    for (table, world, encoder, text, sampling), group in groups.items():
        name = f"Table {table}: " if table else ""
        lines += [
            "",
            f"**{name}{encoder} ({world}; {text}, {sampling})**",
            "",
            "| | Avg. | Female | Male | \\|Diff\\| |",
            "|---|---|---|---|---|",
        ]
        for row in group:
            lines.append(
                f"| {label(row)} | {metric_text(row, 'avg')} | {metric_text(row, 'female')} | "
                f"{metric_text(row, 'male')} | {metric_text(row, 'diff')} |"
            )
    return "\n".join(lines) + "\n"


def encoder_markdown(rows: list[dict]) -> str:
    """Table 10 as Markdown: one table per world, encoder and variant, rows EN, ES, DE,
    FR x (Avg., Female, Male, |Diff|)."""
    return _encoder_markdown(
        rows,
        "Zhao et al. (2020), Table 10: the occupation classifier on a frozen multilingual "
        "encoder's last-layer hidden states (the paper: M-BERT), per language (mgbias "
        "demo or run); accuracies and |Diff| in points.",
        lambda row: row["lang"].upper(),
    )


def encoder_transfer_markdown(rows: list[dict]) -> str:
    """Table 11 as Markdown: one table per world, encoder and variant, rows EN→ES, EN→DE,
    EN→FR x (Avg., Female, Male, |Diff|)."""
    return _encoder_markdown(
        rows,
        "Zhao et al. (2020), Table 11: transfer on a frozen multilingual encoder: trained "
        "on the source language, fine-tuned on a share of the target's training bios, "
        "tested on the target; accuracies and |Diff| in points.",
        lambda row: f"{row['src'].upper()}→{row['tgt'].upper()}",
    )
