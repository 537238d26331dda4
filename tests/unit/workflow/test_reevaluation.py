"""The scheduler's re-evaluation timers: Snakemake starts one per pass of its loop, the
replacement only when none is due sooner (mgbias.workflow.reevaluation)."""

from __future__ import annotations

import threading

import pytest
from snakemake.scheduling.job_scheduler import JobScheduler

from mgbias.workflow.reevaluation import PendingTimer, one_pending_reevaluation


class Scheduler:
    """What the replaced method uses of a scheduler: its semaphore."""

    def __init__(self) -> None:
        self._open_jobs = threading.Semaphore(0)


def timers() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if isinstance(thread, threading.Timer)}


def releases(scheduler: Scheduler, wait: float) -> int:
    """How many times the semaphore is released within ``wait`` seconds of the first."""
    count = 0
    while scheduler._open_jobs.acquire(timeout=wait if count else 5.0):
        count += 1
    return count


@pytest.fixture(scope="module")
def replaced():
    assert one_pending_reevaluation()
    return JobScheduler._schedule_reevalutation


#: Seconds before a timer fires: long enough that none has fired while they are counted,
#: on a machine whose cores are busy with other tests.
DUE = 2.0


def test_snakemake_starts_a_timer_per_pass_the_replacement_one(replaced):
    scheduler = Scheduler()
    before = timers()
    for _ in range(20):
        replaced.__wrapped__(scheduler, DUE)
    assert len(timers() - before) == 20  # if this fails, Snakemake has fixed it
    assert releases(scheduler, 1.0) == 20

    before = timers()
    for _ in range(20):
        replaced(scheduler, DUE)
    assert len(timers() - before) == 1
    assert releases(scheduler, 1.0) == 1
    # once it has fired, the next pass starts a timer again
    replaced(scheduler, 0.05)
    assert releases(scheduler, 0.3) == 1


def test_a_sooner_request_gets_its_own_timer_and_a_later_one_none():
    pending = PendingTimer()
    first = pending.request(10.0)
    assert first is not None and pending.waiting
    assert pending.request(20.0) is None  # the waiting timer fires sooner
    sooner = pending.request(0.0)
    assert sooner is not None and sooner < first
    pending.fired(first)  # the replaced timer fires late: the sooner one still waits
    assert pending.waiting
    pending.fired(sooner)
    assert not pending.waiting
    assert pending.request(20.0) is not None


def test_replacing_twice_keeps_the_first_replacement(replaced):
    assert one_pending_reevaluation()
    assert JobScheduler._schedule_reevalutation is replaced
