"""Tables of Zhao et al. (2020) in the paper's shapes, cut from the tidy grid.

Snakemake interface
-------------------
input.grid : CSV
    ``scripts/zhao2020_grid_table.py``'s grid (one row per world, source and target space).
params.tables : list of str
    Keys of :data:`mgbias.report.zhao2020_tables.TABLES` (``table1``, ``table2``,
    ``table3``, ``table4``, ``table12``, ``table13``).
output.<table>, output.<table>_markdown : per table, the tidy CSV (one row per cell)
    and its Markdown in the paper's layout.
"""

import pandas as pd

from mgbias.report.tables import write_table
from mgbias.report.zhao2020_tables import TABLES, table_markdown
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    grid = pd.read_csv(smk.input.grid)
    for name in smk.params.tables:
        table = TABLES[name][0](grid)
        text = table_markdown(name, table)
        write_table(table, text, smk.output[name], smk.output[f"{name}_markdown"])
        log.info("%s\n%s", name, text)
