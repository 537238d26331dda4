"""AUL and AULA worked by hand on a tiny BERT whose weights are fixed.

Every weight is zero except the output bias of the MLM head, which is set to
log-probabilities chosen by hand. Then every hidden state is 0, every
attention row is uniform over the real tokens (all scores are 0), and the
logits at every position equal that bias. So, for a sentence of n tokens
including [CLS] and [SEP]:

    log P(w_i | S) = log p[w_i]          alpha_i = 1 / n

and AULA(S) = (1/|T|) * sum_i (1/n) log p[w_i]   (Kaneko et al. 2022, Eq. 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from fixtures.tiny_models import FIXED_PROBABILITIES, FIXED_VOCAB

from mgbias.measures.aul import aul
from mgbias.measures.aula import aula
from mgbias.mlm.unmasked import score_unmasked

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "she", "he", "is", "a", "doctor"]
PROBABILITIES = [0.05, 0.05, 0.05, 0.05, 0.05, 0.2, 0.3, 0.1, 0.1, 0.05]  # sums to 1


@pytest.fixture(scope="module")
def fixed_model(fixed_bert_model):
    """The fixed BERT of tests/fixtures/tiny_models.py, with the vocabulary and bias above."""
    model, tokenizer = fixed_bert_model
    assert (FIXED_VOCAB, FIXED_PROBABILITIES) == (VOCAB, PROBABILITIES)
    assert tokenizer("she is")["input_ids"] == [2, 5, 7, 3]
    return model, tokenizer


SENTENCES = ["she is a doctor", "he is a doctor", "he is"]
# By hand (n = tokens including [CLS] and [SEP]):
#   "she is a doctor": n = 6, AULA = (1/4)(1/6)(ln .2 + ln .1 + ln .1 + ln .05) = ln(1e-4)/24
#   "he is a doctor":  n = 6, AULA = ln(.3 * .1 * .1 * .05)/24 = ln(1.5e-4)/24
#   "he is":           n = 4, AULA = (1/2)(1/4)(ln .3 + ln .1) = ln(.03)/8
EXPECTED_AULA = [math.log(1e-4) / 24, math.log(1.5e-4) / 24, math.log(0.03) / 8]
EXPECTED_AUL = [math.log(1e-4) / 4, math.log(1.5e-4) / 4, math.log(0.03) / 2]


@pytest.mark.parametrize("batch_size", [1, 2, 3])
def test_aula_and_aul_by_hand(fixed_model, batch_size):
    model, tokenizer = fixed_model
    scores = score_unmasked(model, tokenizer, SENTENCES, batch_size=batch_size, progress=False)
    np.testing.assert_allclose(aula(scores.logprobs, scores.attention), EXPECTED_AULA, rtol=1e-5)
    np.testing.assert_allclose(aul(scores.logprobs), EXPECTED_AUL, rtol=1e-5)
    np.testing.assert_allclose(scores.attention[2], [0.25, 0.25], rtol=1e-6)
    assert [len(ids) for ids in scores.token_ids] == [4, 4, 2]
