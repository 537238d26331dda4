"""Split, gender-balanced upsampling and |Diff| (Zhao et al. 2020, §4.1), by hand."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from mgbias.bios.fairness import balance_genders, gender_gap, split_by_title

# nurse: F 2/2 right, M 1/2 -> |50 - 100| = 50; poet: F 0/1, M 2/2 -> 100;
# dentist: F 1/1, M 0/1 -> 100 (skipped like the authors); chef: F only (no gap)
TITLES = ["nurse"] * 4 + ["poet"] * 3 + ["dentist"] * 2 + ["chef"]
GENDERS = ["F", "F", "M", "M", "F", "M", "M", "F", "M", "F"]
PREDICTED = ["nurse", "nurse", "nurse", "poet", "nurse", "poet", "poet", "dentist", "nurse", "chef"]


def test_gender_gap_by_hand():
    gap = gender_gap(TITLES, PREDICTED, GENDERS, skip=["dentist"])
    assert gap.avg == pytest.approx(70.0)  # 7 of 10
    assert gap.female == pytest.approx(80.0)  # 4 of 5
    assert gap.male == pytest.approx(60.0)  # 3 of 5
    assert gap.occupations == ("nurse", "poet")
    assert gap.diff == pytest.approx((50 + 100) / 2)
    assert gap.tpr["nurse"] == {"F": 100.0, "M": 50.0, "n_F": 2, "n_M": 2}
    assert math.isnan(gap.tpr["chef"]["M"])
    unskipped = gender_gap(TITLES, PREDICTED, GENDERS)
    assert unskipped.diff == pytest.approx((50 + 100 + 100) / 3)


def test_gender_gap_rejects_bad_input():
    with pytest.raises(ValueError, match="one entry"):
        gender_gap(TITLES, PREDICTED[:-1], GENDERS)
    with pytest.raises(ValueError, match="F or M"):
        gender_gap(["nurse"], ["nurse"], ["female"])
    with pytest.raises(ValueError, match="no test"):
        gender_gap([], [], [])


def records(counts: dict[tuple[str, str], int]) -> list[dict]:
    rows = []
    for (title, gender), n in counts.items():
        rows += [
            {"id": f"{title}-{gender}-{i}", "title": title, "gender": gender} for i in range(n)
        ]
    return rows


def test_balance_makes_genders_equal_per_occupation_and_drops_one_gender_titles():
    data = records({("nurse", "F"): 5, ("nurse", "M"): 2, ("poet", "F"): 1, ("poet", "M"): 1})
    data += records({("chef", "F"): 3})
    balanced = balance_genders(data, seed=1110)
    assert balanced.dropped == ["chef"]
    counts = Counter((r["title"], r["gender"]) for r in balanced.records)
    assert counts == {("nurse", "F"): 5, ("nurse", "M"): 5, ("poet", "F"): 1, ("poet", "M"): 1}
    # 2 males: one full repeat (2) and one drawn extra; every original kept once at least
    males = Counter(
        r["id"] for r in balanced.records if r["title"] == "nurse" and r["gender"] == "M"
    )
    assert sorted(males.values()) == [2, 3]
    assert balance_genders(data, seed=1110).records == balanced.records


def test_split_is_stratified_seeded_and_balancing_leaves_test_untouched():
    data = records({("nurse", "F"): 8, ("nurse", "M"): 2, ("poet", "F"): 3, ("poet", "M"): 7})
    train, dev, test = split_by_title(data, seed=42)
    for part, n in [(train, 6), (dev, 2), (test, 2)]:  # per title: 20% test, 25% of the rest dev
        assert Counter(r["title"] for r in part) == {"nurse": n, "poet": n}
    assert sorted(r["id"] for r in train + dev + test) == sorted(r["id"] for r in data)
    assert split_by_title(data, seed=42) == (train, dev, test)
    assert split_by_title(data, seed=43) != (train, dev, test)
    before = [dict(r) for r in test]
    balanced_train = balance_genders(train, seed=1110).records
    for title in ("nurse", "poet"):
        genders = Counter(r["gender"] for r in balanced_train if r["title"] == title)
        assert genders["F"] == genders["M"] or not (genders["F"] and genders["M"])
    assert test == before
