"""Split one language's bios 60/20/20 (train/dev/test), stratified by title, seeded
(Zhao et al. 2020, App. A.3).

Inputs: ``dataset``: JSON lines (mgbias.bios.pipeline.FIELDS).
Outputs: ``split``: JSON of the ids of each part.
Params: ``seed``.
"""

from mgbias.bios.experiment import split_ids
from mgbias.bios.pipeline import read_records
from mgbias.files.atomic import write_json
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    split = split_ids(read_records(smk.input.dataset), int(smk.params.seed))
    write_json(smk.output.split, split)
    log.info("%s", {name: len(ids) for name, ids in split.items()})
