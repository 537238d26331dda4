"""How a table is written: CSV (atomically, no index, a fixed float format) and a
GitHub-flavoured Markdown rendering. Below every package that writes one, so that none
imports them from the report (:mod:`mgbias.report.tables` re-exports both for its own
modules)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mgbias.files.atomic import atomic_path

__all__ = ["markdown", "write_csv"]


def write_csv(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a CSV atomically (no index, fixed float format)."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, float_format="%.6g")


def markdown(frame: pd.DataFrame, floatfmt: str = ".2f", **options) -> str:
    """A GitHub-flavoured Markdown rendering of ``frame`` (``options``: tabulate's, e.g.
    ``disable_numparse=True`` to print pre-formatted cells as they are)."""
    return frame.to_markdown(index=False, floatfmt=floatfmt, **options)
