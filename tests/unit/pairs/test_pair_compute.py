"""The registry loop of pair_measures gives the numbers of each measure's formula called directly.

A small cache built by hand (six pairs, one with no shared token, one with no
modified token on sent_more, attention weights that make AUL and AULA disagree)
is scored through :func:`mgbias.pairs.scoring.pair_measures`, which looks up each
measure's adapter (:attr:`mgbias.measures.measure.PairMeasure.compute`); every row must
equal the formula functions of :mod:`mgbias.measures` applied to the same arrays.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from fixtures.pair_passes import side

from mgbias.measures import pair
from mgbias.measures.aul import aul
from mgbias.measures.aula import aula
from mgbias.measures.cps import cps, cps_sentence_scores
from mgbias.measures.edges import identical_sequences, pair_edges
from mgbias.measures.preference import TIE_RULES, compare_pairs
from mgbias.measures.sjsd import binarized_sjsd, sjsd, sjsd_pair_scores
from mgbias.measures.sss import sss, sss_sentence_scores
from mgbias.mlm.masked_cache import PairScores
from mgbias.mlm.scores import SentenceScores
from mgbias.pairs.scoring import pair_measures
from mgbias.stats import cluster_bootstrap_standard_error, cluster_sign_flip_test

PAIR_MEASURES = pair.names()
#: Each measure's edge flags, written out here (mgbias.measures.edges' docstring).
EDGE_FLAGS = {
    "cps": ("identical", "no_shared"),
    "sss": ("no_modified_more", "no_modified_less"),
    "sjsd": ("identical", "no_shared"),
    "bsjsd": ("identical", "no_shared"),
}


def edge_of(edges, measure: str) -> np.ndarray:
    """Bool per pair: an edge pair of ``measure`` by :data:`EDGE_FLAGS`."""
    return np.logical_or.reduce([np.asarray(getattr(edges, flag)) for flag in EDGE_FLAGS[measure]])


SEED = 7
# (shared more, shared less, modified more, modified less) per pair
PAIRS = [
    ([-1.0, -2.0], [-1.5, -2.5], [-0.5], [-4.0]),
    ([-0.3, -1.0], [-0.2, -0.9], [-2.0], [-1.0]),
    ([-1.2], [-0.7], [-0.4, -0.6], [-3.0]),
    ([], [], [-1.0], [-3.0]),  # no shared token: an edge pair of cps, sjsd, bsjsd
    ([-2.0, -0.1, -0.5], [-2.2, -0.3, -0.4], [], [-2.0]),  # an edge pair of sss
    ([-0.05], [-1.5], [-0.9], [-0.2]),
    ([-0.01, -5.0], [-2.5, -2.5], [-1.1], [-0.6]),  # CPS prefers sent_less, B. S_JSD sent_more
]
# unmasked pass: (log-probabilities, attention) of sent_more, then sent_less, per pair
SENTENCES = [
    ([-1.0, -0.5], [0.9, 0.1]),
    ([-2.0, -2.0], [0.5, 0.5]),
    ([-0.5, -0.5, -4.0], [0.1, 0.1, 0.8]),
    ([-1.0, -1.5], [0.5, 0.5]),
    ([-1.5], [1.0]),
    ([-2.0], [1.0]),
    ([-0.2, -3.0], [0.1, 0.9]),
    ([-1.0, -1.0], [0.5, 0.5]),
    ([-0.7], [1.0]),
    ([-0.9, -0.1], [0.2, 0.8]),
    ([-3.0, -0.1], [0.05, 0.95]),
    ([-1.2, -1.2], [0.5, 0.5]),
    ([-0.4, -0.6], [0.5, 0.5]),
    ([-0.45], [1.0]),
]


def masked_pass():
    return PairScores(
        a=side([p[0] for p in PAIRS], [p[2] for p in PAIRS], 50),
        b=side([p[1] for p in PAIRS], [p[3] for p in PAIRS], 60),
        n_dropped_shared=np.zeros(len(PAIRS), dtype=np.int32),
        max_length=32,
    )


def unmasked_pass():
    return SentenceScores(
        token_ids=[
            np.arange(index, index + len(lp), dtype=np.int32)
            for index, (lp, _) in enumerate(SENTENCES)
        ],
        logprobs=[np.array(lp, dtype=np.float32) for lp, _ in SENTENCES],
        attention=[np.array(alpha, dtype=np.float32) for _, alpha in SENTENCES],
        embeddings=np.ones((len(SENTENCES), 2), dtype=np.float32),
        n_truncated=0,
    )


def direct(tie_rule):
    """Each measure from its formula functions: (score, se, p_value, n, n_edge, n_ties)."""
    unmasked, masked = unmasked_pass(), masked_pass()
    more, less = masked.a, masked.b
    options = {"seed": SEED, "tie_rule": tie_rule}
    same = identical_sequences(unmasked.token_ids[0::2], unmasked.token_ids[1::2])
    edges = pair_edges(more.shared_logprobs, more.modified_logprobs, less.modified_logprobs)
    aul_scores = aul(unmasked.logprobs)
    aula_scores = aula(unmasked.logprobs, unmasked.attention)
    results = {
        "aul": compare_pairs(aul_scores[0::2], aul_scores[1::2], edge=same, **options),
        "aula": compare_pairs(aula_scores[0::2], aula_scores[1::2], edge=same, **options),
        "cps": cps(
            cps_sentence_scores(more.shared_logprobs),
            cps_sentence_scores(less.shared_logprobs),
            edge=edge_of(edges, "cps"),
            **options,
        ),
        "sss": sss(
            sss_sentence_scores(more.modified_logprobs),
            sss_sentence_scores(less.modified_logprobs),
            edge=edge_of(edges, "sss"),
            **options,
        ),
        "sjsd": sjsd(
            sjsd_pair_scores(more.shared_logprobs, less.shared_logprobs),
            edge=edge_of(edges, "sjsd"),
            **options,
        ),
        "bsjsd": binarized_sjsd(
            more.shared_logprobs, less.shared_logprobs, edge=edge_of(edges, "bsjsd"), **options
        ),
    }
    return {
        name: (
            r.score,
            r.se,
            r.p_value,
            r.n if name == "sjsd" else r.n_counted,
            r.n_edge,
            r.n_ties,
        )
        for name, r in results.items()
    }


def test_the_hand_made_cache_tells_the_measures_apart():
    # a test of the loop needs numbers an adapter that read the wrong pass, side,
    # formula or edge flags would change
    expected = direct("exclude")
    assert len(set(expected.values())) == len(PAIR_MEASURES)
    assert expected["aul"][0] != expected["aula"][0]
    assert expected["cps"][0] != expected["bsjsd"][0]
    assert [expected[name][4] for name in PAIR_MEASURES] == [0, 0, 1, 1, 1, 1]
    assert direct("neutral")["cps"][3] != expected["cps"][3]  # "exclude" drops the edge pair


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_registry_loop_equals_the_formulas_called_directly(tie_rule):
    expected = direct(tie_rule)
    table = pair_measures(
        unmasked_pass(), masked_pass(), PAIR_MEASURES[::-1], seed=SEED, tie_rule=tie_rule
    )
    assert table["measure"].tolist() == list(PAIR_MEASURES[::-1])
    for row in table.itertuples(index=False):
        got = (row.score, row.se, row.p_value, row.n, row.n_edge, row.n_ties)
        want = expected[row.measure]
        assert got[3:] == want[3:], row.measure
        for value, reference in zip(got[:3], want[:3], strict=True):
            assert value == reference or (math.isnan(value) and math.isnan(reference)), (
                row.measure,
                got,
                want,
            )
        assert row.significant == (row.p_value < 0.05)


@pytest.mark.parametrize("measure", PAIR_MEASURES)
def test_one_measure_alone_gives_its_row_of_all(measure):
    every = pair_measures(unmasked_pass(), masked_pass(), PAIR_MEASURES, seed=SEED)
    alone = pair_measures(unmasked_pass(), masked_pass(), [measure], seed=SEED)
    row = every[every["measure"] == measure].reset_index(drop=True)
    assert alone.equals(row)


CLUSTERS = ["a", "a", "b", "b", "c", "c", "c"]


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_clustered_rows_keep_the_scores_and_test_the_cluster_signs(tie_rule):
    """With clusters, each p-value is the sign-flip test of the counted pairs' signs per
    cluster and each se the cluster bootstrap; scores and counts do not change."""
    plain = pair_measures(
        unmasked_pass(), masked_pass(), PAIR_MEASURES, seed=SEED, tie_rule=tie_rule
    )
    clustered = pair_measures(
        unmasked_pass(),
        masked_pass(),
        PAIR_MEASURES,
        seed=SEED,
        tie_rule=tie_rule,
        clusters=CLUSTERS,
    )
    columns = ["measure", "score", "n", "n_edge"]
    assert clustered[columns].equals(plain[columns])
    assert (plain["n_clusters"] == 0).all()
    unmasked, masked = unmasked_pass(), masked_pass()
    same = identical_sequences(unmasked.token_ids[0::2], unmasked.token_ids[1::2])
    edges = pair_edges(
        masked.a.shared_logprobs, masked.a.modified_logprobs, masked.b.modified_logprobs
    )
    aula_scores = aula(unmasked.logprobs, unmasked.attention)
    cps_more = cps_sentence_scores(masked.a.shared_logprobs)
    cps_less = cps_sentence_scores(masked.b.shared_logprobs)
    sjsd_scores = sjsd_pair_scores(masked.a.shared_logprobs, masked.b.shared_logprobs)
    labels = np.array(CLUSTERS, dtype=object)
    expected = {}
    for name, more, less, edge in [
        ("aula", aula_scores[0::2], aula_scores[1::2], same),
        ("cps", np.round(cps_more, 3), np.round(cps_less, 3), edge_of(edges, "cps")),
    ]:
        kept = ~edge if tie_rule == "exclude" else np.ones(len(CLUSTERS), dtype=bool)
        signs = np.sign(more[kept] - less[kept])
        expected[name] = (cluster_sign_flip_test(signs, labels[kept], seed=SEED), kept)
    kept = ~edge_of(edges, "sjsd") if tie_rule == "exclude" else np.ones(7, dtype=bool)
    expected["sjsd"] = (cluster_sign_flip_test(sjsd_scores[kept], labels[kept], seed=SEED), kept)
    rows = clustered.set_index("measure")
    for name, (p_value, kept) in expected.items():
        assert rows.loc[name, "p_value"] == pytest.approx(p_value), name
        assert rows.loc[name, "n_clusters"] == len(set(labels[kept])), name
    sjsd_se = cluster_bootstrap_standard_error(
        sjsd_scores[expected["sjsd"][1]], labels[expected["sjsd"][1]], seed=SEED
    )
    assert rows.loc["sjsd", "se"] == pytest.approx(sjsd_se)


def test_one_cluster_per_pair_gives_the_sign_test():
    plain = pair_measures(unmasked_pass(), masked_pass(), ["aul", "aula", "cps", "sss"], seed=SEED)
    singletons = pair_measures(
        unmasked_pass(),
        masked_pass(),
        ["aul", "aula", "cps", "sss"],
        seed=SEED,
        clusters=list(range(7)),
    )
    assert singletons["p_value"].tolist() == pytest.approx(plain["p_value"].tolist())
    assert (singletons["n_clusters"] == 7).all()


def test_clusters_of_another_length_are_rejected():
    with pytest.raises(ValueError, match="6 cluster labels for 7 pairs"):
        pair_measures(unmasked_pass(), masked_pass(), ["cps"], clusters=CLUSTERS[:-1])
