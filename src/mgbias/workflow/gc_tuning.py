"""Garbage collection in the process that plans the workflow.

Planning the demo (``config/config.yaml``, some 750 jobs with 20,000 input files)
creates about 280,000 objects (rules, jobs, their files and wildcards) that live until
the process ends, and little garbage. With CPython's default thresholds the collector
looks at them again and again while they are created (seven full collections), and
once more when the interpreter exits: about a quarter of a dry run's time.

- :func:`collect_less` raises the threshold of the youngest generation, so that the
  older generations are collected less often (the garbage with cycles is still
  collected, later);
- and, when the process ends after a dry run, it freezes the heap (:func:`gc.freeze`)
  so that the exit does not collect what the operating system is about to free. After
  a run that executed jobs, the exit is as usual.

Neither changes what is planned. The rules' scripts run in their own processes, with
the defaults.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Callable

__all__ = ["YOUNG_THRESHOLD", "collect_less"]

#: Allocations (net) between two collections of the youngest generation (CPython's
#: default: 700). The older generations' thresholds count these, so they are reached
#: about 14 times less often.
YOUNG_THRESHOLD = 10_000

_registered: list[Callable[[], bool]] = []


def collect_less(dry_run: Callable[[], bool]) -> None:
    """Raise the youngest generation's threshold to :data:`YOUNG_THRESHOLD` (a higher
    one, or 0, collection off, is kept), and freeze the heap at exit when ``dry_run()``
    is then true.

    ``dry_run`` is asked at exit, since the workflow parses its rules before it knows
    how it will run them. Calling this again (a workflow parsed twice in one process)
    registers nothing more.
    """
    young, *older = gc.get_threshold()
    if 0 < young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, *older)
    if not _registered:
        atexit.register(_freeze_after, _registered)
    _registered[:] = [dry_run]


def _freeze_after(registered: list[Callable[[], bool]]) -> None:
    """At exit: freeze the heap if the last registered run was a dry run."""
    try:
        frozen = bool(registered and registered[-1]())
    except Exception:  # a half-built workflow: exit as usual
        frozen = False
    if frozen:
        gc.freeze()
