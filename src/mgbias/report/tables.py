"""Result tables in the papers' shapes, written as CSV with a Markdown copy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from mgbias.files.atomic import write_text
from mgbias.files.tabular import markdown, write_csv
from mgbias.measures.mbe_length import LENGTH_COLUMNS
from mgbias.measures.measure import MBE_RESULT_COLUMNS

MBE_COLUMNS = [
    "model",
    "corpus",
    "lang",
    "world",
    *MBE_RESULT_COLUMNS,
    "cluster",
    "n_clusters",
    "model_id",
    *LENGTH_COLUMNS,
]

#: MBE columns a record may lack (results written before the test had units, or before
#: the sets' lengths were checked).
MBE_OPTIONAL = ("cluster", "n_clusters", *LENGTH_COLUMNS)

#: How the MBE table describes each significance test (``mbe.test``).
MBE_TEST_NOTES = {
    "permutation": "label-permutation test (male/female labels reassigned at random, "
    "Eq. 2 recomputed; {n_permutations} relabellings)",
    "mcnemar_sentence": "McNemar's test per sentence against a random indicator "
    "(the paper's reading; anti-conservative)",
    "mcnemar_pair": "McNemar's test per (male, female) pair against a random indicator "
    "(anti-conservative)",
}

MINING_COLUMNS = [
    "world",
    "corpus",
    "lang",
    "n_pairs",
    "n_female",
    "n_male",
    "n_both",
    "n_neutral",
    "total",
    "n_kept_per_gender",
    "kept_total",
]


def mining_table(records: Iterable[Mapping]) -> pd.DataFrame:
    """Sentences mined per world, corpus and language (Kaneko et al. 2022, Table 1).

    ``kept_total`` = 2 x ``n_kept_per_gender`` is what Table 1 prints: the sentences
    left after downsampling both genders to the smaller count. The authors' released
    sentence sets have equal female and male counts whose sum equals Table 1 in 14 of
    its 15 cells (German TED: 2 x 2,373 = 4,746, printed "4.7K"). ``total`` keeps the
    male plus female sentences extracted before downsampling.
    """
    frame = pd.DataFrame(list(records))
    frame["total"] = frame["n_female"] + frame["n_male"]
    frame["kept_total"] = 2 * frame["n_kept_per_gender"]
    return frame[MINING_COLUMNS].sort_values(["world", "corpus", "lang"], ignore_index=True)


def mining_markdown(frame: pd.DataFrame) -> str:
    """Table 1 layout: languages as rows, corpora as columns, one block per world."""
    parts = ["# Sentences mined from parallel corpora (Kaneko et al. 2022, Table 1)", ""]
    parts.append(
        "Male + female sentences after downsampling both genders to the same count "
        "(`kept_total` = 2 x `n_kept_per_gender`), as the paper prints them; `total` is "
        "the count extracted before downsampling."
    )
    for world, block in frame.groupby("world", sort=True):
        pivot = block.pivot(index="lang", columns="corpus", values="kept_total").reset_index()
        parts += ["", f"## world: {world}", "", markdown(pivot, floatfmt=".0f")]
    parts += ["", "## All counts", "", markdown(frame, floatfmt=".0f"), ""]
    return "\n".join(parts)


def mbe_table(records: Iterable[Mapping]) -> pd.DataFrame:
    """One row per (model, world, corpus, language) with the MBE score and its test."""
    frame = pd.DataFrame(list(records)).rename(columns={"score": "mbe"})
    for column in MBE_OPTIONAL:
        if column not in frame:
            frame[column] = None
    return frame[MBE_COLUMNS].sort_values(["model", "world", "corpus", "lang"], ignore_index=True)


def mbe_test_note(frame: pd.DataFrame) -> str:
    """The significance test(s) behind the table's ‡ marks, from its ``test`` column."""
    notes = []
    for test, block in frame.groupby("test", sort=True):
        counts = sorted({int(n) for n in block["n_permutations"].dropna()})
        note = MBE_TEST_NOTES[test].format(n_permutations="/".join(map(str, counts)))
        if test == "permutation" and block["n_clusters"].notna().any():
            note += (
                "; where `n_clusters` is given, whole groups of sentences sharing their "
                "gender words were relabelled (`cluster`)"
            )
        notes.append(note)
    return "; ".join(notes)


def one_model_per_language(marked: pd.DataFrame) -> pd.DataFrame:
    """Table 2 as the paper prints it: languages x corpora, each row naming its model.

    ``marked`` holds one world whose every language is scored by one model, with the
    rendered ``cell`` column of :func:`mbe_markdown`.
    """
    pivot = marked.pivot(index="lang", columns="corpus", values="cell")
    models = marked.groupby("lang")["model"].first()
    pivot.insert(0, "model", models.reindex(pivot.index))
    return pivot.reset_index().rename_axis(columns=None)


def mbe_markdown(frame: pd.DataFrame) -> str:
    """Table 2 layout (MBE per language and corpus, ‡ = p < alpha), then all columns."""
    parts = [
        "# MBE scores (Kaneko et al. 2022, Table 2)",
        "",
        "Score = 100 x cosine-weighted share of (male, female) sentence pairs in which the",
        "model's AULA prefers the male sentence (Eq. 2): above 50 = male sentences preferred,",
        "below 50 = female. ‡ = p < alpha by the significance test in the `test` column: "
        f"{mbe_test_note(frame)}. § = the two sets' token counts differ and AULA follows "
        "them, both at alpha, in the score's direction: the length difference, not the "
        "model, may decide (`length_*` columns; mgbias.measures.mbe_length).",
    ]
    leans = [value is True or value == "True" for value in frame["length_lean"]]
    marked = frame.assign(
        cell=[
            f"{s:.2f}{' ‡' if sig else ''}{' §' if lean else ''}"
            for s, sig, lean in zip(frame.mbe, frame.significant, leans, strict=True)
        ]
    )
    for world, world_block in marked.groupby("world", sort=True):
        if world_block.groupby("lang")["model"].nunique().max() == 1:
            parts += ["", f"## world: {world}", "", markdown(one_model_per_language(world_block))]
            continue
        for model, block in world_block.groupby("model", sort=True):
            pivot = block.pivot(index="lang", columns="corpus", values="cell").reset_index()
            parts += ["", f"## model: {model}, world: {world}", "", markdown(pivot)]
    parts += ["", "## All columns", "", markdown(frame, floatfmt=".4g"), ""]
    return "\n".join(parts)


def write_table(frame: pd.DataFrame, text: str, csv_path: str | Path, md_path: str | Path) -> None:
    """Write ``frame`` as CSV and ``text`` as its Markdown copy."""
    write_csv(frame, csv_path)
    write_text(md_path, text)
