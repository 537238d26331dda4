"""Tables of Zhao et al. (2020), "Gender Bias in Multilingual Embeddings and Cross-Lingual
Transfer": tidy frames from the per-space results and their Markdown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from mgbias.report.tables import markdown

__all__ = ["INBIAS_COLUMNS", "inbias_markdown", "inbias_table"]

#: Columns of :func:`inbias_table`.
INBIAS_COLUMNS = ["world", "lang", "variant", "inbias", "strong", "weak", "n", "n_listed"]


def inbias_table(results: Mapping[tuple[str, str], Mapping[str, Any]]) -> pd.DataFrame:
    """One row per space: ``{(world, lang): inBias JSON}`` (``scripts/inbias.py``) as a table.

    ``strong`` and ``weak`` are the means of the per-occupation scores over the
    strong- and weak-gendered pairs (NaN where a group is empty).
    """
    rows = [
        {"world": world, "lang": lang, **{key: result.get(key) for key in INBIAS_COLUMNS[2:]}}
        for (world, lang), result in results.items()
    ]
    table = pd.DataFrame(rows, columns=INBIAS_COLUMNS)
    for column in ("inbias", "strong", "weak"):
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def inbias_markdown(table: pd.DataFrame) -> str:
    """inBias (x 100, as the paper prints it) with languages as rows and worlds as columns."""
    pivot = table.pivot(index="lang", columns="world", values="inbias") * 100
    pivot = pivot.reindex(index=list(dict.fromkeys(table["lang"])))
    pivot = pivot[list(dict.fromkeys(table["world"]))]
    variants = ", ".join(sorted(set(table["variant"].astype(str))))
    return (
        "# Zhao et al. (2020): inBias of the original spaces\n\n"
        f"inBias (Eq. 1, variant {variants}) x 100 of each language's own vectors, before any "
        "alignment; higher = occupations further from gender parity.\n\n"
        + markdown(pivot.reset_index())
        + "\n"
    )
