"""Write one demo world (planted or balanced) into the local mirror."""

from pathlib import Path

from mgbias.demo.world import WorldSpec, write_world
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    world = smk.wildcards.world
    demo = smk.params.demo
    spec = WorldSpec(
        name=world,
        seed=smk.params.seed,
        languages=tuple(smk.params.languages),
        n_parallel=demo["n_parallel"],
        n_monolingual=demo["n_monolingual"],
        **demo[world],
    )
    written = write_world(spec, Path(smk.params.world_dir), corpora=smk.params.corpora)
    log.info("wrote %d files for world %s", len(written), world)
