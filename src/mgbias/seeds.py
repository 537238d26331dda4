"""Seeds for every random step, derived from the one root seed in config."""

from __future__ import annotations

import hashlib
import numbers
from typing import Any


def derive_seed(root: int, *keys: object) -> int:
    """Return a 32-bit seed determined by ``root`` and the step's ``keys``.

    Each (step, world, corpus, language, ...) gets its own stream, so adding
    a language never changes the random choices made for another one, and
    two runs of the same configuration draw the same numbers. Python's
    ``hash()`` is salted per process and is deliberately not used.
    """
    text = "\x1f".join([str(int(root)), *(str(k) for k in keys)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "little")


def check_seed(seed: Any, name: str = "seed") -> int:
    """Return ``seed`` as an ``int`` if it is a non-negative integer; raise otherwise.

    Python and NumPy integers are accepted; ``bool`` is not (``True`` is an
    ``int`` in Python, but never a meant seed). Every seeded step checks its
    seed here, so a bad seed is reported the same way everywhere.

    Parameters
    ----------
    seed
        The value to check.
    name
        What the error calls it (e.g. ``"WorldSpec.seed"``).

    Raises
    ------
    ValueError
        ``"<name> must be a non-negative integer, got <seed>"``.
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {seed!r}")
    return int(seed)
