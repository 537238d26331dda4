"""Write the demo's Common Crawl (Zhao et al. 2020, §4.1, MLBs): WET files with planted
bios in en, es, de and fr, and each snapshot's ``wet.paths.gz``.

Outputs: ``listings`` and ``wet``: the crawl's files (under ``params.root``); ``planted``:
JSON of the planted bios and every name; ``names``: the names, one per line.
Params: ``root``: the crawl root in the mirror; ``snapshots``; ``n_files``: WET files
per snapshot; ``languages``; ``scale`` (planted bios x scale) and ``ambiguous`` (the
share of them without their place of work).
"""

from mgbias.bios.demo import write_demo_crawl
from mgbias.files.atomic import write_json, write_text
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    world = write_demo_crawl(
        smk.params.root,
        list(smk.params.snapshots),
        int(smk.params.n_files),
        list(smk.params.languages),
        scale=int(smk.params.scale),
        ambiguous=float(smk.params.ambiguous),
    )
    write_json(smk.output.planted, world)
    write_text(smk.output.names, "".join(f"{name}\n" for name in world["names"]))
    log.info("%d planted bios in %d WET files", len(world["planted"]), len(smk.output.wet))
