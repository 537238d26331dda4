"""The ``mgbias`` command line (docs/cli.md).

- :mod:`mgbias.cli.launch`: the entry point (``[project.scripts]``, ``python -m mgbias``);
- :mod:`mgbias.cli.main`: the parser and every command's handler;
- :mod:`mgbias.cli.options`: the options several commands share;
- :mod:`mgbias.cli.provenance`: the provenance record of each file a command writes;
- :mod:`mgbias.cli.interrupts`: SIGINT and SIGTERM end a command in one line.

Nothing is imported here: the entry point loads the command line only when it runs.
"""
