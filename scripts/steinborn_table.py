"""Steinborn et al. (2022) Table 2 or 3 from the pair score table.

Shared by the rules ``pairs_steinborn_table2`` and ``pairs_steinborn_table3``
(rules/pairs.smk).
"""

import pandas as pd

from mgbias.provenance import job_provenance
from mgbias.report.pair_tables import STEINBORN_TABLES
from mgbias.report.tables import write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    scores = pd.read_csv(smk.input.table)
    build, render = STEINBORN_TABLES[smk.params.number]
    table = build(scores, smk.params.dataset)
    write_table(table, render(table, smk.params.dataset), smk.output.csv, smk.output.markdown)
    log.info("Table %s from %s: %d rows", smk.params.number, smk.params.dataset, len(table))
