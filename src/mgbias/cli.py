"""The ``mgbias`` command line."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version
from pathlib import Path

from mgbias.config import ConfigError, load_config


def _check_config(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, args.schema)
    except (ConfigError, OSError) as error:
        print(f"mgbias: {error}", file=sys.stderr)
        return 2
    print(
        f"{args.config}: valid; {len(config['languages'])} languages, "
        f"{len(config['corpora'])} corpora, {len(config['models'])} models"
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mgbias", description=__doc__)
    parser.add_argument("--version", action="version", version=version("mgbias"))
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check-config", help="validate a workflow configuration file")
    check.add_argument("config", type=Path)
    check.add_argument("--schema", type=Path, default=Path("config/schema.yaml"))
    check.set_defaults(run=_check_config)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
