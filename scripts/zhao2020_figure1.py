"""Figure 1 of Zhao et al. (2020): gendered word pairs of one language projected on its
gender direction (female minus male seeds: positive = feminine) in its own space and
mapped into others.

Snakemake interface
-------------------
input.spaces : list of .vec paths, one per [world, space] of ``params.panels``
    (``es``: the original space, ``es-en``: ES mapped into EN, ...).
input.scores : list of CSV paths, one per world of ``params.worlds``
    Per-occupation inBias scores of the original space (``scripts/inbias.py``), from
    which the default pairs are drawn.
input.seeds : the language's MIBs seed pairs (``{lang}_gender_pairs.json``), or
input.mibs : a directory holding it (the demo's lists).
params.lang, params.worlds, params.panels
params.pairs : list of [masculine, feminine] or empty
    The pairs to plot; empty: the ``params.n_pairs`` gendered pairs with the highest
    per-occupation score in the original space (the paper's "most biased
    occupations"). Pairs missing from a space are skipped and logged.
output.figure : PNG; output.data : CSV (world, space, pair, word, gender, projection).
"""

from pathlib import Path

import pandas as pd

from mgbias.embeddings.mibs import read_seed_pairs, seed_file_name
from mgbias.embeddings.projection import figure1_projections, most_biased_pairs
from mgbias.embeddings.steps import read_inbias_scores
from mgbias.embeddings.vectors import Vectors, read_vectors
from mgbias.files.tabular import write_csv
from mgbias.provenance import job_provenance
from mgbias.report.zhao2020_figures import figure1
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)


def keep_words(vectors: Vectors, words: set[str]) -> Vectors:
    """Only the rows of ``words`` (those in the vocabulary): a full space is not kept."""
    kept = [word for word in vectors.words if word in words]
    return Vectors(kept, vectors.rows(kept), vectors.source)


with job_log(smk.log[0]) as log, job_provenance(smk):
    inputs = dict(smk.input.items())
    if "seeds" in inputs:
        seeds = read_seed_pairs(inputs["seeds"])
    else:
        seeds = read_seed_pairs(Path(inputs["mibs"]) / seed_file_name(smk.params.lang))
    panels = [tuple(panel) for panel in smk.params.panels]
    if len(panels) != len(smk.input.spaces):
        raise ValueError(f"{len(smk.input.spaces)} spaces for {len(panels)} panels")
    scores = dict(zip(smk.params.worlds, smk.input.scores, strict=True))
    frames = []
    for world in smk.params.worlds:
        if smk.params.pairs:
            wanted = [tuple(pair) for pair in smk.params.pairs]
        else:
            wanted = most_biased_pairs(read_inbias_scores(scores[world]), smk.params.n_pairs)
        words = {w for pair in (*wanted, *seeds) for w in pair}
        spaces = {
            space: keep_words(read_vectors(path), words)
            for (w, space), path in zip(panels, smk.input.spaces, strict=True)
            if w == world
        }
        pairs = [p for p in wanted if all(w in v for v in spaces.values() for w in p)]
        skipped = [p for p in wanted if p not in pairs]
        if skipped:
            log.warning("%s: pairs not in every space, skipped: %s", world, skipped)
        if not pairs:
            raise ValueError(f"{world}: none of the pairs {wanted} is in every space")
        frame = figure1_projections(spaces, pairs, seeds)
        frames.append(frame.assign(world=world)[["world", *frame.columns]])
        log.info("%s: %s", world, pairs)
    data = pd.concat(frames, ignore_index=True)
    write_csv(data, smk.output.data)
    figure1(data, smk.output.figure)
