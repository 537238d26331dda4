"""Figures 2 and 3 of Kaneko et al. (2023): P(male word) and P(female word) per r, and the top
predictions per r (:mod:`mgbias.report.kaneko2023_figures`).

Shared by the rules ``kaneko2023_figure2`` and ``kaneko2023_figure3``
(rules/kaneko2023.smk).

Snakemake interface
-------------------
input.probes : list of paths
    Per run, the summary JSON of ``scripts/kaneko2023_probe.py``; same order as ``params.runs``.
input.tops : list of paths
    Per run, its top-predictions CSV; same order.
params.runs : list of dicts
    ``{run, model, corpus, language, r, seed}`` as for ``scripts/kaneko2023_table1.py`` (r None
    = the original model, drawn as "original").
params.figure : int
    2 or 3: which figure the job draws.
output.table : CSV
    Figure 2: language, corpus, model, r, male_word, female_word, p_male, p_female,
    male_share, p_male_minus_r, n_targets, n_seeds. Figure 3: language, corpus, model, run,
    r, seed, rank, token, word, prob, gender_class.
output.figure : PNG
"""

import pandas as pd

from mgbias.files.atomic import read_json
from mgbias.files.tabular import write_csv
from mgbias.provenance import job_provenance
from mgbias.report.kaneko2023_figures import figure2, figure2_frame, figure3, figure3_frame
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    if smk.params.figure == 2:
        summaries = [read_json(path) for path in smk.input.probes]
        frame = figure2_frame(smk.params.runs, summaries)
        draw = figure2
    elif smk.params.figure == 3:
        tops = [pd.read_csv(path, keep_default_na=False) for path in smk.input.tops]
        frame = figure3_frame(smk.params.runs, tops)
        draw = figure3
    else:
        raise ValueError(f"params.figure: expected 2 or 3, got {smk.params.figure!r}")
    write_csv(frame, smk.output.table)
    draw(frame, smk.output.figure)
    log.info("Figure %d\n%s", smk.params.figure, frame.to_string(index=False))
