"""The garbage collector's settings for one command or workflow job.

A command that loads a model imports torch, transformers, scipy and pandas:
millions of objects, all alive until the process ends. With CPython's default
thresholds the cyclic garbage collector examines them again and again while they
are imported (full collections over the whole heap as it grows; about 0.9 s of
CPU time in ``mgbias score`` of a small model on one core), and once more when
the interpreter exits (about 1 s), although none of them is garbage.

:func:`command_gc` changes two things for the command, and no number it computes:

- the youngest generation is collected after :data:`YOUNG_THRESHOLD` net
  allocations instead of 700, so the old generations are examined ten times
  less often (cyclic garbage waits a little longer; objects without cycles are
  freed at once as always); the old thresholds are restored afterwards;
- at exit, :func:`gc.freeze` moves every object left into the permanent
  generation, which the collections of the interpreter's shutdown skip. atexit
  runs its handlers last in, first out: the freeze comes after the handlers of
  the libraries the command imported and before ``logging``'s, which flushes and
  closes the log handlers. Outputs are closed by the code that writes them, so
  nothing waits on those collections.

:func:`collect_less` does the same for the process that plans the workflow
(``rules/common.smk``): planning the demo (some 750 jobs with 20,000 input files)
creates about 280,000 objects that live until the process ends (seven full
collections while they are created, and one more at exit: about a quarter of a dry
run's time). It raises the threshold for the whole planning process and freezes the
heap at exit only after a dry run; after a run that executed jobs the exit is as
usual. The rules' scripts run in their own processes, under :func:`command_gc` (in
:func:`mgbias.workflow.runlog.job_log`). Neither changes what is computed or planned.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
from collections.abc import Callable, Iterator

__all__ = ["YOUNG_THRESHOLD", "collect_less", "command_gc"]

#: Net allocations of container objects between collections of the youngest generation
#: (CPython's default: 700). The older generations' thresholds count these, so they are
#: reached about 14 times less often.
YOUNG_THRESHOLD = 10_000

_freeze_registered = False


@contextlib.contextmanager
def command_gc() -> Iterator[None]:
    """Collect garbage less often during the block; skip the collections at exit.

    Restores the thresholds the block found (also when it raises). The freeze at
    exit is registered once per process, however often the block runs.
    """
    global _freeze_registered
    if not _freeze_registered:
        atexit.register(gc.freeze)
        _freeze_registered = True
    old = gc.get_threshold()
    gc.set_threshold(max(YOUNG_THRESHOLD, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


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
