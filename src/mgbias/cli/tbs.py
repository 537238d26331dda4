"""``mgbias tbs``: the template probes of one model (Kaneko et al. 2023)."""

from __future__ import annotations

import argparse
from pathlib import Path

from mgbias.cli.options import (
    add_masked_lm_options,
    add_word_list_options,
    output_file,
    positive_int,
)


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


def add_command(commands: argparse._SubParsersAction) -> None:
    """The ``tbs`` command."""
    tbs = commands.add_parser(
        "tbs",
        help="template probes of one model: TBS (Kurita et al. 2019), P(he)/P(she) over "
        "neutral occupations and the top predictions of a masked sentence (Kaneko et al. 2023)",
        description="The numbers of the workflow's scripts/kaneko2023_probe.py for one model.",
    )
    add_masked_lm_options(tbs.add_argument_group("model"))
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
    add_word_list_options(
        tbs,
        female=None,
        male=None,
        what="that class the top predictions",
        without="the language's shipped kaneko2023_<lang>_female / _male lists with the "
        "template's gender words, or those two words alone where none is shipped",
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
    tbs.set_defaults(run=_tbs)
