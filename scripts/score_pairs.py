"""Both passes of models over one pair dataset -> the unmasked and masked caches of each.

Rules ``score_pairs`` (one model), ``kaneko2023_score_pairs`` (every fine-tuned model
of a grid of Kaneko et al. 2023, one after the other in one process) and
``score_pairs_together`` (the models of ``scoring.together``). ``params.models``
lists the models (``model``, ``model_id``, ``revision``, ``allow_untrained_head``) in the
order of the outputs (a path each, or a list of them).
"""

import torch

from mgbias.mlm.gate import check_unknown_tokens
from mgbias.mlm.load import entry_fields, load_each
from mgbias.mlm.masked_cache import pairs_sha256, write_pair_cache
from mgbias.mlm.precision import check_precision, precision_record
from mgbias.mlm.unmasked_cache import sentences_sha256, write_score_cache
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.pairs.passes import score_pair_passes
from mgbias.workflow.runlog import job_log, per_model, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)


with job_log(smk.log[0]) as log:
    torch.set_num_threads(smk.threads)
    scoring = smk.params.scoring
    wildcards = smk.wildcards
    frame = load_pairs(smk.input.data, lang=wildcards.lang, bias_type=smk.params.bias_type)
    pairs = pair_sentences(frame, perturb=wildcards.variant == "perturbed")
    if not pairs:
        raise ValueError(f"{smk.input.data}: no {smk.params.bias_type} pairs")
    check_precision(scoring["precision"], scoring["device"])  # fp16 needs CUDA: before loading
    sentences = [sentence for pair in pairs for sentence in pair]
    outputs = zip(
        load_each(smk.params.models, device=scoring["device"]),
        per_model(smk.output.unmasked),
        per_model(smk.output.masked),
        strict=True,
    )
    for (entry, model, tokenizer), unmasked_path, masked_path in outputs:
        # the model gate's last check: the data's word pieces are at most 5% [UNK] (MAX_UNK_SHARE)
        check_unknown_tokens(
            tokenizer, sentences, allow_unk=scoring["allow_unk"], what=str(smk.input.data)
        )
        unmasked, masked = score_pair_passes(
            model,
            tokenizer,
            pairs,
            batch_size=scoring["batch_size"],
            max_length=scoring["max_length"],
            pair_ids=frame["pair_id"].tolist(),
            precision=scoring["precision"],
        )
        provenance = {
            **entry_fields(entry, model),
            **wildcard_fields(wildcards, "dataset", "variant", "lang"),
            "bias_type": smk.params.bias_type,
            "data": smk.input.data,
            **precision_record(scoring["precision"]),
        }
        write_score_cache(
            unmasked,
            unmasked_path,
            {
                **provenance,
                "input_sha256": sentences_sha256(sentences),
                "n_sentences": len(sentences),
            },
        )
        write_pair_cache(masked, masked_path, {**provenance, "input_sha256": pairs_sha256(pairs)})
        log.info("scored %d pairs with %s (both passes)", len(pairs), entry["model_id"])
        del model, tokenizer
