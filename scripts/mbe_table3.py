"""Table 3 of Kaneko et al. (2022): Shf and MBE against the original score, across models.

Inputs: ``models`` (``mbe_table3_models.csv``). Params: ``alpha`` (the † level),
``original`` (``eq3`` or ``male``: the reference, :data:`mgbias.kaneko2022.meta.ORIGINALS`).
Outputs: ``csv`` (:data:`mgbias.kaneko2022.meta.TABLE3_COLUMNS`) and its Markdown copy in the
paper's layout. Fewer than 3 models give NaN correlations with a warning in the log.
"""

import pandas as pd

from mgbias.kaneko2022.meta import table3, table3_markdown
from mgbias.provenance import job_provenance
from mgbias.report.tables import write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]), job_provenance(smk):
    models = pd.read_csv(smk.input.models)
    table = table3(
        models, alpha=smk.params.alpha, original=smk.params.original
    )  # warnings (n < 3) go to the log
    write_table(table, table3_markdown(table, models), smk.output.csv, smk.output.markdown)
