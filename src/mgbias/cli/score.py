"""``mgbias score``: the pair measures of one model on one pair dataset."""

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
    setting,
)
from mgbias.config import ConfigError
from mgbias.measures import pair
from mgbias.pairs.named import DEFAULT_CACHE


def _score(args: argparse.Namespace) -> int:
    import mgbias
    from mgbias.corpora.download import DownloadError

    try:
        check_alpha(args.alpha)
        check_outputs(output=args.output, per_pair=args.per_pair)
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
    args.cluster = report.cluster  # the provenance record names the units the tests took
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


def add_command(commands: argparse._SubParsersAction) -> None:
    """The ``score`` command."""
    score = commands.add_parser(
        "score",
        help="score one model on one pair dataset with AUL, AULA, CPS, SSS, S_JSD",
        description="Scores are percent of pairs preferring the stereotypical sentence, "
        "except sjsd (raw mean; negative = stereotypical sentence preferred).",
    )
    add_masked_lm_options(score.add_argument_group("model"))
    _add_pair_options(score.add_argument_group("pairs"))
    _add_measure_options(score.add_argument_group("measures and their statistics"))
    output = score.add_argument_group("output")
    output.add_argument(
        "--output",
        type=output_file,
        default=None,
        help="CSV: bias_type, measure, score, se, p_value, significant, n, n_edge, n_ties, "
        "n_clusters, verdict (default: none)",
    )
    output.add_argument(
        "--per-pair",
        type=output_file,
        default=None,
        help="CSV with one row per pair: both sentences, bias_type, every measure's sentence "
        "scores, the pair's S_JSD, token counts and edge-case flags (default: none)",
    )
    score.set_defaults(run=_score)


def _add_pair_options(group) -> None:
    """The pair dataset: a file or a named one, its language, bias type and variant."""
    group.add_argument(
        "--data",
        required=True,
        help="a CrowS-Pairs / multilingual CrowS-Pairs CSV or StereoSet JSON file, or the "
        "name of a shipped public benchmark (crows_pairs, multilingual_crows_pairs, "
        "stereoset) or of a pair dataset of --config, downloaded once into --cache-dir",
    )
    group.add_argument(
        "--config",
        type=Path,
        default=None,
        help="a workflow configuration whose pair_datasets name the datasets "
        "(default: the shipped benchmarks)",
    )
    group.add_argument(
        "--mirror",
        default=None,
        metavar="URL",
        help="fetch a named dataset from this host instead, at the original URL's path "
        "(e.g. a local copy of raw.githubusercontent.com); its pinned checksum still applies "
        "(default: the original host)",
    )
    group.add_argument(
        "--cache-dir",
        type=Path,
        default=DEFAULT_CACHE,
        help="where named datasets are downloaded (default: %(default)s)",
    )
    group.add_argument(
        "--lang",
        default=None,
        help="language of a multilingual CrowS-Pairs file (default: from its file name)",
    )
    group.add_argument(
        "--force-lang",
        action="store_true",
        help="score a multilingual CrowS-Pairs file as --lang although its name says "
        "another language",
    )
    group.add_argument(
        "--bias-type",
        default="gender",
        help="the benchmark's name of one bias type, or 'all': a row per bias type, then "
        "the rows over every pair (default: %(default)s)",
    )
    group.add_argument(
        "--perturb",
        action="store_true",
        help="remove the final character of every sentence (Steinborn et al. 2022, Table 3)",
    )


def _cluster(text: str) -> str | None:
    """``--cluster``'s value: a column, ``auto``, or ``none`` (the pairs: None)."""
    return None if text.strip().lower() == "none" else text


def _add_measure_options(group) -> None:
    """The measures, their tie rule, significance level and units of uncertainty."""
    group.add_argument(
        "--measures",
        default=",".join(pair.names()),
        help="comma-separated pair measures (default: %(default)s; docs/measures.md)",
    )
    group.add_argument("--seed", type=int, default=0, help="seed of the bootstrap standard errors")
    group.add_argument(
        "--tie-rule",
        choices=["neutral", "half", "exclude"],
        default=setting("pair_tie_rule"),
        help="a tie counts as no win (neutral), half a win, or is dropped with the measure's "
        "edge-case pairs (exclude) (default: %(default)s)",
    )
    group.add_argument(
        "--alpha",
        type=open_probability,
        default=setting("pair_alpha"),
        help="significance level of the p-values' mark, in (0, 1) (default: %(default)s)",
    )
    group.add_argument(
        "--cluster",
        metavar="COLUMN",
        type=_cluster,
        default=setting("pair_datasets.*.cluster"),
        help="a column of the data shared by pairs with a common cause (e.g. target, the "
        "target word): p-values and standard errors take these clusters as units "
        "(cluster sign-flip test, cluster bootstrap); scores are unchanged. auto: the "
        "target column where target words repeat, else the pairs; none: the pairs "
        "(default: %(default)s)",
    )
    group.add_argument(
        "--structural-baseline",
        action="store_true",
        help="also score the pairs with a randomly initialised copy of the model (same "
        "config and tokenizer, weights drawn with --seed): what each measure gives with no "
        "learned knowledge, printed beside the model's scores; --output then holds both, "
        "told apart by its first column run (model, structural_baseline)",
    )
