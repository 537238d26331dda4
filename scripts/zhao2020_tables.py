"""One table of Zhao et al. (2020) in the paper's shape, cut from the tidy grid.

Shared by the rules ``zhao2020_table1``, ``zhao2020_table2``, ``zhao2020_table3``,
``zhao2020_table4``, ``zhao2020_table12`` and ``zhao2020_table13`` (rules/zhao2020.smk).

Snakemake interface
-------------------
input.grid : CSV
    ``scripts/zhao2020_grid.py``'s grid (one row per world, source and target space).
params.table : str
    A key of :data:`mgbias.report.zhao2020_tables.TABLES` (``table1``, ``table2``,
    ``table3``, ``table4``, ``table12``, ``table13``).
output.table : the tidy CSV (one row per cell of the paper's table).
output.markdown : the same in the paper's layout, per world.
"""

import pandas as pd

from mgbias.provenance import job_provenance
from mgbias.report.tables import write_table
from mgbias.report.zhao2020_tables import TABLES, table_markdown
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    name = smk.params.table
    table = TABLES[name][0](pd.read_csv(smk.input.grid))
    text = table_markdown(name, table)
    write_table(table, text, smk.output.table, smk.output.markdown)
    log.info("%s", text)
