"""One pass of models over a sentence set -> the score cache of each.

Rules ``score_unmasked`` (one model), ``kaneko2023_score_unmasked`` (every fine-tuned
model of a grid of Kaneko et al. 2023, one after the other in one process) and
``score_unmasked_together`` (the models of ``scoring.together``).
``params.models`` lists the models (``model``, ``model_id``, ``revision``,
``allow_untrained_head``) in the order of ``output.cache`` (a path, or a list of them).
"""

import torch

from mgbias.kaneko2022.sentences import read_gendered_sentences
from mgbias.mlm.gate import check_unknown_tokens
from mgbias.mlm.load import entry_fields, load_each
from mgbias.mlm.precision import check_precision, precision_record
from mgbias.mlm.unmasked import score_unmasked
from mgbias.mlm.unmasked_cache import sentences_sha256, write_score_cache
from mgbias.workflow.runlog import job_log, per_model

smk = snakemake  # noqa: F821 (provided by Snakemake)


with job_log(smk.log[0]) as log:
    torch.set_num_threads(smk.threads)
    scoring = smk.params.scoring
    _, sentences = read_gendered_sentences(smk.input.sentences)
    check_precision(scoring["precision"], scoring["device"])  # fp16 needs CUDA: before loading
    models = load_each(smk.params.models, device=scoring["device"])
    for (entry, model, tokenizer), cache_path in zip(
        models, per_model(smk.output.cache), strict=True
    ):
        # the model gate's last check: at most 5% of the pieces [UNK] (MAX_UNK_SHARE)
        check_unknown_tokens(
            tokenizer, sentences, allow_unk=scoring["allow_unk"], what=str(smk.input.sentences)
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
            **entry_fields(entry, model),
            "sentences": smk.input.sentences,
            "input_sha256": sentences_sha256(sentences),
            "n_sentences": len(sentences),
            "n_truncated": scores.n_truncated,
            **precision_record(scoring["precision"]),
        }
        write_score_cache(scores, cache_path, metadata)
        log.info("scored %d sentences with %s", len(sentences), entry["model_id"])
        del model, tokenizer
