"""Basta et al. (2020), Spanish (§5.3.2), and French and German likewise: Tables 6-7 and
Figures 1, 7-9 from the probe results.

- :func:`table6` / :func:`table6_markdown`: Exp. 7, direct bias (Eq. 1) of the feminine
  forms, the masculine forms and all profession forms, on the semantic direction ``d_s``
  (the paper's only column) and the grammatical ``d_g`` (§6.2.2 names both), every layer;
- :func:`table7` / :func:`table7_markdown`: Exp. 8-9, classification and clustering
  accuracy (%) of the semantic and the grammar list, with Exp. 6's LDA accuracy (held out
  by noun type) and ``⟨d_pca, d_g⟩`` beside;
- :func:`profession_figure` (Figure 1: how often each profession occurs, per domain);
- :func:`grammatical_gender_pca_figure` (Figure 7: the swap PCA's variance in the domains of a
  language with grammatical gender: es, fr, de);
- :func:`direction_figure` (Figures 8 and 9: nouns and professions plotted on ``d_s``
  (x) and ``d_g`` (y), coloured by grammatical gender; the paper does not name the axes),
  in the last layer.

Markdown tables show the last layer and the concatenation (the Spanish tables do not name
a layer, so the two layers of the English tables are shown, §5.1); the CSVs hold every
layer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from mgbias.contextual.columns import GRAMMATICAL_GENDER_KEY, OLD_GRAMMATICAL_GENDER_KEYS
from mgbias.report.basta2020 import (
    JOB_COLUMNS,
    _format,
    _layer_order,
    _save,
    pca_figure,
    plt,
)

__all__ = [
    "TABLE6_COLUMNS",
    "TABLE7_COLUMNS",
    "direction_figure",
    "figure_layer",
    "layer_results",
    "profession_figure",
    "grammatical_gender_pca_figure",
    "table6",
    "table6_markdown",
    "table7",
    "table7_markdown",
]

TABLE6_COLUMNS = (*JOB_COLUMNS, "layer", "direction", "forms", "direct_bias", "n_occurrences")
TABLE7_COLUMNS = (
    *JOB_COLUMNS, "layer", "list", "experiment", "mean", "min", "max", "range", "n_items",
    "n_runs",
)  # fmt: skip
_FORM_LABELS = {
    "female": "Female-version of professions",
    "male": "Male-version of professions",
    "all": "Male and female together",
}
_LIST_LABELS = {"semantic": "Semantic biased words", "grammar": "Grammar biased words"}


def _shown_layers(layers) -> list[str]:
    ordered = _layer_order(layers)
    numbered = [x for x in ordered if x != "concat"]
    return ([numbered[-1]] if numbered else []) + (["concat"] if "concat" in ordered else [])


def table6(frame: pd.DataFrame) -> pd.DataFrame:
    """Exp. 7 rows of the long table as Table 6's tidy form (every job and layer)."""
    rows = frame[frame.experiment == "direct_bias_forms"].copy()
    if rows.empty:
        raise ValueError(
            "table6: the probe results hold no Exp. 7 rows (no Spanish, French or German domain?)"
        )
    split = rows["measure"].str.rsplit("_", n=1, expand=True)
    rows["direction"], rows["forms"] = split[0], split[1]
    rows = rows.rename(columns={"mean": "direct_bias", "n_items": "n_occurrences"})
    return rows[list(TABLE6_COLUMNS)].reset_index(drop=True)


def table6_markdown(table: pd.DataFrame) -> str:
    """Table 6 per (model, world, domain): rows the forms, columns direction x layer."""
    parts = ["# Basta et al. (2020), Table 6: direct bias of gendered profession forms", ""]
    for (model, world, domain, lang), block in table.groupby(list(JOB_COLUMNS), sort=True):
        layers = _shown_layers(block["layer"])
        directions = [d for d in ("semantic", "grammatical") if d in set(block["direction"])]
        columns = [(d, x) for d in directions for x in layers]
        parts += [f"## {domain} ({lang}): {model}, world {world}", ""]
        heads = [
            f"{d} direction, {'layer ' + x if x != 'concat' else 'concat'}" for d, x in columns
        ]
        parts.append("| | " + " | ".join(heads) + " | lines |")
        parts.append("|---|" + "---|" * (len(columns) + 1))
        for forms, label in _FORM_LABELS.items():
            cells, n = [], 0
            for direction, layer in columns:
                hit = block[
                    (block.direction == direction) & (block.layer == layer) & (block.forms == forms)
                ]
                cells.append(_format(float(hit.direct_bias.iloc[0]), 4) if len(hit) else "")
                n = int(hit.n_occurrences.iloc[0]) if len(hit) else n
            parts.append(f"| {label} | " + " | ".join(cells) + f" | {n} |")
        parts.append("")
    return "\n".join(parts)


def table7(frame: pd.DataFrame) -> pd.DataFrame:
    """Exp. 8-9 rows (and Exp. 6's LDA accuracies and ``⟨d_pca, d_g⟩``) in tidy form."""
    wanted = frame.experiment.isin(["clustering_lists", "classification_lists", "directions"])
    rows = frame[wanted].copy()
    if rows[rows.experiment != "directions"].empty:
        raise ValueError(
            "table7: the probe results hold no Exp. 8-9 rows (no Spanish, French or German domain?)"
        )
    rows["list"] = rows["measure"].where(rows.experiment != "directions", "")
    rows["experiment"] = rows["experiment"].str.removesuffix("_lists")
    rows.loc[rows.experiment == "directions", "experiment"] = rows["measure"]
    return rows[list(TABLE7_COLUMNS)].reset_index(drop=True)


def table7_markdown(table: pd.DataFrame) -> str:
    """Table 7 per (model, world, domain, layer): rows the lists, columns classification
    and clustering accuracy (%), ``mean (max-min)``; Exp. 6's LDA accuracy below."""
    parts = ["# Basta et al. (2020), Table 7: semantic and grammar biased words", ""]
    for (model, world, domain, lang), block in table.groupby(list(JOB_COLUMNS), sort=True):
        for layer in _shown_layers(block["layer"]):
            at = block[block.layer == layer]
            name = f"layer {layer}" if layer != "concat" else "concatenation"
            parts += [f"## {domain} ({lang}): {model}, world {world}, {name}", ""]
            parts += [
                "| | Classification (Acc. %) | Clustering (Acc. %) | words |",
                "|---|---|---|---|",
            ]
            for key, label in _LIST_LABELS.items():
                cells, n = [], ""
                for experiment in ("classification", "clustering"):
                    hit = at[(at.list == key) & (at.experiment == experiment)]
                    if hit.empty:
                        cells.append("")
                        continue
                    row = hit.iloc[0]
                    text = _format(100 * row["mean"], 2)
                    if row["n_runs"] > 1 and math.isfinite(row["range"]):
                        text += f" ({_format(100 * row['range'], 2)})"
                    cells.append(text)
                    n = str(int(row["n_items"]))
                parts.append(f"| {label} | " + " | ".join(cells) + f" | {n} |")
            notes = []
            for measure, text, percent in (
                ("lda_held_out", "LDA accuracy on held-out noun types", True),
                ("lda_train", "LDA accuracy on its training nouns", True),
                ("dot_pca_grammatical", "<d_pca, d_g>", False),
            ):
                hit = at[at.experiment == measure]
                if len(hit):
                    row = hit.iloc[0]
                    scale = 100 if percent else 1
                    value = _format(scale * row["mean"], 2 if percent else 3)
                    if percent:
                        low, high = _format(scale * row["min"], 2), _format(scale * row["max"], 2)
                        value += f" % ({low}-{high})"
                    notes.append(f"{text}: {value}")
            if notes:
                parts += ["", "Exp. 6: " + "; ".join(notes) + "."]
            parts.append("")
    return "\n".join(parts)


def grammatical_gender_pca_figure(frame: pd.DataFrame, path: str | Path) -> None:
    """Figure 7: the swap PCA's variance (PC1..PC10) in the domains with Exp. 6 rows."""
    jobs = frame[frame.experiment == "directions"][list(JOB_COLUMNS)].drop_duplicates()
    if jobs.empty:
        raise ValueError(
            "grammatical_gender_pca_figure: no Spanish, French or German (Exp. 6) job in the "
            "probe results"
        )
    keys = set(map(tuple, jobs.to_numpy().tolist()))
    chosen = frame[[tuple(r) in keys for r in frame[list(JOB_COLUMNS)].to_numpy().tolist()]]
    pca_figure(chosen, path)


def profession_figure(
    jobs: Sequence[Mapping[str, str]], summaries: Sequence[Mapping], path: str | Path, top: int = 20
) -> None:
    """Figure 1: the ``top`` most frequent professions of each (world, domain), bars of
    their counts in the corpus (the counts do not depend on the encoder)."""
    panels: dict[tuple[str, str], dict] = {}
    for job, summary in zip(jobs, summaries, strict=True):
        counts = summary.get("profession_counts")
        if counts is None:
            raise ValueError(f"the summary of {dict(job)} has no 'profession_counts'")
        panels.setdefault((job["world"], job["domain"]), counts)
    if not panels:
        raise ValueError("profession_figure: no job")
    figure, axes = plt.subplots(len(panels), 1, figsize=(7.5, 2.6 * len(panels)), squeeze=False)
    for axis, ((world, domain), counts) in zip(axes[:, 0], sorted(panels.items()), strict=True):
        items = list(counts.items())[:top]
        axis.bar(range(len(items)), [c for _, c in items], color="#4C72B0")
        axis.set_xticks(range(len(items)), [w for w, _ in items], rotation=60, fontsize=7)
        axis.set_ylabel("occurrences")
        axis.set_title(f"{domain} ({world}): professions in the corpus", fontsize=8)
    _save(figure, path)


def layer_results(done: Mapping) -> Mapping | None:
    """Exp. 6-9's results in one layer's summary entry, or None where it has none.

    They are under ``"grammatical_gender"``
    (:data:`~mgbias.contextual.columns.GRAMMATICAL_GENDER_KEY`); summaries written before
    the rename hold them under ``"spanish"``, still read for one release.

    Examples
    --------
    >>> layer_results({"grammatical_gender": {"directions": {}}})
    {'directions': {}}
    >>> layer_results({"spanish": {"projections": {}}})
    {'projections': {}}
    >>> layer_results({"pca": {}}) is None
    True
    """
    for key in (GRAMMATICAL_GENDER_KEY, *OLD_GRAMMATICAL_GENDER_KEYS):
        if key in done:
            return done[key]
    return None


def figure_layer(summary: Mapping) -> str:
    """The layer of Figures 8-9: the last numbered layer with Exp. 6 results."""
    layers = [x for x, done in summary.get("layers", {}).items() if layer_results(done) is not None]
    numbered = [x for x in _layer_order(layers) if x != "concat"]
    if not numbered:
        raise ValueError("no layer of the summary holds Exp. 6 (Spanish, French, German) results")
    return numbered[-1]


def direction_figure(
    jobs: Sequence[Mapping[str, str]],
    summaries: Sequence[Mapping],
    path: str | Path,
    kind: str,
) -> None:
    """Figures 8 (``kind="nouns"``) and 9 (``"professions"``): each word's mean ``cos``
    with ``d_s`` (x) and ``d_g`` (y), masculine blue, feminine orange, one panel per job."""
    if kind not in {"nouns", "professions"}:
        raise ValueError(f"direction_figure: kind {kind!r}, expected 'nouns' or 'professions'")
    panels = []
    for job, summary in zip(jobs, summaries, strict=True):
        layer = figure_layer(summary)
        points = layer_results(summary["layers"][layer]).get("projections", {}).get(kind, {})
        where = f"{job['domain']} ({job.get('lang', '')})"
        title = f"{where}: {job['model']}, {job['world']}, layer {layer}"
        panels.append((title, points))
    if not panels:
        raise ValueError("direction_figure: no Spanish, French or German job")
    columns = min(4, len(panels))
    rows = -(-len(panels) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.8 * rows), squeeze=False)
    for axis in axes.flat[len(panels) :]:
        axis.set_visible(False)
    for axis, (title, points) in zip(axes.flat, panels, strict=False):
        for gender, colour, label in (
            (True, "#1f77b4", "masculine"),
            (False, "#ff7f0e", "feminine"),
        ):
            chosen = [
                (w, p) for w, p in points.items()
                if (p.get("masculine") if kind == "nouns" else p.get("form") == "male") == gender
                and (kind == "nouns" or p.get("form"))
            ]  # fmt: skip
            axis.scatter([p["semantic"] for _, p in chosen], [p["grammatical"] for _, p in chosen],
                         c=colour, s=14, label=label, edgecolors="k", linewidths=0.2)  # fmt: skip
            if kind == "professions" or len(points) <= 40:
                for word, p in chosen:
                    axis.annotate(word, (p["semantic"], p["grammatical"]), fontsize=5)
        axis.axhline(0, color="grey", linewidth=0.5)
        axis.axvline(0, color="grey", linewidth=0.5)
        axis.set_xlabel("cos with the semantic direction d_s")
        axis.set_ylabel("cos with the grammatical direction d_g")
        axis.set_title(title, fontsize=8)
        axis.legend(fontsize=6)
    _save(figure, path)
