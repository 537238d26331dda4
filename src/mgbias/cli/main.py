"""The ``mgbias`` command line: the parser of every command, and `main`."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mgbias._version import version
from mgbias.cli import check_config, embeddings, finetune, mbe, probe, score, share, tbs
from mgbias.cli.options import (
    HelpFormatter,
    output_directory,
    output_file,
)
from mgbias.errors import InputError


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
    check_config.add_command(commands)
    score.add_command(commands)
    mbe.add_command(commands)
    tbs.add_command(commands)
    share.add_command(commands)
    embeddings.add_command(commands)
    finetune.add_command(commands)
    probe.add_command(commands)
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
    (:func:`mgbias.files.output_paths.check_output_paths`), the female and male
    sentences are not one file (:func:`~mgbias.files.output_paths.check_distinct_inputs`),
    and checks across options.

    Single values (counts, rates, output paths) are checked as the command line is
    parsed (the option types of :mod:`mgbias.cli.options`). Returns the command's
    outputs, ``{option: paths}``.
    """
    from mgbias.files.output_paths import check_distinct_inputs, check_output_paths

    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = commands.choices[args.command]
    required, named, outputs, replaced = _command_paths(command, args)
    for name, paths in required.items():
        for path in paths:
            if not path.exists():
                raise InputError(f"{name} {path}: no such file")
    check_output_paths(required | named, outputs, replaced=replaced)
    if args.command in ("mbe", "mix-gendered-text"):  # the two sides of the comparison
        check_distinct_inputs(("--female", args.female), ("--male", args.male))
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
