"""Tables 4, 5 and 6 of Kaneko et al. (2022): human, machine and template translations,
and human translations with native names.

For each model of a language, Eq. 3 with AULA (the pair measure ``aula``, with its exact
sign test) on:

- **HT**, the human translations of the CrowS-Pairs gender pairs;
- **MT**, a machine translation of the same pairs in the same layout (optional: the
  paper's was never released);
- **Tmp**, template pairs that differ only in the gender slot
  (:mod:`mgbias.kaneko2022.template_pairs`; the male sentence is S_s);

and **MBE** (Eq. 2) over the translated sentences, each taking the gender of its English
original (Step 1 with the English pairs ↔ their translations as the parallel corpus,
:func:`aligned_genders`), from the unmasked pass the pair rules made over the
translations.

and, for Table 6, Eq. 3 on **HT_name**, the human translations with every transliterated
English first name replaced by a native one of the same gender
(:mod:`mgbias.kaneko2022.native_names`).

*Diff* = method − HT (signed), as the paper prints it; HT's own Diff is empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from mgbias.files.tabular import markdown
from mgbias.wordlists.gender_words import gender_of

#: The methods in the paper's row order; HT first (the reference of Diff). HT_name is
#: Table 6's row.
METHODS = ("HT", "MT", "MBE", "Tmp", "HT_name")
#: The methods of Tables 4 and 5; the rest are Table 6's.
TABLE45_METHODS = ("HT", "MT", "MBE", "Tmp")
TRANSLATION_COLUMNS = [
    "lang",
    "model",
    "method",
    "dataset",
    "score",
    "p_value",
    "significant",
    "n",
    "n_ties",
    "diff",
]


def aligned_genders(
    english: list[tuple[str, str]],
    translated: list[tuple[str, str]],
    female: frozenset[str],
    male: frozenset[str],
    *,
    what: str = "",
) -> list[str | None]:
    """The gender of every translated sentence, from its English original.

    ``english`` and ``translated`` are ``(sent_more, sent_less)`` pairs in the same order
    (the human translations keep CrowS-Pairs' order). Returns one entry per sentence,
    in the unmasked pass's order (``sent_more``, ``sent_less`` of pair 0, then pair 1,
    ...): ``"female"``, ``"male"``, ``"both"`` or ``None``
    (:func:`mgbias.wordlists.gender_words.gender_of` on the English sentence).

    Raises
    ------
    ValueError
        If the two hold a different number of pairs (``what`` names the files).
    """
    if len(english) != len(translated):
        raise ValueError(
            f"{what}: {len(english)} English pairs but {len(translated)} translated pairs; "
            "the translations must follow the English pairs one to one, in order"
        )
    return [gender_of(sentence, female, male) for pair in english for sentence in pair]


def translations_table(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per (language, model, method) with Diff = score − HT's score.

    Each record holds ``lang``, ``model``, ``method`` (one of :data:`METHODS`),
    ``dataset``, ``score``, ``p_value``, ``significant`` and ``n``, and for Eq. 3's rows
    ``n_ties``: the pairs whose two sentences score the same (none for MBE).

    Raises
    ------
    ValueError
        On an unknown method, or a (language, model) without an HT score.
    """
    frame = pd.DataFrame(list(records))
    frame["n_ties"] = frame["n_ties"].astype("Int64")  # MBE's rows have none
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
    """Tables 4-5 (one block per language: method, model, bias score (‡), Diff) and, when
    HT_name rows exist, Table 6 (language, model, HT_name's bias score, Diff)."""
    parts = [
        "# Human, machine and template translations (Kaneko et al. 2022, Tables 4-5)",
        "",
        "Bias score = Eq. 3 with AULA (above 50: the stereotypical sentence, for Tmp the "
        "male one, is preferred); MBE = Eq. 2 over the translated sentences; ‡ = p < alpha "
        "by the exact sign test (MBE: its label-permutation test); Diff = method − HT. "
        "ties = pairs whose two sentences score the same (a translation that lost the "
        "gender makes them identical): in Eq. 3's denominator but never preferred, they "
        "lower the bias score towards 0; the sign test leaves them out.",
    ]
    main = table[table["method"].isin(TABLE45_METHODS)]
    for lang, block in main.groupby("lang", sort=True):
        shown = pd.DataFrame(
            {
                "method": block["method"],
                "model": block["model"],
                "bias score": _scores(block),
                "ties": _ties(block),
                "Diff": _diffs(block),
            }
        )
        parts += ["", f"## {lang}", "", markdown(shown)]
    names = table[table["method"] == "HT_name"]
    if len(names):
        parts += [
            "",
            "# Native names (Kaneko et al. 2022, Table 6)",
            "",
            "HT_name = the human translations with every transliterated English first name "
            "replaced by a native name of the same gender (seeded); bias score = Eq. 3 with "
            "AULA; ‡ = p < alpha by the exact sign test; Diff = HT_name − HT.",
            "",
            markdown(
                pd.DataFrame(
                    {
                        "language": names["lang"],
                        "model": names["model"],
                        "HT_name": _scores(names),
                        "ties": _ties(names),
                        "Diff": _diffs(names),
                    }
                )
            ),
        ]
    return "\n".join(parts) + "\n"


def _scores(block: pd.DataFrame) -> list[str]:
    return [
        f"{score:.2f}{' ‡' if significant else ''}"
        for score, significant in zip(block["score"], block["significant"], strict=True)
    ]


def _ties(block: pd.DataFrame) -> list[str]:
    return ["" if pd.isna(t) else str(int(t)) for t in block["n_ties"]]


def _diffs(block: pd.DataFrame) -> list[str]:
    return ["" if pd.isna(d) else f"{d:.2f}" for d in block["diff"]]
