"""``mgbias check-config``: a workflow configuration checked as the workflow reads it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mgbias.config import ConfigError, check_config_file, schema_path


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


def add_command(commands: argparse._SubParsersAction) -> None:
    """The ``check-config`` command."""
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
