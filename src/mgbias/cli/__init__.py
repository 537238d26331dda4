"""The ``mgbias`` command line (docs/cli.md).

- :mod:`mgbias.cli.launch`: the entry point (``[project.scripts]``, ``python -m mgbias``);
- :mod:`mgbias.cli.main`: the parser, the checks every command shares, ``main``;
- one module per command, each with its handler and ``add_command``:
  :mod:`~mgbias.cli.check_config`, :mod:`~mgbias.cli.score`, :mod:`~mgbias.cli.mbe`,
  :mod:`~mgbias.cli.tbs`, :mod:`~mgbias.cli.share`, :mod:`~mgbias.cli.probe`, and the
  families :mod:`~mgbias.cli.embeddings` (``align``, ``bli``, ``debias``, ``inbias``,
  ``bios-extract``) and :mod:`~mgbias.cli.finetune` (``finetune``, ``gendered-text``,
  ``mix-gendered-text``);
- :mod:`mgbias.cli.options`: the options and checks several commands share;
- :mod:`mgbias.cli.provenance`: the provenance record of each file a command writes;
- :mod:`mgbias.cli.interrupts`: SIGINT and SIGTERM end a command in one line.

Nothing is imported here: the entry point loads the command line only when it runs.
"""
