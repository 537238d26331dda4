"""Table 2 of Kaneko et al. (2022): MBE per model, world, corpus and language."""

from mgbias.files.atomic import read_json
from mgbias.provenance import job_provenance
from mgbias.report.tables import mbe_markdown, mbe_table, write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]), job_provenance(smk):
    frame = mbe_table(read_json(path) for path in smk.input.results)
    write_table(frame, mbe_markdown(frame), smk.output.csv, smk.output.markdown)
