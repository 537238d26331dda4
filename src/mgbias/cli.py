"""The ``mgbias`` command line."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version
from pathlib import Path

from mgbias.config import ConfigError, load_config, schema_path
from mgbias.measures.registry import PAIR_MEASURES
from mgbias.named_pairs import DEFAULT_CACHE, resolve_pair_data
from mgbias.share import add_arguments as add_share_arguments
from mgbias.share import run_action as run_share


def _check_config(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, args.schema)
    except (ConfigError, OSError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(
        f"{args.config}: valid; {len(config['languages'])} languages, "
        f"{len(config['corpora'])} corpora, {len(config['models'])} models, "
        f"{len(config['pair_datasets'])} pair datasets"
    )
    return 0


def _score(args: argparse.Namespace) -> int:
    from mgbias.corpora.download import DownloadError
    from mgbias.pair_data import load_pairs, pair_sentences
    from mgbias.pair_scoring import pair_measures, parse_measures, per_pair_table

    try:
        measures = parse_measures(args.measures)
        if not 0.0 < args.alpha < 1.0:
            raise ValueError(f"--alpha must lie strictly between 0 and 1, got {args.alpha}")
        data = resolve_pair_data(
            args.data,
            lang=args.lang,
            config_path=args.config,
            cache_dir=args.cache_dir,
            mirror=args.mirror,
        )
        frame = load_pairs(str(data), lang=args.lang, bias_type=args.bias_type)
        pairs = pair_sentences(frame, perturb=args.perturb)
    except (ValueError, OSError, ConfigError, DownloadError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    if not pairs:
        print(f"mgbias: {args.data}: no {args.bias_type} pairs", file=sys.stderr)
        return 2
    # torch: imported once the data are in hand
    from mgbias.mlm.load import load_mlm
    from mgbias.pair_passes import score_pair_passes

    try:
        model, tokenizer = load_mlm(
            args.model,
            revision=args.revision,
            device=args.device,
            allow_untrained_head=args.allow_untrained_head,
        )
    except (ValueError, OSError) as error:  # UntrainedHeadError, ModelLoadError, no model dir
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    unmasked, masked = score_pair_passes(
        model,
        tokenizer,
        pairs,
        batch_size=args.batch_size,
        max_length=args.max_length,
        pair_ids=frame["pair_id"].tolist(),
    )
    table = pair_measures(
        unmasked, masked, measures, seed=args.seed, tie_rule=args.tie_rule, alpha=args.alpha
    )
    print(table.to_markdown(index=False, floatfmt=".4g"))
    from mgbias.report.tables import write_csv

    if args.output:
        write_csv(table, args.output)
    if args.per_pair:
        rows = per_pair_table(frame, unmasked, masked, perturb=args.perturb)
        write_csv(rows, args.per_pair)
        print(f"{len(rows)} pairs written to {args.per_pair}", file=sys.stderr)
    return 0


def _finetune(args: argparse.Namespace) -> int:
    import logging

    from mgbias.finetune.train import FineTuneConfig, finetune_mlm

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    settings = {
        "learning_rate": args.lr,
        "epochs": args.epochs,
        "batch_size": args.batch_size,
        "devices": args.devices,
        "gradient_accumulation": args.gradient_accumulation,
        "micro_batch_size": args.micro_batch_size,
        "max_seq_length": args.max_seq_length,
        "line_by_line": args.line_by_line,
        "seed": args.seed,
        "checkpoint_every": args.checkpoint_every,
        "precision": args.precision,
        "max_grad_norm": None if args.no_clip else 1.0,
    }
    config = FineTuneConfig(**{k: v for k, v in settings.items() if v is not None})
    finetune_mlm(
        args.model,
        args.text,
        args.output,
        config,
        dev=args.dev or (),
        revision=args.revision,
        device=args.device,
        threads=args.threads,
        keep_checkpoints=args.keep_checkpoints,
        allow_untrained_head=args.allow_untrained_head,
    )
    print(args.output)
    return 0


def _gendered_text(args: argparse.Namespace) -> int:
    import json

    from mgbias.finetune.gendered_text import mine_gendered_text
    from mgbias.wordlists import load_gender_words

    out = args.output
    female, male = load_gender_words(args.female, args.male)
    counts = mine_gendered_text(
        args.text,
        female,
        male,
        out_female=out / "female.txt",
        out_male=out / "male.txt",
        out_dev_female=out / "dev_female.txt",
        out_dev_male=out / "dev_male.txt",
        n=args.n,
        n_dev=args.n_dev,
        seed=args.seed,
    )
    print(json.dumps(counts.to_dict()))
    return 0


def _mix(args: argparse.Namespace) -> int:
    import json

    from mgbias.finetune.mixture import write_mixture

    mixture = write_mixture(
        args.female,
        args.male,
        args.r,
        args.output,
        seed=args.seed,
        n=args.n,
        repeat=args.repeat,
        sampling=args.sampling,
        rounding=args.rounding,
    )
    print(json.dumps(mixture.summary()))
    return 0


def _add_finetune_commands(commands: argparse._SubParsersAction) -> None:
    finetune = commands.add_parser(
        "finetune",
        help="fine-tune a masked LM on a text with the masked-LM objective (resumable)",
        description="Defaults are the paper's (Kaneko et al. 2023: run_mlm.py of "
        "transformers 4.22: lr 5e-5, 3 epochs, batch 8 on 4 devices, 512-token blocks, "
        "seed 42); devices are emulated by gradient accumulation. A killed run resumes "
        "from the last checkpoint in OUTPUT.checkpoints.",
    )
    finetune.add_argument("--model", required=True, help="Hugging Face hub id or local directory")
    finetune.add_argument("--revision", default=None)
    finetune.add_argument("--text", required=True, type=Path, nargs="+", help="training text")
    finetune.add_argument("--dev", type=Path, nargs="*", help="development text (dev loss)")
    finetune.add_argument("--output", required=True, type=Path, help="model directory to write")
    finetune.add_argument("--lr", type=float, default=None, help="learning rate (5e-5)")
    finetune.add_argument("--epochs", type=int, default=None, help="(3)")
    finetune.add_argument("--batch-size", type=int, default=None, help="per device (8)")
    finetune.add_argument("--devices", type=int, default=None, help="emulated devices (4)")
    finetune.add_argument("--gradient-accumulation", type=int, default=None, help="(1)")
    finetune.add_argument(
        "--micro-batch-size",
        type=int,
        default=None,
        help="examples per forward pass, a multiple of --batch-size (default: --batch-size)",
    )
    finetune.add_argument(
        "--block-size",
        "--max-seq-length",
        dest="max_seq_length",
        type=int,
        default=None,
        help="tokens per block, or per line with --line-by-line (the tokenizer's maximum, "
        "at most 1024)",
    )
    finetune.add_argument("--line-by-line", action="store_true", default=None)
    finetune.add_argument("--seed", type=int, default=None, help="(42)")
    finetune.add_argument("--checkpoint-every", type=int, default=None, help="steps (500)")
    finetune.add_argument("--keep-checkpoints", action="store_true")
    finetune.add_argument("--precision", choices=["fp32", "bf16", "fp16"], default=None)
    finetune.add_argument("--no-clip", action="store_true", help="no gradient-norm clipping")
    finetune.add_argument("--threads", type=int, default=None)
    finetune.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    finetune.add_argument("--allow-untrained-head", action="store_true")
    finetune.set_defaults(run=_finetune)

    gendered = commands.add_parser(
        "gendered-text",
        help="D_f and D_m: female and male sentences of a monolingual text, N each, "
        "plus development sets (Kaneko et al. 2023)",
    )
    gendered.add_argument("--text", required=True, type=Path, nargs="+")
    gendered.add_argument(
        "--output",
        required=True,
        type=Path,
        help="directory for female.txt, male.txt, dev_female.txt, dev_male.txt",
    )
    gendered.add_argument("--female", nargs="+", default=["kaneko2023_en_female"])
    gendered.add_argument("--male", nargs="+", default=["kaneko2023_en_male"])
    gendered.add_argument("--n", type=int, default=None, help="N per gender (default: most)")
    gendered.add_argument("--n-dev", type=int, default=0, help="development sentences per gender")
    gendered.add_argument("--seed", type=int, default=0)
    gendered.set_defaults(run=_gendered_text)

    mix = commands.add_parser(
        "mix-gendered-text", help="D_r: N sentences of which round(N r) are male"
    )
    mix.add_argument("--female", required=True, type=Path)
    mix.add_argument("--male", required=True, type=Path)
    mix.add_argument("--r", required=True, type=float, help="male rate in [0, 1]")
    mix.add_argument("--output", required=True, type=Path)
    mix.add_argument("--n", type=int, default=None)
    mix.add_argument("--seed", type=int, default=0)
    mix.add_argument("--repeat", type=int, default=0)
    mix.add_argument("--sampling", choices=["nested", "independent"], default="nested")
    mix.add_argument("--rounding", choices=["half_up", "half_even"], default="half_up")
    mix.set_defaults(run=_mix)


def _tbs(args: argparse.Namespace) -> int:
    from mgbias.mlm.templates import template_spec
    from mgbias.wordlists.professions import template_targets

    template_spec(args.lang, args.templates, figure3_sentence=args.sentence)
    template_targets(args.targets, args.lang)
    if (args.female is None) != (args.male is None):
        print("mgbias: give both --female and --male, or neither", file=sys.stderr)
        return 2
    # torch: imported once the inputs are checked
    from mgbias.mlm.load import load_mlm
    from mgbias.probes.kaneko2023 import probe_model, write_probe

    model, tokenizer = load_mlm(
        args.model,
        revision=args.revision,
        device=args.device,
        allow_untrained_head=args.allow_untrained_head,
    )
    result = probe_model(
        model,
        tokenizer,
        args.lang,
        targets=args.targets,
        templates=args.templates,
        sentence=args.sentence,
        female=args.female,
        male=args.male,
        k=args.top_k,
        batch_size=args.batch_size,
        max_length=args.max_length,
        model_name=args.model,
    )
    write_probe(result, targets_path=args.output, summary_path=args.summary, top_path=args.top)
    summary = result.summary
    male, female = summary["male_word"], summary["female_word"]
    print(
        f"TBS {summary['tbs']:.6g} over {summary['n_targets']} targets "
        f"(> 0: targets more associated with {male!r} than {female!r})"
    )
    print(
        f"P({summary['male_word']}) {summary['p_male']:.4g}, P({summary['female_word']}) "
        f"{summary['p_female']:.4g} over {summary['n_neutral']} neutral targets"
    )
    print(f"top {args.top_k} for {summary['sentence']!r}:")
    print(result.top.to_markdown(index=False, floatfmt=".4g"))
    return 0


def _probe(args: argparse.Namespace) -> int:
    """``mgbias probe``: Basta et al. (2020) Exp. 1-5 of one encoder on one corpus."""
    import json
    import tempfile

    from mgbias.atomic import write_json
    from mgbias.contextual.lists import load_probe_lists
    from mgbias.contextual.steps import (
        corpus_static_lists,
        grammatical_nouns,
        plan_corpus,
        probe_plan,
        read_corpus,
        vectors_for_plan,
    )
    from mgbias.report.tables import write_csv

    experiments = [int(e) for e in args.experiments.split(",") if e.strip()]
    lists = load_probe_lists(args.lang)
    sentences = read_corpus(args.corpus, args.max_sentences)
    sizes = {"n_biased": args.n_biased, "n_extended": args.n_extended, "top_n": args.top_n}
    nouns = static = None
    if args.vectors:
        nouns = grammatical_nouns(lists, sentences, args.spacy)
        static = corpus_static_lists(args.vectors, lists, nouns, seed=args.seed, **sizes)
    plan = plan_corpus(
        sentences,
        lists,
        static=static,
        spacy_model=args.spacy,
        nouns=nouns,
        n_pca_sentences=args.n_pca_sentences,
        max_per_word=args.max_per_word,
        seed=args.seed,
    )
    with tempfile.TemporaryDirectory() as scratch:
        vectors, hit = vectors_for_plan(
            plan,
            args.cache or Path(scratch) / "vectors.safetensors",
            model_id=args.model,
            revision=args.revision,
            layers=args.layers,
            pooling=args.pooling,
            dtype=args.dtype,
            batch_size=args.batch_size,
            max_length=args.max_length,
            device=args.device,
        )
    results = probe_plan(
        vectors,
        plan,
        lists,
        static=static,
        experiments=experiments,
        runs=args.runs,
        seed=args.seed,
        n_train=args.n_train,
        knn_k=args.knn_k,
        n_knn=args.n_knn,
        n_bootstrap=args.n_bootstrap,
    )
    frame = results.frame()
    print(frame.pivot_table(index=["experiment", "measure"], columns="layer", values="mean",
                            sort=False).to_markdown(floatfmt=".4g"))  # fmt: skip
    print(json.dumps({"cache_hit": hit, **results.table1}), file=sys.stderr)
    if args.output:
        write_csv(frame, args.output)
    if args.summary:
        write_json(args.summary, results.summary)
    return 0


def _add_probe_command(commands) -> None:
    probe = commands.add_parser(
        "probe",
        help="contextual-embedding probes of one encoder on one corpus (Basta et al. 2020, "
        "Exp. 1-5: gender direction, direct bias, clustering, SVM, KNN; Exp. 6-9 in "
        "Spanish), per layer",
        description="The numbers of the workflow's scripts/contextual_probes.py for one "
        "encoder and corpus. Layers: indices of hidden_states (0 = embeddings), 'last', "
        "'concat' (all joined; the paper's ELMo 'concatenation'), or 'all'.",
    )
    probe.add_argument("--model", required=True, help="Hugging Face hub id or local directory")
    probe.add_argument("--revision", default=None)
    probe.add_argument("--corpus", required=True, type=Path, help="text, one sentence a line")
    probe.add_argument("--lang", default="en", help="en, es, fr or de (shipped lists)")
    probe.add_argument(
        "--experiments", default="1,2,3,4,5,6,7,8,9",
        help="Exp. 6-9 (directions, Table 6, Table 7) run where the corpus has nouns of "
        "grammatical gender (--lang es, fr or de, with --spacy)",
    )  # fmt: skip
    probe.add_argument("--layers", default="all")
    probe.add_argument(
        "--vectors", type=Path, default=None, help="static .vec/.bin for the biased lists, "
        "the professions' bias and, in es, fr or de (with --spacy), the semantic and grammar "
        "lists (default: professions by the sign of their score)",
    )  # fmt: skip
    probe.add_argument("--n-biased", type=int, default=500, help="biased words per gender "
                       "(with --vectors)")  # fmt: skip
    probe.add_argument("--n-extended", type=int, default=2500, help="extended-list words per "
                       "gender, after the biased ones (with --vectors)")  # fmt: skip
    probe.add_argument("--top-n", type=int, default=50_000, help="most frequent words ranked "
                       "(with --vectors)")  # fmt: skip
    probe.add_argument("--spacy", default=None, help="token analyser of the swap's agreement and "
                       "the nouns: a spaCy pipeline (es_core_news_sm, fr_core_news_sm, ...) "
                       "or demo (the demo grammar's)")  # fmt: skip
    probe.add_argument("--cache", type=Path, default=None, help="word-vector cache to reuse")
    probe.add_argument("--output", type=Path, default=None, help="CSV, one row per "
                       "layer, experiment and measure")  # fmt: skip
    probe.add_argument("--summary", type=Path, default=None, help="JSON of every result")
    probe.add_argument("--runs", type=int, default=10)
    probe.add_argument("--seed", type=int, default=0)
    probe.add_argument("--n-train", type=int, default=1000, help="SVM training words")
    probe.add_argument("--knn-k", type=int, default=100)
    probe.add_argument("--n-knn", type=int, default=100, help="professions per gender (Exp. 5)")
    probe.add_argument("--n-bootstrap", type=int, default=1000)
    probe.add_argument("--n-pca-sentences", type=int, default=1000)
    probe.add_argument("--max-per-word", type=int, default=20)
    probe.add_argument("--max-sentences", type=int, default=0)
    probe.add_argument("--pooling", choices=["mean", "first"], default="mean")
    probe.add_argument("--dtype", choices=["float32", "float16"], default="float32")
    probe.add_argument("--batch-size", type=int, default=64)
    probe.add_argument("--max-length", type=int, default=None)
    probe.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    probe.set_defaults(run=_probe)


def _rcsls_config(args: argparse.Namespace):
    from mgbias.embeddings.rcsls_config import RCSLSConfig

    return RCSLSConfig(
        knn=args.knn,
        lr=args.lr,
        niter=args.niter,
        maxneg=args.maxneg,
        maxsup=args.maxsup,
        maxload=args.maxload,
        batchsize=args.batchsize,
        sgd=args.sgd,
        center=args.center,
        seed=args.seed,
        device=args.device,
    )


def _print_bli(results, dico_test) -> None:
    for result in results:
        print(
            f"{result.retrieval.upper()} accuracy on {dico_test}: {result.accuracy:.2f}% "
            f"({result.n_correct} of {result.n_source_words} source words; "
            f"{result.n_covered} in both vocabularies)"
        )


def _align(args: argparse.Namespace) -> int:
    from mgbias.embeddings.steps import align_files, bli_files

    try:
        config = _rcsls_config(args)
        result = align_files(
            args.src_emb,
            args.tgt_emb,
            args.dico_train,
            args.output,
            config,
            matrix=args.matrix or Path(f"{args.output}-mat.npy"),
            summary=args.summary,
        )
    except (ValueError, OSError, KeyError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(
        f"RCSLS: {result.n_pairs} of {result.n_pairs_file} training pairs; loss "
        f"{result.losses[0]:.4f} -> {result.losses[-1]:.4f} in {len(result.losses)} steps; "
        f"wrote {args.output}"
    )
    if args.dico_test is not None:
        results = bli_files(
            args.output,
            args.tgt_emb,
            args.dico_test,
            retrievals=("csls",),
            k=args.knn,
            maxload=args.maxload,
            center=args.center,
            device=args.device,
        )
        _print_bli(results, args.dico_test)
    return 0


def _bli(args: argparse.Namespace) -> int:
    from mgbias.embeddings.steps import bli_files

    results = bli_files(
        args.src_emb,
        args.tgt_emb,
        args.dico_test,
        retrievals=(args.retrieval,),
        k=args.knn,
        maxload=args.maxload,
        center=args.center,
        device=args.device,
        output=args.output,
    )
    _print_bli(results, args.dico_test)
    return 0


def _bios_extract(args: argparse.Namespace) -> int:
    from mgbias.bios.ner import MissingPipelineError
    from mgbias.bios.pipeline import extract_dataset, read_names

    try:
        records = extract_dataset(
            args.wet,
            args.lang,
            args.output,
            pipeline=args.pipeline,
            names=read_names(args.names),
            titles=args.titles,
            french_conjunction_fix=args.french_conjunction_fix,
            occupation_cap=args.occupation_cap,
            seed=args.seed,
        )
    except MissingPipelineError as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    genders = {g: sum(r["gender"] == g for r in records) for g in ("F", "M")}
    titles = len({r["title"] for r in records})
    print(
        f"{args.output}: {len(records)} bios ({genders['F']} F, {genders['M']} M), "
        f"{titles} titles, from {len(args.wet)} WET files"
    )
    return 0


def _debias(args: argparse.Namespace) -> int:
    from mgbias.embeddings.steps import debias_file

    try:
        result = debias_file(
            args.emb,
            args.output,
            definitional=args.definitional,
            gender_specific=args.gender_specific,
            equalize=args.equalize,
            summary=args.summary,
        )
    except (ValueError, OSError, KeyError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(
        f"hard debias: {len(result.definitional_used)} definitional pairs "
        f"({len(result.definitional_skipped)} not in the vocabulary: "
        f"{[list(p) for p in result.definitional_skipped]}), {result.n_neutralized} words "
        f"neutralised, {len(result.equalized)} pairs equalised; wrote {args.output}"
    )
    return 0


def _inbias(args: argparse.Namespace) -> int:
    from mgbias.embeddings.steps import inbias_files

    try:
        report = inbias_files(
            args.emb,
            args.male_occupations,
            args.female_occupations,
            args.seeds,
            original=args.original,
            variant=args.variant,
            authors_split=args.authors_split,
            n_strong=args.n_strong,
            reference_scores=args.reference,
            paired=args.paired,
            output=args.output,
            scores=args.scores,
        )
    except (ValueError, OSError, KeyError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    result = report.result
    print(
        f"inBias ({result.variant}) of {args.emb}: {result.value:.4f} on N = {result.n} "
        f"of {report.n_listed} pairs; strong {report.strong:.4f}, weak {report.weak:.4f}"
    )
    if report.p_value is not None:
        test = "ttest_rel" if report.paired else "ttest_ind"
        print(
            f"{test} against {args.reference}: t = {report.t_statistic:.4f}, "
            f"p = {report.p_value:.4g}"
        )
    return 0


def _add_embedding_commands(commands) -> None:
    from mgbias.embeddings.rcsls_config import RCSLSConfig

    defaults = RCSLSConfig()
    align = commands.add_parser(
        "align",
        help="align two word-vector spaces with RCSLS (fastText's align.py, in torch)",
        description="Options as fastText's alignment/align.py, with hyphens; defaults are "
        "Zhao et al. (2020)'s (align.py's own defaults are --batchsize 10000 --no-sgd "
        "--maxsup -1). Writes the full source vocabulary mapped and normalised, and R.",
    )
    align.add_argument("--src-emb", required=True, type=Path, help="source .vec/.bin")
    align.add_argument("--tgt-emb", required=True, type=Path, help="target .vec/.bin")
    align.add_argument("--dico-train", required=True, type=Path, help="MUSE train dictionary")
    align.add_argument(
        "--dico-test", type=Path, default=None, help="MUSE test dictionary: print CSLS accuracy"
    )
    align.add_argument("--output", required=True, type=Path, help="aligned .vec to write")
    align.add_argument(
        "--matrix", type=Path, default=None, help="R as .npy (default: OUTPUT-mat.npy)"
    )
    align.add_argument("--summary", type=Path, default=None, help="JSON of losses and settings")
    align.add_argument("--knn", type=int, default=defaults.knn)
    align.add_argument("--lr", type=float, default=defaults.lr)
    align.add_argument("--niter", type=int, default=defaults.niter)
    align.add_argument("--maxneg", type=int, default=defaults.maxneg)
    align.add_argument("--maxsup", type=int, default=defaults.maxsup)
    align.add_argument("--maxload", type=int, default=defaults.maxload)
    align.add_argument("--batchsize", type=int, default=defaults.batchsize)
    align.add_argument("--sgd", action=argparse.BooleanOptionalAction, default=defaults.sgd)
    align.add_argument("--center", action=argparse.BooleanOptionalAction, default=False)
    align.add_argument("--seed", type=int, default=defaults.seed, help="seed of SGD batches")
    align.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    align.set_defaults(run=_align)

    bli = commands.add_parser(
        "bli",
        help="bilingual lexicon induction accuracy of an aligned space (fastText's eval.py)",
        description="Accuracy = correct top-1 / distinct source words of the dictionary; "
        "words missing from either vocabulary count as errors.",
    )
    bli.add_argument("--src-emb", required=True, type=Path, help="source vectors, aligned")
    bli.add_argument("--tgt-emb", required=True, type=Path, help="target vectors")
    bli.add_argument("--dico-test", required=True, type=Path, help="MUSE test dictionary")
    bli.add_argument("--retrieval", choices=["csls", "nn"], default="csls")
    bli.add_argument("--knn", type=int, default=10, help="CSLS neighbourhood size")
    bli.add_argument("--maxload", type=int, default=200_000)
    bli.add_argument("--center", action=argparse.BooleanOptionalAction, default=False)
    bli.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    bli.add_argument("--output", type=Path, default=None, help="JSON of the result")
    bli.set_defaults(run=_bli)

    bios = commands.add_parser(
        "bios-extract",
        help="extract gendered bios from Common Crawl WET files (Zhao et al. 2020)",
        description="Lines 'NAME is a(n) TITLE' with one person entity and one gender; "
        "deduplicated and scrubbed; one JSON object per bio.",
    )
    bios.add_argument("--wet", required=True, nargs="+", type=Path, help="*.warc.wet.gz files")
    bios.add_argument("--lang", required=True, choices=["en", "es", "de", "fr"])
    bios.add_argument("--output", required=True, type=Path, help="JSON-lines dataset to write")
    bios.add_argument(
        "--pipeline", default=None, help="spaCy pipeline package, or 'blank' (with --names)"
    )
    bios.add_argument("--names", type=Path, default=None, help="full names, one per line")
    bios.add_argument("--titles", type=Path, default=None, help="freq_titles-style JSON")
    bios.add_argument("--french-conjunction-fix", action="store_true")
    bios.add_argument("--occupation-cap", type=int, default=None)
    bios.add_argument("--seed", type=int, default=0)
    bios.set_defaults(run=_bios_extract)

    debias = commands.add_parser(
        "debias",
        help="hard-debias word vectors (Bolukbasi et al. 2016; Zhao et al.'s ENDEB)",
        description="Word lists default to debiaswe's (shipped); pairs missing from the "
        "vocabulary are skipped and reported.",
    )
    debias.add_argument("--emb", required=True, type=Path, help=".vec/.bin to debias")
    debias.add_argument("--output", required=True, type=Path, help="debiased .vec to write")
    debias.add_argument("--definitional", type=Path, default=None, help="JSON list of pairs")
    debias.add_argument("--gender-specific", type=Path, default=None, help="JSON list of words")
    debias.add_argument("--equalize", type=Path, default=None, help="JSON list of pairs")
    debias.add_argument("--summary", type=Path, default=None, help="JSON of what was done")
    debias.set_defaults(run=_debias)

    inbias = commands.add_parser(
        "inbias",
        help="inBias (Zhao et al. 2020, Eq. 1) of a space on MIBs-style word lists",
        description="variant 'averaged' is Eq. 1 as printed; 'pairwise' is the authors' "
        "code, which reproduces the published numbers.",
    )
    inbias.add_argument("--emb", required=True, type=Path, help="space to score (.vec/.bin)")
    inbias.add_argument("--male-occupations", required=True, type=Path)
    inbias.add_argument("--female-occupations", required=True, type=Path)
    inbias.add_argument("--seeds", required=True, type=Path, help="[female, male] JSON pairs")
    inbias.add_argument(
        "--original", type=Path, default=None, help="original space whose vocabulary filters"
    )
    inbias.add_argument("--variant", choices=["averaged", "pairwise"], default="averaged")
    inbias.add_argument("--authors-split", action="store_true")
    inbias.add_argument("--n-strong", type=int, default=137)
    inbias.add_argument(
        "--reference", type=Path, default=None, help="per-occupation CSV to t-test against"
    )
    inbias.add_argument("--paired", action="store_true", help="ttest_rel, not ttest_ind")
    inbias.add_argument("--output", type=Path, default=None, help="JSON summary")
    inbias.add_argument("--scores", type=Path, default=None, help="per-occupation CSV")
    inbias.set_defaults(run=_inbias)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mgbias", description=__doc__)
    parser.add_argument("--version", action="version", version=version("mgbias"))
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check-config", help="validate a workflow configuration file")
    check.add_argument("config", type=Path)
    check.add_argument(
        "--schema",
        type=Path,
        default=None,
        help=f"schema to validate against (default: the shipped one, {schema_path()})",
    )
    check.set_defaults(run=_check_config)

    score = commands.add_parser(
        "score",
        help="score one model on one pair dataset with AUL, AULA, CPS, SSS, S_JSD",
        description="Scores are percent of pairs preferring the stereotypical sentence, "
        "except sjsd (raw mean; negative = stereotypical sentence preferred).",
    )
    score.add_argument("--model", required=True, help="Hugging Face hub id or local directory")
    score.add_argument("--revision", default=None)
    score.add_argument(
        "--data",
        required=True,
        help="a CrowS-Pairs / multilingual CrowS-Pairs CSV or StereoSet JSON file, or the "
        "name of a shipped public benchmark (crows_pairs, multilingual_crows_pairs, "
        "stereoset) or of a pair dataset of --config, downloaded once into --cache-dir",
    )
    score.add_argument(
        "--config",
        type=Path,
        default=None,
        help="a workflow configuration whose pair_datasets name the datasets "
        "(default: the shipped benchmarks)",
    )
    score.add_argument(
        "--mirror",
        default=None,
        metavar="URL",
        help="fetch a named dataset from this host instead, at the original URL's path "
        "(e.g. a local copy of raw.githubusercontent.com); its pinned checksum still applies",
    )
    score.add_argument(
        "--cache-dir",
        type=Path,
        default=DEFAULT_CACHE,
        help="where named datasets are downloaded (default: %(default)s)",
    )
    score.add_argument(
        "--measures",
        default=",".join(PAIR_MEASURES),
        help="comma-separated pair measures (default: %(default)s; docs/measures.md)",
    )
    score.add_argument("--lang", default=None, help="language of a multilingual CrowS-Pairs file")
    score.add_argument("--bias-type", default="gender")
    score.add_argument(
        "--output",
        type=Path,
        default=None,
        help="CSV: measure, score, se, p_value, significant, n, n_edge",
    )
    score.add_argument(
        "--per-pair",
        type=Path,
        default=None,
        help="CSV with one row per pair: both sentences, every measure's sentence scores, "
        "the pair's S_JSD, token counts and edge-case flags",
    )
    score.add_argument("--seed", type=int, default=0, help="seed of the bootstrap standard errors")
    score.add_argument(
        "--tie-rule",
        choices=["neutral", "half", "exclude"],
        default="neutral",
        help="a tie counts as no win (neutral), half a win, or is dropped with the measure's "
        "edge-case pairs (exclude) (default: %(default)s)",
    )
    score.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="significance level of the p-values' mark (default: %(default)s)",
    )
    score.add_argument(
        "--perturb",
        action="store_true",
        help="remove the final character of every sentence (Steinborn et al. 2022, Table 3)",
    )
    score.add_argument(
        "--max-length", type=int, default=None, help="token limit (default: the model's)"
    )
    score.add_argument("--batch-size", type=int, default=64)
    score.add_argument(
        "--allow-untrained-head",
        action="store_true",
        help="score a model whose checkpoint lacks MLM head weights (initialised at random, "
        "so every score is noise) with a warning instead of refusing it",
    )
    score.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    score.set_defaults(run=_score)

    tbs = commands.add_parser(
        "tbs",
        help="template probes of one model: TBS (Kurita et al. 2019), P(he)/P(she) over "
        "neutral occupations and the top predictions of a masked sentence (Kaneko et al. 2023)",
        description="The numbers of the workflow's scripts/kaneko2023_probe.py for one model.",
    )
    tbs.add_argument("--model", required=True, help="Hugging Face hub id or local directory")
    tbs.add_argument("--revision", default=None)
    tbs.add_argument(
        "--lang", default="en", help="language of the template (templates.yaml; default en)"
    )
    tbs.add_argument(
        "--targets",
        default="bolukbasi2016",
        help="target list: bolukbasi2016 (English professions of Bolukbasi et al. 2016), "
        "bolukbasi2016_neutral, demo, or a file (default: %(default)s)",
    )
    tbs.add_argument("--templates", type=Path, default=None, help="another templates.yaml")
    tbs.add_argument(
        "--sentence", default=None, help="sentence with one [MASK] for the top predictions"
    )
    tbs.add_argument(
        "--female", nargs="+", default=None, help="word lists classing the top predictions"
    )
    tbs.add_argument("--male", nargs="+", default=None)
    tbs.add_argument("--top-k", type=int, default=5)
    tbs.add_argument(
        "--output",
        type=Path,
        default=None,
        help="CSV, one row per target: log-probabilities, associations and bias",
    )
    tbs.add_argument("--summary", type=Path, default=None, help="JSON summary")
    tbs.add_argument("--top", type=Path, default=None, help="CSV of the top predictions")
    tbs.add_argument("--max-length", type=int, default=None)
    tbs.add_argument("--batch-size", type=int, default=64)
    tbs.add_argument("--allow-untrained-head", action="store_true")
    tbs.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    tbs.set_defaults(run=_tbs)

    share = commands.add_parser(
        "share",
        help="share a completed run through DVC (push) or take one in (pull)",
        description="The recipe of docs/sharing.md; `make push` and `make pull` call it.",
    )
    add_share_arguments(share)
    share.set_defaults(run=run_share)
    _add_embedding_commands(commands)
    _add_finetune_commands(commands)
    _add_probe_command(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    from mgbias.cli_provenance import write_cli_sidecars
    from mgbias.provenance import now

    args = build_parser().parse_args(argv)
    started = now()
    try:
        status = args.run(args)
        if status == 0:  # a provenance sidecar beside every output the command wrote
            write_cli_sidecars(args, started=started, argv=argv)
        return status
    except (ValueError, OSError) as error:  # bad input: a message naming it, no traceback
        print(f"mgbias: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
