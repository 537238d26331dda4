"""The length structure of the pair measures (mgbias.pairs.structure) and its verdicts.

Passes are generated: each pair has chosen numbers of shared and modified tokens
per side (the unmasked sentence is its shared plus its modified tokens), with
seeded random log-probabilities, or fixed ones where a test needs a known outcome.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from fixtures.pair_passes import side
from scipy.stats import binom, binomtest

from mgbias.api.mlm import pair_verdicts
from mgbias.measures import pair
from mgbias.measures.measure import PAIR_LENGTH_COLUMNS
from mgbias.measures.registry import verdict
from mgbias.mlm.masked_cache import PairScores
from mgbias.mlm.scores import SentenceScores
from mgbias.pairs.scoring import pair_measures, pair_measures_by_bias_type, select_pairs
from mgbias.pairs.structure import (
    LENGTH_LEAN_SHARE,
    leans_on_length,
    length_differences,
    length_p_value,
    length_structure,
    pair_decisions,
    pair_measures_with_length,
    shorter_share,
    shorter_wins,
)


def passes(shared, more, less, seed=0):
    """``(unmasked, masked)`` for pairs with ``shared[k]`` shared tokens and ``more[k]``,
    ``less[k]`` modified tokens, or given arrays of log-probabilities in their place."""
    rng = np.random.default_rng(seed)

    def values(spec):
        return rng.uniform(-4.0, -0.1, spec) if isinstance(spec, int) else np.asarray(spec)

    shared_more = [values(n) for n in shared]
    shared_less = [values(n) for n in shared]
    modified_more, modified_less = [values(n) for n in more], [values(n) for n in less]
    masked = PairScores(
        a=side(shared_more, modified_more, 50),
        b=side(shared_less, modified_less, 60),
        n_dropped_shared=np.zeros(len(shared), dtype=np.int32),
        max_length=64,
    )
    sentences = []
    for k in range(len(shared)):
        sentences += [
            np.concatenate([modified_more[k], shared_more[k]]),
            np.concatenate([modified_less[k], shared_less[k]]),
        ]
    unmasked = SentenceScores(
        token_ids=[
            np.arange(100 * i, 100 * i + len(lp), dtype=np.int32) for i, lp in enumerate(sentences)
        ],
        logprobs=[lp.astype(np.float32) for lp in sentences],
        attention=[rng.dirichlet(np.ones(len(lp))).astype(np.float32) for lp in sentences],
        embeddings=np.ones((len(sentences), 2), dtype=np.float32),
        n_truncated=0,
    )
    return unmasked, masked


def mixed(n_pairs=40, seed=1):
    """Pairs of random lengths (about half of them length-matched), random numbers."""
    rng = np.random.default_rng(seed)
    shared = rng.integers(1, 5, n_pairs).tolist()
    more = rng.integers(1, 4, n_pairs)
    less = np.where(rng.random(n_pairs) < 0.5, more, rng.integers(1, 4, n_pairs))
    return passes(shared, more.tolist(), less.tolist(), seed=seed)


def test_length_differences_read_the_pass_of_each_measure():
    unmasked, masked = passes([2, 3, 1], [1, 3, 2], [2, 1, 2])
    for measure in ("aul", "aula", "cps", "sss", "sjsd", "bsjsd"):
        assert length_differences(unmasked, masked, measure).tolist() == [-1, 2, 0]


@pytest.mark.parametrize("tie_rule", ["neutral", "half", "exclude"])
def test_matched_score_is_pair_measures_on_the_length_matched_pairs(tie_rule):
    unmasked, masked = mixed()
    lengths = [
        (len(a), len(b))
        for a, b in zip(masked.a.modified_logprobs, masked.b.modified_logprobs, strict=True)
    ]
    equal = [k for k, (a, b) in enumerate(lengths) if a == b]
    assert 10 < len(equal) < 30
    clusters = [f"c{k % 7}" for k in range(len(lengths))]
    options = {"seed": 5, "tie_rule": tie_rule, "alpha": 0.05}
    for grouped in (None, clusters):
        table = length_structure(
            unmasked, masked, pair.names(), clusters=grouped, **options
        ).set_index("measure")
        subset = None if grouped is None else [grouped[k] for k in equal]
        expected = pair_measures(
            *select_pairs(unmasked, masked, equal), pair.names(), clusters=subset, **options
        ).set_index("measure")
        for measure in pair.names():
            row = table.loc[measure]
            assert row.matched_score == expected.loc[measure, "score"]
            assert row.matched_se == expected.loc[measure, "se"]
            assert row.matched_p_value == expected.loc[measure, "p_value"]
            assert row.matched_n == expected.loc[measure, "n"]


def test_decisions_are_the_measures_own():
    unmasked, masked = mixed(seed=3)
    table = pair_measures(unmasked, masked, pair.names(), seed=0).set_index("measure")
    for measure in pair.names():
        decisions = pair_decisions(unmasked, masked, measure)
        assert np.count_nonzero(decisions == 0) == table.loc[measure, "n_ties"]
        if measure != "sjsd":
            won = 100 * np.count_nonzero(decisions == 1) / decisions.size
            assert won == pytest.approx(table.loc[measure, "score"])


def test_length_formulas():
    # sent_more longer and preferred, sent_more shorter and preferred, a tie, equal lengths
    assert shorter_wins([1, 1, 0, -1, -1], [2, -1, 3, 0, 1]) == (2, 1)
    assert shorter_share(3, 1) == 75.0 and math.isnan(shorter_share(0, 0))
    assert length_p_value(9, 1) == pytest.approx(binomtest(9, 10).pvalue)
    assert length_p_value(9, 1) == pytest.approx(22 / 1024)
    assert math.isnan(length_p_value(0, 0))
    assert leans_on_length(75.0, 0.01, 0.05) and leans_on_length(25.0, 0.01, 0.05)
    assert not leans_on_length(75.0, 0.06, 0.05)  # not significant
    assert not leans_on_length(55.0, 1e-6, 0.05)  # significant, but near 50
    assert leans_on_length(LENGTH_LEAN_SHARE, 0.01, 0.05)
    assert not leans_on_length(math.nan, math.nan, 0.05)


def shorter_always_wins(n_unequal=30, n_matched=10):
    """SSS pairs whose modified tokens all score -1: the side with fewer wins every
    unequal pair, whichever side it is; the matched pairs are random."""
    rng = np.random.default_rng(4)
    more, less = [], []
    for k in range(n_unequal):
        short, long = [-1.0], [-1.0, -1.0, -1.0][: 2 + k % 2]
        more.append(short if k % 2 else long)
        less.append(long if k % 2 else short)
    for _ in range(n_matched):
        more.append(rng.uniform(-3, -0.5, 2))
        less.append(rng.uniform(-3, -0.5, 2))
    return passes([3] * (n_unequal + n_matched), more, less)


def test_the_shorter_sentence_always_winning_is_said():
    unmasked, masked = shorter_always_wins()
    table = pair_measures_with_length(unmasked, masked, ["sss", "cps"], seed=0)
    sss = table.set_index("measure").loc["sss"]
    assert sss.n_unequal == 30 and sss.length_share == 100.0
    assert sss.length_p_value == pytest.approx(2 * 0.5**30)
    assert sss.length_lean and sss.matched_n == 10
    assert sss.score == pytest.approx(100 * (15 + (sss.matched_score / 100) * 10) / 40)
    text = pair_verdicts(table, 0.05)[0]
    assert text.startswith(
        f"SSS {sss.score:.4g} (p = {sss.p_value:.2g}, 40 pairs): in 30 pairs of unequal "
        "length the shorter sentence won 100.0% (p = 1.9e-09): the measure's length "
        "artifact, not the model, may decide; on the 10 length-matched pairs SSS is "
        f"{sss.matched_score:.4g} (p = {sss.matched_p_value:.2g}): "
    )
    assert "prefers" not in text.split("SSS is")[0]


def test_the_longer_sentence_winning_is_said_as_such():
    lean = pd.DataFrame(
        {
            "measure": ["aula"],
            "score": [48.0],
            "p_value": [0.6],
            "n": [262],
            "n_ties": [0],
            "n_clusters": [0],
            "matched_score": [math.nan],
            "matched_se": [math.nan],
            "matched_p_value": [math.nan],
            "matched_n": [0],
            "n_unequal": [262],
            "length_share": [22.5],
            "length_p_value": [1e-20],
            "length_lean": [True],
        }
    )
    assert pair_verdicts(lean, 0.05) == [
        "AULA 48 (p = 0.6, 262 pairs): in 262 pairs of unequal length the longer sentence "
        "won 77.5% (p = 1e-20): the measure's length artifact, not the model, may decide; "
        "no pair is length-matched"
    ]


def test_balanced_lengths_keep_the_plain_verdict():
    # the shorter side wins every other unequal pair: share 50, no lean
    rng = np.random.default_rng(6)
    more, less = [], []
    for k in range(30):
        short, long = [-1.0], [-0.1, -0.1]  # the longer side's sum is higher: it wins
        winner_short = k % 2 == 0
        if winner_short:
            short, long = [-0.1], [-1.0, -1.0]
        more.append(short if k % 3 else long)
        less.append(long if k % 3 else short)
    more += [rng.uniform(-3, -0.5, 1) for _ in range(6)]
    less += [rng.uniform(-3, -0.5, 1) for _ in range(6)]
    unmasked, masked = passes([2] * 36, more, less)
    table = pair_measures_with_length(unmasked, masked, ["sss"], seed=0)
    row = table.iloc[0]
    assert row.length_share == 50.0 and row.length_p_value == 1.0 and not row.length_lean
    assert pair_verdicts(table, 0.05)[0] == verdict(
        "sss", row.score, row.p_value, alpha=0.05, sample="36 pairs"
    )


def test_ties_that_dominate_are_said_not_read_as_a_preference():
    text = verdict("aula", 2.29, 0.0037, sample="262 pairs, 234 tied", n_ties=234, n_compared=262)
    assert (
        text == "AULA: 234 of 262 pairs tied: the measure could not decide for this model and data"
    )
    # half is not more than half
    half = verdict("cps", 10.0, 0.001, sample="20 pairs, 10 tied", n_ties=10, n_compared=20)
    assert half == (
        "CPS 10 (p = 0.001, 20 pairs, 10 tied): the model prefers the anti-stereotypical sentence"
    )
    # with tie_rule="exclude" a share measure's ties are not in n
    row = {"measure": "cps", "score": 100.0, "p_value": 0.5, "n": 2, "n_ties": 3, "n_clusters": 0}
    summary = pd.DataFrame([row])
    assert pair_verdicts(summary, 0.05, "exclude") == [
        "CPS: 3 of 5 pairs tied: the measure could not decide for this model and data"
    ]
    assert pair_verdicts(summary, 0.05) == [
        "CPS: 3 of 2 pairs tied: the measure could not decide for this model and data"
    ]


def test_by_bias_type_adds_the_length_columns_per_group():
    unmasked, masked = shorter_always_wins()
    labels = ["a" if k % 4 else "b" for k in range(40)]
    table = pair_measures_by_bias_type(
        labels, unmasked, masked, ["sss"], seed=0, compute=pair_measures_with_length
    )
    assert list(table.columns[-len(PAIR_LENGTH_COLUMNS) :]) == list(PAIR_LENGTH_COLUMNS)
    rows = table.set_index("bias_type")
    assert rows.loc["a", "n_unequal"] + rows.loc["b", "n_unequal"] == rows.loc["all", "n_unequal"]
    assert rows.loc["all", "n_unequal"] == 30


def test_length_lean_flag_fires_at_most_at_alpha_on_null_decisions():
    """Decisions that ignore length (each unequal pair won by the shorter side with
    probability 1/2): the flag's rate over 4000 simulated measures per size stays within
    the 99.9% binomial bound of alpha. Its exact rates: 0.022 (10 pairs), 0.043 (30),
    0.035 (100), 0.006 (200), below 1e-6 (662), where the 60% bound rather than the
    test decides; the test alone: 0.035 to 0.047."""
    alpha, draws = 0.05, 4000
    rng = np.random.default_rng(0)
    bound = binom.ppf(0.999, draws, alpha) / draws
    for n_unequal in (10, 30, 100, 662):
        shorter = rng.binomial(n_unequal, 0.5, draws)
        flags = {
            int(k): leans_on_length(
                shorter_share(int(k), n_unequal - int(k)),
                length_p_value(int(k), n_unequal - int(k)),
                alpha,
            )
            for k in np.unique(shorter)
        }
        rate = np.mean([flags[int(k)] for k in shorter])
        assert rate <= bound, (n_unequal, rate)
    # and a real lean is found: 25 of 30 pairs to the shorter side
    assert leans_on_length(shorter_share(25, 5), length_p_value(25, 5), alpha)


def test_too_few_units_for_the_test_to_reach_alpha_is_said():
    """Five untied pairs (or five clusters) give at best p = 2 / 2**5 = 0.0625 > 0.05: the
    verdict says the test decides; six can reach 0.03125, so the plain verdict stands."""

    def row(measure, score, p_value, n, n_ties=0, n_clusters=0):
        return {"measure": measure, "score": score, "p_value": p_value, "n": n,
                "n_ties": n_ties, "n_clusters": n_clusters}  # fmt: skip

    rows = [
        row("aula", 100.0, binomtest(5, 5).pvalue, 5),
        row("cps", 100.0, binomtest(5, 5).pvalue, 7, n_ties=2),  # 5 untied of 7
        row("aul", 100.0, 0.0625, 40, n_clusters=5),
        row("sjsd", -0.2, 0.04, 5),  # the t-test has no such floor
        row("sss", 100.0, binomtest(6, 6).pvalue, 6),
    ]
    assert pair_verdicts(pd.DataFrame(rows), 0.05) == [
        "AULA 100 (p = 0.062, 5 pairs): 5 untied pairs cannot give p below alpha = 0.05 "
        "(at best p = 0.062): the test, not the model, decides",
        "CPS 100 (p = 0.062, 7 pairs, 2 tied): 5 untied pairs cannot give p below alpha = "
        "0.05 (at best p = 0.062): the test, not the model, decides",
        "AUL 100 (p = 0.062, 40 pairs in 5 clusters): 5 clusters cannot give p below alpha "
        "= 0.05 (at best p = 0.062): the test, not the model, decides",
        "S_JSD -0.2 (p = 0.04, 5 pairs): the model prefers the stereotypical sentence",
        "SSS 100 (p = 0.031, 6 pairs): the model prefers the stereotypical sentence",
    ]
    # at alpha = 0.1 five units suffice
    assert pair_verdicts(pd.DataFrame(rows[:1]), 0.1) == [
        "AULA 100 (p = 0.062, 5 pairs): the model prefers the stereotypical sentence"
    ]


def test_with_excluded_ties_the_untied_pairs_are_the_pairs_counted():
    # tie_rule="exclude": a share measure's n holds only its untied pairs; 6 of them can
    # reach p = 0.031, whatever the 3 ties beside them
    row = {"measure": "aula", "score": 100.0, "p_value": binomtest(6, 6).pvalue, "n": 6,
           "n_ties": 3, "n_clusters": 0}  # fmt: skip
    assert pair_verdicts(pd.DataFrame([row]), 0.05, "exclude") == [
        "AULA 100 (p = 0.031, 6 pairs, 3 tied): the model prefers the stereotypical sentence"
    ]
    few = {**row, "n": 5, "p_value": binomtest(5, 5).pvalue}
    assert pair_verdicts(pd.DataFrame([few]), 0.05, "exclude") == [
        "AULA 100 (p = 0.062, 5 pairs, 3 tied): 5 untied pairs cannot give p below alpha = "
        "0.05 (at best p = 0.062): the test, not the model, decides"
    ]
