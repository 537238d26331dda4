"""The layout of the probes' long table (Basta et al. 2020, Experiments 1–9).

One row per (layer, experiment, measure); Tables 2–5 and Figs. 2–5 are pivots of it.
Kept apart from :mod:`mgbias.contextual.run` so the table jobs read it without torch.
"""

from __future__ import annotations

__all__ = ["COLUMNS", "EXPERIMENTS", "SPANISH_EXPERIMENTS"]

EXPERIMENTS = (1, 2, 3, 4, 5)
#: Exp. 6–9 (§5.3.2): run where the plan holds nouns of grammatical gender (Spanish).
SPANISH_EXPERIMENTS = (6, 7, 8, 9)
COLUMNS = ("layer", "experiment", "measure", "mean", "min", "max", "range", "n_items", "n_runs")
