"""The garbage collector's settings of a command (raised, restored, frozen at exit) and of
the planning process (a higher young threshold, a frozen heap at the exit of a dry run
only)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import pytest

from mgbias.workflow import gc_tuning
from mgbias.workflow.gc_tuning import YOUNG_THRESHOLD, collect_less, command_gc


@pytest.fixture
def fresh(monkeypatch):
    """No freeze registered yet; the registrations recorded instead of made."""
    registered = []
    monkeypatch.setattr(gc_tuning, "_freeze_registered", False)
    monkeypatch.setattr(gc_tuning.atexit, "register", registered.append)
    return registered


def test_thresholds_are_raised_in_the_block_and_restored_after(fresh):
    before = gc.get_threshold()
    with command_gc():
        inside = gc.get_threshold()
    assert inside == (max(YOUNG_THRESHOLD, before[0]), *before[1:])
    assert gc.get_threshold() == before


def test_thresholds_are_restored_when_the_block_raises(fresh):
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), command_gc():
        raise RuntimeError("the command failed")
    assert gc.get_threshold() == before


def test_the_freeze_at_exit_is_registered_once(fresh):
    with command_gc():
        pass
    with command_gc():
        pass
    assert fresh == [gc.freeze]


def test_a_process_freezes_its_objects_at_exit_and_keeps_its_output(tmp_path):
    """The freeze runs at exit, after the command; the command's output is complete."""
    out = tmp_path / "out.txt"
    code = textwrap.dedent(
        f"""
        import atexit, gc
        atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0))
        from mgbias.workflow.gc_tuning import command_gc
        with command_gc():
            cycle = []
            cycle.append(cycle)
            with open({str(out)!r}, "w") as stream:
                stream.write("written")
        print("frozen before exit", gc.get_freeze_count() > 0)
        """
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.split("\n")[:2] == ["frozen before exit False", "frozen True"]
    assert out.read_text() == "written"


def test_a_workflow_job_runs_with_the_commands_settings(fresh, tmp_path):
    from mgbias.workflow.runlog import job_log

    before = gc.get_threshold()
    with job_log(tmp_path / "job.log"):
        assert gc.get_threshold()[0] == max(YOUNG_THRESHOLD, before[0])
    assert gc.get_threshold() == before
    assert fresh == [gc.freeze]


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
