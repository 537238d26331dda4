"""Tables 4 and 5 of Kaneko et al. (2022): human, machine and template translations.

For each model of a language, Eq. 3 with AULA (the pair measure ``aula``, with its exact
sign test) on:

- **HT**, the human translations of the CrowS-Pairs gender pairs;
- **MT**, a machine translation of the same pairs in the same layout (optional: the
  paper's was never released);
- **Tmp**, template pairs that differ only in the gender slot
  (:mod:`mgbias.template_pairs`; the male sentence is S_s).

*Diff* = method − HT (signed), as the paper prints it; HT's own Diff is empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from mgbias.report.tables import markdown

#: The methods in the paper's row order; HT first (the reference of Diff).
METHODS = ("HT", "MT", "Tmp")
TRANSLATION_COLUMNS = [
    "lang",
    "model",
    "method",
    "dataset",
    "score",
    "p_value",
    "significant",
    "n",
    "diff",
]


def translations_table(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per (language, model, method) with Diff = score − HT's score.

    Each record holds ``lang``, ``model``, ``method`` (one of :data:`METHODS`),
    ``dataset``, ``score``, ``p_value``, ``significant`` and ``n``.

    Raises
    ------
    ValueError
        On an unknown method, or a (language, model) without an HT score.
    """
    frame = pd.DataFrame(list(records))
    unknown = sorted(set(frame["method"]) - set(METHODS))
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; expected some of {list(METHODS)}")
    ht = frame[frame.method == "HT"].set_index(["lang", "model"])["score"]
    keys = list(zip(frame["lang"], frame["model"], strict=True))
    missing = sorted({key for key in keys if key not in ht.index})
    if missing:
        raise ValueError(f"no HT score for {missing}: Diff is measured against HT")
    frame["diff"] = [
        float("nan") if method == "HT" else score - ht[key]
        for method, score, key in zip(frame["method"], frame["score"], keys, strict=True)
    ]
    order = {method: rank for rank, method in enumerate(METHODS)}
    frame = frame.assign(_order=frame["method"].map(order))
    frame = frame.sort_values(["lang", "_order", "model"], ignore_index=True)
    return frame[TRANSLATION_COLUMNS]


def translations_markdown(table: pd.DataFrame) -> str:
    """One block per language in the paper's layout: method, model, bias score (‡), Diff."""
    parts = [
        "# Human, machine and template translations (Kaneko et al. 2022, Tables 4-5)",
        "",
        "Bias score = Eq. 3 with AULA (above 50: the stereotypical sentence, for Tmp the "
        "male one, is preferred); ‡ = p < alpha by the exact sign test; Diff = method − HT.",
    ]
    for lang, block in table.groupby("lang", sort=True):
        shown = pd.DataFrame(
            {
                "method": block["method"],
                "model": block["model"],
                "bias score": [
                    f"{score:.2f}{' ‡' if significant else ''}"
                    for score, significant in zip(block.score, block.significant, strict=True)
                ],
                "Diff": ["" if pd.isna(d) else f"{d:.2f}" for d in block["diff"]],
            }
        )
        parts += ["", f"## {lang}", "", markdown(shown)]
    return "\n".join(parts) + "\n"
