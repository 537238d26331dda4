"""AUL and AULA (Kaneko & Bollegala 2022; Kaneko et al. 2022, Eq. 1) on hand-worked sentences."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.measures.aul import aul
from mgbias.measures.aula import aula
from mgbias.measures.registry import by_name

# Two sentences, worked by hand.
# Sentence 0: log P = [-1, -2, -3], alpha = [0.2, 0.3, 0.5]
#   AUL  = (-1 - 2 - 3) / 3                           = -2
#   AULA = (0.2*-1 + 0.3*-2 + 0.5*-3) / 3 = (-0.2 - 0.6 - 1.5) / 3 = -2.3 / 3 = -0.76667
# Sentence 1: log P = [-0.5, -1.5], alpha = [0.4, 0.1]
#   AUL  = (-0.5 - 1.5) / 2                           = -1
#   AULA = (0.4*-0.5 + 0.1*-1.5) / 2 = (-0.2 - 0.15) / 2 = -0.175
LOGPROBS = [np.array([-1.0, -2.0, -3.0]), np.array([-0.5, -1.5])]
ATTENTION = [np.array([0.2, 0.3, 0.5]), np.array([0.4, 0.1])]


def test_aul_hand_example():
    result = aul(LOGPROBS)
    assert result.dtype == np.float64
    np.testing.assert_allclose(result, [-2.0, -1.0], rtol=0, atol=1e-15)


def test_aula_hand_example():
    result = aula(LOGPROBS, ATTENTION)
    assert result.dtype == np.float64
    np.testing.assert_allclose(result, [-2.3 / 3, -0.175], rtol=0, atol=1e-15)


def test_aula_is_a_mean_not_a_sum():
    # Doubling the sentence (same tokens twice) keeps the mean, would double a sum.
    doubled = [np.tile(LOGPROBS[0], 2)]
    result = aula(doubled, [np.tile(ATTENTION[0], 2)])
    np.testing.assert_allclose(result, [-2.3 / 3], atol=1e-15)


def test_aula_with_unit_attention_equals_aul():
    ones = [np.ones_like(sentence) for sentence in LOGPROBS]
    np.testing.assert_allclose(aula(LOGPROBS, ones), aul(LOGPROBS), atol=1e-15)


def test_vectorised_equals_per_sentence_loop():
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 40, size=2000)
    logprobs = [-rng.exponential(size=n) for n in lengths]
    attention = [rng.uniform(size=n) for n in lengths]
    expected_aul = [float(np.mean(lp)) for lp in logprobs]
    expected_aula = [float(np.mean(at * lp)) for lp, at in zip(logprobs, attention, strict=True)]
    np.testing.assert_allclose(aul(logprobs), expected_aul, rtol=1e-12)
    np.testing.assert_allclose(aula(logprobs, attention), expected_aula, rtol=1e-12)


def test_single_token_sentences_and_lists_are_accepted():
    np.testing.assert_allclose(aula([[-2.0], [-4.0]], [[0.5], [0.25]]), [-1.0, -1.0])


def test_no_sentences_gives_empty_array():
    assert aul([]).shape == (0,)
    assert aula([], []).shape == (0,)


def test_registry_names_the_functions():
    assert by_name("aul").formula() is aul
    assert by_name("aula").formula() is aula


def test_sentence_count_mismatch_is_reported():
    with pytest.raises(ValueError, match="logprobs holds 2 sentences but attention holds 1"):
        aula(LOGPROBS, ATTENTION[:1])


def test_length_mismatch_names_sentence_and_both_lengths():
    attention = [ATTENTION[0], np.array([0.4, 0.1, 0.5])]
    with pytest.raises(
        ValueError, match=r"sentence 1: logprobs\[1\] has 2 tokens but attention\[1\] has 3"
    ):
        aula(LOGPROBS, attention)


def test_empty_sentence_is_named():
    with pytest.raises(ValueError, match=r"logprobs\[1\] is empty"):
        aul([np.array([-1.0]), np.array([])])
    with pytest.raises(ValueError, match=r"attention\[0\] is empty"):
        aula([np.array([-1.0])], [np.array([])])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_value_names_sentence_and_token(bad):
    logprobs = [np.array([-1.0, -2.0]), np.array([-1.0, -2.0, bad])]
    with pytest.raises(ValueError, match=r"logprobs\[1\] holds a non-finite value .* at token 2"):
        aul(logprobs)
    attention = [np.array([bad, 0.5]), np.array([0.1, 0.2, 0.3])]
    with pytest.raises(ValueError, match=r"attention\[0\] holds a non-finite value .* at token 0"):
        aula([np.array([-1.0, -2.0]), np.array([-1.0, -2.0, -3.0])], attention)


def test_two_dimensional_sentence_is_rejected():
    with pytest.raises(ValueError, match=r"logprobs\[0\] must be a 1-D array.*\(2, 2\)"):
        aul([np.zeros((2, 2))])
