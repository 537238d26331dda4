"""SIGINT and SIGTERM end a command with one line, ``mgbias: interrupted: ...``, and exit
status 130 / 143; no output is left half-written (:mod:`mgbias.cli.interrupts`).

The commands read a named pipe: a command that has opened it for reading is past its
checks and blocked in its work, so the signal lands there without a timed sleep.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mgbias.cli.interrupts import OutputWatch, interrupted_message
from mgbias.cli.main import main
from mgbias.files.atomic import write_text

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


def _open_once_read(pipe: Path, gone: Callable[[], bool]) -> int | None:
    """Open ``pipe`` for writing as soon as a reader has it open (a file descriptor), or
    ``None`` once ``gone()`` says the reader ended without opening it."""
    while not gone():
        try:
            return os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            time.sleep(0.01)
    return None


def _sigint_as_in_a_terminal() -> None:
    """SIGINT's default action for the command (a shell runs a background job, such as a
    test run started with ``&``, with SIGINT ignored, and Python keeps it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture()
def sigint_raises():
    """Ctrl-C raises KeyboardInterrupt in this process, whatever it inherited."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_a_command_in_one_line(signum, status, tmp_path):
    os.mkfifo(tmp_path / "female.txt")
    (tmp_path / "male.txt").write_text("he is here .\n", encoding="utf-8")
    command = [sys.executable, "-m", "mgbias", "mix-gendered-text", "--female", "female.txt",
               "--male", "male.txt", "--r", "0.5", "--output", "mixed.txt"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_sigint_as_in_a_terminal,
    )
    try:
        pipe = _open_once_read(tmp_path / "female.txt", lambda: process.poll() is not None)
        process.send_signal(signum)
        if pipe is not None:  # the signal is pending: no reader may wait on the pipe at exit
            os.close(pipe)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert pipe is not None, err
    assert (process.returncode, err, out) == (
        status,
        "mgbias: interrupted: nothing was written\n",
        "",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["female.txt", "male.txt"]


def _vectors(root: Path) -> None:
    from mgbias.embeddings.dictionaries import write_dictionary
    from mgbias.embeddings.vectors import Vectors, unit_rows, write_vec

    words = [f"w{i}" for i in range(30)]
    vectors = unit_rows(np.random.default_rng(0).standard_normal((30, 4)))
    write_vec(root / "src.vec", Vectors(words, vectors))
    write_vec(root / "tgt.vec", Vectors([f"t{w}" for w in words], vectors))
    write_dictionary(root / "train.txt", [(w, f"t{w}") for w in words])


def test_an_interrupt_names_the_outputs_written_before_it(
    tmp_path, monkeypatch, capsys, sigint_raises
):
    """align reads --dico-test first (its check, before any work), writes its vectors and
    R, then reads it again for BLI: interrupted there, it says which outputs are complete;
    the SIGTERM handler is restored afterwards."""
    _vectors(tmp_path)
    monkeypatch.chdir(tmp_path)
    os.mkfifo("test.txt")
    main_thread = threading.main_thread().ident
    opened, done = threading.Event(), threading.Event()

    def interrupt() -> None:
        pipe = _open_once_read(Path("test.txt"), done.is_set)  # the check reads it: served
        if pipe is None:
            return
        os.set_blocking(pipe, True)
        os.write(pipe, "".join(f"w{i} tw{i}\n" for i in range(10)).encode())
        os.close(pipe)
        while not Path("out.json").exists() and not done.is_set():  # the outputs written
            time.sleep(0.01)
        pipe = _open_once_read(Path("test.txt"), done.is_set)  # once BLI reads it
        if pipe is not None:
            opened.set()
            signal.pthread_kill(main_thread, signal.SIGINT)
            done.wait(60)
            os.close(pipe)

    feeder = threading.Thread(target=interrupt)
    before = signal.getsignal(signal.SIGTERM)
    feeder.start()
    try:
        status = main(["align", "--source-vectors", "src.vec", "--target-vectors", "tgt.vec",
                       "--dico-train", "train.txt", "--dico-test", "test.txt", "--output",
                       "out.vec", "--summary", "out.json", "--niter", "1", "--maxneg", "30",
                       "--knn", "3", "--device", "cpu"])  # fmt: skip
    except KeyboardInterrupt:
        pytest.fail("the interrupt escaped main()")
    finally:
        done.set()
        feeder.join()
    assert opened.is_set() and status == 130
    assert capsys.readouterr().err == (
        "mgbias: interrupted: only out.vec (--output), out.json (--summary) and "
        "out.vec-mat.npy (the default --matrix) were written\n"
    )
    assert signal.getsignal(signal.SIGTERM) is before
    assert sorted(p.name for p in Path().iterdir()) == [
        "out.json", "out.vec", "out.vec-mat.npy", "src.vec", "test.txt", "tgt.vec", "train.txt"
    ]  # fmt: skip


def test_the_watch_names_replaced_and_new_outputs_only(tmp_path):
    old, new, untouched = tmp_path / "old.csv", tmp_path / "new.csv", tmp_path / "same.csv"
    old.write_text("before\n", encoding="utf-8")
    untouched.write_text("kept\n", encoding="utf-8")
    watch = OutputWatch({"--output": old, "--per-pair": [new, None], "--top": untouched})
    assert watch.written() == []
    write_text(old, "after\n")  # atomically: another inode
    write_text(new, "new\n")
    assert watch.written() == [(str(old), "--output"), (str(new), "--per-pair")]
    assert interrupted_message([]) == "interrupted: nothing was written"
    assert (
        interrupted_message(watch.written()[:1])
        == f"interrupted: only {old} (--output) was written"
    )
