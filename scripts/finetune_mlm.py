"""Fine-tune a masked LM on D_r with the masked-LM objective (Kaneko et al. 2023, §3.1).

Rules ``finetune_mlm`` (one model) and ``kaneko2023_finetune_grid`` (every model of a
grid, one after the other in one process: then ``text``, ``model``, ``provenance`` and
``params.finetune`` are lists in the order of ``params.models``).

input:  text (D_r); dev (development texts, optional); base (the base model's directory
        when the workflow trains it: a dependency only, params.model names it)
output: model, a directory each (model, tokenizer, training.json); checkpoints go to
        <output>.checkpoints and a rerun resumes from them; provenance, a record each
params: finetune (FineTuneConfig fields, or a list of them), models (the grid's names),
        model (hub id or local directory), revision, device (auto|cpu|cuda),
        allow_untrained_head
threads: torch threads
"""

from pathlib import Path
from types import SimpleNamespace

from mgbias.finetune.train import FineTuneConfig, finetune_mlm
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log, per_model, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)


def one_model(job, index: int, count: int):
    """The job as one model's record sees it: that model's D_r, output and settings."""
    if count == 1:
        return job
    params = dict(job.params.items())
    return SimpleNamespace(
        rule=getattr(job, "rule", None),
        config=getattr(job, "config", None),
        wildcards={**wildcard_fields(job.wildcards), "model": params["models"][index]},
        input={**dict(job.input.items()), "text": per_model(job.input.text)[index]},
        output={
            "model": per_model(job.output.model)[index],
            "provenance": per_model(job.output.provenance)[index],
        },
        params={**params, "finetune": params["finetune"][index]},
    )


with job_log(smk.log[0]) as log:
    params = dict(smk.params.items())
    base = params["model"]
    texts = per_model(smk.input.text)
    settings = params["finetune"]
    settings = settings if isinstance(settings, list) else [settings]
    dev = dict(smk.input.items()).get("dev") or []
    dev = [dev] if isinstance(dev, str) else list(dev)
    outputs = zip(texts, per_model(smk.output.model), settings, strict=True)
    for index, (text, output, setting) in enumerate(outputs):
        with job_provenance(one_model(smk, index, len(texts))) as used:
            config = FineTuneConfig.from_mapping(setting, where="kaneko2023.finetune")
            used["seed"] = config.seed
            log.info("fine-tuning %s on %s with %s", base, text, config)
            finetune_mlm(
                base,
                Path(text),
                Path(output),
                config,
                dev=[Path(path) for path in dev],
                revision=params.get("revision"),
                device=params["device"],
                threads=smk.threads,
                allow_untrained_head=bool(params["allow_untrained_head"]),
            )
