"""Zhao et al. (2020), Figure 2: bios per occupation and gender, per language."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from mgbias.files.atomic import atomic_path  # noqa: E402
from mgbias.report.figures import PNG_METADATA  # noqa: E402


def figure2(frame: pd.DataFrame, path: str | Path, min_instances: int) -> None:
    """One panel per language: female and male instances of each occupation with at least
    ``min_instances`` instances (the rows of ``bios_counts.csv``), bars side by side."""
    languages = list(dict.fromkeys(frame["lang"]))
    figure, axes = plt.subplots(
        1, max(len(languages), 1), figsize=(3.6 * max(len(languages), 1), 3.4), squeeze=False
    )
    for axis, lang in zip(axes[0], languages, strict=False):
        rows = frame[(frame["lang"] == lang) & (frame["total"] >= min_instances)]
        rows = rows.sort_values("total", ascending=False)
        positions = range(len(rows))
        axis.barh([p - 0.2 for p in positions], rows["female"], height=0.4, label="female")
        axis.barh([p + 0.2 for p in positions], rows["male"], height=0.4, label="male")
        axis.set_yticks(list(positions), list(rows["title"]))
        axis.invert_yaxis()
        axis.set_title(lang.upper())
        axis.set_xlabel("instances")
        if rows.empty:
            axis.text(0.5, 0.5, f"no occupation with\n>= {min_instances} instances", ha="center")
    axes[0][0].legend(loc="lower right")
    figure.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        figure.savefig(tmp, format="png", dpi=100, metadata=PNG_METADATA)
    plt.close(figure)
