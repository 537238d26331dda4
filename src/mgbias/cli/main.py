"""The ``mgbias`` command line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mgbias._version import version
from mgbias.cli.options import (
    HelpFormatter,
    add_device_option,
    add_hidden_alias,
    add_precision_option,
    non_negative_int,
    open_probability,
    output_directory,
    output_file,
    positive_float,
    positive_int,
    probability,
)
from mgbias.config import ConfigError, check_config_file, schema_path
from mgbias.errors import InputError
from mgbias.measures.registry import PAIR_MEASURES
from mgbias.mlm.precision_names import PRECISION_NAMES
from mgbias.pairs.named import DEFAULT_CACHE
from mgbias.wordlists.genders import FEMALE, MALE
from mgbias.workflow.share import add_arguments as add_share_arguments
from mgbias.workflow.share import run_action as run_share


def _check_config(args: argparse.Namespace) -> int:
    try:
        config, warnings = check_config_file(args.config, args.schema, strict=args.strict)
    except ConfigError as error:
        for each in error.errors:  # every error found, one line each
            print(f"mgbias: {each}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"mgbias: warning: {warning}", file=sys.stderr)
    print(
        f"{args.config}: valid; {len(config['languages'])} languages, "
        f"{len(config['corpora'])} corpora, {len(config['models'])} models, "
        f"{len(config['pair_datasets'])} pair datasets"
    )
    return 0


def _score(args: argparse.Namespace) -> int:
    import mgbias
    from mgbias.corpora.download import DownloadError

    try:
        _check_alpha(args.alpha)
        _check_outputs(output=args.output, per_pair=args.per_pair)
        report = mgbias.score_pairs(
            args.model,
            args.data,
            measures=args.measures,
            lang=args.lang,
            bias_type=args.bias_type,
            seed=args.seed,
            tie_rule=args.tie_rule,
            alpha=args.alpha,
            batch_size=args.batch_size,
            max_length=args.max_length,
            perturb=args.perturb,
            revision=args.revision,
            device=args.device,
            allow_untrained_head=args.allow_untrained_head,
            tokenizer=args.tokenizer,
            allow_unk=args.allow_unk,
            config=args.config,
            cache_dir=args.cache_dir,
            mirror=args.mirror,
            force_lang=args.force_lang,
            cluster=args.cluster,
            precision=args.precision,
            structural_baseline=args.structural_baseline,
        )
    except (ValueError, OSError, ConfigError, DownloadError) as error:
        # bad data, options or model (UntrainedHeadError, ModelLoadError, no model dir)
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(report)
    from mgbias.files.tabular import write_csv

    # outputs; a provenance record of each belongs right after its write
    if args.output:
        write_csv(_score_table(report), args.output)
    if args.per_pair:
        write_csv(report.per_pair, args.per_pair)
        print(f"{len(report.per_pair)} pairs written to {args.per_pair}", file=sys.stderr)
    return 0


def _score_table(report) -> object:
    """``score --output``: the summary; with the structural baseline, its rows after the
    model's and a first column ``run`` (:func:`mgbias.pairs.baseline.with_baseline_rows`)."""
    if report.baseline is None:
        return report.summary
    from mgbias.pairs.baseline import with_baseline_rows

    return with_baseline_rows(report.summary, report.baseline.summary)


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"--alpha must lie strictly between 0 and 1, got {alpha}")


def _check_outputs(**paths: Path | None) -> None:
    """Refuse an output path that is a directory, before any work (option named)."""
    for option, path in paths.items():
        if path is not None and Path(path).is_dir():
            flag = "--" + option.replace("_", "-")
            raise ValueError(f"{path}: is a directory (expected a file path for {flag})")


def _mined_table(path: Path) -> tuple[list[str], list[str], dict[str, list[str]] | None]:
    """Male and female sentences of a mined-sentences TSV, and their gender words if it has them."""
    from mgbias.kaneko2022.sentences import read_gender_words, read_gendered_sentences

    if not Path(path).is_file():
        raise FileNotFoundError(f"{path}: no such file (expected mined sentences, a TSV)")
    genders, sentences = read_gendered_sentences(path)
    by_gender = {
        gender: [text for text, label in zip(sentences, genders, strict=True) if label == gender]
        for gender in (MALE, FEMALE)
    }
    words = read_gender_words(path)
    if words is not None:
        words = {
            gender: [word for word, label in zip(words, genders, strict=True) if label == gender]
            for gender in (MALE, FEMALE)
        }
    return by_gender[MALE], by_gender[FEMALE], words


def _mbe(args: argparse.Namespace) -> int:
    """``mgbias mbe``: MBE of one model on male and female sentences, or on a parallel corpus."""
    import mgbias
    from mgbias.measures.mbe import check_mbe_options

    by_files = args.male is not None or args.female is not None
    by_corpus = args.source is not None or args.target is not None
    by_table = args.sentences is not None
    if by_files + by_corpus + by_table != 1 or (
        by_files and (args.male is None or args.female is None)
    ):
        print(
            "mgbias: give --male FILE and --female FILE, or --source FILE --target FILE "
            "--lang LANG (a parallel corpus to mine first), or --sentences FILE (mined "
            "sentences, as the workflow writes them)",
            file=sys.stderr,
        )
        return 2
    if by_corpus and (args.source is None or args.target is None or not args.lang):
        print("mgbias: --source, --target and --lang go together", file=sys.stderr)
        return 2
    if by_files and args.units == "gender-words":
        print(
            "mgbias: --units gender-words needs --source/--target or --sentences: the gender "
            "words come from mining; with --male/--female files the units are the sentences",
            file=sys.stderr,
        )
        return 2
    by_words = (by_corpus or by_table) and args.units != "sentences"
    clusters = {}
    try:
        _check_alpha(args.alpha)
        _check_outputs(output=args.output, per_sentence=args.per_sentence)
        check_mbe_options(
            weighting=args.weighting, alpha=args.alpha, n_permutations=args.permutations
        )
        if by_corpus:
            mined = mgbias.mine(
                args.source,
                args.target,
                args.lang,
                female_words=args.female_words,
                male_words=args.male_words,
                seed=args.seed if args.mining_seed is None else args.mining_seed,
            )
            counts = mined.counts
            print(
                f"mined {counts.n_pairs} lines of {args.source}: {counts.n_female} female, "
                f"{counts.n_male} male, {counts.n_both} with both, {counts.n_neutral} with "
                f"neither; kept {counts.n_kept_per_gender} per gender",
                file=sys.stderr,
            )
            male, female = mined.male, mined.female
            if by_words:
                clusters = {
                    "male_clusters": mined.male_words,
                    "female_clusters": mined.female_words,
                }
        elif by_table:
            male, female, words = _mined_table(args.sentences)
            if by_words and words is None:
                raise ValueError(
                    f"{args.sentences}: no gender_words column, which --units gender-words "
                    "needs; give --units sentences to test sentence by sentence"
                )
            if by_words:
                clusters = {"male_clusters": words[MALE], "female_clusters": words[FEMALE]}
        else:
            male, female = mgbias.read_sentences(args.male), mgbias.read_sentences(args.female)
        report = mgbias.mbe(
            args.model,
            male,
            female,
            weighting=args.weighting,
            permutations=args.permutations,
            seed=args.seed,
            alpha=args.alpha,
            batch_size=args.batch_size,
            max_length=args.max_length,
            revision=args.revision,
            device=args.device,
            allow_untrained_head=args.allow_untrained_head,
            tokenizer=args.tokenizer,
            allow_unk=args.allow_unk,
            precision=args.precision,
            **clusters,
        )
    except (ValueError, OSError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(report)
    units = "gender-word groups" if clusters else "sentences"
    print(
        f"({args.weighting} weighting, {report.result.test} test with {args.permutations} "
        f"relabellings of {units}, seed {args.seed}; MBE > 50: the male sentences have the "
        "higher AULA)"
    )
    from mgbias.files.tabular import write_csv

    # outputs; a provenance record of each belongs right after its write
    if args.output:
        write_csv(report.summary(), args.output)
    if args.per_sentence:
        write_csv(report.per_sentence, args.per_sentence)
        print(f"{len(report.per_sentence)} sentences written to {args.per_sentence}",
              file=sys.stderr)  # fmt: skip
    return 0


def _add_mbe_command(commands: argparse._SubParsersAction) -> None:
    from mgbias.api.mlm import DEFAULT_FEMALE_WORDS, DEFAULT_MALE_WORDS

    mbe = commands.add_parser(
        "mbe",
        help="MBE of one model on male and female sentences, or on a parallel corpus "
        "(Kaneko et al. 2022, Eq. 2), with its permutation test and the Shf baseline",
        description="MBE = 100 x the cosine-weighted share of (male, female) sentence "
        "pairs in which the model's AULA prefers the male sentence (Kaneko et al. 2022, "
        "Eq. 2): above 50 the model prefers the male sentences. The same numbers as the "
        "workflow's mbe rule for the same sentences, seed and settings.",
    )
    mbe.add_argument("--model", required=True, help="Hugging Face hub id or local directory")
    mbe.add_argument(
        "--revision", default=None, help="hub branch, tag or commit (default: the latest)"
    )
    sentences = mbe.add_argument_group(
        "sentences",
        "either --male and --female, or --source, --target and --lang, or --sentences",
    )
    sentences.add_argument(
        "--male", type=Path, default=None, help="male sentences, UTF-8, one a line (default: none)"
    )
    sentences.add_argument(
        "--female",
        type=Path,
        default=None,
        help="female sentences, UTF-8, one a line (default: none)",
    )
    sentences.add_argument(
        "--source",
        type=Path,
        default=None,
        help="English side of a parallel corpus, one sentence a line (mined first: "
        "Kaneko et al. 2022, §3, Step 1) (default: none)",
    )
    sentences.add_argument(
        "--target",
        type=Path,
        default=None,
        help="target side of the parallel corpus, aligned line by line with --source "
        "(default: none)",
    )
    sentences.add_argument("--lang", default=None, help="language of --target (default: none)")
    sentences.add_argument(
        "--sentences",
        type=Path,
        default=None,
        help="mined sentences as the workflow writes them (data/mined/{world}/{corpus}/"
        "{lang}.tsv: gender, sentence, gender_words), for the workflow's numbers "
        "(default: none)",
    )
    sentences.add_argument(
        "--female-words",
        nargs="+",
        default=list(DEFAULT_FEMALE_WORDS),
        help="English female word lists for mining, shipped names or files (default: %(default)s)",
    )
    sentences.add_argument(
        "--male-words",
        nargs="+",
        default=list(DEFAULT_MALE_WORDS),
        help="English male word lists for mining, shipped names or files (default: %(default)s)",
    )
    sentences.add_argument(
        "--mining-seed",
        type=int,
        default=None,
        help="seed of the mining's downsampling to equal sizes (default: --seed)",
    )
    mbe.add_argument(
        "--weighting",
        choices=["cosine", "dot"],
        default="cosine",
        help="pair weight C(m, f): the paper's cosine or the published code's dot product "
        "(default: %(default)s)",
    )
    mbe.add_argument(
        "--permutations",
        type=positive_int,
        default=999,
        help="random relabellings of the permutation test (default: %(default)s)",
    )
    mbe.add_argument(
        "--units",
        choices=["gender-words", "sentences"],
        default=None,
        help="the permutation test's units: gender-words relabels together the sentences "
        "mined by the same English gender words, so that a model's own preference for one "
        "word does not pass for a gender preference; sentences relabels each sentence "
        "(default: gender-words with --source/--target or --sentences, sentences with "
        "--male/--female)",
    )
    mbe.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the permutation test and the Shf split (default: %(default)s)",
    )
    mbe.add_argument(
        "--alpha",
        type=open_probability,
        default=0.05,
        help="significance level (default: %(default)s)",
    )
    mbe.add_argument(
        "--output",
        type=output_file,
        default=None,
        help="CSV of the result: mbe, p_value, preferred (male or female when "
        "significant, else none), shf, shf_p_value, n_male, n_female, settings, verdict "
        "(default: none)",
    )
    mbe.add_argument(
        "--per-sentence",
        type=output_file,
        default=None,
        help="CSV with one row per sentence: gender, sentence, aula, and cluster (its "
        "gender words) with --units gender-words (default: none)",
    )
    mbe.add_argument(
        "--batch-size",
        type=positive_int,
        default=64,
        help="sentences per forward pass (default: %(default)s)",
    )
    mbe.add_argument(
        "--max-length",
        type=positive_int,
        default=None,
        help="token limit (default: the model's)",
    )
    mbe.add_argument(
        "--allow-untrained-head",
        action="store_true",
        help="score a model whose checkpoint lacks MLM head weights (noise) with a warning "
        "instead of refusing it (default: refuse)",
    )
    _add_gate_options(mbe)
    add_device_option(mbe)
    add_precision_option(mbe)
    mbe.set_defaults(run=_mbe)


def _finetune(args: argparse.Namespace) -> int:
    import logging

    import mgbias

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    model = mgbias.finetune_mlm(
        args.model,
        args.text,
        args.output,
        dev=args.dev or (),
        learning_rate=args.lr,
        epochs=args.epochs,
        batch_size=args.batch_size,
        devices=args.devices,
        gradient_accumulation=args.gradient_accumulation,
        micro_batch_size=args.micro_batch_size,
        max_seq_length=args.max_seq_length,
        line_by_line=args.line_by_line,
        seed=args.seed,
        checkpoint_every=args.checkpoint_every,
        precision=args.precision,
        deterministic=args.deterministic,
        group_by_length=args.group_by_length,
        compile=args.compile,
        clip=not args.no_clip,
        revision=args.revision,
        device=args.device,
        threads=args.threads,
        keep_checkpoints=args.keep_checkpoints,
        allow_untrained_head=args.allow_untrained_head,
    )
    print(model)
    return 0


def _gendered_text(args: argparse.Namespace) -> int:
    import mgbias

    mined = mgbias.gendered_text(
        args.text,
        args.output,
        female_words=args.female,
        male_words=args.male,
        n=args.n,
        n_dev=args.n_dev,
        seed=args.seed,
    )
    print(mined)
    return 0


def _mix(args: argparse.Namespace) -> int:
    import mgbias

    mixed = mgbias.mix_gendered_text(
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
    print(mixed)
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
    _add_model_options(finetune)
    finetune.add_argument(
        "--text", required=True, type=Path, nargs="+", help="training text, one sentence a line"
    )
    finetune.add_argument(
        "--dev", type=Path, nargs="*", help="development text for the dev loss (default: none)"
    )
    finetune.add_argument(
        "--output", required=True, type=output_directory, help="model directory to write"
    )
    finetune.add_argument(
        "--lr", type=positive_float, default=None, help="learning rate (default: 5e-5)"
    )
    finetune.add_argument(
        "--epochs", type=positive_int, default=None, help="passes over the text (default: 3)"
    )
    finetune.add_argument(
        "--batch-size", type=positive_int, default=None, help="examples per device (default: 8)"
    )
    finetune.add_argument(
        "--devices", type=positive_int, default=None, help="emulated devices (default: 4)"
    )
    finetune.add_argument(
        "--gradient-accumulation",
        type=positive_int,
        default=None,
        help="steps accumulated per update, on top of the emulated devices (default: 1)",
    )
    finetune.add_argument(
        "--micro-batch-size",
        type=positive_int,
        default=None,
        help="examples per forward pass, a multiple of --batch-size (default: --batch-size)",
    )
    finetune.add_argument(
        "--block-size",
        "--max-seq-length",
        dest="max_seq_length",
        type=positive_int,
        default=None,
        help="tokens per block, or per line with --line-by-line (default: the tokenizer's "
        "maximum, at most 1024)",
    )
    finetune.add_argument(
        "--line-by-line",
        action="store_true",
        default=None,
        help="one example per line instead of concatenated blocks",
    )
    finetune.add_argument("--seed", type=int, default=None, help="random seed (default: 42)")
    finetune.add_argument(
        "--checkpoint-every",
        type=non_negative_int,
        default=None,
        help="optimizer steps between checkpoints, 0 for none (default: 500)",
    )
    finetune.add_argument(
        "--keep-checkpoints",
        action="store_true",
        help="keep OUTPUT.checkpoints after the run instead of removing it",
    )
    finetune.add_argument(
        "--precision",
        choices=PRECISION_NAMES,
        default=None,
        help="training precision (default: fp32)",
    )
    finetune.add_argument(
        "--deterministic",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="deterministic algorithms: a run repeats bit for bit (default: on)",
    )
    finetune.add_argument(
        "--group-by-length",
        action="store_true",
        default=None,
        help="batch lines of similar length together (default: off; changes the weights)",
    )
    finetune.add_argument(
        "--compile",
        action="store_true",
        default=None,
        help="run the model under torch.compile (default: off)",
    )
    finetune.add_argument("--no-clip", action="store_true", help="no gradient-norm clipping")
    finetune.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        help="CPU threads of torch (default: torch's own choice)",
    )
    add_device_option(finetune)
    _add_untrained_head_option(finetune)
    finetune.set_defaults(run=_finetune)

    gendered = commands.add_parser(
        "gendered-text",
        help="D_f and D_m: female and male sentences of a monolingual text, N each, "
        "plus development sets (Kaneko et al. 2023)",
    )
    gendered.add_argument(
        "--text", required=True, type=Path, nargs="+", help="text to mine, one sentence a line"
    )
    gendered.add_argument(
        "--output",
        required=True,
        type=output_directory,
        help="directory for female.txt, male.txt, dev_female.txt, dev_male.txt",
    )
    _add_word_list_options(
        gendered,
        female=["kaneko2023_en_female"],
        male=["kaneko2023_en_male"],
        what="that make a sentence female / male",
    )
    gendered.add_argument(
        "--n",
        type=positive_int,
        default=None,
        help="training sentences per gender (default: the most both genders allow, the "
        "rarer gender's count less --n-dev)",
    )
    gendered.add_argument(
        "--n-dev", type=non_negative_int, default=0, help="development sentences per gender"
    )
    gendered.add_argument("--seed", type=int, default=0, help="seed of the sampling")
    gendered.set_defaults(run=_gendered_text)

    mix = commands.add_parser(
        "mix-gendered-text", help="D_r: N sentences of which round(N r) are male"
    )
    mix.add_argument(
        "--female", required=True, type=Path, help="female sentences, one a line (D_f)"
    )
    mix.add_argument("--male", required=True, type=Path, help="male sentences, one a line (D_m)")
    mix.add_argument("--r", required=True, type=probability, help="male rate in [0, 1]")
    mix.add_argument("--output", required=True, type=output_file, help="text file to write (D_r)")
    mix.add_argument(
        "--n",
        type=positive_int,
        default=None,
        help="sentences to write, N (default: the number of lines of --female and --male, "
        "which must then be equal)",
    )
    mix.add_argument("--seed", type=int, default=0, help="seed of the sampling")
    mix.add_argument(
        "--repeat",
        type=non_negative_int,
        default=0,
        help="index of the repeated draw (each repeat samples anew)",
    )
    mix.add_argument(
        "--sampling",
        choices=["nested", "independent"],
        default="nested",
        help="nested: the mixtures of one repeat share sentences across rates; "
        "independent: each rate samples anew",
    )
    mix.add_argument(
        "--rounding",
        choices=["half_up", "half_even"],
        default="half_up",
        help="how N r is rounded to a count of male sentences",
    )
    mix.set_defaults(run=_mix)


def _tbs(args: argparse.Namespace) -> int:
    import mgbias

    report = mgbias.tbs(
        args.model,
        args.lang,
        targets=args.targets,
        templates=args.templates,
        sentence=args.sentence,
        female_words=args.female,
        male_words=args.male,
        top_k=args.top_k,
        batch_size=args.batch_size,
        max_length=args.max_length,
        revision=args.revision,
        device=args.device,
        allow_untrained_head=args.allow_untrained_head,
        tokenizer=args.tokenizer,
        allow_unk=args.allow_unk,
        precision=args.precision,
    )
    from mgbias.finetune.probe import write_probe

    write_probe(
        report.result, targets_path=args.output, summary_path=args.summary, top_path=args.top
    )
    print(report)
    return 0


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


def _add_probe_command(commands) -> None:
    probe = commands.add_parser(
        "probe",
        help="contextual-embedding probes of one encoder on one corpus (Basta et al. 2020, "
        "Exp. 1-5: gender direction, direct bias, clustering, SVM, KNN; Exp. 6-9 in "
        "Spanish, French and German), per layer",
        description="The numbers of the workflow's scripts/basta2020_probes.py for one "
        "encoder and corpus. Layers: indices of hidden_states (0 = embeddings), 'last', "
        "'concat' (all joined; the paper's ELMo 'concatenation'), or 'all'.",
    )
    _add_model_options(probe, what="encoder")
    probe.add_argument(
        "--text", dest="corpus", required=True, type=Path, help="corpus, one sentence a line"
    )
    add_hidden_alias(probe, "--text", "--corpus")
    probe.add_argument(
        "--lang", default="en", help="language of the shipped word lists: en, es, fr or de"
    )
    probe.add_argument(
        "--experiments", default="1,2,3,4,5,6,7,8,9",
        help="comma-separated experiments; Exp. 6-9 (directions, Table 6, Table 7) run where "
        "the corpus has nouns of grammatical gender (--lang es, fr or de, with --spacy)",
    )  # fmt: skip
    probe.add_argument(
        "--layers", default="all", help="layers: comma-separated indices, last, concat or all"
    )
    probe.add_argument(
        "--vectors", type=Path, default=None, help="static .vec/.bin for the biased lists, "
        "the professions' bias and, in es, fr or de (with --spacy), the semantic and grammar "
        "lists (default: professions by the sign of their score)",
    )  # fmt: skip
    probe.add_argument("--n-biased", type=positive_int, default=500, help="biased words per "
                       "gender (with --vectors)")  # fmt: skip
    probe.add_argument("--n-extended", type=non_negative_int, default=2500, help="extended-list "
                       "words per gender, after the biased ones (with --vectors)")  # fmt: skip
    probe.add_argument("--top-n", type=positive_int, default=50_000, help="most frequent words "
                       "ranked (with --vectors)")  # fmt: skip
    probe.add_argument("--spacy", default=None, help="token analyser of the swap's agreement and "
                       "the nouns: a spaCy pipeline (es_core_news_sm, fr_core_news_sm, ...) "
                       "or demo (the demo grammar's) (default: none; no Exp. 6-9)")  # fmt: skip
    probe.add_argument("--cache", type=Path, default=None, help="word-vector cache to reuse "
                       "(default: a temporary one)")  # fmt: skip
    probe.add_argument("--output", type=output_file, default=None, help="CSV, one row per "
                       "layer, experiment and measure (default: none)")  # fmt: skip
    probe.add_argument("--summary", type=output_file, default=None, help="JSON of every result "
                       "(default: none)")  # fmt: skip
    probe.add_argument("--runs", type=positive_int, default=10, help="repeated runs of the "
                       "clustering and the SVM")  # fmt: skip
    probe.add_argument("--seed", type=int, default=0, help="seed of the sampling and classifiers")
    probe.add_argument("--n-train", type=positive_int, default=1000, help="SVM training words")
    probe.add_argument("--knn-k", type=positive_int, default=100, help="neighbours of the KNN "
                       "classifier")  # fmt: skip
    probe.add_argument("--n-knn", type=positive_int, default=100, help="professions per "
                       "gender (Exp. 5)")  # fmt: skip
    probe.add_argument("--n-bootstrap", type=non_negative_int, default=1000, help="bootstrap "
                       "resamples")  # fmt: skip
    probe.add_argument("--n-pca-sentences", type=positive_int, default=1000, help="sentences "
                       "of the gender direction's PCA")  # fmt: skip
    probe.add_argument("--max-per-word", type=int, default=20, help="occurrences kept per "
                       "word, a seeded sample (0: all)")  # fmt: skip
    probe.add_argument("--max-sentences", type=non_negative_int, default=0, help="sentences "
                       "read from the corpus (0: all)")  # fmt: skip
    probe.add_argument("--pooling", choices=["mean", "first"], default="mean", help="how a "
                       "word's pieces become one vector")  # fmt: skip
    probe.add_argument("--dtype", choices=["float32", "float16"], default="float32",
                       help="dtype of the cached vectors")  # fmt: skip
    _add_batch_options(probe)
    add_device_option(probe, "the encoder")
    add_precision_option(probe, "the encoder")
    probe.set_defaults(run=_probe)


def _align(args: argparse.Namespace) -> int:
    import mgbias

    try:
        report = mgbias.align(
            args.src_emb,
            args.tgt_emb,
            args.dico_train,
            args.output,
            dico_test=args.dico_test,
            matrix=args.matrix or Path(f"{args.output}-mat.npy"),
            summary=args.summary,
            knn=args.knn,
            lr=args.lr,
            niter=args.niter,
            maxneg=args.maxneg,
            maxsup=args.maxsup,
            maxload=args.maxload,
            batch_size=args.batchsize,
            sgd=args.sgd,
            center=args.center,
            seed=args.seed,
            device=args.device,
            duplicates=args.duplicates,
        )
    except (ValueError, OSError, KeyError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(report)
    return 0


def _bli(args: argparse.Namespace) -> int:
    import mgbias

    report = mgbias.bli(
        args.src_emb,
        args.tgt_emb,
        args.dico_test,
        retrieval=args.retrieval,
        k=args.knn,
        maxload=args.maxload,
        center=args.center,
        device=args.device,
        output=args.output,
        duplicates=args.duplicates,
    )
    print(report)
    return 0


def _bios_extract(args: argparse.Namespace) -> int:
    import mgbias
    from mgbias.bios.ner import MissingPipelineError

    try:
        dataset = mgbias.extract_bios(
            args.wet,
            args.lang,
            args.output,
            pipeline=args.pipeline,
            names=args.names,
            titles=args.titles,
            french_conjunction_fix=args.french_conjunction_fix,
            occupation_cap=args.occupation_cap,
            seed=args.seed,
        )
    except MissingPipelineError as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(dataset)
    return 0


def _debias(args: argparse.Namespace) -> int:
    import mgbias

    try:
        report = mgbias.debias(
            args.emb,
            args.output,
            definitional=args.definitional,
            gender_specific=args.gender_specific,
            equalize=args.equalize,
            summary=args.summary,
            duplicates=args.duplicates,
        )
    except (ValueError, OSError, KeyError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(report)
    return 0


def _inbias(args: argparse.Namespace) -> int:
    import mgbias

    try:
        report = mgbias.inbias(
            args.emb,
            args.male_occupations,
            args.female_occupations,
            args.seeds,
            original=args.original,
            variant=args.variant,
            authors_split=args.authors_split,
            n_strong=args.n_strong,
            reference=args.reference,
            paired=args.paired,
            output=args.output,
            scores=args.scores,
            duplicates=args.duplicates,
        )
    except (ValueError, OSError, KeyError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(report)
    return 0


def _add_duplicates_option(parser: argparse.ArgumentParser) -> None:
    """``--duplicates``: how a word repeated in a ``.vec`` file is read."""
    from mgbias.embeddings.duplicates import DEFAULT_DUPLICATES, DUPLICATES

    parser.add_argument(
        "--duplicates",
        choices=DUPLICATES,
        default=DEFAULT_DUPLICATES,
        help="a word repeated in a .vec file: error refuses the file (naming both lines), "
        "first keeps its first row, as fastText does (default: %(default)s)",
    )


def _add_embedding_commands(commands) -> None:
    from mgbias.embeddings.rcsls_config import RCSLSConfig

    defaults = RCSLSConfig()
    align = commands.add_parser(
        "align",
        help="align two word-vector spaces with RCSLS (fastText's align.py, in torch)",
        description="Options as fastText's alignment/align.py, with hyphens; defaults are "
        "Zhao et al. (2020)'s (align.py's own defaults are --batch-size 10000 --no-sgd "
        "--maxsup -1). Writes the full source vocabulary mapped and normalised, and R.",
    )
    align.add_argument(
        "--source-vectors", dest="src_emb", required=True, type=Path,
        help="source space, .vec or fastText .bin",
    )  # fmt: skip
    align.add_argument(
        "--target-vectors", dest="tgt_emb", required=True, type=Path,
        help="target space, .vec or fastText .bin",
    )  # fmt: skip
    align.add_argument("--dico-train", required=True, type=Path, help="MUSE training dictionary")
    align.add_argument(
        "--dico-test",
        type=Path,
        default=None,
        help="MUSE test dictionary: print CSLS accuracy (default: none)",
    )
    align.add_argument("--output", required=True, type=output_file, help="aligned .vec to write")
    align.add_argument(
        "--matrix", type=output_file, default=None, help="R as .npy (default: OUTPUT-mat.npy)"
    )
    align.add_argument(
        "--summary",
        type=output_file,
        default=None,
        help="JSON of losses and settings (default: none)",
    )
    align.add_argument(
        "--knn", type=positive_int, default=defaults.knn, help="neighbours k of the CSLS loss"
    )
    align.add_argument("--lr", type=positive_float, default=defaults.lr, help="learning rate")
    align.add_argument(
        "--niter",
        type=non_negative_int,
        default=defaults.niter,
        help="iterations (niter + 1 gradient steps, as align.py)",
    )
    align.add_argument(
        "--maxneg",
        type=positive_int,
        default=defaults.maxneg,
        help="negatives: the first MAXNEG words of each side",
    )
    align.add_argument(
        "--maxsup",
        type=int,
        default=defaults.maxsup,
        help="training pairs kept, in file order (0 or less: all)",
    )
    align.add_argument(
        "--maxload",
        type=positive_int,
        default=defaults.maxload,
        help="words read from each vector file",
    )
    align.add_argument(
        "--batch-size",
        dest="batchsize",
        type=positive_int,
        default=defaults.batchsize,
        help="training pairs per step with --sgd",
    )
    add_hidden_alias(align, "--batch-size", "--batchsize")
    align.add_argument(
        "--sgd",
        action=argparse.BooleanOptionalAction,
        default=defaults.sgd,
        help="mini-batch steps at a constant learning rate; --no-sgd: full batch with "
        "learning-rate halving, as align.py (default: %(default)s)",
    )
    align.add_argument(
        "--center",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="mean-centre the vectors after normalising (default: %(default)s)",
    )
    align.add_argument("--seed", type=int, default=defaults.seed, help="seed of SGD batches")
    add_device_option(align, "the alignment")
    _add_duplicates_option(align)
    align.set_defaults(run=_align)

    bli = commands.add_parser(
        "bli",
        help="bilingual lexicon induction accuracy of an aligned space (fastText's eval.py)",
        description="Accuracy = correct top-1 / distinct source words of the dictionary; "
        "words missing from either vocabulary count as errors.",
    )
    bli.add_argument(
        "--source-vectors", dest="src_emb", required=True, type=Path,
        help="source space, aligned (.vec or fastText .bin)",
    )  # fmt: skip
    bli.add_argument(
        "--target-vectors", dest="tgt_emb", required=True, type=Path,
        help="target space (.vec or fastText .bin)",
    )  # fmt: skip
    bli.add_argument("--dico-test", required=True, type=Path, help="MUSE test dictionary")
    bli.add_argument(
        "--retrieval",
        choices=["csls", "nn"],
        default="csls",
        help="retrieval: CSLS or nearest neighbour",
    )
    bli.add_argument("--knn", type=positive_int, default=10, help="CSLS neighbourhood size")
    bli.add_argument(
        "--maxload", type=positive_int, default=200_000, help="words read from each vector file"
    )
    bli.add_argument(
        "--center",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="mean-centre the vectors after normalising (default: %(default)s)",
    )
    add_device_option(bli, "the retrieval")
    bli.add_argument(
        "--output", type=output_file, default=None, help="JSON of the result (default: none)"
    )
    _add_duplicates_option(bli)
    bli.set_defaults(run=_bli)
    for command in (align, bli):
        add_hidden_alias(command, "--source-vectors", "--src-emb")
        add_hidden_alias(command, "--target-vectors", "--tgt-emb")

    bios = commands.add_parser(
        "bios-extract",
        help="extract gendered bios from Common Crawl WET files (Zhao et al. 2020)",
        description="Lines 'NAME is a(n) TITLE' with one person entity and one gender; "
        "deduplicated and scrubbed; one JSON object per bio.",
    )
    bios.add_argument("--wet", required=True, nargs="+", type=Path, help="*.warc.wet.gz files")
    bios.add_argument(
        "--lang", required=True, choices=["en", "es", "de", "fr"], help="language of the bios"
    )
    bios.add_argument(
        "--output", required=True, type=output_file, help="JSON-lines dataset to write"
    )
    bios.add_argument(
        "--pipeline",
        default=None,
        help="spaCy pipeline package, or 'blank' (with --names) (default: the language's "
        "small pipeline, e.g. es_core_news_sm)",
    )
    bios.add_argument(
        "--names", type=Path, default=None, help="full names, one per line (default: none)"
    )
    bios.add_argument(
        "--titles",
        type=Path,
        default=None,
        help="freq_titles-style JSON of occupation titles (default: the shipped demo titles)",
    )
    bios.add_argument(
        "--french-conjunction-fix",
        action="store_true",
        help="French rejects 'TITLE et' instead of the authors' 'TITLE y'",
    )
    bios.add_argument(
        "--occupation-cap",
        type=positive_int,
        default=None,
        help="at most this many bios per occupation, a seeded sample (default: no cap)",
    )
    bios.add_argument("--seed", type=int, default=0, help="seed of the occupation cap's sample")
    bios.set_defaults(run=_bios_extract)

    debias = commands.add_parser(
        "debias",
        help="hard-debias word vectors (Bolukbasi et al. 2016; Zhao et al.'s ENDEB)",
        description="Word lists default to debiaswe's (shipped); pairs missing from the "
        "vocabulary are skipped and reported.",
    )
    debias.add_argument(
        "--vectors", dest="emb", required=True, type=Path, help=".vec/.bin to debias"
    )
    add_hidden_alias(debias, "--vectors", "--emb")
    debias.add_argument("--output", required=True, type=output_file, help="debiased .vec to write")
    debias.add_argument(
        "--definitional",
        type=Path,
        default=None,
        help="JSON list of definitional pairs (default: debiaswe's)",
    )
    debias.add_argument(
        "--gender-specific",
        type=Path,
        default=None,
        help="JSON list of gender-specific words (default: debiaswe's)",
    )
    debias.add_argument(
        "--equalize",
        type=Path,
        default=None,
        help="JSON list of pairs to equalise (default: debiaswe's)",
    )
    debias.add_argument(
        "--summary", type=output_file, default=None, help="JSON of what was done (default: none)"
    )
    _add_duplicates_option(debias)
    debias.set_defaults(run=_debias)

    inbias = commands.add_parser(
        "inbias",
        help="inBias (Zhao et al. 2020, Eq. 1) of a space on MIBs-style word lists",
        description="variant 'averaged' is Eq. 1 as printed; 'pairwise' is the authors' "
        "code, which reproduces the published numbers.",
    )
    inbias.add_argument(
        "--vectors", dest="emb", required=True, type=Path, help="space to score (.vec/.bin)"
    )
    add_hidden_alias(inbias, "--vectors", "--emb")
    inbias.add_argument(
        "--male-occupations",
        required=True,
        type=Path,
        help="masculine occupation forms, one a line (MIBs' {lang}_male_def_occ)",
    )
    inbias.add_argument(
        "--female-occupations",
        required=True,
        type=Path,
        help="feminine occupation forms, line by line with --male-occupations",
    )
    inbias.add_argument(
        "--seeds",
        required=True,
        type=Path,
        help="JSON list of [FEMALE, MALE] seed pairs, female word first as in MIBs' "
        '{lang}_gender_pairs.json: [["she", "he"], ["woman", "man"]]; a pair the other way '
        "round (a male word first, by the shipped gender word lists) is refused",
    )
    inbias.add_argument(
        "--original",
        type=Path,
        default=None,
        help="original space whose vocabulary filters the occupations (default: --vectors)",
    )
    inbias.add_argument(
        "--variant",
        choices=["averaged", "pairwise"],
        default="averaged",
        help="averaged: Eq. 1 as printed; pairwise: the authors' code",
    )
    inbias.add_argument(
        "--authors-split",
        action="store_true",
        help="read a line's translation as the authors' notebook does (the second "
        "tab-separated field, not the last)",
    )
    inbias.add_argument(
        "--n-strong",
        type=non_negative_int,
        default=137,
        help="occupation pairs at list positions below N are strongly gendered",
    )
    inbias.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="per-occupation CSV to t-test against (default: no test)",
    )
    inbias.add_argument("--paired", action="store_true", help="ttest_rel, not ttest_ind")
    inbias.add_argument(
        "--output", type=output_file, default=None, help="JSON summary (default: none)"
    )
    inbias.add_argument(
        "--scores", type=output_file, default=None, help="per-occupation CSV (default: none)"
    )
    _add_duplicates_option(inbias)
    inbias.set_defaults(run=_inbias)


def _add_model_options(parser: argparse.ArgumentParser, what: str = "masked LM") -> None:
    """``--model`` and ``--revision``, as every command that loads a model has them."""
    parser.add_argument(
        "--model", required=True, help=f"{what}: a Hugging Face hub id or a local directory"
    )
    parser.add_argument(
        "--revision",
        default=None,
        help="hub branch, tag or commit; ignored for a local directory (default: the hub's "
        "default branch)",
    )


def _add_untrained_head_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-untrained-head",
        action="store_true",
        help="use a model whose checkpoint lacks MLM head weights (initialised at random, "
        "so every score is noise) with a warning instead of refusing it",
    )


def _add_gate_options(parser: argparse.ArgumentParser) -> None:
    """``--tokenizer`` and ``--allow-unk``: the model gate's options (:mod:`mgbias.mlm.gate`)."""
    from mgbias.mlm.gate import MAX_UNK_SHARE

    share = f"{MAX_UNK_SHARE:.0%}".replace("%", "%%")  # argparse's help is %-formatted
    parser.add_argument(
        "--tokenizer",
        default=None,
        metavar="DIR_OR_ID",
        help="directory or hub id of the tokenizer, for a model saved without one "
        "(default: the model's own; a model directory without tokenizer files is refused)",
    )
    parser.add_argument(
        "--allow-unk",
        action="store_true",
        help=f"score data of which more than {share} of the word pieces are the tokenizer's "
        "unknown token, with a warning (default: refuse; the tokenizer does not fit the "
        "data or language)",
    )


def _add_batch_options(parser: argparse.ArgumentParser, batch_size: int = 64) -> None:
    parser.add_argument(
        "--batch-size",
        type=positive_int,
        default=batch_size,
        help="sentences per forward pass",
    )
    parser.add_argument(
        "--max-length",
        type=positive_int,
        default=None,
        help="token limit of a sentence (default: the model's)",
    )


def _add_word_list_options(
    parser: argparse.ArgumentParser,
    *,
    female: list[str] | None,
    male: list[str] | None,
    what: str,
    without: str = "",
) -> None:
    """``--female-words`` / ``--male-words``: shipped word-list names or files (the old
    ``--female`` / ``--male`` spellings of these commands are hidden aliases)."""
    for gender, default in (("female", female), ("male", male)):
        parser.add_argument(
            f"--{gender}-words",
            dest=gender,
            nargs="+",
            default=default,
            metavar="LIST",
            help=f"{gender} word lists {what}: names of shipped lists or files, one word a "
            "line" + ("" if default else f" (default: {without})"),
        )
        add_hidden_alias(parser, f"--{gender}-words", f"--{gender}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mgbias",
        description="Gender bias in masked language models and word embeddings: score a "
        "model on pair datasets, probe it, fine-tune it, and align, debias and score word "
        "vectors. docs/cli.md has an example of every command.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_CommandParser
    )
    check = commands.add_parser("check-config", help="validate a workflow configuration file")
    check.add_argument("config", type=Path, help="the workflow configuration (YAML)")
    check.add_argument(
        "--schema",
        type=Path,
        default=None,
        help=f"schema to validate against (default: the shipped one, {schema_path()})",
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings (a model that meets no data in its languages, a language "
        "without a model) as errors: exit status 2",
    )
    check.set_defaults(run=_check_config)

    score = commands.add_parser(
        "score",
        help="score one model on one pair dataset with AUL, AULA, CPS, SSS, S_JSD",
        description="Scores are percent of pairs preferring the stereotypical sentence, "
        "except sjsd (raw mean; negative = stereotypical sentence preferred).",
    )
    _add_model_options(score)
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
        "(e.g. a local copy of raw.githubusercontent.com); its pinned checksum still applies "
        "(default: the original host)",
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
    score.add_argument(
        "--lang",
        default=None,
        help="language of a multilingual CrowS-Pairs file (default: from its file name)",
    )
    score.add_argument(
        "--force-lang",
        action="store_true",
        help="score a multilingual CrowS-Pairs file as --lang although its name says "
        "another language",
    )
    score.add_argument(
        "--bias-type",
        default="gender",
        help="the benchmark's name of one bias type, or 'all': a row per bias type, then "
        "the rows over every pair (default: %(default)s)",
    )
    score.add_argument(
        "--output",
        type=output_file,
        default=None,
        help="CSV: bias_type, measure, score, se, p_value, significant, n, n_edge, n_ties, "
        "n_clusters, verdict (default: none)",
    )
    score.add_argument(
        "--per-pair",
        type=output_file,
        default=None,
        help="CSV with one row per pair: both sentences, bias_type, every measure's sentence "
        "scores, the pair's S_JSD, token counts and edge-case flags (default: none)",
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
        type=open_probability,
        default=0.05,
        help="significance level of the p-values' mark, in (0, 1) (default: %(default)s)",
    )
    score.add_argument(
        "--perturb",
        action="store_true",
        help="remove the final character of every sentence (Steinborn et al. 2022, Table 3)",
    )
    score.add_argument(
        "--cluster",
        metavar="COLUMN",
        help="a column of the data shared by pairs with a common cause (e.g. target, the "
        "target word): p-values and standard errors take these clusters as units "
        "(cluster sign-flip test, cluster bootstrap); scores are unchanged "
        "(default: the pairs are the units)",
    )
    score.add_argument(
        "--structural-baseline",
        action="store_true",
        help="also score the pairs with a randomly initialised copy of the model (same "
        "config and tokenizer, weights drawn with --seed): what each measure gives with no "
        "learned knowledge, printed beside the model's scores; --output then holds both, "
        "told apart by its first column run (model, structural_baseline)",
    )
    _add_batch_options(score)
    _add_untrained_head_option(score)
    _add_gate_options(score)
    add_device_option(score)
    add_precision_option(score)
    score.set_defaults(run=_score)
    _add_mbe_command(commands)

    tbs = commands.add_parser(
        "tbs",
        help="template probes of one model: TBS (Kurita et al. 2019), P(he)/P(she) over "
        "neutral occupations and the top predictions of a masked sentence (Kaneko et al. 2023)",
        description="The numbers of the workflow's scripts/kaneko2023_probe.py for one model.",
    )
    _add_model_options(tbs)
    tbs.add_argument("--lang", default="en", help="language of the template (templates.yaml)")
    tbs.add_argument(
        "--targets",
        default="bolukbasi2016",
        help="target list: bolukbasi2016 (English professions of Bolukbasi et al. 2016), "
        "bolukbasi2016_neutral, demo, or a file (default: %(default)s)",
    )
    tbs.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="another templates.yaml (default: the shipped one)",
    )
    tbs.add_argument(
        "--sentence",
        default=None,
        help="sentence with one [MASK] for the top predictions (default: the language's "
        "Figure 3 sentence of templates.yaml)",
    )
    _add_word_list_options(
        tbs,
        female=None,
        male=None,
        what="that class the top predictions",
        without="the template's own gender word, e.g. she / he",
    )
    tbs.add_argument("--top-k", type=positive_int, default=5, help="top predictions listed")
    tbs.add_argument(
        "--output",
        type=output_file,
        default=None,
        help="CSV, one row per target: log-probabilities, associations and bias (default: none)",
    )
    tbs.add_argument(
        "--summary", type=output_file, default=None, help="JSON summary (default: none)"
    )
    tbs.add_argument(
        "--top",
        type=output_file,
        default=None,
        help="CSV of the top predictions (default: none)",
    )
    _add_batch_options(tbs)
    _add_untrained_head_option(tbs)
    _add_gate_options(tbs)
    add_device_option(tbs)
    add_precision_option(tbs)
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


class _CommandParser(argparse.ArgumentParser):
    """A subcommand's parser: the shared help layout."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


#: Path options read by no command before it writes them (a cache, a checkout).
_NOT_READ = {"cache", "cache_dir", "root"}
#: Options that name a file or directory, or else a hub id, dataset or shipped list: an
#: input when a file or directory of that name exists.
_MAYBE_PATHS = {"data", "model", "tokenizer", "targets", "female", "male", "female_words",
                "male_words"}  # fmt: skip
#: Commands whose writes no option names (share: dvc and Snakemake write the run's files).
_UNTRACKED_WRITES = {"share"}
#: Path options that a command writes although they are not output files: probe's
#: word-vector cache, filled when it does not hold the vectors.
_WRITTEN = {"cache"}


def _command_paths(
    command: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[dict[str, list[Path]], dict[str, list[str]], dict[str, list[Path]], dict]:
    """The paths a command reads and writes, by option: (inputs that must exist, every
    existing path another option names, outputs, output directories written as a whole)."""
    required, named, outputs, replaced = {}, {}, {}, {}
    for action in command._actions:
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        name = action.option_strings[0] if action.option_strings else action.dest
        if action.type in (output_file, output_directory) or action.dest in _WRITTEN:
            outputs[name] = [v for v in values if isinstance(v, Path)]
        elif action.type is Path and action.dest not in _NOT_READ:
            required[name] = [v for v in values if isinstance(v, Path)]
        elif action.dest in _MAYBE_PATHS:
            named[name] = [v for v in values if isinstance(v, str) and v and os.path.exists(v)]
    if args.command == "align" and args.matrix is None:
        outputs["the default --matrix"] = [Path(f"{args.output}-mat.npy")]  # R, align's own
    if args.command == "gendered-text":  # the files the directory receives
        outputs["--output"] = [
            args.output / f"{name}.txt" for name in ("female", "male", "dev_female", "dev_male")
        ]
    if args.command == "finetune":  # the model directory is replaced atomically
        replaced["--output"] = outputs.pop("--output")
        # kept when a run is killed, so that the next one resumes from them
        outputs["the checkpoints of --output"] = [Path(f"{args.output}.checkpoints")]
    return required, named, outputs, replaced


def _preflight(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    """Checks run before a command imports torch or loads anything: every input file
    exists, no output overwrites an input or another output
    (:func:`mgbias.files.output_paths.check_output_paths`), and checks across options.

    Single values (counts, rates, output paths) are checked as the command line is
    parsed (the option types of :mod:`mgbias.cli.options`). Returns the command's
    outputs, ``{option: paths}``.
    """
    from mgbias.files.output_paths import check_output_paths

    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = commands.choices[args.command]
    required, named, outputs, replaced = _command_paths(command, args)
    for name, paths in required.items():
        for path in paths:
            if not path.exists():
                raise InputError(f"{name} {path}: no such file")
    check_output_paths(required | named, outputs, replaced=replaced)
    if getattr(args, "precision", None) == "fp16" and getattr(args, "device", None) == "cpu":
        raise InputError("--precision fp16 needs a CUDA device; use bf16 or fp32 with --device cpu")
    female, male = getattr(args, "female", None), getattr(args, "male", None)
    if args.command == "tbs" and (female is None) != (male is None):
        raise InputError("give both --female-words and --male-words, or neither")
    if args.command == "score" and Path(args.data).is_file():
        from mgbias.pairs.data import check_file_language

        check_file_language(args.data, args.lang, force=args.force_lang)
    return outputs | replaced


def main(argv: list[str] | None = None) -> int:
    """Run one ``mgbias`` command; the exit status (0: success, 2: bad input or options,
    130: interrupted by SIGINT, 143: by SIGTERM; :mod:`mgbias.cli.interrupts`)."""
    from mgbias.cli.interrupts import sigterm_raises
    from mgbias.workflow.gc_tuning import command_gc

    with sigterm_raises(), command_gc():  # the libraries' objects are not garbage
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    from mgbias.cli.interrupts import OutputWatch, Terminated, exit_status, interrupted_message

    watch = None
    try:
        from mgbias.cli.provenance import write_cli_sidecars
        from mgbias.provenance import now

        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exit_:  # --help, --version, or a bad option (argparse printed why)
            return exit_.code if isinstance(exit_.code, int) else 2
        started = now()
        watch = OutputWatch(_preflight(parser, args))
        status = args.run(args)
        if status == 0:  # a provenance sidecar beside every output the command wrote
            write_cli_sidecars(args, started=started, argv=argv, parser=parser)
        return status
    except (ValueError, OSError) as error:  # bad input: a message naming it, no traceback
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Terminated) as interrupt:  # one line, no traceback
        written = watch.written() if watch is not None else []
        untracked = watch is not None and args.command in _UNTRACKED_WRITES
        print(f"mgbias: {interrupted_message(written, untracked=untracked)}", file=sys.stderr)
        return exit_status(interrupt)


if __name__ == "__main__":
    raise SystemExit(main())
