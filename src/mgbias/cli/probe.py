"""``mgbias probe``: the contextual-embedding probes of Basta et al. (2020)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mgbias.cli.options import (
    add_batch_options,
    add_device_option,
    add_hidden_alias,
    add_model_options,
    add_precision_option,
    non_negative_int,
    output_file,
    positive_int,
    setting,
)


def _probe(args: argparse.Namespace) -> int:
    """``mgbias probe``: Basta et al. (2020) Exp. 1-5 of one encoder on one corpus."""
    import json

    import mgbias

    report = mgbias.probe(
        args.model,
        args.corpus,
        lang=args.lang,
        experiments=args.experiments,
        layers=args.layers,
        vectors=args.vectors,
        n_biased=args.n_biased,
        n_extended=args.n_extended,
        top_n=args.top_n,
        spacy=args.spacy,
        cache=args.cache,
        runs=args.runs,
        seed=args.seed,
        n_train=args.n_train,
        knn_k=args.knn_k,
        n_knn=args.n_knn,
        n_bootstrap=args.n_bootstrap,
        n_pca_sentences=args.n_pca_sentences,
        max_per_word=args.max_per_word,
        max_sentences=args.max_sentences,
        pooling=args.pooling,
        dtype=args.dtype,
        batch_size=args.batch_size,
        max_length=args.max_length,
        revision=args.revision,
        device=args.device,
        precision=args.precision,
    )
    print(report)
    print(json.dumps({"cache_hit": report.cache_hit, **report.table1}), file=sys.stderr)
    from mgbias.files.atomic import write_json
    from mgbias.files.tabular import write_csv

    if args.output:
        write_csv(report.frame, args.output)
    if args.summary:
        write_json(args.summary, report.summary)
    return 0


def add_command(commands) -> None:
    probe = commands.add_parser(
        "probe",
        help="contextual-embedding probes of one encoder on one corpus (Basta et al. 2020, "
        "Exp. 1-5: gender direction, direct bias, clustering, SVM, KNN; Exp. 6-9 in "
        "Spanish, French and German), per layer",
        description="The numbers of the workflow's scripts/basta2020_probes.py for one "
        "encoder and corpus. Layers: indices of hidden_states (0 = embeddings), 'last', "
        "'concat' (all joined; the paper's ELMo 'concatenation'), or 'all'.",
    )
    _add_input_options(probe.add_argument_group("encoder and corpus"))
    add_hidden_alias(probe, "--text", "--corpus")
    _add_experiment_options(probe.add_argument_group("experiments (basta2020.probes)"))
    _add_list_options(probe.add_argument_group("word lists from static vectors (basta2020.static)"))
    _add_vector_options(probe.add_argument_group("word vectors (basta2020.vectors)"))
    output = probe.add_argument_group("output")
    output.add_argument(
        "--output",
        type=output_file,
        default=None,
        help="CSV, one row per layer, experiment and measure (default: none)",
    )
    output.add_argument(
        "--summary", type=output_file, default=None, help="JSON of every result (default: none)"
    )
    probe.set_defaults(run=_probe)


def _add_input_options(group) -> None:
    """The encoder, the corpus, its language and its token analyser."""
    add_model_options(group, what="encoder")
    group.add_argument(
        "--text", dest="corpus", required=True, type=Path, help="corpus, one sentence a line"
    )
    group.add_argument(
        "--lang", default="en", help="language of the shipped word lists: en, es, fr or de"
    )
    group.add_argument(
        "--spacy",
        default=None,
        help="token analyser of the swap's agreement and "
        "the nouns: a spaCy pipeline (es_core_news_sm, fr_core_news_sm, ...) "
        "or demo (the demo grammar's) (default: none; no Exp. 6-9)",
    )
    group.add_argument(
        "--max-sentences",
        type=non_negative_int,
        default=0,
        help="sentences read from the corpus (0: all)",
    )


def _add_experiment_options(group) -> None:
    """Which experiments run, how often, and their sizes (``basta2020.probes``)."""
    group.add_argument(
        "--experiments",
        default=",".join(map(str, setting("basta2020.probes.experiments"))),
        help="comma-separated experiments; Exp. 6-9 (directions, Table 6, Table 7) run where "
        "the corpus has nouns of grammatical gender (--lang es, fr or de, with --spacy)",
    )
    group.add_argument(
        "--runs",
        type=positive_int,
        default=setting("basta2020.probes.runs"),
        help="repeated runs of the clustering and the SVM",
    )
    group.add_argument("--seed", type=int, default=0, help="seed of the sampling and classifiers")
    group.add_argument(
        "--n-train",
        type=positive_int,
        default=setting("basta2020.probes.n_train"),
        help="SVM training words",
    )
    group.add_argument(
        "--knn-k",
        type=positive_int,
        default=setting("basta2020.probes.knn_k"),
        help="neighbours of the KNN classifier",
    )
    group.add_argument(
        "--n-knn",
        type=positive_int,
        default=setting("basta2020.probes.n_knn"),
        help="professions per gender (Exp. 5)",
    )
    group.add_argument(
        "--n-bootstrap",
        type=non_negative_int,
        default=setting("basta2020.probes.n_bootstrap"),
        help="bootstrap resamples",
    )


def _add_list_options(group) -> None:
    """The biased and extended lists derived from static vectors (``basta2020.static``)."""
    group.add_argument(
        "--vectors",
        type=Path,
        default=None,
        help="static .vec/.bin for the biased lists, "
        "the professions' bias and, in es, fr or de (with --spacy), the semantic and grammar "
        "lists (default: professions by the sign of their score)",
    )
    group.add_argument(
        "--n-biased",
        type=positive_int,
        default=setting("basta2020.static.n_biased"),
        help="biased words per gender (with --vectors)",
    )
    group.add_argument(
        "--n-extended",
        type=non_negative_int,
        default=setting("basta2020.static.n_extended"),
        help="extended-list words per gender, after the biased ones (with --vectors)",
    )
    group.add_argument(
        "--top-n",
        type=positive_int,
        default=setting("basta2020.static.top_n"),
        help="most frequent words ranked (with --vectors)",
    )


def _add_vector_options(group) -> None:
    """How the encoder's word vectors are taken and cached (``basta2020.vectors``)."""
    group.add_argument(
        "--layers",
        default=setting("basta2020.vectors.layers"),
        help="layers: comma-separated indices, last, concat or all",
    )
    group.add_argument(
        "--n-pca-sentences",
        type=positive_int,
        default=setting("basta2020.vectors.n_pca_sentences"),
        help="sentences of the gender direction's PCA",
    )
    group.add_argument(
        "--max-per-word",
        type=int,
        default=setting("basta2020.vectors.max_per_word"),
        help="occurrences kept per word, a seeded sample (0: all)",
    )
    group.add_argument(
        "--pooling",
        choices=["mean", "first"],
        default=setting("basta2020.vectors.pooling"),
        help="how a word's pieces become one vector",
    )
    group.add_argument(
        "--dtype",
        choices=["float32", "float16"],
        default=setting("basta2020.vectors.dtype"),
        help="dtype of the cached vectors",
    )
    group.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="word-vector cache to reuse (default: a temporary one)",
    )
    add_batch_options(group, section="basta2020.vectors")
    add_device_option(group, "the encoder", section="basta2020.vectors")
    add_precision_option(group, "the encoder", section="basta2020.vectors")
