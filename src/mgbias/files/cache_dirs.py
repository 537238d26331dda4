"""Where mgbias keeps what it can rebuild: one root for every cache.

``$MGBIAS_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/mgbias`` (``~/.cache/mgbias``).
Below it: ``vec/`` (parsed word vectors, :mod:`mgbias.embeddings.veccache`),
``sha256/`` (digests of large files, :mod:`mgbias.files.file_hashes`) and the named pair
benchmarks that ``mgbias score --data NAME`` downloads (:mod:`mgbias.pairs.named`), and
``code-imports.json`` (what each library file imports and means, by its bytes, for the
workflow's plans: :mod:`mgbias.workflow.code_inputs`).
Removing the root loses nothing but time.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_DIR_ENV", "cache_root"]

#: Environment variable naming the root of the caches.
CACHE_DIR_ENV = "MGBIAS_CACHE_DIR"


def cache_root() -> Path:
    """``$MGBIAS_CACHE_DIR``, else ``$XDG_CACHE_HOME/mgbias``, else ``~/.cache/mgbias``."""
    root = os.environ.get(CACHE_DIR_ENV)
    if root:
        return Path(root).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mgbias"
