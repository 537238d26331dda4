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
"""

from __future__ import annotations

import atexit
import contextlib
import gc
from collections.abc import Iterator

__all__ = ["YOUNG_THRESHOLD", "command_gc"]

#: Net allocations of container objects between collections of the youngest generation.
YOUNG_THRESHOLD = 7000

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
