"""The two genders, spelled one way throughout.

Word lists, mined sentence files (the ``gender`` column), the MBE table's
``preferred`` column, configuration keys (``wordlists.female``,
``wordlists.male``) and the demo grammar all use these strings.
"""

from __future__ import annotations

FEMALE = "female"
MALE = "male"
GENDERS: tuple[str, str] = (FEMALE, MALE)
"""Both genders, in the order of the gendered sentence files (female rows first)."""


def opposite(gender: str) -> str:
    """The other gender (:data:`MALE` <-> :data:`FEMALE`).

    Raises
    ------
    ValueError
        If ``gender`` is neither.
    """
    if gender not in GENDERS:
        raise ValueError(f"gender must be one of {GENDERS}, got {gender!r}")
    return FEMALE if gender == MALE else MALE
