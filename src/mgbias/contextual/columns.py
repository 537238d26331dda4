"""The layout of the probes' long table (Basta et al. 2020, Experiments 1–9).

One row per (layer, experiment, measure); Tables 2–5 and Figs. 2–5 are pivots of it.
Kept apart from :mod:`mgbias.contextual.run` so the table jobs read it without torch.
"""

from __future__ import annotations

__all__ = [
    "COLUMNS",
    "EXPERIMENTS",
    "GRAMMATICAL_GENDER_EXPERIMENTS",
    "GRAMMATICAL_GENDER_KEY",
    "OLD_GRAMMATICAL_GENDER_KEYS",
]

EXPERIMENTS = (1, 2, 3, 4, 5)
#: Exp. 6–9 (§5.3.2): run where the plan holds nouns of grammatical gender (Spanish in
#: the paper; French and German likewise).
GRAMMATICAL_GENDER_EXPERIMENTS = (6, 7, 8, 9)
#: The key of Exp. 6–9's results in each layer of the probe summary (JSON), and the
#: summary's ``<key>_lists`` (where their lists came from).
GRAMMATICAL_GENDER_KEY = "grammatical_gender"
#: Earlier names of :data:`GRAMMATICAL_GENDER_KEY` that readers still accept (summaries
#: written before the rename; to be dropped in the release after next).
OLD_GRAMMATICAL_GENDER_KEYS = ("spanish",)
COLUMNS = ("layer", "experiment", "measure", "mean", "min", "max", "range", "n_items", "n_runs")
