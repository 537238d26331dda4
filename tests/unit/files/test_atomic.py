"""Atomic writers: one file, several files together, a directory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mgbias.files.atomic import atomic_directory, atomic_path, atomic_paths, write_bytes


def names(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


def test_atomic_path_failure_keeps_previous_file_and_removes_temp(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("previous")
    with pytest.raises(RuntimeError, match="killed"):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("killed")
    assert names(tmp_path) == ["out.txt"]
    assert target.read_text() == "previous"


def test_atomic_path_removes_stale_partial_of_a_killed_write(tmp_path):
    target = tmp_path / "out.txt"
    stale = tmp_path / ".out.txt.partial-abc123"
    stale.write_text("left by SIGKILL")
    other = tmp_path / ".other.txt.partial-abc123"  # another file's partial: not ours
    other.write_text("x")
    write_bytes(target, b"new")
    assert names(tmp_path) == [".other.txt.partial-abc123", "out.txt"]
    assert target.read_bytes() == b"new"


def test_several_files_appear_only_when_all_are_complete(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "sub" / "b.txt"
    first.write_text("old a")
    with pytest.raises(RuntimeError, match="killed"):
        with atomic_paths(first, second) as (tmp_first, tmp_second):
            assert tmp_first.parent == tmp_path and tmp_second.parent == second.parent
            assert tmp_first.name.startswith(".a.txt.partial-")
            tmp_first.write_text("new a")  # complete, but its partner is not
            tmp_second.write_text("half")
            raise RuntimeError("killed")
    assert names(tmp_path) == ["a.txt", "sub"]
    assert names(tmp_path / "sub") == []
    assert first.read_text() == "old a"

    with atomic_paths(first, second) as (tmp_first, tmp_second):
        tmp_first.write_text("new a")
        tmp_second.write_text("new b")
        assert not second.exists()  # nothing renamed before the block ends
    assert names(tmp_path) == ["a.txt", "sub"]
    assert names(tmp_path / "sub") == ["b.txt"]
    assert (first.read_text(), second.read_text()) == ("new a", "new b")


def test_several_files_are_renamed_in_the_order_given(tmp_path, monkeypatch):
    order: list[str] = []
    real_replace = os.replace

    def recording_replace(source, target):
        order.append(Path(target).name)
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", recording_replace)
    with atomic_paths(tmp_path / "data.zip", tmp_path / "data.zip.sha256") as temps:
        for temp in temps:
            temp.write_text("x")
    assert order == ["data.zip", "data.zip.sha256"]


def test_several_files_remove_stale_partials(tmp_path):
    (tmp_path / ".f.txt.partial-old").write_text("stale")
    (tmp_path / ".m.txt.partial-old").write_text("stale")
    with atomic_paths(tmp_path / "f.txt", tmp_path / "m.txt") as temps:
        for temp in temps:
            temp.write_text("x")
    assert names(tmp_path) == ["f.txt", "m.txt"]


def test_failed_directory_write_leaves_previous_output(tmp_path):
    out_dir = tmp_path / "model"
    out_dir.mkdir()
    (out_dir / "old.txt").write_text("previous")

    with pytest.raises(RuntimeError, match="killed"):
        with atomic_directory(out_dir) as directory:
            (directory / "partial.bin").write_bytes(b"half")
            raise RuntimeError("killed")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["model"]
    assert [path.name for path in out_dir.iterdir()] == ["old.txt"]

    with atomic_directory(out_dir) as directory:
        (directory / "new.txt").write_text("new")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["model"]
    assert [path.name for path in out_dir.iterdir()] == ["new.txt"]


def test_directory_write_creates_fresh_directory_with_normal_permissions(tmp_path):
    previous = os.umask(0o022)
    try:
        _fresh_directory_with_normal_permissions(tmp_path)
    finally:
        os.umask(previous)


def _fresh_directory_with_normal_permissions(tmp_path):
    out_dir = tmp_path / "parent" / "model"
    with atomic_directory(out_dir) as directory:
        assert directory.parent == out_dir.parent
        assert directory.name.startswith(".model.") and directory.name.endswith(".tmp")
        assert list(directory.iterdir()) == []
        (directory / "sub").mkdir()
        (directory / "sub" / "weights.bin").write_bytes(b"w")
        assert not out_dir.exists()
    assert names(out_dir.parent) == ["model"]
    assert stat.S_IMODE(out_dir.stat().st_mode) == 0o755
    assert stat.S_IMODE((out_dir / "sub").stat().st_mode) == 0o755
    assert stat.S_IMODE((out_dir / "sub" / "weights.bin").stat().st_mode) == 0o644
