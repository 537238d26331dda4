"""Zhao et al. (2020), Figure 2: bios per occupation and gender (occupations with at
least ``params.min_instances`` instances), one panel per language.

Inputs: ``counts``: ``bios_counts.csv``. Outputs: a PNG.
"""

import pandas as pd

from mgbias.report.bios import figure2
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]):
    figure2(pd.read_csv(smk.input.counts), smk.output[0], int(smk.params.min_instances))
