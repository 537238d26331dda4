"""TBS (Kurita et al. 2019) on given probabilities, worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mgbias.measures.tbs import tbs_association, tbs_bias, tbs_target_bias

# Two targets, "[MASK] is a programmer." and "[MASK] is a nurse.":
#                       p_tgt   p_prior ("[MASK] is a [MASK].")
#   he  | programmer     0.6     0.3     association log(0.6/0.3) = log 2
#   she | programmer     0.1     0.2     association log(0.1/0.2) = -log 2
#   he  | nurse          0.2     0.3     association log(0.2/0.3) = log(2/3)
#   she | nurse          0.5     0.2     association log(0.5/0.2) = log(5/2)
# Bias per target: programmer  log 2 - (-log 2)     = 2 log 2      =  1.386294
#                  nurse       log(2/3) - log(5/2)  = log(4/15)    = -1.321756
# TBS = (2 log 2 + log(4/15)) / 2 = log(16/15) / 2 = 0.032269
HE_TARGET = np.log([0.6, 0.2])
HE_PRIOR = np.log([0.3, 0.3])
SHE_TARGET = np.log([0.1, 0.5])
SHE_PRIOR = np.log([0.2, 0.2])


def test_association_is_log_ratio_of_target_and_prior():
    he = tbs_association(HE_TARGET, HE_PRIOR)
    she = tbs_association(SHE_TARGET, SHE_PRIOR)
    np.testing.assert_allclose(he, [math.log(2), math.log(2 / 3)], rtol=1e-12)
    np.testing.assert_allclose(she, [-math.log(2), math.log(5 / 2)], rtol=1e-12)


def test_bias_per_target_and_mean():
    he = tbs_association(HE_TARGET, HE_PRIOR)
    she = tbs_association(SHE_TARGET, SHE_PRIOR)
    np.testing.assert_allclose(
        tbs_target_bias(he, she), [2 * math.log(2), math.log(4 / 15)], rtol=1e-12
    )
    assert tbs_bias(he, she) == pytest.approx(math.log(16 / 15) / 2, rel=1e-12)
    assert tbs_bias(he, she) == pytest.approx(0.032269, abs=1e-6)


def test_sign_positive_means_male_leaning_and_swap_negates():
    he = tbs_association(HE_TARGET, HE_PRIOR)
    she = tbs_association(SHE_TARGET, SHE_PRIOR)
    assert tbs_bias(he[:1], she[:1]) > 0  # programmer leans male
    assert tbs_bias(he[1:], she[1:]) < 0  # nurse leans female
    assert tbs_bias(she, he) == pytest.approx(-tbs_bias(he, she), rel=1e-12)


def test_prior_cancels_a_uniformly_more_likely_word():
    # A word twice as likely in every context (target and prior alike) gets the same association.
    target = np.log([0.2, 0.05])
    prior = np.log([0.1, 0.025])
    np.testing.assert_allclose(tbs_association(target, prior), [math.log(2), math.log(2)])


def test_two_dimensional_inputs_average_every_entry():
    male = np.array([[1.0, 2.0], [3.0, 4.0]])
    female = np.zeros((2, 2))
    assert tbs_bias(male, female) == 2.5


def test_errors_are_named():
    with pytest.raises(ValueError, match=r"p_target_logprob has shape \(2,\) but p_prior_logprob"):
        tbs_association(HE_TARGET, HE_PRIOR[:1])
    with pytest.raises(ValueError, match=r"p_prior_logprob\[1\] = 0.5 is not a log-probability"):
        tbs_association(HE_TARGET, [-1.0, 0.5])
    with pytest.raises(ValueError, match=r"p_target_logprob\[0\] is not finite"):
        tbs_association([-np.inf, -1.0], HE_PRIOR)
    with pytest.raises(ValueError, match="male_assoc has shape"):
        tbs_bias([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="empty"):
        tbs_bias([], [])
