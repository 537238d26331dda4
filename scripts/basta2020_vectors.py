"""Probe plan and word vectors of one (encoder, corpus) (Basta et al. 2020; ``mgbias probe``
runs the same steps).

Snakemake interface
-------------------
input.corpus : text, one sentence a line
input.static : optional ``.vec``/``.bin`` static vectors: Gonen & Goldberg's biased and
    extended lists, the professions' bias and, in Spanish, Exp. 8-9's semantic and grammar
    lists (the nouns of known gender by the spaCy pipeline); ``basta2020.static``
params.model_id, params.revision : the encoder (hub id or directory) and its revision
params.lang : str, ``en`` or ``es``
params.probes : dict
    ``layers``, ``pooling``, ``dtype``, ``batch_size``, ``max_length``, ``device``,
    ``precision``,
    ``n_pca_sentences``, ``max_per_word``, ``seed``, ``spacy``, ``n_biased``,
    ``n_extended``, ``top_n`` (:mod:`mgbias.contextual.steps`); ``lists``: ``shipped``
    (default) or ``demo`` (the demo lexicon's occupations, their bias the planted one).
output.plan : JSON of the probe plan (sentences, swapped twins, targets and roles) and
    ``static_lists`` (null without static vectors)
output.vectors : safetensors cache (model id, revision, input hash in its header)
log : the job's log
"""

import torch

from mgbias.contextual.lists import load_probe_lists
from mgbias.contextual.steps import (
    corpus_static_lists,
    grammatical_nouns,
    plan_corpus,
    read_corpus,
    vectors_for_plan,
)
from mgbias.demo.analyser import ANALYSERS
from mgbias.demo.probes import demo_probe_lists
from mgbias.files.atomic import write_json
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0] if smk.log else None) as log, job_provenance(smk) as used:
    torch.set_num_threads(smk.threads)
    options = smk.params.probes
    used["seed"] = options["seed"]
    lang = smk.params.lang
    lists = demo_probe_lists(lang) if options.get("lists") == "demo" else load_probe_lists(lang)
    sentences = read_corpus(smk.input.corpus)
    static_path = getattr(smk.input, "static", None)
    nouns = static = None
    if static_path:
        # tagged once: the static Spanish lists and Exp. 6 read the same nouns
        nouns = grammatical_nouns(lists, sentences, options.get("spacy"), ANALYSERS)
        static = corpus_static_lists(
            static_path,
            lists,
            nouns,
            n_biased=options["n_biased"],
            n_extended=options["n_extended"],
            top_n=options["top_n"],
            seed=options["seed"],
        )
    plan = plan_corpus(
        sentences,
        lists,
        static=static,
        spacy_model=options.get("spacy"),
        analysers=ANALYSERS,
        nouns=nouns,
        n_pca_sentences=options["n_pca_sentences"],
        max_per_word=options["max_per_word"],
        seed=options["seed"],
    )
    # the lists travel with the plan, so the probes read the words it planned for
    write_json(smk.output.plan, {**plan.to_dict(), "static_lists": static and static.to_dict()})
    vectors, hit = vectors_for_plan(
        plan,
        smk.output.vectors,
        model_id=smk.params.model_id,
        revision=smk.params.revision,
        layers=options["layers"],
        pooling=options["pooling"],
        dtype=options["dtype"],
        batch_size=options["batch_size"],
        max_length=options.get("max_length"),
        device=options["device"],
        precision=options["precision"],
    )
    log.info(
        "%d targets in %d sentences (%d swapped twins); cache %s",
        len(vectors),
        len(plan.sentences),
        len(plan.sentences) - plan.n_corpus,
        "hit" if hit else "written",
    )
