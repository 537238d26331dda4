"""Figure 1 of Zhao et al. (2020): gendered word pairs projected on the gender direction.

One panel per space (the paper: ``es``, ``es-en``, ``es-de``), one row of panels per
world. Each pair is a row of the panel: its masculine form a green dot (M.), its
feminine form a red square (F.); vertical lines mark Avg-M and Avg-F, the mean
projections of the male and female seeds. The direction is female minus male seeds
(the authors' code), so **positive = feminine** (:mod:`mgbias.embeddings.projection`).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from mgbias.files.atomic import atomic_path  # noqa: E402
from mgbias.report.figures import PNG_METADATA  # noqa: E402

__all__ = ["figure1"]

MASCULINE_COLOUR, FEMININE_COLOUR = "tab:green", "tab:red"


def figure1(frame: pd.DataFrame, path: str | Path) -> None:
    """Draw :func:`mgbias.embeddings.projection.figure1_projections` rows (with a ``world``
    column) as Figure 1: x = projection on the gender direction (positive = feminine)."""
    if frame.empty:
        raise ValueError("figure1: empty table")
    worlds = list(dict.fromkeys(frame["world"]))
    spaces = list(dict.fromkeys(frame["space"]))
    figure, axes = plt.subplots(
        len(worlds),
        len(spaces),
        figsize=(3.4 * len(spaces) + 0.6, 0.45 * frame["pair"].nunique() + 1.8 * len(worlds)),
        squeeze=False,
    )
    for i, world in enumerate(worlds):
        for j, space in enumerate(spaces):
            axis = axes[i][j]
            block = frame[(frame["world"] == world) & (frame["space"] == space)]
            pairs = [p for p in dict.fromkeys(block["pair"]) if p]
            for y, pair in enumerate(pairs):
                rows = block[block["pair"] == pair].set_index("gender")
                axis.plot(
                    [rows.loc["M", "projection"], rows.loc["F", "projection"]],
                    [y, y],
                    color="lightgrey",
                    linewidth=1,
                    zorder=1,
                )
                for gender, marker, colour in (
                    ("M", "o", MASCULINE_COLOUR),
                    ("F", "s", FEMININE_COLOUR),
                ):
                    axis.scatter(
                        rows.loc[gender, "projection"],
                        y,
                        marker=marker,
                        color=colour,
                        zorder=2,
                        label=f"{gender}." if y == 0 else None,
                    )
            averages = block.set_index("gender")
            for gender, colour in (("Avg-M", MASCULINE_COLOUR), ("Avg-F", FEMININE_COLOUR)):
                if gender in averages.index:
                    axis.axvline(
                        averages.loc[gender, "projection"],
                        color=colour,
                        linestyle="--",
                        linewidth=1,
                        label=gender,
                    )
            axis.axvline(0.0, color="black", linewidth=0.5)
            axis.set_yticks(range(len(pairs)), pairs, fontsize=7)
            axis.set_title(f"{space} ({world})", fontsize=9)
            axis.set_xlabel("projection on gender direction\n(< 0 masculine, > 0 feminine)")
    axes[0][-1].legend(fontsize=7, loc="best")
    figure.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        figure.savefig(tmp, format="png", dpi=100, metadata=PNG_METADATA)
    plt.close(figure)
