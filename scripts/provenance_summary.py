"""The run's provenance page: one row per table, from the tables' provenance records."""

import pandas as pd

from mgbias.files.atomic import read_json
from mgbias.files.tabular import write_csv
from mgbias.provenance import SUMMARY_COLUMNS, summary_row
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    rows = [summary_row(read_json(path)) for path in smk.input.records]
    write_csv(pd.DataFrame(rows, columns=SUMMARY_COLUMNS), smk.output.table)
    log.info("provenance of %d tables", len(rows))
