"""Male orientation of pair scores (Kaneko et al. 2023 need scores that rise with r)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from mgbias.measures.orientation import (
    ORIENTED_COLUMNS,
    modified_word_mask,
    orient_pair,
    orient_pairs,
    oriented_pair_scores,
    oriented_preference,
)

MALE = {"he", "his", "man", "father", "uncle_sam"}
FEMALE = {"she", "her", "woman", "mother"}

PAIRS = [
    ("He is a nurse.", "She is a nurse.", "male_more"),
    ("Her mother cooks.", "His father cooks.", "male_less"),
    ("The man can't cook.", "The woman can't cook.", "male_more"),
    ("He is a nurse.", "He is a doctor.", "no_gender_word"),  # "he" is shared
    ("He cooks.", "Tom cooks.", "one_side"),
    ("He cooks.", "His father cooks.", "same_gender"),
    ("He and she cook.", "They cook.", "mixed"),
    ("Uncle Sam pays.", "She pays.", "male_more"),  # a two-word entry, modified
]


def test_modified_words_are_the_words_not_shared():
    words_a, modified_a, words_b, modified_b = modified_word_mask(
        "The man can't cook.", "The woman can't cook at all."
    )
    assert words_a == ["the", "man", "can", "t", "cook"]
    assert modified_a.tolist() == [False, True, False, False, False]
    assert modified_b.tolist() == [False, True, False, False, False, True, True]


@pytest.mark.parametrize(("more", "less", "expected"), PAIRS)
def test_orientation_and_the_reason_a_pair_has_none(more, less, expected):
    assert orient_pair(more, less, MALE, FEMALE) == expected


def test_swapping_the_sentences_swaps_the_orientation():
    forward = orient_pairs([p[0] for p in PAIRS], [p[1] for p in PAIRS], MALE, FEMALE)
    backward = orient_pairs([p[1] for p in PAIRS], [p[0] for p in PAIRS], MALE, FEMALE)
    swap = {"male_more": "male_less", "male_less": "male_more"}
    assert backward == [swap.get(side, side) for side in forward]
    # Swapping the word lists swaps it too.
    assert orient_pairs([p[0] for p in PAIRS], [p[1] for p in PAIRS], FEMALE, MALE) == backward


def test_word_lists_must_be_disjoint_and_inputs_aligned():
    with pytest.raises(ValueError, match=r"in both the male and the female list: \[\('he',\)\]"):
        orient_pairs(["a"], ["b"], {"he"}, {"he"})
    with pytest.raises(ValueError, match="2 sent_more but 1 sent_less"):
        orient_pairs(["a", "b"], ["c"], MALE, FEMALE)


# Five pairs: (more, less, orientation). By hand, male sentence preferred in:
#   0 male_more: -1 > -2  yes       1 male_less: less -1 > more -3  yes
#   2 male_more: -4 < -2  no        3 male_less: less -5 < more -1  no
#   4 one_side: dropped
# -> oriented score = 2/4 = 50 %; stereo (sent_more preferred, every pair) = pairs 0, 3, 4
# = 3/5 = 60 %.
MORE = [-1.0, -3.0, -4.0, -1.0, -2.0]
LESS = [-2.0, -1.0, -2.0, -5.0, -9.0]
SIDES = ["male_more", "male_less", "male_more", "male_less", "one_side"]


def test_oriented_preference_by_hand():
    result = oriented_preference(MORE, LESS, SIDES)
    assert result.score == 50.0
    assert (result.n_pairs, result.n_unorientable) == (5, 1)
    record = result.to_dict()
    assert (record["n"], record["n_male_preferred"], record["n_female_preferred"]) == (4, 2, 2)
    planted = oriented_preference(MORE, LESS, ["male_more", "male_less", "male_less", "male_more",
                                               "mixed"])  # fmt: skip
    assert planted.score == 100.0


def test_swapping_sides_keeps_the_oriented_score_and_flips_the_stereo_score():
    swap = {"male_more": "male_less", "male_less": "male_more"}
    flipped = [swap.get(side, side) for side in SIDES]
    assert (
        oriented_preference(LESS, MORE, flipped).score
        == oriented_preference(MORE, LESS, SIDES).score
    )
    frame = pd.DataFrame({"aul_more": MORE, "aul_less": LESS})
    swapped = pd.DataFrame({"aul_more": LESS, "aul_less": MORE})
    first = oriented_pair_scores(frame, SIDES, measures=["aul"]).set_index("direction")
    second = oriented_pair_scores(swapped, flipped, measures=["aul"]).set_index("direction")
    assert first.loc["male", "score"] == second.loc["male", "score"] == 50.0
    assert first.loc["stereo", "score"] == 60.0
    assert second.loc["stereo", "score"] == 100.0 - 60.0
    # Swapping which list is male turns the oriented score into 100 minus itself.
    assert oriented_preference(MORE, LESS, flipped).score == 100.0 - 50.0


def test_oriented_pair_scores_table_with_ties_rounding_and_edges():
    frame = pd.DataFrame(
        {
            "sent_more": ["x"] * 4,
            "cps_more": [-1.0001, -2.0, -3.0, -1.0],
            "cps_less": [-1.0004, -1.0, -1.0, -2.0],  # pair 0 ties after rounding to 3 decimals
            "sss_more": [-1.0001, -2.0, -3.0, -1.0],
            "sss_less": [-1.0004, -1.0, -1.0, -2.0],  # SSS does not round: pair 0 is a male win
            "identical": [False] * 4,
            "no_shared": [True, False, False, False],
            "no_modified_more": [False] * 4,
            "no_modified_less": [False] * 4,
        }
    )
    sides = ["male_more", "male_less", "no_gender_word", "male_more"]
    table = oriented_pair_scores(frame, sides, measures=["cps", "sss"])
    assert list(table.columns) == ORIENTED_COLUMNS
    rows = table.set_index(["measure", "direction"])
    # CPS male: pair 0 tie (0), pair 1 male=less -1 > -2 (1), pair 3 -1 > -2 (1) -> 2/3.
    assert rows.loc[("cps", "male"), "score"] == pytest.approx(200 / 3)
    assert rows.loc[("cps", "male"), ["n", "n_ties", "n_edge", "n_unorientable"]].tolist() == [
        3, 1, 1, 1,
    ]  # fmt: skip
    assert rows.loc[("sss", "male"), "score"] == 100.0
    # Stereo: every pair; sent_more wins pairs 3 (and 0 for SSS).
    assert rows.loc[("cps", "stereo"), "score"] == 25.0
    assert rows.loc[("sss", "stereo"), "score"] == 50.0
    assert rows.loc[("cps", "stereo"), "n_unorientable"] == 0
    excluded = oriented_pair_scores(frame, sides, measures=["cps"], tie_rule="exclude")
    male = excluded.set_index("direction").loc["male"]
    assert (male["score"], male["n"]) == (100.0, 2)  # the tied edge pair dropped


def test_no_orientable_pair_gives_nan_and_bad_input_is_named():
    result = oriented_preference([-1.0], [-2.0], ["mixed"])
    assert math.isnan(result.score) and result.n_unorientable == 1
    with pytest.raises(ValueError, match=r"unknown orientation\(s\) \['male'\]"):
        oriented_preference([-1.0], [-2.0], ["male"])
    with pytest.raises(ValueError, match="no column"):
        oriented_pair_scores(pd.DataFrame({"aul_more": [1.0]}), ["male_more"], measures=["aul"])
    with pytest.raises(ValueError, match="2 orientations for a per-pair table of 1"):
        oriented_pair_scores(pd.DataFrame({"aul_more": [1.0]}), ["a", "b"])
    assert np.isnan(oriented_preference([], [], []).score)


def test_stereo_direction_equals_the_pair_measures_of_the_scoring_engine():
    """From a real per-pair table: the paper-literal rows are pair_measures' scores."""
    from fixtures.tiny_models import build_model, wordpiece_tokenizer

    from mgbias.pairs.passes import score_pair_passes
    from mgbias.pairs.scoring import pair_measures, per_pair_table

    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer), attn_implementation="eager", seed=0)
    frame = pd.DataFrame(
        {
            "pair_id": ["0", "1", "2", "3"],
            "sent_more": ["he is a doctor.", "the woman works here.", "she works.", "he is."],
            "sent_less": ["she is a doctor.", "the man works here.", "he works.", "he is."],
            "stereo_antistereo": ["stereo", "antistereo", "stereo", "stereo"],
        }
    )
    pairs = list(zip(frame.sent_more, frame.sent_less, strict=True))
    unmasked, masked = score_pair_passes(model, tokenizer, pairs, progress=False)
    measures = ["sss", "cps", "aul", "aula"]
    expected = pair_measures(unmasked, masked, measures).set_index("measure")
    per_pair = per_pair_table(frame, unmasked, masked)
    sides = orient_pairs(per_pair.sent_more, per_pair.sent_less, {"he", "man"}, {"she", "woman"})
    assert sides == ["male_more", "male_less", "male_less", "no_gender_word"]
    table = oriented_pair_scores(per_pair, sides).set_index(["measure", "direction"])
    for measure in measures:
        assert table.loc[(measure, "stereo"), "score"] == pytest.approx(
            expected.loc[measure, "score"]
        )
        assert table.loc[(measure, "stereo"), "n_edge"] == expected.loc[measure, "n_edge"]
        assert table.loc[(measure, "male"), "n"] == 3
