"""inBias of every original space, per world and language (Zhao et al. 2020, Eq. 1).

Snakemake interface
-------------------
input.results : list of paths
    ``scripts/inbias.py``'s JSON per world and language, in the order of ``params.worlds``
    (outer) and ``params.languages`` (inner).
params.worlds, params.languages : lists of str
output.table : CSV
    world, lang, variant, inbias, strong, weak, n, n_listed.
output.markdown : the same, languages by worlds.
"""

from mgbias.files.atomic import read_json
from mgbias.provenance import job_provenance
from mgbias.report.tables import write_table
from mgbias.report.zhao2020 import inbias_markdown, inbias_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    keys = [(world, lang) for world in smk.params.worlds for lang in smk.params.languages]
    if len(keys) != len(smk.input.results):
        raise ValueError(f"{len(smk.input.results)} inBias results for {len(keys)} spaces")
    results = {key: read_json(path) for key, path in zip(keys, smk.input.results, strict=True)}
    table = inbias_table(results)
    write_table(table, inbias_markdown(table), smk.output.table, smk.output.markdown)
    log.info("%s", table.to_string(index=False))
