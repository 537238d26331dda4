"""One seed check (mgbias.seeds.check_seed) behind every seeded step."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.demo import WorldSpec
from mgbias.demo.pairs import demo_pairs
from mgbias.measures.mbe import mbe_score, shuffled_baseline
from mgbias.measures.mbe_permutation import mbe_permutation_test
from mgbias.measures.preference import bootstrap_standard_error
from mgbias.measures.sjsd import sjsd
from mgbias.mlm.train import MLMTrainingConfig
from mgbias.seeds import check_seed
from mgbias.stats import random_indicator

BAD_SEEDS = [-1, 1.5, True, "3", None]


def test_check_seed_accepts_python_and_numpy_integers():
    assert check_seed(0) == 0
    assert check_seed(np.int64(7)) == 7 and type(check_seed(np.uint32(7))) is int
    assert check_seed(2**70) == 2**70


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_check_seed_rejects_and_names_the_value(seed):
    with pytest.raises(ValueError, match=rf"^seed must be a non-negative integer, got {seed!r}$"):
        check_seed(seed)
    with pytest.raises(ValueError, match="^WorldSpec.seed must be a non-negative integer"):
        check_seed(seed, "WorldSpec.seed")


SCORES = np.array([-1.0, -2.0, -1.5, -0.5])
EMBEDDINGS = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 1.0]])

SEEDED_STEPS = {
    "random_indicator": lambda seed: random_indicator(seed, np.arange(2), np.arange(2)),
    "bootstrap": lambda seed: bootstrap_standard_error([0.0, 100.0, 100.0], seed=seed),
    "sjsd": lambda seed: sjsd([-0.02, 0.01, -0.005], seed=seed),
    "mbe_score": lambda seed: mbe_score(
        SCORES[:2], SCORES[2:], EMBEDDINGS[:2], EMBEDDINGS[2:], seed=seed, n_permutations=99
    ),
    "shuffled_baseline": lambda seed: shuffled_baseline(
        SCORES[:2], SCORES[2:], EMBEDDINGS[:2], EMBEDDINGS[2:], seed=seed, n_permutations=99
    ),
    "mbe_permutation_test": lambda seed: mbe_permutation_test(
        SCORES, EMBEDDINGS, 2, n_permutations=9, seed=seed
    ),
    "demo_pairs": lambda seed: demo_pairs(seed, 3),
}


@pytest.mark.parametrize("step", sorted(SEEDED_STEPS))
@pytest.mark.parametrize("seed", [-1, True])
def test_every_seeded_step_rejects_a_bad_seed_alike(step, seed):
    with pytest.raises(ValueError, match=rf"seed must be a non-negative integer, got {seed!r}"):
        SEEDED_STEPS[step](seed)


@pytest.mark.parametrize("seed", [-1, True])
def test_configured_seeds_are_named_by_their_field(seed):
    with pytest.raises(ValueError, match=r"^WorldSpec.seed must be a non-negative integer"):
        WorldSpec(name="x", seed=seed, languages=("de",))
    with pytest.raises(ValueError, match=r"^MLMTrainingConfig.seed must be a non-negative"):
        MLMTrainingConfig(seed=seed)
