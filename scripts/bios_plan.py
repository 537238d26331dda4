"""Plan the shards of one Common Crawl snapshot (Zhao et al. 2020, §4.1, MLBs).

Inputs: ``listing``: the snapshot's ``wet.paths.gz``.
Outputs: ``plan``: JSON ``{"snapshot", "listed", "selected", "files_per_shard", "shards"}``
(``shards``: how many; shard i holds selected files i*n .. i*n+n-1).
Params: ``snapshot``; ``max_files`` (None: all); ``files_per_shard``; ``seed``.
"""

from mgbias.bios.ccpaths import make_shards, read_listing, select_files
from mgbias.files.atomic import write_json
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    snapshot = smk.params.snapshot
    listed = read_listing(smk.input.listing, snapshot)
    chosen = select_files(listed, smk.params.max_files, int(smk.params.seed), snapshot)
    shards = make_shards(snapshot, chosen, int(smk.params.files_per_shard))
    write_json(
        smk.output.plan,
        {
            "snapshot": snapshot,
            "listed": len(listed),
            "selected": len(chosen),
            "files_per_shard": int(smk.params.files_per_shard),
            "shards": len(shards),
        },
    )
    log.info("%s: %d of %d files, %d shards", snapshot, len(chosen), len(listed), len(shards))
