"""Figures of the result tables (matplotlib, Agg backend, deterministic PNGs)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from mgbias.files.atomic import atomic_path  # noqa: E402

# Fixed metadata so the same table always gives the same bytes.
PNG_METADATA = {"Software": None}


def mbe_figure(frame: pd.DataFrame, path: str | Path) -> None:
    """MBE per language, one panel per (model, world), bars per corpus.

    The dashed line at 50 is no preference; bars above it mean the model
    prefers male sentences (Kaneko et al. 2022, Eq. 2); a star marks
    p < alpha by the table's significance test (``test`` column; label
    permutation by default).
    """
    panels = sorted(frame.groupby(["model", "world"]).groups)
    corpora = sorted(frame["corpus"].unique())
    languages = sorted(frame["lang"].unique())
    width = 0.8 / len(corpora)
    figure, axes = plt.subplots(
        1, len(panels), figsize=(3.2 * len(panels) + 1, 3.2), sharey=True, squeeze=False
    )
    for axis, (model, world) in zip(axes[0], panels, strict=True):
        block = frame[(frame.model == model) & (frame.world == world)]
        for k, corpus in enumerate(corpora):
            rows = block[block.corpus == corpus].set_index("lang").reindex(languages)
            xs = [i + k * width for i in range(len(languages))]
            axis.bar(xs, rows["mbe"], width=width, label=corpus)
            for x, score, significant in zip(xs, rows["mbe"], rows["significant"], strict=True):
                if significant is True:
                    axis.text(x, score + 0.5, "*", ha="center")
        axis.axhline(50, color="black", linestyle="--", linewidth=0.8)
        axis.set_xticks([i + 0.4 - width / 2 for i in range(len(languages))], languages)
        axis.set_title(f"{model}\n{world}", fontsize=9)
    axes[0][0].set_ylabel("MBE (> 50: male preferred)")
    axes[0][-1].legend(fontsize=8)
    low = min(40.0, float(frame["mbe"].min()) - 2)
    high = max(60.0, float(frame["mbe"].max()) + 3)
    axes[0][0].set_ylim(low, high)
    figure.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        figure.savefig(tmp, format="png", dpi=100, metadata=PNG_METADATA)
    plt.close(figure)


def preservation_figure(frame: pd.DataFrame, path: str | Path) -> None:
    """Gender preservation per language (Kaneko et al. 2022, Figure 2).

    One panel per (world, corpus), grouped bars for male and female sentences: the
    percentage of mined sentences with English "he" ("she") whose translation holds a
    translation of it (``mgbias.kaneko2022.preservation``), with n under each language.
    """
    panels = sorted(frame.groupby(["world", "corpus"]).groups)
    languages = sorted(frame["lang"].unique())
    figure, axes = plt.subplots(
        1, len(panels), figsize=(3.2 * len(panels) + 1, 3.2), sharey=True, squeeze=False
    )
    for axis, (world, corpus) in zip(axes[0], panels, strict=True):
        block = frame[(frame.world == world) & (frame.corpus == corpus)]
        for k, gender in enumerate(("male", "female")):
            rows = block[block.gender == gender].set_index("lang").reindex(languages)
            xs = [i + k * 0.4 for i in range(len(languages))]
            axis.bar(xs, rows["pct"], width=0.4, label=gender)
        labels = [f"{lang}\nn={int(block[block.lang == lang]['n'].sum())}" for lang in languages]
        axis.set_xticks([i + 0.2 for i in range(len(languages))], labels, fontsize=8)
        axis.set_title(f"{corpus}\n{world}", fontsize=9)
    axes[0][0].set_ylabel("gender preserved (%)")
    axes[0][0].set_ylim(0, 105)
    axes[0][-1].legend(fontsize=8)
    figure.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        figure.savefig(tmp, format="png", dpi=100, metadata=PNG_METADATA)
    plt.close(figure)
