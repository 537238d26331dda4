"""Exclusions, the three deduplications, scrubbing and the occupation cap."""

from __future__ import annotations

import pytest

from mgbias.bios.postprocess import (
    Bio,
    cap_occupations,
    dedup_exact,
    dedup_middle,
    dedup_name_title,
    drop_excluded,
    postprocess,
    scrub,
)


def bio(raw: str, name=("John", "", "Smith"), title="architect", path="p", gender="M") -> Bio:
    return Bio(raw, tuple(name), title, title, gender, 0, "u", path)


def test_drop_excluded_titles() -> None:
    bios = [bio("a", title="magician"), bio("b"), bio("c", title="acupuncturist")]
    assert [b.raw for b in drop_excluded(bios)] == ["b"]


def test_dedup_exact_keeps_first() -> None:
    bios = [bio("a", path="1"), bio("b"), bio("a", path="2")]
    assert [(b.raw, b.path) for b in dedup_exact(bios)] == [("a", "1"), ("b", "p")]


def test_dedup_name_title_keeps_longest_then_smallest_raw_then_path() -> None:
    bios = [
        bio("abc"),
        bio("abcde", path="2"),
        bio("abcdd", path="3"),
        bio("abcdd", path="1"),
        bio("zz", title="nurse"),
    ]
    assert [(b.raw, b.path) for b in dedup_name_title(bios)] == [("abcdd", "1"), ("zz", "p")]


def test_dedup_middle_drops_prefix_middle_names() -> None:
    bios = [
        bio("1", name=("John", "", "Smith")),
        bio("2", name=("John", "Q.", "Smith")),
        bio("3", name=("John", "Q. R.", "Smith")),
        bio("4", name=("John", "", "Smith"), title="nurse"),
        bio("5", name=("John", "Paul", "Jones")),
    ]
    assert [b.raw for b in dedup_middle(bios)] == ["3", "4", "5"]


def test_scrub_gendered_words_and_name_tokens_either_first_case() -> None:
    text = "He met Smith. His sister, Hershey, thanks him; John and Johnny left. MR Smith."
    got = scrub(text, ["he", "his", "him", "mr"], ("John", "", "Smith"))
    assert got == "_ met _. _ sister, Hershey, thanks _; _ and Johnny left. MR _."
    assert scrub("Él y él mismo.", ["él", "él mismo"], ()) == "_ y _."


def test_cap_occupations_is_seeded_and_keeps_order() -> None:
    bios = [bio(str(i), title="nurse" if i % 2 else "architect") for i in range(10)]
    capped = cap_occupations(bios, 2, seed=3)
    assert sorted(b.title for b in capped) == ["architect"] * 2 + ["nurse"] * 2
    assert capped == sorted(capped, key=bios.index)
    assert cap_occupations(bios, 2, seed=3) == capped
    assert cap_occupations(bios, None, seed=3) == bios
    with pytest.raises(ValueError):
        cap_occupations(bios, -1, seed=3)


def test_postprocess_order() -> None:
    bios = [bio("long raw"), bio("long raw"), bio("raw"), bio("x", title="magician")]
    assert [b.raw for b in postprocess(bios)] == ["long raw"]
