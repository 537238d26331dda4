"""Kaneko, Bollegala & Okazaki (2023), Figures 2 and 3: is the bias of the models controlled?

Figure 2 (§3.4): the average probability of "he" and of "she" at the mask of
"[MASK] is a/an [Occupation]." over gender- and stereotype-neutral
occupations, per male rate r: it should rise with r for "he" and fall for
"she". Figure 3: the five most probable fillers of the masked subject of a
CrowS-Pairs sentence, per r, coloured masculine (blue) or feminine (red) by
the word lists.

:func:`figure2_frame` and :func:`figure3_frame` build the tidy tables from the
per-model probe results (:func:`mgbias.mlm.templates.tbs_summary`,
:func:`mgbias.mlm.top_predictions.top_predictions`); :func:`figure2` and
:func:`figure3` draw them (matplotlib, Agg backend, PNG bytes fixed by the
table). The original model before fine-tuning has r missing and is drawn as
"original".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mgbias.files.atomic import atomic_path  # noqa: E402
from mgbias.finetune.meta_evaluation import RUN_COLUMNS, check_runs  # noqa: E402
from mgbias.report.figures import PNG_METADATA  # noqa: E402
from mgbias.stats import mean_standard_error  # noqa: E402

__all__ = [
    "FIGURE2_COLUMNS",
    "FIGURE3_COLUMNS",
    "GENDER_COLOURS",
    "REPORTED_ORIGINAL",
    "figure2",
    "figure2_frame",
    "figure3",
    "figure3_frame",
]

#: Columns of :func:`figure2_frame`.
FIGURE2_COLUMNS = [
    "language",
    "corpus",
    "model",
    "r",
    "male_word",
    "female_word",
    "p_male",
    "p_male_se",
    "p_female",
    "p_female_se",
    "male_share",
    "p_male_minus_r",
    "n_targets",
    "n_seeds",
]

#: Columns of :func:`figure3_frame`.
FIGURE3_COLUMNS = [
    "language",
    "corpus",
    "model",
    "run",
    "r",
    "seed",
    "rank",
    "token",
    "word",
    "prob",
    "gender_class",
]

#: Figure 3's colours: masculine blue, feminine red, other words grey.
GENDER_COLOURS = {"male": "tab:blue", "female": "tab:red", "neither": "0.65"}

#: P(he), P(she) of the original models reported in §3.4 (English, before fine-tuning).
REPORTED_ORIGINAL = {
    "bert-base-uncased": {"p_male": 0.48, "p_female": 0.28},
    "albert-base-v2": {"p_male": 0.64, "p_female": 0.22},
}

KEYS = ["language", "corpus", "model", "r"]


def figure2_frame(runs: Any, summaries: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Average P(male word) and P(female word) over the neutral targets, per model and r.

    Parameters
    ----------
    runs
        The models (:func:`mgbias.finetune.meta_evaluation.check_runs` input or output).
    summaries : sequence of mappings
        :func:`mgbias.mlm.templates.tbs_summary` of each run, in the order of
        ``runs`` (``p_male``, ``p_female``, ``male_word``, ``female_word``,
        ``n_neutral``).

    Returns
    -------
    pandas.DataFrame
        :data:`FIGURE2_COLUMNS`, one row per (language, corpus, model, r); r
        NaN for an original model (first in its group). Seeds at one r are averaged
        (``n_seeds``), with the standard error of each mean over the seeds
        (``p_male_se``, ``p_female_se``; NaN for one seed: the spread of fine-tuning,
        the figure's error bars); ``male_share = p_male / (p_male + p_female)`` of the
        averages; ``p_male_minus_r`` = ``p_male - r`` (the paper's remark that
        the probabilities overshoot the data proportion for r < 0.2 and
        r > 0.8); ``n_targets`` = neutral targets averaged over.
    """
    frame = check_runs(runs)
    if len(summaries) != len(frame):
        raise ValueError(f"{len(summaries)} summaries for {len(frame)} runs")
    fields = ["p_male", "p_female", "male_word", "female_word", "n_neutral"]
    for index, summary in enumerate(summaries):
        missing = [key for key in fields if key not in summary]
        if missing:
            raise ValueError(f"summary of run {frame.run.iloc[index]!r} lacks {missing}")
    values = pd.DataFrame([{key: summary[key] for key in fields} for summary in summaries])
    frame = pd.concat([frame, values], axis=1)
    grouped = frame.groupby(KEYS, dropna=False, sort=True)
    table = grouped.agg(
        male_word=("male_word", "first"),
        female_word=("female_word", "first"),
        p_male=("p_male", "mean"),
        p_male_se=("p_male", mean_standard_error),
        p_female=("p_female", "mean"),
        p_female_se=("p_female", mean_standard_error),
        n_targets=("n_neutral", "first"),
        n_seeds=("run", "size"),
        n_words=("male_word", "nunique"),
    ).reset_index()
    if (table["n_words"] > 1).any():
        raise ValueError("runs of one (language, corpus, model, r) used different gender words")
    table["male_share"] = table["p_male"] / (table["p_male"] + table["p_female"])
    table["p_male_minus_r"] = table["p_male"] - table["r"]
    table = table.sort_values(KEYS, na_position="first", ignore_index=True)
    return table[FIGURE2_COLUMNS]


def figure3_frame(runs: Any, tops: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The top predictions of every run with the run's columns (:data:`FIGURE3_COLUMNS`).

    ``tops``: :func:`mgbias.mlm.top_predictions.top_predictions` of each run,
    in the order of ``runs``.
    """
    frame = check_runs(runs)
    if len(tops) != len(frame):
        raise ValueError(f"{len(tops)} top-prediction tables for {len(frame)} runs")
    parts = []
    for (_, run), top in zip(frame.iterrows(), tops, strict=True):
        block = top.copy()
        for column in RUN_COLUMNS:
            block[column] = run[column]
        parts.append(block)
    table = pd.concat(parts, ignore_index=True)
    return table.sort_values(
        ["language", "corpus", "model", "r", "seed", "rank"], na_position="first", ignore_index=True
    )[FIGURE3_COLUMNS]


def _panels(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    return sorted(frame.groupby(["language", "model", "corpus"]).groups)


def _save(figure, path: str | Path) -> None:
    figure.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        figure.savefig(tmp, format="png", dpi=100, metadata=PNG_METADATA)
    plt.close(figure)


def figure2(frame: pd.DataFrame, path: str | Path) -> None:
    """Figure 2: P(male word) and P(female word) against r, one panel per (language, model,
    corpus), ± their standard errors over the seeds; the original model's values as
    dotted horizontal lines."""
    panels = _panels(frame)
    if not panels:
        raise ValueError("figure2: empty table")
    columns = min(len(panels), 4)
    rows = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(
        rows, columns, figsize=(3.2 * columns + 0.5, 2.9 * rows), sharey=True, squeeze=False
    )
    for axis, (language, model, corpus) in zip(axes.flat, panels, strict=False):
        block = frame[
            (frame.language == language) & (frame.model == model) & (frame.corpus == corpus)
        ]
        tuned = block[block["r"].notna()].sort_values("r")
        original = block[block["r"].isna()]
        words = block.iloc[0]
        for column, word, colour in (
            ("p_male", words.male_word, GENDER_COLOURS["male"]),
            ("p_female", words.female_word, GENDER_COLOURS["female"]),
        ):
            axis.errorbar(
                tuned["r"],
                tuned[column],
                yerr=tuned[f"{column}_se"].fillna(0.0),
                marker="o",
                color=colour,
                capsize=2,
                label=word,
            )
            if not original.empty:
                axis.axhline(
                    float(original[column].iloc[0]),
                    color=colour,
                    linestyle=":",
                    linewidth=1,
                    label=f"{word} (original)",
                )
        axis.set_xlim(-0.05, 1.05)
        axis.set_ylim(0.0, 1.0)
        axis.set_xlabel("r (share of male sentences)")
        axis.set_title(f"{model}, {corpus} ({language})", fontsize=9)
        axis.legend(fontsize=7, loc="upper center")
    for axis in axes.flat[len(panels) :]:
        axis.set_visible(False)
    for axis in axes[:, 0]:
        axis.set_ylabel("average probability")
    _save(figure, path)


def _run_label(r: float) -> str:
    return "original" if pd.isna(r) else f"r = {r:g}"


def figure3(frame: pd.DataFrame, path: str | Path) -> None:
    """Figure 3: the top predictions per model, one row per (language, model, corpus), one
    panel per r (the original model first); bars coloured by gender list. With several seeds
    at one r, the lowest seed is drawn."""
    panels = _panels(frame)
    if not panels:
        raise ValueError("figure3: empty table")
    first_seed = frame.groupby(KEYS, dropna=False)["seed"].transform("min")
    frame = frame[frame["seed"] == first_seed]
    grid = [
        frame[(frame.language == lang) & (frame.model == model) & (frame.corpus == corpus)]
        for lang, model, corpus in panels
    ]
    columns = max(block.groupby("r", dropna=False).ngroups for block in grid)
    figure, axes = plt.subplots(
        len(panels), columns, figsize=(1.7 * columns + 0.6, 2.4 * len(panels)),
        sharey=True, squeeze=False,
    )  # fmt: skip
    for row, ((language, model, corpus), block) in enumerate(zip(panels, grid, strict=True)):
        groups = sorted(
            block.groupby("r", dropna=False), key=lambda item: -1.0 if pd.isna(item[0]) else item[0]
        )
        for column in range(columns):
            axis = axes[row, column]
            if column >= len(groups):
                axis.set_visible(False)
                continue
            r, top = groups[column]
            top = top.sort_values("rank")
            positions = np.arange(len(top))
            colours = [GENDER_COLOURS[name] for name in top["gender_class"]]
            axis.bar(positions, top["prob"], color=colours)
            axis.set_xticks(positions, top["word"].tolist(), rotation=60, fontsize=7)
            axis.set_title(_run_label(r), fontsize=8)
            axis.set_ylim(0.0, 1.0)
        axes[row, 0].set_ylabel(f"{model}, {corpus}\n({language}) probability", fontsize=8)
    _save(figure, path)
