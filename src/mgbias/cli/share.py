"""``mgbias share``: a completed run shared through DVC (docs/sharing.md)."""

from __future__ import annotations

import argparse

from mgbias.workflow.share import add_arguments as add_share_arguments
from mgbias.workflow.share import run_action as run_share


def add_command(commands: argparse._SubParsersAction) -> None:
    """The ``share`` command."""
    share = commands.add_parser(
        "share",
        help="share a completed run through DVC (push) or take one in (pull)",
        description="The recipe of docs/sharing.md; `make push` and `make pull` call it.",
    )
    add_share_arguments(share)
    share.set_defaults(run=run_share)
