"""RCSLS alignment of one source space into one target space (fastText's align.py).

Inputs: ``src`` and ``tgt``: .vec (or fastText .bin) files; ``dico_train``: MUSE training
dictionary (``src tgt`` per line), or ``dictionaries``: a directory holding it, named by
``params.dico_train``.
Outputs: ``vec``: the full source vocabulary mapped by R, rows L2-normalised (.vec);
``matrix``: R as .npy (``R @ x`` maps a source vector); ``summary``: JSON with the loss
per step, learning rates, pair counts and settings.
Params: ``rcsls``: settings of :class:`mgbias.embeddings.rcsls.RCSLSConfig` (``knn``,
``lr``, ``niter``, ``maxneg``, ``maxsup``, ``maxload``, ``batchsize``, ``sgd``,
``center``, ``device``); ``seed``: seed of the SGD batches. The job's threads bound
torch's CPU threads.
"""

import torch

from mgbias.embeddings.rcsls import RCSLSConfig
from mgbias.embeddings.steps import align_files, dictionary_path
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)


with job_log(smk.log[0]) as log, job_provenance(smk):
    torch.set_num_threads(smk.threads)
    config = RCSLSConfig.from_mapping(
        {**smk.params.rcsls, "seed": smk.params.seed}, where="zhao2020.rcsls"
    )
    result = align_files(
        smk.input.src,
        smk.input.tgt,
        dictionary_path(dict(smk.input.items()), smk.params, "dico_train"),
        smk.output.vec,
        config,
        matrix=smk.output.matrix,
        summary=smk.output.summary,
    )
    log.info(
        "%s -> %s: %d training pairs, loss %.4f -> %.4f",
        smk.input.src,
        smk.input.tgt,
        result.n_pairs,
        result.losses[0],
        result.losses[-1],
    )
