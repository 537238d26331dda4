"""Logging for workflow scripts: everything a job prints goes to its log file."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

from mgbias.gc_tuning import command_gc


@contextlib.contextmanager
def job_log(path: str | Path | None, name: str = "mgbias") -> Iterator[logging.Logger]:
    """Send logging, warnings and stderr (progress bars) to ``path`` for a job.

    With ``path=None`` (a script run by hand) everything stays on stderr.
    An exception is logged with its traceback before it propagates, so the
    log explains a failed job. The job runs with :func:`mgbias.gc_tuning.command_gc`
    (fewer garbage collections, none over the libraries' objects at exit).
    """
    with command_gc(), _logging_to(path, name) as logger:
        yield logger


@contextlib.contextmanager
def _logging_to(path: str | Path | None, name: str) -> Iterator[logging.Logger]:
    logger = logging.getLogger(name)
    if path is None:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
        yield logger
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", buffering=1) as stream:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        logging.captureWarnings(True)
        old_stderr = sys.stderr
        sys.stderr = stream
        try:
            yield logger
        except BaseException:
            logger.exception("job failed")
            raise
        finally:
            sys.stderr = old_stderr
            logging.captureWarnings(False)
            root.removeHandler(handler)
