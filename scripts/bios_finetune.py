"""Train the occupation classifier on one language, fine-tune it on another with that
language's space, and test it there (Zhao et al. 2020, §4.2, transfer), once per seed.

Inputs: ``source``/``target`` (bios JSON lines), ``source_split``/``target_split``
(ids per part), ``source_vectors``/``target_vectors`` (.vec, one dimension; not with an
encoder), ``encoder`` (a workflow-trained encoder's directory, if any).
Outputs: ``metrics``: JSON (mean metrics, each run's); ``tpr``: CSV
(mgbias.bios.experiment.TPR_COLUMNS).
Params: ``settings`` (ClassifierSettings fields); ``encoder`` (None, or the frozen
encoder of both sides: EncoderSettings fields with ``source`` and ``revision``; Table 11);
``transfer`` (``share``, ``full``: targets fine-tuned on their whole training split,
``labels``, ``labels_by_language``: a language's own labels, a run using those of both
its languages); ``seeds``; ``world``, ``src``, ``tgt``, ``src_space``, ``tgt_space``,
``text``, ``sampling``.
Checkpoints per run and stage (``<metrics>.<run>.source.pt`` / ``.fine_tune.pt``) let a
killed job resume; they are removed once the outputs are written.
"""

import json

import torch

from mgbias.bios.experiment import (
    TPR_COLUMNS,
    ClassifierSettings,
    apply_split,
    run_seeds,
    run_transfer,
    transfer_labels,
)
from mgbias.bios.pipeline import read_records
from mgbias.bios.spaces import load_space
from mgbias.bios.tables import write_csv
from mgbias.files.atomic import write_json
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)


def parts(dataset: str, split: str) -> dict:
    with open(split, encoding="utf-8") as handle:
        return apply_split(read_records(dataset), json.load(handle), split)


with job_log(smk.log[0]) as log, job_provenance(smk):
    torch.set_num_threads(max(1, int(smk.threads)))
    settings = ClassifierSettings.from_mapping(dict(smk.params.settings))
    transfer = dict(smk.params.transfer)
    share = 1.0 if smk.params.tgt in transfer["full"] else float(transfer["share"])
    labels = transfer_labels(
        smk.params.src, smk.params.tgt, transfer["labels"], transfer.get("labels_by_language")
    )
    log.info("%s -> %s: labels %s", smk.params.src, smk.params.tgt, labels)
    source_space = load_space(smk.params.encoder, smk.input, "source_vectors", settings.device)
    # one encoder serves both languages
    target_space = (
        source_space
        if smk.params.encoder
        else load_space(None, smk.input, "target_vectors", settings.device)
    )
    source = parts(smk.input.source, smk.input.source_split)
    target = parts(smk.input.target, smk.input.target_split)
    runs = run_seeds(
        smk.params.seeds,
        lambda seed, checkpoints: run_transfer(
            source,
            target,
            source_space,
            target_space,
            settings,
            labels=labels,
            share=share,
            text=smk.params.text,
            balanced=smk.params.sampling == "balanced",
            seed=seed,
            checkpoints=checkpoints,
        ),
        smk.output.metrics,
        stages=("source", "fine_tune"),
        log=log,
    )
    keys = ("world", "src", "tgt", "src_space", "tgt_space", "text", "sampling")
    write_csv(smk.output.tpr, runs.tpr, TPR_COLUMNS)
    write_json(
        smk.output.metrics,
        {
            "experiment": {key: getattr(smk.params, key) for key in keys},
            "metrics": runs.metrics,
            "runs": runs.runs,
            "settings": {
                **dict(smk.params.settings),
                "transfer": transfer,
                "share": share,
                "labels": labels,
                "encoder": smk.params.encoder,
            },
        },
    )
    runs.remove_checkpoints()
