"""Helpers for workflow scripts: everything a job prints goes to its log file
(:func:`job_log`), and the job's wildcards are stamped into its records one way
(:func:`wildcard_fields`)."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mgbias.workflow.gc_tuning import command_gc


@contextlib.contextmanager
def job_log(path: str | Path | None, name: str = "mgbias") -> Iterator[logging.Logger]:
    """Send logging, warnings and stderr (progress bars) to ``path`` for a job.

    With ``path=None`` (a script run by hand) everything stays on stderr.
    An exception is logged with its traceback before it propagates, so the
    log explains a failed job. The job runs with :func:`mgbias.workflow.gc_tuning.command_gc`
    (fewer garbage collections, none over the libraries' objects at exit).
    """
    with command_gc(), _logging_to(path, name) as logger:
        yield logger


def wildcard_fields(wildcards: Any, *names: str) -> dict[str, Any]:
    """A job's wildcards as a plain dict, to stamp into the records it writes.

    Parameters
    ----------
    wildcards : snakemake.io.Wildcards or similar
        The job's wildcards (``snakemake.wildcards``): anything whose ``items()``
        gives ``(name, value)`` pairs, such as Snakemake's ``Wildcards`` (a
        ``Namedlist``) or a dict.
    *names : str
        The wildcards to keep, in the order the record lists them. With none, every
        wildcard, in the order ``items()`` gives them.

    Returns
    -------
    dict[str, Any]
        Name -> value, in the order above; a new dict, so the caller may extend it.

    Raises
    ------
    KeyError
        If a name is not among the job's wildcards (the message lists those it has).
    ValueError
        If a name is given twice.

    Examples
    --------
    >>> wildcard_fields({"model": "bert", "dataset": "crows", "lang": "en"}, "lang", "model")
    {'lang': 'en', 'model': 'bert'}
    """
    fields = dict(wildcards.items())
    if not names:
        return fields
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"wildcard name(s) {repeated} given more than once in {list(names)}")
    missing = [name for name in names if name not in fields]
    if missing:
        raise KeyError(f"the job has no wildcard(s) {missing}; it has {list(fields)}")
    return {name: fields[name] for name in names}


def per_model(paths: str | list[str]) -> list[str]:
    """A job's output of each of its models, as a list.

    A rule that runs one model has a path per output; one that runs several models in one
    job (a Kaneko et al. 2023 grid) has a list per output, in the order of its models.
    """
    return [paths] if isinstance(paths, str) else list(paths)


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
