"""Fine-tune a masked LM on one D_r with the masked-LM objective (Kaneko et al. 2023, §3.1).

input:  text (D_r); dev (development texts, optional); base (the base model's directory
        when the workflow trains it: a dependency only, params.model names it)
output: one directory (model, tokenizer, training.json); checkpoints go to
        <output>.checkpoints and a rerun resumes from them
params: finetune (FineTuneConfig fields), model (hub id or local directory), revision,
        device (auto|cpu|cuda), allow_untrained_head
threads: torch threads
"""

from pathlib import Path

from mgbias.finetune.train import FineTuneConfig, finetune_mlm
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk) as used:
    params = dict(smk.params.items())
    base = params["model"]
    config = FineTuneConfig.from_mapping(params["finetune"], where="kaneko2023.finetune")
    used["seed"] = config.seed
    dev = dict(smk.input.items()).get("dev") or []
    dev = [dev] if isinstance(dev, str) else list(dev)
    log.info("fine-tuning %s on %s with %s", base, smk.input.text, config)
    finetune_mlm(
        base,
        Path(smk.input.text),
        Path(smk.output[0]),
        config,
        dev=[Path(path) for path in dev],
        revision=params.get("revision"),
        device=params["device"],
        threads=smk.threads,
        allow_untrained_head=bool(params["allow_untrained_head"]),
    )
