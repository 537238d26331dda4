"""Figure of the MBE table: score per language, corpus, model and world."""

import pandas as pd

from mgbias.report.figures import mbe_figure
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]):
    mbe_figure(pd.read_csv(smk.input.table), smk.output[0])
