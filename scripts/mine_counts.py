"""Table 1 of Kaneko et al. (2022): sentences mined per language and corpus."""

from mgbias.files.atomic import read_json
from mgbias.provenance import job_provenance
from mgbias.report.tables import mining_markdown, mining_table, write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]), job_provenance(smk):
    frame = mining_table(read_json(path) for path in smk.input.counts)
    write_table(frame, mining_markdown(frame), smk.output.csv, smk.output.markdown)
