"""The demo's stand-in for machine-translated pairs (Kaneko et al. 2022, Tables 4-5, MT).

Inputs: ``pairs`` (a demo CrowS-Pairs CSV). Params: ``lang``, ``flip`` (probability that a
sentence's female words are translated in their masculine form), ``seed``. Output: the
same CSV with those sentences changed (:mod:`mgbias.demo.machine_translation`).
"""

from mgbias.demo.machine_translation import write_machine_translation
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    changed = write_machine_translation(
        smk.input.pairs, smk.output[0], smk.params.lang, smk.params.flip, smk.params.seed
    )
    log.info("%d pairs changed (flip %.2f)", changed, smk.params.flip)
