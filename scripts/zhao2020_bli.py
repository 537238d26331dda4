"""Bilingual lexicon induction accuracy of one aligned space (fastText's eval.py).

Inputs: ``src``: source vectors mapped into the target space (.vec); ``tgt``: target
vectors (.vec); ``dico_test``: MUSE test dictionary, or ``dictionaries``: a directory
holding it, named by ``params.dico_test``.
Outputs: ``json``: ``{retrieval: {accuracy (percent), n_correct, n_source_words,
n_covered, retrieval, k, maxload}}`` for each retrieval.
Params: ``bli``: ``retrievals`` (list of ``csls``/``nn``), ``k`` (CSLS neighbours, 10),
``maxload`` (vocabulary cap of both sides, 200000), ``center`` (bool), ``device``.
"""

import torch

from mgbias.embeddings.steps import bli_files, dictionary_path
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)


with job_log(smk.log[0]) as log:
    torch.set_num_threads(smk.threads)
    settings = smk.params.bli
    results = bli_files(
        smk.input.src,
        smk.input.tgt,
        dictionary_path(dict(smk.input.items()), smk.params, "dico_test"),
        retrievals=settings["retrievals"],
        k=settings["k"],
        maxload=settings["maxload"],
        center=settings["center"],
        device=settings["device"],
        output=smk.output.json,
    )
    for result in results:
        log.info(
            "%s: %.2f%% (%d of %d)",
            result.retrieval,
            result.accuracy,
            result.n_correct,
            result.n_source_words,
        )
