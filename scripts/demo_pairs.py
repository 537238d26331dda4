"""Write the demo gender pair benchmarks (three layouts) into the local mirror."""

from mgbias.demo.pairs import write_demo_pairs
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    written = write_demo_pairs(
        smk.params.out_dir,
        smk.params.languages,
        smk.params.seed,
        smk.params.n_pairs,
        english_gender_marking=smk.params.english_pair_marking,
    )
    missing = sorted(set(map(str, smk.output.files)) - set(map(str, written)))
    if missing:
        raise RuntimeError(f"the demo pair writer did not write {missing}")
    log.info("wrote %d pair benchmark files to %s", len(written), smk.params.out_dir)
