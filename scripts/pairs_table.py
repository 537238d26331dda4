"""All pair measures in one long table (``table: scores``), or as measures x
models (``table: by_model``).

Shared by the rules ``pairs_scores`` and ``pairs_by_model`` (rules/pairs.smk).
"""

from mgbias.provenance import job_provenance
from mgbias.report.pair_tables import (
    measures_by_model,
    measures_by_model_markdown,
    pair_scores_markdown,
    read_pair_scores,
)
from mgbias.report.tables import write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    scores = read_pair_scores(smk.input.results)
    if smk.params.table == "scores":
        markdown = pair_scores_markdown(scores, smk.params.alpha)
        write_table(scores, markdown, smk.output.csv, smk.output.markdown)
    elif smk.params.table == "by_model":
        table = measures_by_model(scores)
        markdown = measures_by_model_markdown(scores, smk.params.alpha)
        write_table(table, markdown, smk.output.csv, smk.output.markdown)
    else:
        raise ValueError(f"params.table: expected 'scores' or 'by_model', got {smk.params.table!r}")
    log.info("%s: %d scores of %d models", smk.params.table, len(scores), scores["model"].nunique())
