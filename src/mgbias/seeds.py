"""Seeds for every random step, derived from the one root seed in config."""

from __future__ import annotations

import hashlib


def derive_seed(root: int, *keys: object) -> int:
    """Return a 32-bit seed determined by ``root`` and the step's ``keys``.

    Each (step, world, corpus, language, ...) gets its own stream, so adding
    a language never changes the random choices made for another one, and
    two runs of the same configuration draw the same numbers. Python's
    ``hash()`` is salted per process and is deliberately not used.
    """
    text = "\x1f".join([str(int(root)), *(str(k) for k in keys)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "little")
