"""Figure 2 of Kaneko et al. (2022): gender preservation per language, with its table.

Inputs: ``results`` (JSON records of ``scripts/mbe_preservation.py``). Outputs:
``table`` (CSV, :data:`mgbias.kaneko2022.preservation.PRESERVATION_COLUMNS`) and ``figure`` (PNG).
"""

import pandas as pd

from mgbias.files.atomic import read_json
from mgbias.files.tabular import write_csv
from mgbias.kaneko2022.preservation import PRESERVATION_COLUMNS, preservation_rows
from mgbias.provenance import job_provenance
from mgbias.report.figures import preservation_figure
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]), job_provenance(smk):
    rows = [row for path in smk.input.results for row in preservation_rows(read_json(path))]
    frame = pd.DataFrame(rows, columns=PRESERVATION_COLUMNS)
    frame = frame.sort_values(["world", "corpus", "lang", "gender"], ignore_index=True)
    write_csv(frame, smk.output.table)
    preservation_figure(frame, smk.output.figure)
