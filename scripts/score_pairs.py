"""Both passes of one model over one pair dataset -> the unmasked and masked caches."""

import torch

from mgbias.mlm.load import load_mlm, model_revision
from mgbias.mlm.masked_cache import pairs_sha256, write_pair_cache
from mgbias.mlm.precision import check_precision, precision_record
from mgbias.mlm.unmasked_cache import sentences_sha256, write_score_cache
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.pairs.passes import score_pair_passes
from mgbias.runlog import job_log, wildcard_fields

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
    model, tokenizer = load_mlm(
        smk.params.model_id,
        revision=smk.params.revision,
        device=scoring["device"],
        allow_untrained_head=smk.params.allow_untrained_head,
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
        **wildcard_fields(wildcards, "model", "dataset", "variant", "lang"),
        "model_id": smk.params.model_id,
        "revision": smk.params.revision or model_revision(model),
        "bias_type": smk.params.bias_type,
        "data": smk.input.data,
        **precision_record(scoring["precision"]),
    }
    sentences = [sentence for pair in pairs for sentence in pair]
    write_score_cache(
        unmasked,
        smk.output.unmasked,
        {**provenance, "input_sha256": sentences_sha256(sentences), "n_sentences": len(sentences)},
    )
    write_pair_cache(masked, smk.output.masked, {**provenance, "input_sha256": pairs_sha256(pairs)})
    log.info("scored %d pairs with %s (both passes)", len(pairs), smk.params.model_id)
