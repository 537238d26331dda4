"""D_r (Kaneko et al. 2023, §2): N sentences of which round(N·r) are male.

input:  female, male (D_f and D_m, one sentence per line)
output: text (D_r), summary (JSON: r, n, n_male, n_female, seed, repeat, sampling, rounding)
params: r, seed, repeat, sampling (nested|independent), rounding (half_up|half_even),
        n (int or null: the size of D_f and D_m)
"""

from pathlib import Path

from mgbias.files.atomic import write_json
from mgbias.finetune.mixture import write_mixture
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    mixture = write_mixture(
        Path(smk.input.female),
        Path(smk.input.male),
        float(smk.params.r),
        Path(smk.output.text),
        seed=smk.params.seed,
        n=smk.params.n,
        repeat=smk.params.repeat,
        sampling=smk.params.sampling,
        rounding=smk.params.rounding,
    )
    write_json(smk.output.summary, {**wildcard_fields(smk.wildcards), **mixture.summary()})
    log.info("wrote %s: %s", smk.output.text, mixture.summary())
