"""Figures 2 and 3 of Kaneko et al. (2023): P(male word) and P(female word) per r, and the top
predictions per r (:mod:`mgbias.report.kaneko2023_figures`).

Snakemake interface
-------------------
input.probes : list of paths
    Per run, the summary JSON of ``scripts/kaneko2023_probe.py``; same order as ``params.runs``.
input.tops : list of paths
    Per run, its top-predictions CSV; same order.
params.runs : list of dicts
    ``{run, model, corpus, language, r, seed}`` as for ``scripts/kaneko2023_table.py`` (r None
    = the original model, drawn as "original").
output.fig2_table : CSV
    language, corpus, model, r, male_word, female_word, p_male, p_female, male_share,
    p_male_minus_r, n_targets, n_seeds.
output.fig2 : PNG
output.fig3_table : CSV
    language, corpus, model, run, r, seed, rank, token, word, prob, gender_class.
output.fig3 : PNG
"""

import pandas as pd

from mgbias.atomic import read_json
from mgbias.report.kaneko2023_figures import figure2, figure2_frame, figure3, figure3_frame
from mgbias.report.tables import write_csv
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    summaries = [read_json(path) for path in smk.input.probes]
    tops = [pd.read_csv(path, keep_default_na=False) for path in smk.input.tops]
    fig2 = figure2_frame(smk.params.runs, summaries)
    fig3 = figure3_frame(smk.params.runs, tops)
    write_csv(fig2, smk.output.fig2_table)
    figure2(fig2, smk.output.fig2)
    write_csv(fig3, smk.output.fig3_table)
    figure3(fig3, smk.output.fig3)
    log.info("%s", fig2.to_string(index=False))
