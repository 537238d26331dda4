"""One pass of a model over a sentence set -> the score cache."""

import torch

from mgbias.kaneko2022.sentences import read_gendered_sentences
from mgbias.mlm.load import load_mlm, model_revision
from mgbias.mlm.precision import check_precision, precision_record
from mgbias.mlm.unmasked import score_unmasked
from mgbias.mlm.unmasked_cache import sentences_sha256, write_score_cache
from mgbias.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    torch.set_num_threads(smk.threads)
    scoring = smk.params.scoring
    _, sentences = read_gendered_sentences(smk.input.sentences)
    check_precision(scoring["precision"], scoring["device"])  # fp16 needs CUDA: before loading
    model, tokenizer = load_mlm(
        smk.params.model_id,
        revision=smk.params.revision,
        device=scoring["device"],
        allow_untrained_head=smk.params.allow_untrained_head,
    )
    scores = score_unmasked(
        model,
        tokenizer,
        sentences,
        batch_size=scoring["batch_size"],
        max_length=scoring["max_length"],
        precision=scoring["precision"],
    )
    metadata = {
        **wildcard_fields(smk.wildcards, "model"),
        "model_id": smk.params.model_id,
        "revision": smk.params.revision or model_revision(model),
        "sentences": smk.input.sentences,
        "input_sha256": sentences_sha256(sentences),
        "n_sentences": len(sentences),
        "n_truncated": scores.n_truncated,
        **precision_record(scoring["precision"]),
    }
    write_score_cache(scores, smk.output.cache, metadata)
    log.info("scored %d sentences with %s", len(sentences), smk.params.model_id)
