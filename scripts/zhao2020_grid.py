"""inBias and BLI of every original, aligned and debiased space (Zhao et al. 2020): the
tidy grid from which Tables 1-4, 12 and 13 are cut (``scripts/zhao2020_tables.py``).

Snakemake interface
-------------------
input.original : list of paths
    ``scripts/inbias.py``'s JSON per (world, lang) of ``params.original_keys``: the
    original spaces (rows ``src == tgt == lang``).
input.inbias : list of paths
    ``scripts/inbias.py``'s JSON per (world, src, tgt) of ``params.inbias_keys``.
input.bli : list of paths
    ``scripts/zhao2020_bli.py``'s JSON per (world, src, tgt) of ``params.bli_keys``.
params.original_keys : list of [world, lang]
params.inbias_keys, params.bli_keys : lists of [world, src, tgt]
output.table : CSV
    :data:`mgbias.report.zhao2020.GRID_COLUMNS`.
"""

from mgbias.files.atomic import read_json
from mgbias.files.tabular import write_csv
from mgbias.provenance import job_provenance
from mgbias.report.zhao2020 import grid_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)


def keyed(keys, paths):
    if len(keys) != len(paths):
        raise ValueError(f"{len(paths)} results for {len(keys)} spaces")
    return {tuple(key): read_json(path) for key, path in zip(keys, paths, strict=True)}


with job_log(smk.log[0]) as log, job_provenance(smk):
    original = keyed(smk.params.original_keys, list(smk.input.original))
    inbias = keyed(smk.params.inbias_keys, list(smk.input.inbias))
    bli = keyed(smk.params.bli_keys, list(smk.input.bli))
    table = grid_table(inbias, bli, original)
    write_csv(table, smk.output.table)
    log.info("%s", table.to_string(index=False))
