"""Ctrl-C and SIGTERM end a command with one line and the shell's exit status.

A command interrupted by SIGINT (Ctrl-C: ``KeyboardInterrupt``) or SIGTERM (``kill``, a
batch scheduler's time limit) prints one line on stderr and exits with ``128 + the
signal's number``, what a shell reports for a process the signal killed: 130 for SIGINT,
143 for SIGTERM. The line says what the command had written by then::

    mgbias: interrupted: nothing was written
    mgbias: interrupted: only scores.csv (--output) was written

Every output is written atomically (:mod:`mgbias.files.atomic`): an interrupt while a file
is written removes its temporary file and leaves the destination as it was, so an
output is either complete or not there. :class:`OutputWatch` tells which outputs a
command replaced before the interrupt by comparing each one's device, inode, size and
modification time with their values before the command ran. ``mgbias finetune`` keeps
its checkpoints (``OUTPUT.checkpoints``) when interrupted, so that the next run resumes
from them: the line names them when there are new ones. ``mgbias share`` runs dvc and
Snakemake, whose files no option names: its line says that some may have changed.

:func:`sigterm_raises` makes SIGTERM raise :class:`Terminated` in the main thread, as
SIGINT raises ``KeyboardInterrupt``, so the same ``finally`` blocks clean up after
both; it restores the previous handler afterwards, so that :func:`mgbias.cli.main.main`
can be called in-process (by tests) without changing the caller's handlers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from mgbias.files.output_paths import option_paths

__all__ = [
    "EXIT_SIGINT",
    "EXIT_SIGTERM",
    "OutputWatch",
    "Terminated",
    "exit_status",
    "interrupted_message",
    "sigterm_raises",
]

#: Exit status after SIGINT: 128 + 2, as a shell reports a process Ctrl-C ended.
EXIT_SIGINT = 128 + signal.SIGINT
#: Exit status after SIGTERM: 128 + 15.
EXIT_SIGTERM = 128 + signal.SIGTERM


class Terminated(BaseException):
    """SIGTERM, raised in the main thread (a ``BaseException``, as ``KeyboardInterrupt``,
    so that no ``except Exception`` takes it for an error of the command)."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Terminated` in the main thread.

    The previous handler is restored afterwards. Outside the main thread, where Python
    installs no signal handler, nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_status(interrupt: BaseException) -> int:
    """130 for ``KeyboardInterrupt`` (SIGINT), 143 for :class:`Terminated` (SIGTERM)."""
    return EXIT_SIGTERM if isinstance(interrupt, Terminated) else EXIT_SIGINT


def _signature(path: str) -> tuple[int, int, int, int] | None:
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class OutputWatch:
    """A command's outputs as they were before it ran, to tell which it wrote.

    Parameters
    ----------
    outputs : mapping
        ``{option: path}`` (a path, a sequence of paths or ``None``), as
        :func:`mgbias.files.output_paths.check_output_paths` takes them.
    """

    def __init__(self, outputs: Mapping[str, Any]) -> None:
        self._before = {
            (name, path): _signature(path)
            for name, value in outputs.items()
            for path in option_paths(value)
        }

    def written(self) -> list[tuple[str, str]]:
        """``(path, option)`` of each output that is there now and was not, or was another
        file, before the command ran."""
        return [
            (path, name)
            for (name, path), before in self._before.items()
            if (now := _signature(path)) is not None and now != before
        ]


def interrupted_message(written: list[tuple[str, str]], *, untracked: bool = False) -> str:
    """The line an interrupted command prints, naming the outputs it completed.

    ``untracked``: the command writes files that no option names (``mgbias share``: dvc
    and Snakemake write them), so the line cannot say that nothing was written.
    """
    if untracked:
        return "interrupted: the command may have changed some of its files; run it again"
    if not written:
        return "interrupted: nothing was written"
    names = [f"{path} ({option})" for path, option in written]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"interrupted: only {listed} {'was' if len(names) == 1 else 'were'} written"
