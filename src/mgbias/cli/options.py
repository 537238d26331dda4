"""What every ``mgbias`` command shares: the help layout, option types that check values
while the command line is parsed (before a model loads), the device option, and the old
spellings of renamed options.

Option names, one per concept across commands:

- ``--vectors`` one word-vector space; ``--source-vectors`` / ``--target-vectors`` two;
- ``--text`` running text, one sentence a line; ``--data`` a pair dataset;
- ``--female`` / ``--male`` sentence files; ``--female-words`` / ``--male-words`` word lists;
- ``--batch-size``, ``--device``, ``--precision``, ``--output``, ``--seed``.

An option that is also a workflow setting defaults to the setting's default, read from
the configuration schema (:func:`setting`), not written again here.

An old spelling (``--src-emb``, ``--emb``, ``--corpus``, ``--batchsize``, ``--female`` for
word lists) is still accepted for one release, but not shown in ``--help``
(:func:`add_hidden_alias`).
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Any

from rich_argparse import RichHelpFormatter

from mgbias.mlm.precision_names import PRECISION_NAMES
from mgbias.workflow.schema import key_default

__all__ = [
    "DEVICE_CHOICES",
    "HIDDEN_ALIASES",
    "HelpFormatter",
    "add_batch_options",
    "add_device_option",
    "add_duplicates_option",
    "add_gate_options",
    "add_hidden_alias",
    "add_masked_lm_options",
    "add_model_options",
    "add_precision_option",
    "add_untrained_head_option",
    "add_word_list_options",
    "check_alpha",
    "check_outputs",
    "non_negative_int",
    "open_probability",
    "output_directory",
    "setting",
    "output_file",
    "positive_float",
    "positive_int",
    "probability",
]

#: The devices every command that runs a model or a tensor computation accepts.
DEVICE_CHOICES = ("auto", "cpu", "cuda")


#: Old spelling -> the option it now spells, per command (filled by add_hidden_alias).
HIDDEN_ALIASES: dict[str, dict[str, str]] = {}


class HelpFormatter(RichHelpFormatter):
    """Rich help output with every option's default shown, options in titled groups.

    ``(default: X)`` is appended unless the help already says what the default is
    (the word "default"), the option is required, or it is a flag; an option whose
    default is ``None`` says in its help what happens without it.
    """

    #: a group's title as written, first letter capitalised ("Word vectors
    #: (basta2020.vectors)"), not title-cased: a setting's key keeps its spelling
    group_name_formatter = staticmethod(lambda title: title[:1].upper() + title[1:])

    def _get_default_metavar_for_optional(self, action: argparse.Action) -> str:
        # the option's own name, not its destination (--source-vectors SOURCE_VECTORS)
        return action.option_strings[-1].lstrip("-").replace("-", "_").upper()

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if (
            "default" in text
            or action.required
            or action.default in (None, argparse.SUPPRESS)
            or action.nargs == 0  # flags: store_true, version, help
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


def setting(key: str) -> Any:
    """The default of the workflow setting ``key`` (dotted: ``mbe.permutations``), from the
    configuration schema: what an option that is also a setting defaults to."""
    return key_default(key)


def add_device_option(
    parser: argparse.ArgumentParser,
    what: str = "the model",
    *,
    section: str = "scoring",
    default: str | None = None,
) -> None:
    """``--device auto|cpu|cuda``: where ``what`` runs; auto is CUDA when available. Its
    default is ``default``, else that of the setting ``<section>.device``."""
    parser.add_argument(
        "--device",
        choices=DEVICE_CHOICES,
        default=default or setting(f"{section}.device"),
        help=f"where {what} runs: auto (CUDA when available, else CPU), cpu or cuda "
        "(default: %(default)s)",
    )


def add_precision_option(
    parser: argparse.ArgumentParser, what: str = "the model", *, section: str = "scoring"
) -> None:
    """``--precision fp32|bf16|fp16``: of the forward passes of ``what`` (autocast below fp32,
    everything after the forward pass in float32; :mod:`mgbias.mlm.precision`); its
    default is that of the setting ``<section>.precision``."""
    parser.add_argument(
        "--precision",
        choices=PRECISION_NAMES,
        default=setting(f"{section}.precision"),
        help=f"precision of the forward passes of {what}: fp32 (the papers' numbers), or "
        "autocast to bf16 or fp16 (CUDA only) with log-probabilities and hidden states "
        "still computed in float32 (default: %(default)s)",
    )


def add_hidden_alias(parser: argparse.ArgumentParser, new: str, *old: str) -> None:
    """Accept each spelling in ``old`` as option ``new`` of ``parser``, without showing it.

    The old string is registered with the parser but not added to the option's
    ``option_strings``, so it parses to the same destination while ``--help`` and the
    usage line show only ``new``.
    """
    action = parser._option_string_actions[new]
    for spelling in old:
        if spelling in parser._option_string_actions:
            raise ValueError(f"{parser.prog}: {spelling} is already an option")
        parser._option_string_actions[spelling] = action
        HIDDEN_ALIASES.setdefault(parser.prog, {})[spelling] = new


# ----------------------------------------------------------------------------- value types


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def positive_int(text: str) -> int:
    """An integer >= 1 (a batch size, a number of steps)."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0 (a count that may be zero)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {value}")
    return value


def _real(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (a learning rate)."""
    value = _real(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {value:g}")
    return value


def probability(text: str) -> float:
    """A number in [0, 1] (a rate)."""
    value = _real(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, got {value:g}")
    return value


def open_probability(text: str) -> float:
    """A number strictly between 0 and 1 (a significance level)."""
    value = _real(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got {value:g}")
    return value


# ----------------------------------------------------------------------------- output paths


def _check_parent(path: Path) -> None:
    """Raise unless ``path``'s directory exists and is writable, or can be created."""
    parent = path.parent
    ancestor = parent
    while not ancestor.exists():
        if ancestor.is_symlink():  # a dangling link: mkdir would fail
            raise argparse.ArgumentTypeError(f"{path}: {ancestor} is a broken symbolic link")
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise argparse.ArgumentTypeError(
            f"{path}: {ancestor} is a file, so the directory {parent} cannot be created"
        )
    if not os.access(ancestor, os.W_OK | os.X_OK):
        what = "directory" if ancestor == parent else "directory above it,"
        raise argparse.ArgumentTypeError(
            f"{path}: cannot write there: the {what} {ancestor} is not writable"
        )


def output_file(text: str) -> Path:
    """A file to write: not a directory, in a directory that exists or can be created."""
    path = Path(text)
    if not text or text.endswith(("/", os.sep)) or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a directory; expected a file name")
    _check_parent(path)
    return path


def output_directory(text: str) -> Path:
    """A directory to write into: not an existing file; it or its parent can be created."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file; expected a directory")
    if not path.exists():
        _check_parent(path)
    elif not os.access(path, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{text}: the directory is not writable")
    return path


def check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"--alpha must lie strictly between 0 and 1, got {alpha}")


def check_outputs(**paths: Path | None) -> None:
    """Refuse an output path that is a directory, before any work (option named)."""
    for option, path in paths.items():
        if path is not None and Path(path).is_dir():
            flag = "--" + option.replace("_", "-")
            raise ValueError(f"{path}: is a directory (expected a file path for {flag})")


def add_duplicates_option(parser: argparse.ArgumentParser) -> None:
    """``--duplicates``: how a word repeated in a ``.vec`` file is read."""
    from mgbias.embeddings.duplicates import DEFAULT_DUPLICATES, DUPLICATES

    parser.add_argument(
        "--duplicates",
        choices=DUPLICATES,
        default=DEFAULT_DUPLICATES,
        help="a word repeated in a .vec file: error refuses the file (naming both lines), "
        "first keeps its first row, as fastText does (default: %(default)s)",
    )


def add_model_options(parser: argparse.ArgumentParser, what: str = "masked LM") -> None:
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


def add_masked_lm_options(parser: argparse.ArgumentParser) -> None:
    """What every command that scores sentences with a masked LM takes (``score``,
    ``mbe``, ``tbs``): the model (:func:`add_model_options`), its batches, its head and
    its gate, and where and in what precision it runs."""
    add_model_options(parser)
    add_batch_options(parser)
    add_untrained_head_option(parser)
    add_gate_options(parser)
    add_device_option(parser)
    add_precision_option(parser)


def add_untrained_head_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-untrained-head",
        action="store_true",
        help="use a model whose checkpoint lacks MLM head weights (initialised at random, "
        "so every score is noise) with a warning instead of refusing it",
    )


def add_gate_options(parser: argparse.ArgumentParser) -> None:
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


def add_batch_options(parser: argparse.ArgumentParser, *, section: str = "scoring") -> None:
    """``--batch-size`` (default: the setting ``<section>.batch_size``) and
    ``--max-length``."""
    parser.add_argument(
        "--batch-size",
        type=positive_int,
        default=setting(f"{section}.batch_size"),
        help="sentences per forward pass",
    )
    parser.add_argument(
        "--max-length",
        type=positive_int,
        default=None,
        help="token limit of a sentence (default: the model's)",
    )


def add_word_list_options(
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
