"""The garbage collector's settings of a command: raised, restored, frozen at exit."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import pytest

from mgbias import gc_tuning
from mgbias.gc_tuning import YOUNG_THRESHOLD, command_gc


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
        from mgbias.gc_tuning import command_gc
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
    from mgbias.runlog import job_log

    before = gc.get_threshold()
    with job_log(tmp_path / "job.log"):
        assert gc.get_threshold()[0] == max(YOUNG_THRESHOLD, before[0])
    assert gc.get_threshold() == before
    assert fresh == [gc.freeze]
