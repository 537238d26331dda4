"""The ``mgbias`` command's entry point (``[project.scripts]`` and ``python -m mgbias``).

Ctrl-C while the command line's modules load, in the first tenths of a second, ends as
one during a command does (:mod:`mgbias.cli.interrupts`): one line and exit status 130, not a
traceback. SIGTERM then ends the process by its default action, which a shell reports as
143, with no output. Nothing is written before :func:`mgbias.cli.main.main` runs.
"""

from __future__ import annotations

import sys

#: Exit status after SIGINT (as :data:`mgbias.cli.interrupts.EXIT_SIGINT`, which this module
#: does not import: it runs before anything is loaded).
_EXIT_SIGINT = 130


def main() -> int:
    """Load the command line and run it (:func:`mgbias.cli.main.main`)."""
    try:
        from mgbias.cli.main import main as command
    except KeyboardInterrupt:
        print("mgbias: interrupted: nothing was written", file=sys.stderr)
        return _EXIT_SIGINT
    try:
        return command()
    except KeyboardInterrupt:  # between start-up and the command's own handler
        print("mgbias: interrupted", file=sys.stderr)
        return _EXIT_SIGINT
