"""Download one shard of Common Crawl WET files (Zhao et al. 2020, §4.1, MLBs).

Inputs: ``listing``: the snapshot's ``crawl-data/CC-MAIN-YYYY-WW/wet.paths.gz``.
Outputs: ``manifest``: JSON ``{"shard", "snapshot", "files": [{"path", "sha256"}]}``; the
WET files themselves go under ``params.dest_root`` at their crawl paths, each with a
``.sha256`` sidecar (a rerun keeps the files whose sidecar verifies).
Params: ``prefix``: crawl root URL (``https://data.commoncrawl.org`` or a mirror);
``snapshot``; ``shard``: shard index; ``max_files``: files per snapshot (None: all);
``files_per_shard``; ``seed``: seed of the file selection; ``dest_root``; ``retries``.
"""

from mgbias.bios.ccfetch import fetch_shard
from mgbias.files.atomic import write_json
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    manifest = fetch_shard(
        smk.input.listing,
        smk.params.snapshot,
        int(smk.params.shard),
        prefix=smk.params.prefix,
        dest_root=smk.params.dest_root,
        max_files=smk.params.max_files,
        files_per_shard=int(smk.params.files_per_shard),
        seed=int(smk.params.seed),
        retries=int(getattr(smk.params, "retries", 2)),
    )
    write_json(smk.output.manifest, manifest)
    log.info("%s: %d WET files", manifest["shard"], len(manifest["files"]))
