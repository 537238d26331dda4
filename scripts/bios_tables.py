"""Counts of the bios datasets (Zhao et al. 2020): Table 5 (``part=table5``) or the
instances per occupation and gender behind Figure 2 (``part=counts``).

Inputs: ``datasets``: one JSON lines dataset per language, in ``params.languages`` order.
Outputs: ``table`` (CSV), and with ``table5`` ``markdown``.
"""

from mgbias.atomic import write_text
from mgbias.bios.pipeline import read_records
from mgbias.bios.tables import (
    COUNT_COLUMNS,
    TABLE5_COLUMNS,
    counts,
    table5,
    table5_markdown,
    write_csv,
)
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    datasets = {
        lang: read_records(path)
        for lang, path in zip(smk.params.languages, smk.input.datasets, strict=True)
    }
    if smk.params.part == "table5":
        rows = table5(datasets)
        write_csv(smk.output.table, rows, TABLE5_COLUMNS)
        write_text(smk.output.markdown, table5_markdown(rows))
    else:
        rows = counts(datasets, int(smk.params.figure2_min))
        write_csv(smk.output.table, rows, COUNT_COLUMNS)
    log.info("%s: %d rows", smk.output.table, len(rows))
