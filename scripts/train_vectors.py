"""Skip-gram word vectors for one corpus with fastText -> a .vec file.

Inputs: ``text``: one or more text files (plain or .gz), one sentence per line.
Outputs: ``vec``: the vectors (fastText .vec with its ``n d`` header, every word of
fastText's dictionary in frequency order).
Params: ``fasttext``: settings of :class:`mgbias.embeddings.train.SkipgramConfig` (``dim``,
``epoch``, ``minCount``, ...; ``thread`` is the job's threads, 1 for reproducible
vectors); ``seed``: fastText's seed.
"""

from mgbias.embeddings.train import SkipgramConfig, train_skipgram
from mgbias.embeddings.vectors import write_vec
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    texts = [smk.input.text] if isinstance(smk.input.text, str) else list(smk.input.text)
    config = SkipgramConfig.from_mapping(
        {**smk.params.fasttext, "thread": smk.threads, "seed": smk.params.seed},
        where="zhao2020.vectors.train",
    )
    vectors = train_skipgram(texts, config)
    write_vec(smk.output.vec, vectors)
    log.info("%d vectors of dimension %d -> %s", len(vectors), vectors.dim, smk.output.vec)
