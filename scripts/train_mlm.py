"""Train the demo WordPiece tokenizer and small BERT MLM on one world's text."""

from pathlib import Path

from mgbias.corpora.checksums import verify_sidecar
from mgbias.mlm.train import MLMTrainingConfig, train_mlm
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    for path in smk.input.text:
        verify_sidecar(path)
    training = {**smk.params.training, "threads": smk.threads}
    config = MLMTrainingConfig(seed=smk.params.seed, **training)
    log.info("training %s with %s", smk.wildcards.model, config)
    train_mlm([Path(p) for p in smk.input.text], Path(smk.output[0]), config)
