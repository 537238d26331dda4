"""The gender spelling shared by mining, sentence files, MBE and the demo grammar."""

from __future__ import annotations

import pytest

from mgbias.wordlists.genders import FEMALE, GENDERS, MALE, opposite


def test_the_spelling_is_the_one_written_into_tables():
    assert (FEMALE, MALE) == ("female", "male")
    assert GENDERS == ("female", "male")


def test_opposite_swaps_and_rejects_anything_else():
    assert opposite(MALE) == "female" and opposite(FEMALE) == "male"
    for bad in ("m", "f", "Male", "both", None):
        with pytest.raises(ValueError, match="gender must be one of"):
            opposite(bad)
