"""All pair measures in one long table and a measures x models table."""

from mgbias.report.pair_tables import (
    measures_by_model,
    measures_by_model_markdown,
    pair_scores_markdown,
    read_pair_scores,
)
from mgbias.report.tables import write_table
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    scores = read_pair_scores(smk.input.results)
    write_table(scores, pair_scores_markdown(scores), smk.output.csv, smk.output.markdown)
    by_model = measures_by_model(scores)
    write_table(
        by_model,
        measures_by_model_markdown(scores),
        smk.output.by_model,
        smk.output.by_model_markdown,
    )
    log.info("%d scores of %d models", len(scores), scores["model"].nunique())
