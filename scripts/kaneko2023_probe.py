"""Template probes of models (Kaneko et al. 2023): TBS, Figure 2's probabilities, Figure 3's
top predictions (:func:`mgbias.finetune.probe.probe_model`; ``mgbias tbs`` gives the same
numbers). Rules ``kaneko2023_probe`` (one model) and ``kaneko2023_probe_grid`` (every
fine-tuned model of a grid, one after the other in one process).

Snakemake interface
-------------------
params.models : list of dict
    The models, in the order of the outputs: ``model``, ``model_id`` (its directory,
    ``models/{model}``, or hub id), ``revision``, ``allow_untrained_head``.
params.scoring : dict
    The configuration's ``scoring`` section (``device``, ``batch_size``, ``max_length``,
    ``precision``).
params.lang : str
    Language of the template (``mgbias/resources/templates.yaml``: en, de, es, fr).
params.targets : str
    Target list: ``bolukbasi2016`` (English, 320 professions, 21 neutral), ``demo``, or a
    file (:func:`mgbias.finetune.probe_targets.template_targets`).
params.templates : str or None
    Another templates file (default: the shipped one).
params.sentence : str or None
    Figure 3's sentence with one ``[MASK]`` (default: the templates file's).
params.female, params.male : list of str or None
    Word lists classing the top predictions (default: the template's two gender words).
params.k : int
    Top predictions kept (5 in the paper).
output.targets, output.summary, output.top : one file (or a list, one per model) each
output.targets : CSV, one row per target
    target, neutral, text, n_target_tokens, logp_target_male, logp_target_female,
    logp_prior_male, logp_prior_female, p_target_male, p_target_female, assoc_male,
    assoc_female, bias.
output.summary : JSON
    tbs, n_targets, p_male, p_female, male_share, n_neutral, lang, template, male_word,
    female_word, model, targets, sentence, k, top_words, direction.
output.top : CSV
    rank, token_id, token, word, prob, gender_class.
"""

import torch

from mgbias.finetune.probe import probe_model, write_probe
from mgbias.finetune.probe_targets import template_targets
from mgbias.mlm.gate import check_unknown_tokens
from mgbias.mlm.load import load_each
from mgbias.mlm.precision import check_precision
from mgbias.workflow.runlog import job_log, per_model

smk = snakemake  # noqa: F821 (provided by Snakemake)


with job_log(smk.log[0]) as log:
    torch.set_num_threads(smk.threads)
    scoring = smk.params.scoring
    check_precision(scoring["precision"], scoring["device"])  # fp16 needs CUDA: before loading
    outputs = zip(
        load_each(smk.params.models, device=scoring["device"]),
        per_model(smk.output.targets),
        per_model(smk.output.summary),
        per_model(smk.output.top),
        strict=True,
    )
    targets = template_targets(smk.params.targets, smk.params.lang)["target"].tolist()
    for (entry, model, tokenizer), targets_path, summary_path, top_path in outputs:
        # the model gate's last check: the targets' word pieces are at most 5% [UNK] (MAX_UNK_SHARE)
        check_unknown_tokens(
            tokenizer,
            targets,
            allow_unk=scoring["allow_unk"],
            what=f"the targets {smk.params.targets}",
        )
        result = probe_model(
            model,
            tokenizer,
            smk.params.lang,
            targets=smk.params.targets,
            templates=smk.params.templates,
            sentence=smk.params.sentence,
            female=smk.params.female,
            male=smk.params.male,
            k=smk.params.k,
            batch_size=scoring["batch_size"],
            max_length=scoring["max_length"],
            model_name=entry["model_id"],
            precision=scoring["precision"],
        )
        write_probe(result, targets_path=targets_path, summary_path=summary_path, top_path=top_path)
        summary = result.summary
        log.info(
            "%s: TBS %.4f over %d targets; P(%s) %.3f, P(%s) %.3f over %d neutral targets; top: %s",
            entry["model"],
            summary["tbs"],
            summary["n_targets"],
            summary["male_word"],
            summary["p_male"],
            summary["female_word"],
            summary["p_female"],
            summary["n_neutral"],
            ", ".join(summary["top_words"]),
        )
        del model, tokenizer
