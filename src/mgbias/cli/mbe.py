"""``mgbias mbe``: MBE (Kaneko et al. 2022) of one model on gendered sentences."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mgbias.cli.options import (
    add_masked_lm_options,
    check_alpha,
    check_outputs,
    open_probability,
    output_file,
    positive_int,
    setting,
)
from mgbias.wordlists.genders import FEMALE, MALE


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


#: What ``mgbias mbe`` scores: files of sentences, a parallel corpus or mined sentences.
_SOURCES = (
    "mgbias: give --male FILE and --female FILE, or --source FILE --target FILE --lang LANG "
    "(a parallel corpus to mine first), or --sentences FILE (mined sentences, as the "
    "workflow writes them)"
)


def _misused(args: argparse.Namespace) -> str | None:
    """What is wrong with the combination of options that say what to score, if anything."""
    by_files = args.male is not None or args.female is not None
    by_corpus = args.source is not None or args.target is not None
    by_table = args.sentences is not None
    if by_files + by_corpus + by_table != 1 or (
        by_files and (args.male is None or args.female is None)
    ):
        return _SOURCES
    if by_corpus and (args.source is None or args.target is None or not args.lang):
        return "mgbias: --source, --target and --lang go together"
    if by_files and args.units == "gender-words":
        return (
            "mgbias: --units gender-words needs --source/--target or --sentences: the gender "
            "words come from mining; with --male/--female files the units are the sentences"
        )
    return None


def _sentences(args: argparse.Namespace) -> tuple[list[str], list[str], dict]:
    """The male and female sentences to score, and their gender-word clusters when the
    test's units are the gender words (keyword arguments of :func:`mgbias.mbe`)."""
    import mgbias

    by_words = args.male is None and args.units != "sentences"
    if args.source is not None:
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
        clusters = {"male_clusters": mined.male_words, "female_clusters": mined.female_words}
        return mined.male, mined.female, clusters if by_words else {}
    if args.sentences is not None:
        male, female, words = _mined_table(args.sentences)
        if by_words and words is None:
            raise ValueError(
                f"{args.sentences}: no gender_words column, which --units gender-words "
                "needs; give --units sentences to test sentence by sentence"
            )
        if not by_words:
            return male, female, {}
        return male, female, {"male_clusters": words[MALE], "female_clusters": words[FEMALE]}
    return mgbias.read_sentences(args.male), mgbias.read_sentences(args.female), {}


def _mbe(args: argparse.Namespace) -> int:
    """``mgbias mbe``: MBE of one model on male and female sentences, or on a parallel corpus."""
    import mgbias
    from mgbias.measures.mbe import check_mbe_options

    misused = _misused(args)
    if misused:
        print(misused, file=sys.stderr)
        return 2
    try:
        check_alpha(args.alpha)
        check_outputs(output=args.output, per_sentence=args.per_sentence)
        check_mbe_options(
            weighting=args.weighting, alpha=args.alpha, n_permutations=args.permutations
        )
        male, female, clusters = _sentences(args)
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
    _write(report, args)
    return 0


def _write(report, args: argparse.Namespace) -> None:
    """The summary (``--output``) and the per-sentence table (``--per-sentence``)."""
    from mgbias.files.tabular import write_csv

    # outputs; a provenance record of each belongs right after its write
    if args.output:
        write_csv(report.summary(), args.output)
    if args.per_sentence:
        write_csv(report.per_sentence, args.per_sentence)
        print(f"{len(report.per_sentence)} sentences written to {args.per_sentence}",
              file=sys.stderr)  # fmt: skip


def add_command(commands: argparse._SubParsersAction) -> None:
    mbe = commands.add_parser(
        "mbe",
        help="MBE of one model on male and female sentences, or on a parallel corpus "
        "(Kaneko et al. 2022, Eq. 2), with its permutation test and the Shf baseline",
        description="MBE = 100 x the cosine-weighted share of (male, female) sentence "
        "pairs in which the model's AULA prefers the male sentence (Kaneko et al. 2022, "
        "Eq. 2): above 50 the model prefers the male sentences. The same numbers as the "
        "workflow's mbe rule for the same sentences, seed and settings.",
    )
    add_masked_lm_options(mbe.add_argument_group("model"))
    _add_sentence_options(
        mbe.add_argument_group(
            "sentences",
            "either --male and --female, or --source, --target and --lang, or --sentences",
        )
    )
    _add_test_options(mbe.add_argument_group("MBE and its permutation test (mbe)"))
    output = mbe.add_argument_group("output")
    output.add_argument(
        "--output",
        type=output_file,
        default=None,
        help="CSV of the result: mbe, p_value, preferred (male or female when "
        "significant, else none), shf, shf_p_value, n_male, n_female, settings, verdict "
        "(default: none)",
    )
    output.add_argument(
        "--per-sentence",
        type=output_file,
        default=None,
        help="CSV with one row per sentence: gender, sentence, aula, and cluster (its "
        "gender words) with --units gender-words (default: none)",
    )
    mbe.set_defaults(run=_mbe)


def _add_sentence_options(sentences) -> None:
    """The male and female sentences: files, a parallel corpus to mine, or mined ones."""
    from mgbias.api.mlm import DEFAULT_FEMALE_WORDS, DEFAULT_MALE_WORDS

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


def _add_test_options(group) -> None:
    """MBE's weighting and its permutation test (``mbe``)."""
    group.add_argument(
        "--weighting",
        choices=["cosine", "dot"],
        default=setting("mbe.weighting"),
        help="pair weight C(m, f): the paper's cosine or the published code's dot product "
        "(default: %(default)s)",
    )
    group.add_argument(
        "--permutations",
        type=positive_int,
        default=setting("mbe.permutations"),
        help="random relabellings of the permutation test (default: %(default)s)",
    )
    group.add_argument(
        "--units",
        choices=["gender-words", "sentences"],
        default=None,
        help="the permutation test's units: gender-words relabels together the sentences "
        "mined by the same English gender words, so that a model's own preference for one "
        "word does not pass for a gender preference; sentences relabels each sentence "
        "(default: gender-words with --source/--target or --sentences, sentences with "
        "--male/--female)",
    )
    group.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the permutation test and the Shf split (default: %(default)s)",
    )
    group.add_argument(
        "--alpha",
        type=open_probability,
        default=setting("mbe.alpha"),
        help="significance level (default: %(default)s)",
    )
