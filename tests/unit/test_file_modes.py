"""Every output gets the mode ``open()`` and ``mkdir`` would give it under the umask.

``tempfile`` creates files ``0o600`` and directories ``0o700``; an atomic write
renames them into place, so without a chmod every result would be private to its
author on a shared file system.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mgbias.files.atomic import (
    atomic_directory,
    atomic_path,
    atomic_paths,
    current_umask,
    directory_mode,
    file_mode,
    write_json,
)
from mgbias.files.tabular import write_csv

# umask -> (file mode, directory mode), as ``open()`` and ``mkdir`` give them
MODES = {0o022: (0o644, 0o755), 0o077: (0o600, 0o700), 0o002: (0o664, 0o775)}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=sorted(MODES), ids=lambda mask: f"umask{mask:03o}")
def umask(request):
    previous = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(previous)


def test_current_umask_reads_the_process_umask_and_leaves_it(umask):
    assert current_umask() == umask
    assert current_umask() == umask  # reading did not change it
    assert (file_mode(), directory_mode()) == MODES[umask]


def test_plain_open_agrees_with_the_table(umask, tmp_path):
    """The table above is what the operating system does; the writers must match it."""
    (tmp_path / "plain.txt").write_text("x")
    (tmp_path / "plain").mkdir()
    assert (mode(tmp_path / "plain.txt"), mode(tmp_path / "plain")) == MODES[umask]


def test_atomic_path_file_mode_follows_umask(umask, tmp_path):
    target = tmp_path / "out.txt"
    with atomic_path(target) as tmp:
        assert mode(tmp) == 0o600  # mkstemp's, until the rename
        tmp.write_text("x")
    assert mode(target) == MODES[umask][0]


def test_atomic_path_replacing_an_existing_file_gets_the_umask_mode(umask, tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_json(target, {"a": 1})
    assert mode(target) == MODES[umask][0]


def test_atomic_paths_file_modes_follow_umask(umask, tmp_path):
    first, second = tmp_path / "a.csv", tmp_path / "sub" / "b.sha256"
    with atomic_paths(first, second) as temps:
        for tmp in temps:
            tmp.write_text("x")
    assert mode(first) == mode(second) == MODES[umask][0]


def test_atomic_directory_modes_follow_umask(umask, tmp_path):
    out_dir = tmp_path / "model"
    with atomic_directory(out_dir) as directory:
        (directory / "sub").mkdir(mode=0o700)
        (directory / "sub" / "weights.bin").write_bytes(b"w")
        os.chmod(directory / "sub" / "weights.bin", 0o600)
        (directory / "config.json").write_text("{}")
    file_expected, dir_expected = MODES[umask]
    assert mode(out_dir) == mode(out_dir / "sub") == dir_expected
    assert mode(out_dir / "sub" / "weights.bin") == mode(out_dir / "config.json") == file_expected


def test_table_writer_mode_follows_umask(umask, tmp_path):
    target = tmp_path / "tables" / "scores.csv"
    write_csv(pd.DataFrame({"measure": ["aula"], "score": [52.5]}), target)
    assert target.read_text() == "measure,score\naula,52.5\n"
    assert mode(target) == MODES[umask][0]


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_umask_read_from_a_fresh_process(tmp_path, mask):
    """A job started by a shell with its own umask writes with that umask's modes."""
    target = tmp_path / "out.json"
    code = (
        "import os, sys\n"
        f"os.umask({mask})\n"
        "from mgbias.files.atomic import write_json\n"
        "write_json(sys.argv[1], {'x': 1})\n"
    )
    subprocess.run([sys.executable, "-c", code, str(target)], check=True)
    assert mode(target) == MODES[mask][0]


def test_vec_cache_modes_follow_umask(umask, tmp_path, monkeypatch):
    """The cache of parsed .vec files (its directories, entries and stat records) may be
    shared like the results: it gets the umask's modes too."""
    from mgbias.embeddings.vectors import read_vec

    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MGBIAS_VEC_CACHE", raising=False)
    source = tmp_path / "v.vec"
    source.write_text("2 2\na 1 2\nb 3 4\n", encoding="utf-8")
    assert read_vec(source).words == ("a", "b")
    root = tmp_path / "cache" / "vec"
    written = sorted(root.rglob("*"))
    names = sorted(path.name.split(".", 1)[-1] for path in written if path.is_file())
    assert names == ["json", "strict.v1.json", "strict.v1.npy"]
    file_expected, dir_expected = MODES[umask]
    for path in written:
        assert mode(path) == (dir_expected if path.is_dir() else file_expected), path
    assert mode(tmp_path / "cache") == dir_expected
