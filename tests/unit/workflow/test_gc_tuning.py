"""Garbage collection while the workflow plans: higher young threshold, a frozen heap
at the exit of a dry run only."""

from __future__ import annotations

import gc

import pytest

from mgbias.workflow import gc_tuning
from mgbias.workflow.gc_tuning import YOUNG_THRESHOLD, collect_less


@pytest.fixture()
def collector(monkeypatch):
    """The thresholds restored, the exit hooks recorded instead of registered."""
    thresholds = gc.get_threshold()
    hooks = []
    monkeypatch.setattr(gc_tuning.atexit, "register", lambda *call: hooks.append(call))
    monkeypatch.setattr(gc_tuning, "_registered", [])
    yield hooks
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def run_hooks(hooks) -> int:
    """Run the recorded exit hooks; the number of objects they froze."""
    before = gc.get_freeze_count()
    for function, *args in hooks:
        function(*args)
    return gc.get_freeze_count() - before


def test_the_young_threshold_is_raised_and_the_older_ones_kept(collector):
    gc.set_threshold(700, 10, 10)  # CPython's defaults
    collect_less(lambda: False)
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    gc.set_threshold(YOUNG_THRESHOLD * 3, 5, 7)  # higher already: kept
    collect_less(lambda: False)
    assert gc.get_threshold() == (YOUNG_THRESHOLD * 3, 5, 7)
    gc.set_threshold(0, 10, 10)  # collection off: kept off
    collect_less(lambda: False)
    assert gc.get_threshold() == (0, 10, 10)


def test_the_heap_is_frozen_at_the_exit_of_a_dry_run_only(collector):
    collect_less(lambda: False)
    assert len(collector) == 1
    assert run_hooks(collector) == 0  # a run that executed jobs: the usual exit
    collect_less(lambda: True)  # parsed again, now for a dry run: still one hook
    assert len(collector) == 1
    assert run_hooks(collector) > 0


def test_a_workflow_that_cannot_say_whether_it_is_a_dry_run_exits_as_usual(collector):
    def broken() -> bool:
        raise AttributeError("no executor yet")

    collect_less(broken)
    assert run_hooks(collector) == 0
