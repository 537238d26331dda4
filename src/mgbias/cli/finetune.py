"""``mgbias finetune``, ``gendered-text``, ``mix-gendered-text``: the bias-controlled
fine-tuning of Kaneko et al. (2023)."""

from __future__ import annotations

import argparse
from pathlib import Path

from mgbias.cli.options import (
    add_device_option,
    add_model_options,
    add_untrained_head_option,
    add_word_list_options,
    non_negative_int,
    output_directory,
    output_file,
    positive_float,
    positive_int,
    probability,
    setting,
)
from mgbias.finetune.settings import FineTuneConfig
from mgbias.mlm.precision_names import PRECISION_NAMES
from mgbias.wordlists import kaneko2023_lists

#: The fine-tuning's defaults (the paper's), which the options' help shows.
PAPER = FineTuneConfig()


def _on(flag: bool) -> str:
    return "on" if flag else "off"


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


def add_command(commands: argparse._SubParsersAction) -> None:
    """The commands of this module, in the order of ``mgbias --help``."""
    _add_finetune(commands)
    _add_gendered_text(commands)
    _add_mix_gendered_text(commands)


def _add_finetune(commands: argparse._SubParsersAction) -> None:
    """The ``finetune`` command."""
    finetune = commands.add_parser(
        "finetune",
        help="fine-tune a masked LM on a text with the masked-LM objective (resumable)",
        description="Defaults are the paper's (Kaneko et al. 2023: run_mlm.py of "
        f"transformers 4.22: lr {PAPER.learning_rate:g}, {PAPER.epochs} epochs, batch "
        f"{PAPER.batch_size} on {PAPER.devices} devices, 512-token blocks, seed "
        f"{PAPER.seed}); devices are emulated by gradient accumulation. A killed run "
        "resumes from the last checkpoint in OUTPUT.checkpoints.",
    )
    model = finetune.add_argument_group("model and text")
    add_model_options(model)
    add_untrained_head_option(model)
    model.add_argument(
        "--text", required=True, type=Path, nargs="+", help="training text, one sentence a line"
    )
    model.add_argument(
        "--dev", type=Path, nargs="*", help="development text for the dev loss (default: none)"
    )
    model.add_argument(
        "--output", required=True, type=output_directory, help="model directory to write"
    )
    model.add_argument(
        "--keep-checkpoints",
        action="store_true",
        help="keep OUTPUT.checkpoints after the run instead of removing it",
    )
    _add_training_options(finetune.add_argument_group("fine-tuning (kaneko2023.finetune)"))
    machine = finetune.add_argument_group("machine")
    machine.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        help="CPU threads of torch (default: torch's own choice)",
    )
    add_device_option(machine)
    finetune.set_defaults(run=_finetune)


def _add_training_options(group) -> None:
    """The fine-tuning's settings: each None unless given, so that FineTuneConfig's
    default (the paper's, shown in the help) applies."""
    group.add_argument(
        "--lr",
        type=positive_float,
        default=None,
        help=f"learning rate (default: {PAPER.learning_rate:g})",
    )
    group.add_argument(
        "--epochs",
        type=positive_int,
        default=None,
        help=f"passes over the text (default: {PAPER.epochs})",
    )
    group.add_argument(
        "--batch-size",
        type=positive_int,
        default=None,
        help=f"examples per device (default: {PAPER.batch_size})",
    )
    group.add_argument(
        "--devices",
        type=positive_int,
        default=None,
        help=f"emulated devices (default: {PAPER.devices})",
    )
    group.add_argument(
        "--gradient-accumulation",
        type=positive_int,
        default=None,
        help="steps accumulated per update, on top of the emulated devices "
        f"(default: {PAPER.gradient_accumulation})",
    )
    group.add_argument(
        "--micro-batch-size",
        type=positive_int,
        default=None,
        help="examples per forward pass, a multiple of --batch-size (default: --batch-size)",
    )
    group.add_argument(
        "--block-size",
        "--max-seq-length",
        dest="max_seq_length",
        type=positive_int,
        default=None,
        help="tokens per block, or per line with --line-by-line (default: the tokenizer's "
        "maximum, at most 1024)",
    )
    group.add_argument(
        "--line-by-line",
        action="store_true",
        default=None,
        help="one example per line instead of concatenated blocks",
    )
    group.add_argument(
        "--seed", type=int, default=None, help=f"random seed (default: {PAPER.seed})"
    )
    group.add_argument(
        "--checkpoint-every",
        type=non_negative_int,
        default=None,
        help=f"optimizer steps between checkpoints, 0 for none (default: {PAPER.checkpoint_every})",
    )
    group.add_argument(
        "--precision",
        choices=PRECISION_NAMES,
        default=None,
        help=f"training precision (default: {PAPER.precision})",
    )
    group.add_argument(
        "--deterministic",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="deterministic algorithms: a run repeats bit for bit "
        f"(default: {_on(PAPER.deterministic)})",
    )
    group.add_argument(
        "--group-by-length",
        action="store_true",
        default=None,
        help="batch lines of similar length together "
        f"(default: {_on(PAPER.group_by_length)}; changes the weights)",
    )
    group.add_argument(
        "--compile",
        action="store_true",
        default=None,
        help=f"run the model under torch.compile (default: {_on(PAPER.compile)})",
    )
    group.add_argument("--no-clip", action="store_true", help="no gradient-norm clipping")


def _add_gendered_text(commands: argparse._SubParsersAction) -> None:
    """The ``gendered-text`` command."""
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
    female, male = kaneko2023_lists("en")
    add_word_list_options(
        gendered,
        female=list(female),
        male=list(male),
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


def _add_mix_gendered_text(commands: argparse._SubParsersAction) -> None:
    """The ``mix-gendered-text`` command."""
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
        default=setting("kaneko2023.sampling"),
        help="nested: the mixtures of one repeat share sentences across rates; "
        "independent: each rate samples anew",
    )
    mix.add_argument(
        "--rounding",
        choices=["half_up", "half_even"],
        default=setting("kaneko2023.rounding"),
        help="how N r is rounded to a count of male sentences",
    )
    mix.set_defaults(run=_mix)
