"""Pairs the usual formulas do not cover: the rule of each measure, n_edge, tie_rule="exclude".

Passes are built by hand so every expected number can be worked out on paper.
Per pair (sent_more | sent_less):

0. "Paul" / "Paula": sent_more has no modified token, sent_less one (-2.0);
   shared tokens [-1.0] | [-1.5].
1. identical sentences, scored with float noise between the two batch positions.
2. no shared token at all: sent_more modified [-1.0], sent_less [-3.0].
3. an ordinary pair: shared [-1, -2] | [-1.5, -2.5], modified [-0.5] | [-4.0].
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from fixtures.pair_passes import side

from mgbias.measures import pair
from mgbias.measures.edges import EDGE_FLAGS, PairEdges, pair_edges
from mgbias.measures.sjsd import js_distance
from mgbias.mlm.masked_cache import PairScores
from mgbias.mlm.scores import SentenceScores
from mgbias.pairs.scoring import pair_measures, per_pair_table

PAIR_MEASURES = pair.names()
EDGE_RULES = {measure.name: measure.edge_flags for measure in pair.pair_measures()}

NOISE = 1e-7
# (shared more, shared less, modified more, modified less) per pair
PAIRS = [
    ([-1.0], [-1.5], [], [-2.0]),
    ([-1.0, -2.0], [-1.0 + NOISE, -2.0 - NOISE], [], []),
    ([], [], [-1.0], [-3.0]),
    ([-1.0, -2.0], [-1.5, -2.5], [-0.5], [-4.0]),
]
IDS = ["p0", "p1", "p2", "p3"]


def masked_pass(pairs=PAIRS, ids=IDS):
    more = side([p[0] for p in pairs], [p[2] for p in pairs], 50)
    less = side([p[1] for p in pairs], [p[3] for p in pairs], 60)
    # identical pairs: the same token ids on both sides
    for index, one in enumerate(pairs):
        if not one[2] and not one[3]:
            less.token_ids[index] = more.token_ids[index].copy()
    return PairScores(
        a=more, b=less, n_dropped_shared=np.zeros(len(pairs), np.int32), max_length=32, pair_ids=ids
    )


def unmasked_pass():
    """Sentences: p0 more/less differ, p1 identical (with noise), p2, p3 differ."""
    ids = [[1, 2], [1, 2, 3], [4, 5], [4, 5], [6], [7], [8, 9], [8, 10]]
    logprobs = [
        [-1.0, -1.0],
        [-1.0, -2.0, -3.0],
        [-2.0, -2.0],
        [-2.0 - NOISE, -2.0],
        [-1.0],
        [-0.5],
        [-1.0, -1.0],
        [-1.0, -3.0],
    ]
    attention = [np.full(len(values), 0.5, dtype=np.float32) for values in logprobs]
    return SentenceScores(
        token_ids=[np.array(values, dtype=np.int32) for values in ids],
        logprobs=[np.array(values, dtype=np.float32) for values in logprobs],
        attention=attention,
        embeddings=np.ones((8, 2), dtype=np.float32),
        n_truncated=0,
        pair_ids=[pair_id for pair_id in IDS for _ in range(2)],
    )


def by_measure(table):
    return {row.measure: row for row in table.itertuples(index=False)}


def test_flags_and_measure_rules():
    edges = pair_edges(
        [p[0] for p in PAIRS], [np.array(p[2]) for p in PAIRS], [np.array(p[3]) for p in PAIRS]
    )
    assert edges.identical.tolist() == [False, True, False, False]
    assert edges.no_shared.tolist() == [False, False, True, False]
    assert edges.no_modified_more.tolist() == [True, True, False, False]
    assert edges.no_modified_less.tolist() == [False, True, False, False]
    assert edges.for_measure(pair.pair_measure("sss")).tolist() == [True, True, False, False]
    assert edges.for_measure(pair.pair_measure("cps")).tolist() == [False, True, True, False]
    assert EDGE_RULES == {
        "aul": ("identical",),
        "aula": ("identical",),
        "cps": ("identical", "no_shared"),
        "sss": ("no_modified_more", "no_modified_less"),
        "sjsd": ("identical", "no_shared"),
        "bsjsd": ("identical", "no_shared"),
    }  # the module docstring's table
    with pytest.raises(ValueError, match="unknown pair measure 'xyz'"):
        pair.pair_measure("xyz")
    with pytest.raises(ValueError, match="one length"):
        PairEdges(*(np.zeros(n, bool) for n in (1, 2, 2, 2)))


def test_every_measure_follows_its_rule_by_hand():
    table = by_measure(pair_measures(unmasked_pass(), masked_pass(), PAIR_MEASURES, seed=0))
    # SSS: p0 sent_more's empty sum 0 > -2 (win); p1 0 = 0 (tie); p2 -1 > -3; p3 -0.5 > -4.
    assert table["sss"].score == pytest.approx(75.0) and table["sss"].n_edge == 2
    assert table["sss"].n == 4
    # CPS (rounded to 3 decimals): p0 -1 > -1.5; p1 equalised tie; p2 0 = 0 tie; p3 -3 > -4.
    assert table["cps"].score == pytest.approx(50.0) and table["cps"].n_edge == 2
    # S_JSD: p1 and p2 score exactly 0; p0 and p3 from the distances.
    d = js_distance
    p0 = float(d(np.exp(-1.0)) - d(np.exp(-1.5)))
    p3 = float((d(np.exp(-1.0)) - d(np.exp(-1.5)) + d(np.exp(-2.0)) - d(np.exp(-2.5))) / 2)
    assert table["sjsd"].score == pytest.approx((p0 + 0 + 0 + p3) / 4, rel=1e-5)
    assert table["sjsd"].n == 4 and table["sjsd"].n_edge == 2
    # Binarized S_JSD: p0, p3 closer for sent_more; p1, p2 ties.
    assert table["bsjsd"].score == pytest.approx(50.0) and table["bsjsd"].n_edge == 2
    # AUL: means -1 > -2 (p0), p1 tie after equalising, -1 < -0.5 (p2), -1 > -2 (p3).
    assert table["aul"].score == pytest.approx(50.0) and table["aul"].n_edge == 1


def test_exclude_drops_each_measures_edge_pairs():
    table = by_measure(
        pair_measures(unmasked_pass(), masked_pass(), PAIR_MEASURES, seed=0, tie_rule="exclude")
    )
    assert table["sss"].n == 2 and table["sss"].score == pytest.approx(100.0)
    assert table["cps"].n == 2 and table["cps"].score == pytest.approx(100.0)
    assert table["sjsd"].n == 2
    assert table["aul"].n == 3 and table["aul"].score == pytest.approx(200 / 3)
    for measure in PAIR_MEASURES:
        assert table[measure].n_edge == (2 if measure not in ("aul", "aula") else 1)


def test_half_counts_ties_as_half_a_win():
    table = by_measure(pair_measures(None, masked_pass(), ["cps"], seed=0, tie_rule="half"))
    assert table["cps"].score == pytest.approx(75.0)
    with pytest.raises(ValueError, match="unknown tie rule 'drop'"):
        pair_measures(None, masked_pass(), ["cps"], tie_rule="drop")


def test_identical_pairs_tie_despite_float_noise():
    # Without equalising, the noise alone would decide p1 under every measure.
    table = by_measure(pair_measures(unmasked_pass(), masked_pass(), ["aul", "sjsd"], seed=0))
    rows = per_pair_table(frame(), unmasked_pass(), masked_pass())
    assert rows.loc[1, "aul_more"] == rows.loc[1, "aul_less"]
    assert rows.loc[1, "cps_more"] == rows.loc[1, "cps_less"]
    assert rows.loc[1, "sjsd"] == 0.0
    assert table["aul"].n_edge == 1


def frame():
    return pd.DataFrame(
        {
            "pair_id": IDS,
            "sent_more": ["Paul", "same", "a", "b"],
            "sent_less": ["Paula", "same", "c", "d"],
            "stereo_antistereo": ["stereo", "antistereo", "stereo", "stereo"],
            "bias_type": ["gender"] * 4,
        }
    )


def test_per_pair_table_by_hand():
    rows = per_pair_table(frame(), unmasked_pass(), masked_pass())
    assert rows["pair_id"].tolist() == IDS
    assert rows["sss_more"].tolist() == pytest.approx([0.0, 0.0, -1.0, -0.5])
    assert rows["sss_less"].tolist() == pytest.approx([-2.0, 0.0, -3.0, -4.0])
    assert rows["cps_more"].tolist() == pytest.approx([-1.0, -3.0, 0.0, -3.0])
    assert rows["n_shared"].tolist() == [1, 2, 0, 2]
    assert rows["n_modified_more"].tolist() == [0, 0, 1, 1]
    assert rows["n_modified_less"].tolist() == [1, 0, 1, 1]
    assert rows["aul_more"].tolist() == pytest.approx([-1.0, -2.0, -1.0, -1.0])
    assert rows["aula_less"].tolist() == pytest.approx([-1.0, -1.0, -0.25, -1.0])
    assert rows["no_modified_more"].tolist() == [True, True, False, False]
    assert rows["identical"].tolist() == [False, True, False, False]
    assert rows["stereo_antistereo"].tolist()[1] == "antistereo"
    assert list(rows.columns[-len(EDGE_FLAGS) :]) == list(EDGE_FLAGS)
    # The perturbed table shows the perturbed sentences.
    perturbed = per_pair_table(frame(), unmasked_pass(), masked_pass(), perturb=True)
    assert perturbed["sent_less"].tolist()[0] == "Paul"


def test_per_pair_table_rejects_other_pairs():
    other = frame()
    other.loc[2, "pair_id"] = "q2"
    with pytest.raises(ValueError, match="pair 2: the passes were computed on pair id 'p2'"):
        per_pair_table(other, unmasked_pass(), masked_pass())
    with pytest.raises(ValueError, match="the pair table holds 3 pairs"):
        per_pair_table(frame().iloc[:3], unmasked_pass(), masked_pass())
    unmasked = unmasked_pass()
    unmasked.pair_ids = [pair_id for pair_id in ["p0", "p1", "p2", "x"] for _ in range(2)]
    with pytest.raises(ValueError, match="carry different pair ids"):
        pair_measures(unmasked, masked_pass(), PAIR_MEASURES)
