"""Train and test the occupation classifier on one language's bios with one embedding
space (Zhao et al. 2020, §4.1), once per seed.

Inputs: ``dataset`` (bios JSON lines), ``split`` (ids per part), ``vectors`` (.vec; not
with an encoder), ``encoder`` (a workflow-trained encoder's directory, if any).
Outputs: ``metrics``: JSON (mean metrics, each run's); ``tpr``: CSV
(mgbias.bios.experiment.TPR_COLUMNS).
Params: ``settings`` (mgbias.bios.experiment.ClassifierSettings fields); ``encoder``
(None, or mgbias.bios.encoder.EncoderSettings fields with ``source`` and ``revision``:
the space is that frozen encoder's hidden states, Table 10; with ``occupations``, only
those bios are kept); ``seeds``; ``world``,
``lang``, ``space``, ``text`` (scrubbed/raw), ``sampling`` (original/balanced).
A checkpoint per run (``<metrics>.<run>.pt``) lets a killed job resume; it is removed
once the outputs are written.
"""

import json

import torch

from mgbias.bios.experiment import (
    TPR_COLUMNS,
    ClassifierSettings,
    apply_split,
    keep_labels,
    run_classifier,
    run_seeds,
)
from mgbias.bios.pipeline import read_records
from mgbias.bios.spaces import load_space
from mgbias.bios.tables import write_csv
from mgbias.files.atomic import write_json
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    torch.set_num_threads(max(1, int(smk.threads)))
    settings = ClassifierSettings.from_mapping(dict(smk.params.settings))
    with open(smk.input.split, encoding="utf-8") as handle:
        parts = apply_split(read_records(smk.input.dataset), json.load(handle), smk.input.split)
    space = load_space(smk.params.encoder, smk.input, "vectors", settings.device)
    occupations = (smk.params.encoder or {}).get("occupations")
    if occupations:
        parts = keep_labels(parts, occupations)
        log.info("occupations: %s", occupations)
        if not all(parts.values()):
            raise ValueError(
                f"{smk.input.dataset}: a split part has no bios of {occupations} (the "
                "transfer labels of the encoder's runs, bios.classifier.encoder.labels)"
            )
    log.info("space %s: %s", smk.params.space, space)
    runs = run_seeds(
        smk.params.seeds,
        lambda seed, checkpoint: run_classifier(
            parts,
            space,
            settings,
            text=smk.params.text,
            balanced=smk.params.sampling == "balanced",
            seed=seed,
            checkpoint=checkpoint,
        ),
        smk.output.metrics,
        log=log,
    )
    experiment = {
        key: getattr(smk.params, key) for key in ("world", "lang", "space", "text", "sampling")
    }
    write_csv(smk.output.tpr, runs.tpr, TPR_COLUMNS)
    write_json(
        smk.output.metrics,
        {
            "experiment": experiment,
            "metrics": runs.metrics,
            "runs": runs.runs,
            "settings": {**dict(smk.params.settings), "encoder": smk.params.encoder},
        },
    )
    runs.remove_checkpoints()
