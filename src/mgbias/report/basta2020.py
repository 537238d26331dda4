"""Basta et al. (2020): Tables 1-5 and Figures 2-5 from the per-job probe results.

Each probe job (encoder, world, domain) writes the long CSV of
:func:`mgbias.contextual.run.run_probes` and a JSON summary holding Table 1's counts. Here:

- :func:`long_table`: every job's rows with ``model, world, domain, lang`` in front;
- :func:`table1`: Table 1 ("domain-specific data summary figures") as
  ``model, world, domain, lang, statistic, value`` and :func:`table1_markdown`, statistics
  by domains;
- :func:`tables2to5_markdown`: one table per domain (the paper's Tables 2-5), rows direct
  bias, clustering, classification and KNN, columns the layers, cells ``mean (max-min)``
  over the runs, the less biased of each row's values in bold (the paper's caption);
- :func:`pca_figure` (Figures 2-5: variance of the 10 components per domain, last layer
  and concatenation) and :func:`layer_figure` (every measure per layer, one curve per
  domain: beyond the paper's two layers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mgbias.contextual.columns import COLUMNS  # noqa: E402
from mgbias.files.atomic import atomic_path  # noqa: E402

__all__ = [
    "JOB_COLUMNS",
    "TABLE1_STATISTICS",
    "cluster_figure",
    "layer_figure",
    "long_table",
    "pca_figure",
    "table1",
    "table1_markdown",
    "tables2to5_markdown",
]

JOB_COLUMNS = ("model", "world", "domain", "lang")
#: Table 1's rows in the paper's order (then mgbias's own counts), with their labels.
TABLE1_STATISTICS = {
    "lines_direct_bias": "No. lines in direct bias",
    "lines": "No. lines of corpus",
    "professions_knn": "Total professions in KNN",
    "female_share_knn": "Female in KNN %",
    "biased_words_cluster": "No. of biased words (Cluster)",
    "female_share_cluster": "Females in biased clustering %",
    "biased_words_classify": "No. of biased words (Classify)",
    "female_share_classify": "Females in biased classify %",
    "pca_pairs": "Swapped definitional pairs (Exp. 1)",
    "swap_n_sentences": "Sentences with a definitional word",
    "swap_n_swapped": "Sentences swapped",
    "swap_n_unchanged": "Sentences left unchanged by the swap",
    "swap_n_refused": "Sentences whose swap was refused",
    "lines_direct_bias_female_forms": "Lines in direct bias, feminine forms (Exp. 7)",
    "lines_direct_bias_male_forms": "Lines in direct bias, masculine forms (Exp. 7)",
    "nouns_feminine": "Feminine noun types (Exp. 6 LDA)",
    "nouns_masculine": "Masculine noun types (Exp. 6 LDA)",
}
_PERCENT = {"female_share_knn", "female_share_cluster", "female_share_classify"}
#: Rows of Tables 2-5: (experiment, measure, label, digits, percent).
_ROWS = (
    ("direct_bias", "direct_bias", "Direct bias", 3, False),
    ("direct_bias", "signed_gap", "Signed gap (male - female professions)", 3, False),
    ("clustering", "accuracy", "Clustering (Acc. %)", 1, True),
    ("classification", "accuracy", "Classification (Acc. %)", 1, True),
    ("knn", "pearson_r", "KNN (Pearson Cor.)", 3, False),
    ("knn", "null_mean", "KNN permutation null", 3, False),
)
_BIAS_ROWS = {"Direct bias", "Clustering (Acc. %)", "Classification (Acc. %)", "KNN (Pearson Cor.)"}
PNG_METADATA = {"Software": None}


def long_table(jobs: Sequence[Mapping[str, str]], frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Every job's probe rows, the job's ``model, world, domain, lang`` in front."""
    if len(jobs) != len(frames):
        raise ValueError(f"{len(frames)} probe tables for {len(jobs)} jobs")
    parts = []
    for job, frame in zip(jobs, frames, strict=True):
        missing = sorted(set(COLUMNS) - set(frame.columns))
        if missing:
            raise ValueError(f"probe table of {dict(job)} lacks columns {missing}")
        part = frame[list(COLUMNS)].copy()
        for k, column in enumerate(JOB_COLUMNS):
            part.insert(k, column, job[column])
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=[*JOB_COLUMNS, *COLUMNS])
    return pd.concat(parts, ignore_index=True)


def table1(jobs: Sequence[Mapping[str, str]], summaries: Sequence[Mapping]) -> pd.DataFrame:
    """Table 1's statistics of every job (shares in %), in :data:`TABLE1_STATISTICS` order."""
    if len(jobs) != len(summaries):
        raise ValueError(f"{len(summaries)} summaries for {len(jobs)} jobs")
    rows = []
    for job, summary in zip(jobs, summaries, strict=True):
        counts = summary["table1"]
        for key in TABLE1_STATISTICS:
            if key not in counts:
                continue
            value = counts[key]
            value = float("nan") if value is None else float(value)
            if key in _PERCENT:
                value *= 100.0
            rows.append({**{c: job[c] for c in JOB_COLUMNS}, "statistic": key, "value": value})
    return pd.DataFrame(rows, columns=[*JOB_COLUMNS, "statistic", "value"])


def _format(value: float, digits: int) -> str:
    return "n/a" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def table1_markdown(table: pd.DataFrame) -> str:
    """One Markdown table per (model, world): statistics as rows, domains as columns."""
    parts = ["# Basta et al. (2020), Table 1: domain-specific data summary figures", ""]
    for (model, world), block in table.groupby(["model", "world"], sort=True):
        domains = list(dict.fromkeys(block["domain"]))
        parts += [f"## {model}, world {world}", ""]
        parts.append("| statistic | " + " | ".join(domains) + " |")
        parts.append("|---|" + "---|" * len(domains))
        for key, label in TABLE1_STATISTICS.items():
            cells = []
            for domain in domains:
                hit = block[(block.domain == domain) & (block.statistic == key)]["value"]
                digits = 2 if key in _PERCENT else 0
                cells.append(_format(float(hit.iloc[0]), digits) if len(hit) else "")
            if any(cells):
                parts.append(f"| {label} | " + " | ".join(cells) + " |")
        parts.append("")
    return "\n".join(parts)


def _layer_order(layers) -> list[str]:
    def key(layer: str):
        return (1, 0) if layer == "concat" else (0, int(layer))

    return sorted(set(layers), key=key)


def tables2to5_markdown(frame: pd.DataFrame) -> str:
    """Tables 2-5: per (model, world, domain), rows Exp. 2-5, columns the layers.

    Cells are ``mean (max-min)`` (percent for accuracies); in each bias row, the lowest
    mean over the layers is in bold ("less biased in bold").
    """
    parts = ["# Basta et al. (2020), Tables 2-5: probes per domain and layer", ""]
    groups = frame.groupby(["model", "world", "domain", "lang"], sort=True)
    for (model, world, domain, lang), block in groups:
        layers = _layer_order(block["layer"])
        parts += [f"## {domain} ({lang}): {model}, world {world}", ""]
        parts.append(
            "| | " + " | ".join(f"layer {x}" if x != "concat" else "concat" for x in layers) + " |"
        )
        parts.append("|---|" + "---|" * len(layers))
        for experiment, measure, label, digits, percent in _ROWS:
            rows = block[(block.experiment == experiment) & (block.measure == measure)]
            if rows.empty:
                continue
            by_layer = {r.layer: r for r in rows.itertuples()}
            means = [by_layer[x].mean if x in by_layer else float("nan") for x in layers]
            finite = [m for m in means if m is not None and math.isfinite(m)]
            best = min(finite) if finite and label in _BIAS_ROWS else None
            cells = []
            for layer, mean in zip(layers, means, strict=True):
                if layer not in by_layer:
                    cells.append("")
                    continue
                row = by_layer[layer]
                scale = 100.0 if percent else 1.0
                text = _format(mean * scale, digits)
                if row.n_runs > 1 and math.isfinite(row.range):
                    text += f" ({_format(row.range * scale, digits)})"
                if best is not None and mean == best:
                    text = f"**{text}**"
                cells.append(text)
            parts.append(f"| {label} | " + " | ".join(cells) + " |")
        parts.append("")
    return "\n".join(parts)


def _save(figure, path: str | Path) -> None:
    figure.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        figure.savefig(tmp, format="png", dpi=100, metadata=PNG_METADATA)
    plt.close(figure)


def pca_figure(frame: pd.DataFrame, path: str | Path, layers: Sequence[str] | None = None) -> None:
    """Figures 2-5: explained variance (%) of PC1..PC10 of the swap PCA, one panel per
    (model, world, domain) and layer (default: the last layer and the concatenation)."""
    pca = frame[frame.experiment == "pca"].copy()
    if pca.empty:
        raise ValueError("pca_figure: no Exp. 1 rows")
    pca["component"] = pca["measure"].str.removeprefix("pc").astype(int)
    numbered = [x for x in _layer_order(pca["layer"]) if x != "concat"]
    if layers is None:
        layers = [numbered[-1]] + (["concat"] if "concat" in set(pca["layer"]) else [])
    panels = sorted(pca.groupby(["model", "world", "domain"]).groups)
    figure, axes = plt.subplots(
        len(panels), len(layers), figsize=(3.2 * len(layers) + 0.5, 2.4 * len(panels)),
        squeeze=False, sharey=True,
    )  # fmt: skip
    for row, (model, world, domain) in enumerate(panels):
        for column, layer in enumerate(layers):
            axis = axes[row, column]
            block = pca[
                (pca.model == model) & (pca.world == world) & (pca.domain == domain)
                & (pca.layer == layer)
            ].sort_values("component")  # fmt: skip
            axis.bar(block["component"], 100.0 * block["mean"], color="#4C72B0")
            axis.set_xticks(np.arange(1, 11))
            name = f"layer {layer}" if layer != "concat" else "concatenation"
            axis.set_title(f"{domain}: {model}, {world}, {name}", fontsize=8)
            if column == 0:
                axis.set_ylabel("variance explained (%)")
            if row == len(panels) - 1:
                axis.set_xlabel("component")
    _save(figure, path)


_CURVES = (
    ("direct_bias", "direct_bias", "direct bias"),
    ("clustering", "accuracy", "clustering accuracy"),
    ("classification", "accuracy", "classification accuracy"),
    ("knn", "pearson_r", "KNN Pearson r"),
)


def layer_figure(frame: pd.DataFrame, path: str | Path) -> None:
    """Every measure per layer (0 .. L, then the concatenation), one curve per (domain,
    world), one row of panels per model."""
    models = sorted(set(frame["model"]))
    if not models:
        raise ValueError("layer_figure: empty table")
    figure, axes = plt.subplots(
        len(models), len(_CURVES), figsize=(3.2 * len(_CURVES), 2.6 * len(models)), squeeze=False
    )
    for row, model in enumerate(models):
        for column, (experiment, measure, label) in enumerate(_CURVES):
            axis = axes[row, column]
            block = frame[
                (frame.model == model) & (frame.experiment == experiment)
                & (frame.measure == measure)
            ]  # fmt: skip
            layers = _layer_order(block["layer"])
            for (domain, world), curve in block.groupby(["domain", "world"], sort=True):
                values = curve.set_index("layer")["mean"].reindex(layers)
                axis.plot(
                    range(len(layers)), values.to_numpy(), marker="o", label=f"{domain} ({world})"
                )
            axis.set_xticks(range(len(layers)), layers)
            axis.set_title(f"{model}: {label}", fontsize=8)
            axis.set_xlabel("layer")
            if row == 0 and column == 0:
                axis.legend(fontsize=6)
    _save(figure, path)


def cluster_figure(panels: Sequence[tuple[str, dict]], path: str | Path) -> None:
    """Figure 6: the biased words of Exp. 3 in 2-D (PCA of one occurrence each), colour
    the k-means cluster, marker the original label (o male, ^ female), one panel each."""
    if not panels:
        raise ValueError("cluster_figure: no panel")
    columns = min(len(panels), 3)
    rows = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.3 * rows), squeeze=False)
    colours = np.array(["#8E44AD", "#F1C40F"])  # the paper's violet and yellow
    for axis, (title, points) in zip(axes.flat, panels, strict=False):
        xy, male, cluster = points["xy"], points["male"], points["cluster"]
        for is_male, marker in ((True, "o"), (False, "^")):
            chosen = male == is_male
            axis.scatter(xy[chosen, 0], xy[chosen, 1], c=colours[cluster[chosen]], marker=marker,
                         s=22, edgecolors="k", linewidths=0.3)  # fmt: skip
        if len(points["words"]) <= 40:
            for word, (x, y) in zip(points["words"], xy, strict=True):
                axis.annotate(word, (x, y), fontsize=5)
        axis.set_title(f"{title} (acc. {100 * points['accuracy']:.0f}%)", fontsize=8)
        axis.set_xticks([])
        axis.set_yticks([])
    for axis in axes.flat[len(panels) :]:
        axis.set_visible(False)
    _save(figure, path)
