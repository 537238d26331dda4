"""At most one pending re-evaluation of Snakemake's job scheduler, as it intends.

Snakemake's scheduler (``snakemake.scheduling.job_scheduler.JobScheduler``, 9.27) runs
its loop once per release of a semaphore: when a job ends, and when a timer that the
job rate limiter asks for fires (``--max-jobs-per-timespan``, on by default at
``100/1s``). Every pass of the loop starts a new one-second timer, whatever timers are
already waiting; so every ended job adds one more timer chain that never stops, and
after *n* jobs the loop runs about *n* times a second. Each pass re-examines every
ready job and the size of each of its input files, on the cores the jobs wait for
(``benchmarks/scheduler.py`` measures the main process's CPU time both ways; the figures
for the demo are in docs/workflow.md).

:func:`one_pending_reevaluation` replaces the method that starts those timers
(``_schedule_reevalutation``, Snakemake's spelling) with one that starts a timer only
when none is due sooner: the loop still runs again within the limiter's timespan
after each pass, as the limiter needs, and when each job ends, as before. Which jobs
run, and when they may start, is unchanged. ``rules/common.smk`` calls it when the
workflow is parsed; a Snakemake without that method or semaphore is left as it is.
"""

from __future__ import annotations

import threading
import time

__all__ = ["PendingTimer", "one_pending_reevaluation"]

#: Marks the replacement, so that parsing the workflow again in one process replaces
#: nothing more.
_MARK = "_mgbias_one_pending"


class PendingTimer:
    """The due time of a scheduler's pending re-evaluation timer, if one is waiting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: float | None = None

    def request(self, delay: float) -> float | None:
        """The due time of a new timer of ``delay`` seconds, or ``None`` when a timer
        already waiting fires no later (then none is needed)."""
        due = time.monotonic() + delay
        with self._lock:
            if self._due is not None and self._due <= due:
                return None
            self._due = due
            return due

    def fired(self, due: float) -> None:
        """The timer due at ``due`` fired: none waits any more, unless a sooner one
        replaced it (that one is still waiting)."""
        with self._lock:
            if self._due == due:
                self._due = None

    @property
    def waiting(self) -> bool:
        with self._lock:
            return self._due is not None


def one_pending_reevaluation() -> bool:
    """Replace ``JobScheduler._schedule_reevalutation`` (module docstring); return whether
    the replacement is in place (``False``: this Snakemake has no such method)."""
    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:
        return False
    original = getattr(JobScheduler, "_schedule_reevalutation", None)
    if original is None:
        return False
    if getattr(original, _MARK, False):
        return True

    def _schedule_reevalutation(self, delay) -> None:
        semaphore = getattr(self, "_open_jobs", None)
        if semaphore is None:  # not the scheduler this replacement knows
            original(self, delay)
            return
        pending = self.__dict__.setdefault("_mgbias_pending_timer", PendingTimer())
        due = pending.request(delay)
        if due is None:
            return

        def fire() -> None:
            pending.fired(due)
            semaphore.release()

        threading.Timer(delay, fire).start()

    setattr(_schedule_reevalutation, _MARK, True)
    _schedule_reevalutation.__wrapped__ = original  # Snakemake's own, for comparison
    JobScheduler._schedule_reevalutation = _schedule_reevalutation
    return True
