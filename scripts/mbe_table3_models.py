"""The rows behind Table 3 of Kaneko et al. (2022): one per model and pair benchmark.

Inputs: ``results`` (the JSON records of ``scripts/mbe_pairs.py``). Output: a CSV with
the columns of :data:`mgbias.kaneko2022.meta.MODEL_COLUMNS`.
"""

from mgbias.files.atomic import read_json
from mgbias.files.tabular import write_csv
from mgbias.kaneko2022.meta import model_table
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]), job_provenance(smk):
    write_csv(model_table(read_json(path) for path in smk.input.results), smk.output[0])
