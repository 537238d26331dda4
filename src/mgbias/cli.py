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


def _tbs(args: argparse.Namespace) -> int:
    from mgbias.mlm.templates import template_spec
    from mgbias.wordlists.professions import template_targets

    try:
        template_spec(args.lang, args.templates, figure3_sentence=args.sentence)
        template_targets(args.targets, args.lang)
    except (ValueError, OSError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    if (args.female is None) != (args.male is None):
        print("mgbias: give both --female and --male, or neither", file=sys.stderr)
        return 2
    # torch: imported once the inputs are checked
    from mgbias.mlm.load import load_mlm
    from mgbias.probes.kaneko2023 import probe_model, write_probe

    try:
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
    except (ValueError, OSError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
