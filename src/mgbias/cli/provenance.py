"""Provenance sidecars of the ``mgbias`` command line: one beside every output.

Kept apart from :mod:`mgbias.provenance`, which the workflow's table scripts run,
so that the command line's imports (the named datasets) are not their code inputs.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from mgbias.cli.options import output_directory, output_file
from mgbias.provenance import collect, file_sha256, model_fingerprint, now, write_sidecar

__all__ = ["cli_record", "output_options", "write_cli_sidecars"]


#: Option types of the paths a command writes (:mod:`mgbias.cli.options`).
OUTPUT_TYPES = (output_file, output_directory)
#: Options that are not file inputs even when their value names an existing file.
_NOT_INPUTS = {"model", "tokenizer", "config", "schema", "cache_dir", "cache", "mirror"}
#: Settings copied to the record's top level under the issue's names.
_SETTINGS = {
    "bias_type": "bias_type",
    "measures": "measures",
    "seed": "seed",
    "tie_rule": "tie_rule",
    "cluster": "cluster",
    "alpha": "alpha",
    "batch_size": "batch_size",
    "batchsize": "batch_size",
    "device": "device",
    "precision": "precision",
    "revision": "revision",
}


def output_options(parser: argparse.ArgumentParser, command: str | None) -> tuple[str, ...]:
    """The options (``dest`` names) of ``command`` that name a file or directory it writes.

    Taken from the parser: the options whose type is one of :data:`OUTPUT_TYPES`, so
    a new output option gets its sidecar (and is no input of the record) as it is added.
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            sub = action.choices[command]
            return tuple(a.dest for a in sub._actions if a.type in OUTPUT_TYPES)
    return ()


def _file_values(value: Any) -> Iterator[Path]:
    if isinstance(value, (str, Path)):
        if Path(value).is_file():
            yield Path(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _file_values(item)


def _inputs(
    options: Mapping[str, Any], outputs: tuple[str, ...]
) -> dict[str, list[dict[str, str]]]:
    inputs: dict[str, list[dict[str, str]]] = {}
    for name, value in options.items():
        if name in outputs or name in _NOT_INPUTS:
            continue
        files = [{"path": str(p), "sha256": file_sha256(p)} for p in _file_values(value)]
        if files:
            inputs[name] = files
    return inputs


def _device(requested: Any) -> str | None:
    """The device a command ran on: ``auto`` resolved when torch is already imported."""
    if requested in (None, "auto"):
        torch = sys.modules.get("torch")
        if torch is None:
            return requested
        return "cuda" if torch.cuda.is_available() else "cpu"
    return str(requested)


def _score_data(options: Mapping[str, Any]) -> Path | None:
    """The file ``mgbias score --data`` read: the path itself or a named dataset's download."""
    data = options.get("data")
    if data is None or Path(data).is_file():
        return Path(data) if data is not None else None
    from mgbias.pairs.named import resolve_pair_data

    try:
        return Path(
            resolve_pair_data(
                data,
                lang=options.get("lang"),
                config_path=options.get("config"),
                cache_dir=options.get("cache_dir"),
                mirror=options.get("mirror"),
            )
        )
    except Exception:  # noqa: BLE001 - the record names the dataset even when it cannot hash it
        return None


def _language(options: Mapping[str, Any], data: Path | None) -> str | None:
    """The language a command ran in: ``--lang``, else (``score``) the pair data's own."""
    if options.get("lang") is not None:
        return str(options["lang"])
    if options.get("command") == "score" and data is not None:
        from mgbias.pairs.data import pair_data_language

        try:
            return pair_data_language(data)
        except (OSError, ValueError):  # the command read it; a record never fails the run
            return None
    return None


def cli_record(
    args: Any,
    *,
    started: str | None = None,
    finished: str | None = None,
    argv: Iterable[str] | None = None,
    parser: argparse.ArgumentParser,
) -> dict[str, Any]:
    """The provenance record of one ``mgbias`` command, from its parsed arguments.

    Holds the command line, every option (``arguments``), the settings under
    their common names (bias type, language, measures, seed, tie rule, alpha,
    batch size, device, precision), the model's fingerprint, and the sha256 of
    every input file an option names (``inputs``; ``data`` for the pair data).
    ``language`` is the one used: ``--lang``, else the pair data's (``score``: English
    for CrowS-Pairs and StereoSet, a multilingual file's from its name). ``parser``
    (the ``mgbias`` parser, :func:`mgbias.cli.main.build_parser`) tells the output options
    from the inputs.
    """
    options = {k: v for k, v in vars(args).items() if k != "run" and not callable(v)}
    command = ["mgbias", *argv] if argv is not None else ["mgbias", *sys.argv[1:]]
    fields: dict[str, Any] = {
        "command": shlex.join(str(part) for part in command),
        "subcommand": options.get("command"),
        "arguments": options,
        "config": options.get("config"),
        "started": started,
        "finished": finished or now(),
    }
    for option, name in _SETTINGS.items():
        if options.get(option) is not None:
            fields[name] = options[option]
    fields["device"] = _device(options.get("device"))
    if isinstance(options.get("model"), (str, Path)):
        fields["model"] = model_fingerprint(
            options["model"], options.get("revision"), options.get("tokenizer")
        )
        # no --precision (or finetune's left at its default): the weights' stored dtype
        fields.setdefault("precision", fields["model"].get("dtype") or "float32")
    data = _score_data(options) if options.get("command") == "score" else None
    if options.get("command") == "score":
        fields["data"] = {
            "name": str(options.get("data")),
            "path": str(data) if data else None,
            "sha256": file_sha256(data) if data else None,
        }
    fields["language"] = _language(options, data)
    outputs = output_options(parser, options.get("command"))
    fields["inputs"] = _inputs(options, outputs)
    return collect(**fields)


def _cli_outputs(args: Any, options: tuple[str, ...]) -> list[Path]:
    outputs = []
    for name in options:
        value = getattr(args, name, None)
        if isinstance(value, (str, Path)) and Path(value).exists():
            outputs.append(Path(value))
    if getattr(args, "command", None) == "align" and getattr(args, "matrix", None) is None:
        matrix = Path(f"{args.output}-mat.npy")
        if matrix.exists():
            outputs.append(matrix)
    return outputs


def write_cli_sidecars(
    args: Any,
    *,
    started: str | None = None,
    argv: Iterable[str] | None = None,
    parser: argparse.ArgumentParser,
) -> list[Path]:
    """Write the provenance sidecar of every output a finished command wrote.

    The outputs are the command's output options (:func:`output_options` of ``parser``,
    the ``mgbias`` parser) that name an existing file or directory (``align``'s
    default matrix path too). Returns the sidecars.
    """
    outputs = _cli_outputs(args, output_options(parser, getattr(args, "command", None)))
    if not outputs:
        return []
    record = cli_record(args, started=started, argv=argv, parser=parser)
    return [write_sidecar(output, record) for output in outputs]
