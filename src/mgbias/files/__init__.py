"""Reading and writing files, shared by every package.

- :mod:`mgbias.files.atomic`: outputs written whole or not at all;
- :mod:`mgbias.files.textio`: text files, encodings and lines, with errors that name them;
- :mod:`mgbias.files.tabular`: CSV and Markdown tables;
- :mod:`mgbias.files.yaml_lines`: YAML with each value's line, for messages;
- :mod:`mgbias.files.file_hashes`: SHA-256 digests of files, cached by size and time;
- :mod:`mgbias.files.output_paths`: a command's outputs checked against its inputs;
- :mod:`mgbias.files.cache_dirs`: the cache directories under ``~/.cache/mgbias``.

The modules sit at different layers (``[tool.importlinter]`` in pyproject.toml), so this
``__init__`` imports none of them.
"""
