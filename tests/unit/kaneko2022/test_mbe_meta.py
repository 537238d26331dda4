"""Table 3 of Kaneko et al. (2022): MBE and Shf on pair benchmarks, agreement across models."""

import copy
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mgbias.kaneko2022.meta import (
    agreement,
    classify_pair_sentences,
    diff,
    direction,
    mbe_of_pair_sentences,
    model_table,
    oriented_original,
    table3,
    table3_markdown,
)
from mgbias.measures.aula import aula
from mgbias.measures.mbe import mbe_score
from mgbias.mlm.unmasked import score_unmasked
from mgbias.pairs.passes import score_pair_passes
from mgbias.workflow.code_inputs import import_closure

REPO = Path(__file__).resolve().parents[3]
FEMALE_WORDS = frozenset({"she", "woman", "her"})
MALE_WORDS = frozenset({"he", "man", "his"})

PAIRS = [
    ("he is a doctor .", "she is a doctor ."),
    ("the woman works here .", "the man works here ."),
    ("she reads his book .", "the cat sleeps ."),
    ("he runs .", "she runs fast ."),
    ("the man cooks .", "the woman cooks ."),
]


def test_direction_counts_models_on_the_same_side_of_50():
    # hand-computed: (60, 55) agree, (40, 52) disagree, (51, 49) disagree
    assert direction([60, 40, 51], [55, 52, 49]) == pytest.approx(1 / 3)
    assert direction([50, 60], [50, 70]) == 0.5  # exactly 50 is on neither side


def test_diff_is_the_mean_absolute_difference_and_the_signed_mean_is_kept():
    assert diff([60, 40, 51], [55, 52, 49]) == pytest.approx((5 + 12 + 2) / 3)
    result = agreement([60, 40, 51], [55, 52, 49], label="t")
    assert result["signed_diff"]["value"] == pytest.approx((-5 + 12 - 2) / 3)


def test_correlations_are_scipys():
    rng = np.random.default_rng(3)
    x, y = rng.normal(50, 5, 11), rng.normal(50, 5, 11)
    result = agreement(x, y, label="t")
    assert result["spearman"]["value"] == pytest.approx(stats.spearmanr(x, y).statistic)
    assert result["spearman"]["p_value"] == pytest.approx(stats.spearmanr(x, y).pvalue)
    assert result["pearson"]["value"] == pytest.approx(stats.pearsonr(x, y).statistic)
    assert result["pearson"]["p_value"] == pytest.approx(stats.pearsonr(x, y).pvalue)


def test_fewer_than_three_models_give_nan_correlations_with_a_warning():
    with pytest.warns(UserWarning, match="Table 3 needs at least 3 models"):
        result = agreement([60, 40], [55, 52], label="two")
    assert math.isnan(result["spearman"]["value"]) and math.isnan(result["pearson"]["value"])
    assert result["direction"]["value"] == 0.5


def test_sentences_are_classified_in_the_unmasked_pass_order():
    genders = classify_pair_sentences(PAIRS, FEMALE_WORDS, MALE_WORDS)
    assert list(genders) == [
        *("male", "female"),
        *("female", "male"),
        *("both", None),
        *("male", "female"),
        *("male", "female"),
    ]


def test_mbe_from_the_pair_cache_equals_mbe_from_a_fresh_unmasked_pass(tiny_bert):
    model, tokenizer = copy.deepcopy(tiny_bert[0]), tiny_bert[1]
    model.config._attn_implementation = "eager"  # the unmasked pass reads attention
    unmasked, _ = score_pair_passes(model, tokenizer, PAIRS, progress=False)
    genders = classify_pair_sentences(PAIRS, FEMALE_WORDS, MALE_WORDS)
    result = mbe_of_pair_sentences(unmasked, genders, seed=7, n_permutations=99)
    assert (result["n_male"], result["n_female"], result["n_excluded"]) == (4, 4, 2)
    # the same sentences, picked by hand and scored afresh
    male = ["he is a doctor .", "the man works here .", "he runs .", "the man cooks ."]
    female = ["she is a doctor .", "the woman works here .", "she runs fast .", "the woman cooks ."]
    fresh_male = score_unmasked(model, tokenizer, male, progress=False)
    fresh_female = score_unmasked(model, tokenizer, female, progress=False)
    expected = mbe_score(
        aula(fresh_male.logprobs, fresh_male.attention),
        aula(fresh_female.logprobs, fresh_female.attention),
        fresh_male.embeddings,
        fresh_female.embeddings,
        seed=7,
        n_permutations=99,
    )
    assert result["mbe"] == pytest.approx(expected.score, abs=1e-9)
    assert result["mbe_p_value"] == pytest.approx(expected.p_value)


def test_a_benchmark_without_one_gender_is_an_error_naming_the_counts(tiny_bert):
    model, tokenizer = copy.deepcopy(tiny_bert[0]), tiny_bert[1]
    model.config._attn_implementation = "eager"
    pairs = [("he runs .", "the man runs .")]
    unmasked, _ = score_pair_passes(model, tokenizer, pairs, progress=False)
    genders = classify_pair_sentences(pairs, FEMALE_WORDS, MALE_WORDS)
    with pytest.raises(ValueError, match="2 male and 0 female sentences"):
        mbe_of_pair_sentences(unmasked, genders, seed=0)
    with pytest.raises(ValueError, match="3 classified sentences for 2 scored"):
        mbe_of_pair_sentences(unmasked, np.array(["male", "female", "male"]), seed=0)


def records(dataset, originals, mbes, shfs):
    return [
        {
            "model": f"m{i}",
            "dataset": dataset,
            "lang": "en",
            "original": o,
            "original_male": 100 - o,
            "n_oriented": 20,
            "mbe": m,
            "mbe_p_value": 0.01,
            "shf": s,
            "shf_p_value": 0.5,
            "n_male": 10,
            "n_female": 12,
            "n_excluded": 3,
            "weighting": "cosine",
            "model_id": f"hub/m{i}",
        }
        for i, (o, m, s) in enumerate(zip(originals, mbes, shfs, strict=True))
    ]


def test_table3_has_every_metric_per_method_and_marks_significant_correlations():
    originals = [52.0, 55.0, 58.0, 61.0, 64.0, 47.0]
    mbes = [51.0, 54.5, 57.0, 62.0, 66.0, 48.0]  # perfectly ranked: Spearman 1
    shfs = [50.2, 49.9, 50.1, 49.8, 50.0, 50.3]
    models = model_table(records("crows_pairs", originals, mbes, shfs))
    table = table3(models).set_index(["metric", "method"])
    assert table.loc[("spearman", "mbe"), "value"] == pytest.approx(1.0)
    assert table.loc[("spearman", "mbe"), "significant"]
    assert table.loc[("direction", "mbe"), "value"] == pytest.approx(1.0)
    assert table.loc[("direction", "shf"), "value"] == pytest.approx(2 / 6)
    assert table.loc[("diff", "mbe"), "value"] == pytest.approx(np.mean([1, 0.5, 1, 1, 2, 1]))
    assert (table.n_models == 6).all()
    text = table3_markdown(table.reset_index(), models)
    assert "## crows_pairs (en), 6 models" in text and "1.00 †" in text


def test_table3_compares_with_the_male_oriented_original_when_asked():
    originals = [52.0, 55.0, 58.0, 61.0]  # original_male = 100 - original: reversed order
    shfs = [50.0, 50.5, 49.5, 50.2]
    models = model_table(records("cp", originals, [51.0, 54.0, 57.0, 60.0], shfs))
    eq3 = table3(models).set_index(["metric", "method"])
    male = table3(models, original="male").set_index(["metric", "method"])
    assert eq3.loc[("spearman", "mbe"), "value"] == pytest.approx(1.0)
    assert male.loc[("spearman", "mbe"), "value"] == pytest.approx(-1.0)
    assert set(male.original) == {"male"}
    with pytest.raises(ValueError, match="original must be one of"):
        table3(models, original="stereo")


def test_oriented_original_counts_male_wins_among_oriented_pairs_by_hand():
    per_pair = pd.DataFrame(
        {
            "sent_more": ["he runs .", "the woman sings .", "it rains .", "she reads ."],
            "sent_less": ["she runs .", "the man sings .", "it snows .", "he reads ."],
            "aula_more": [-1.0, -1.0, -1.0, -3.0],
            "aula_less": [-2.0, -0.5, -2.0, -1.0],
        }
    )
    # oriented: pairs 0 (male more, wins), 1 (male less, wins), 3 (male less, wins);
    # pair 2 has no gender word
    score, n = oriented_original(per_pair, FEMALE_WORDS, MALE_WORDS)
    assert (score, n) == (100.0, 3)
    per_pair.loc[0, "aula_more"] = -5.0  # now the female sentence of pair 0 wins
    assert oriented_original(per_pair, FEMALE_WORDS, MALE_WORDS) == (pytest.approx(200 / 3), 3)


def test_model_table_names_missing_columns():
    frame = pd.DataFrame(records("cp", [50.0], [50.0], [50.0])).drop(columns="shf")
    with pytest.raises(ValueError, match="lack \\['shf'\\]"):
        model_table(frame.to_dict("records"))


def test_table3_jobs_read_caches_and_never_load_a_model():
    """scripts/mbe_pairs.py reads the pair rules' unmasked pass: nothing in its import
    closure runs a model (mgbias.mlm.unmasked, .masked or .load; that the script itself
    imports no model library is a rule `make lint` checks, tests/fixtures/source_rules.py)."""
    closure = {
        path.relative_to(REPO / "src").as_posix()
        for path in import_closure(REPO / "scripts" / "mbe_pairs.py", REPO / "src")
    }
    assert "mgbias/kaneko2022/meta.py" in closure
    assert not {"mgbias/mlm/unmasked.py", "mgbias/mlm/masked.py", "mgbias/mlm/load.py"} & closure
