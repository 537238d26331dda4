"""Mixed precision of the model passes (:mod:`mgbias.mlm.precision`): bf16 against fp32 on
the tiny BERT of ``tests/fixtures/tiny_models.py``, fp16 refused off CUDA, fp32 the default.

The bf16 test scores 200 CrowS-like pairs made of the tiny WordPiece vocabulary (a gender
word, he/she, man/woman or actor/actress, swapped inside 2-8 other words) with
``mgbias.score_pairs`` in fp32 and in bf16 on the CPU. Measured (torch 2.13, CPU, seed 0):

=======  ==================  =============================  ========================
measure  decisions agreeing  largest sentence-score change  score change
=======  ==================  =============================  ========================
AUL      200 / 200 (100%)    0.0099 (mean log-probability)  0 (53.5)
AULA     200 / 200 (100%)    0.0018                         0 (50.5)
CPS      191 / 200 (95.5%)   0.042 (sum over shared tokens) -2.5 points (52.5 -> 50.0)
SSS      199 / 200 (99.5%)   0.030 (sum over modified)      0 (47.5)
S_JSD    189 / 200 (94.5%)   0.00091 (pair value)           4e-06 (-0.00020)
bS_JSD   189 / 200 (94.5%)   0.0028 (JS-distance sum)       -4.5 points (52.5 -> 48.0)
=======  ==================  =============================  ========================

The pairs whose decision changes are near-ties: their fp32 margin is at most 0.03 (CPS),
0.0004 (SSS), 0.0008 (the JS-distance sums) or 0.0002 (S_JSD), the size of bf16's
rounding; every decision wider than twice the largest change bf16 made to a sentence score
holds (asserted). A random tiny model has many: its predictions
hardly depend on the swapped word, so CPS and S_JSD, which read only the other tokens,
see margins of that size in a few percent of the pairs (over seeds 0-5, CPS agreed on
95.5-99%, S_JSD on 94.5-98.5%; AUL, AULA and SSS on 99-100%). On a CPU, autocast also runs
softmax and layer norm in bf16 (CUDA keeps them in float32), so these are upper bounds of
the CPU's differences. A model with a preference decides by more: the workflow's demo
``demo-planted`` BERT agreed on 299-300 of the 300 English demo pairs for every measure,
its no-preference control ``demo-balanced`` on 88-99%
(docs/history/2026-11-development-notes.md, "Mixed precision").
"""

from __future__ import annotations

import contextlib

import numpy as np
import pandas as pd
import pytest
import torch
from fixtures.tiny_models import build_model, wordpiece_tokenizer

import mgbias
from mgbias.api.mlm import MaskedLM
from mgbias.mlm.masked import score_masked_pairs
from mgbias.mlm.precision import check_precision, forward_precision, precision_record
from mgbias.mlm.unmasked import score_unmasked
from mgbias.pairs.passes import score_pair_passes

#: The swapped gender words and the other words of the pairs (all in the tiny vocabulary).
SWAPS = [("he", "she"), ("man", "woman"), ("actor", "actress")]
OTHER_WORDS = ["is", "a", "the", "doctor", "nurse", "works", "here", ".", "?"]
#: Each measure's sentence-score columns of the per-pair table (higher = preferred, except
#: the JS-distance sums of binarized S_JSD: lower = closer).
DECISIONS = {
    "aul": ("aul_more", "aul_less"),
    "aula": ("aula_more", "aula_less"),
    "cps": ("cps_more", "cps_less"),
    "sss": ("sss_more", "sss_less"),
    "bsjsd": ("jsd_more", "jsd_less"),
}
#: Least share of agreeing decisions, and largest change of a sentence score, per measure
#: (the measured values of the module docstring, with room for other CPUs' bf16 kernels).
LEAST_AGREEMENT = {"aul": 0.99, "aula": 0.99, "sss": 0.99, "cps": 0.93, "bsjsd": 0.92}
LARGEST_CHANGE = {"aul": 0.02, "aula": 0.005, "cps": 0.15, "sss": 0.06, "bsjsd": 0.006}


def crows_like_pairs(n: int = 200, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` distinct pairs: a gender word swapped inside 2-8 other words, at a random
    place, the male side first or second at random (seeded)."""
    rng = np.random.default_rng(seed)
    pairs: set[tuple[str, str]] = set()
    while len(pairs) < n:
        words = [str(word) for word in rng.choice(OTHER_WORDS, size=int(rng.integers(2, 9)))]
        male, female = SWAPS[int(rng.integers(len(SWAPS)))]
        place = int(rng.integers(len(words) + 1))
        more = " ".join([*words[:place], male, *words[place:]])
        less = " ".join([*words[:place], female, *words[place:]])
        pairs.add((more, less) if rng.random() < 0.5 else (less, more))
    return sorted(pairs)


@pytest.fixture(scope="module")
def tiny_lm() -> MaskedLM:
    """The fixture's random BERT (eager attention) as a :class:`mgbias.MaskedLM`."""
    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer), attn_implementation="eager")
    return MaskedLM(model=model, tokenizer=tokenizer, name="tiny-bert", device="cpu")


@pytest.fixture(scope="module")
def reports(tiny_lm):
    """``mgbias.score_pairs`` of the 200 pairs in fp32 and in bf16."""
    pairs = crows_like_pairs()
    frame = pd.DataFrame({"sent_more": [a for a, _ in pairs], "sent_less": [b for _, b in pairs]})
    return {
        precision: mgbias.score_pairs(tiny_lm, frame, precision=precision, progress=False)
        for precision in ("fp32", "bf16")
    }


def test_bf16_decides_the_pairs_as_fp32_does(reports):
    full, half = reports["fp32"].per_pair, reports["bf16"].per_pair
    assert len(full) == 200 and reports["bf16"].precision == "bf16"
    for measure, (more, less) in DECISIONS.items():
        agree = np.sign(full[more] - full[less]) == np.sign(half[more] - half[less])
        assert agree.mean() >= LEAST_AGREEMENT[measure], (measure, agree.mean())
        change = max(np.abs(full[more] - half[more]).max(), np.abs(full[less] - half[less]).max())
        assert 0 < change < LARGEST_CHANGE[measure], (measure, change)  # bf16 did run
        # every decision wider than twice the largest change bf16 made to a sentence score
        # holds: only near-ties flip
        decided = np.abs(full[more] - full[less]) > 2 * change
        assert decided.mean() >= 0.5 and agree[decided].all(), (measure, decided.mean())
    # S_JSD's pair value decides as binarized S_JSD's sums do
    assert (np.sign(full["sjsd"]) == np.sign(half["sjsd"])).mean() >= LEAST_AGREEMENT["bsjsd"]
    scores = {
        precision: dict(zip(report.summary["measure"], report.summary["score"], strict=True))
        for precision, report in reports.items()
    }
    for measure in ("aul", "aula", "sss"):  # percentages of pairs: 2 pairs move 1 point
        assert abs(scores["fp32"][measure] - scores["bf16"][measure]) <= 1.0, measure


def test_bf16_keeps_the_outputs_float32(tiny_lm):
    pairs = crows_like_pairs(8)
    unmasked, masked = score_pair_passes(
        tiny_lm.model, tiny_lm.tokenizer, pairs, progress=False, precision="bf16"
    )
    arrays = [*unmasked.logprobs, *unmasked.attention, unmasked.embeddings]
    arrays += [*masked.a.shared_logprobs, *masked.b.modified_logprobs]
    assert {array.dtype for array in arrays} == {np.dtype(np.float32)}
    assert all(np.all(array <= 0) for array in unmasked.logprobs)  # log-probabilities


def test_fp32_is_the_default_and_the_full_precision_pass(tiny_lm):
    pairs = crows_like_pairs(16)
    default = score_pair_passes(tiny_lm.model, tiny_lm.tokenizer, pairs, progress=False)
    named = score_pair_passes(
        tiny_lm.model, tiny_lm.tokenizer, pairs, progress=False, precision="fp32"
    )
    for one, other in zip(default[0].logprobs, named[0].logprobs, strict=True):
        assert one.tobytes() == other.tobytes()
    np.testing.assert_array_equal(default[0].embeddings, named[0].embeddings)
    for one, other in zip(default[1].a.shared_logprobs, named[1].a.shared_logprobs, strict=True):
        assert one.tobytes() == other.tobytes()
    cpu = torch.device("cpu")
    assert isinstance(forward_precision("fp32", cpu), contextlib.nullcontext)  # no autocast
    assert isinstance(forward_precision("bf16", cpu), torch.autocast)
    assert precision_record("fp32") == {} and precision_record("bf16") == {"precision": "bf16"}


def test_fp16_off_cuda_and_unknown_precisions_are_refused(tiny_lm):
    model, tokenizer = tiny_lm.model, tiny_lm.tokenizer
    with pytest.raises(ValueError, match="fp16 needs a CUDA device, but the model runs on cpu"):
        score_unmasked(model, tokenizer, ["he is here"], precision="fp16", progress=False)
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        score_masked_pairs(model, tokenizer, [("he is", "she is")], precision="fp16")
    with pytest.raises(ValueError, match="precision 'fp8': expected one of fp32, bf16, fp16"):
        check_precision("fp8", "cpu")
    assert check_precision("bf16", "cpu") == torch.device("cpu")


def test_the_api_refuses_fp16_before_it_loads_a_model(tmp_path):
    frame = pd.DataFrame({"sent_more": ["he is here"], "sent_less": ["she is here"]})
    missing = tmp_path / "no-such-model"  # loading it would fail with another message
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        mgbias.score_pairs(missing, frame, precision="fp16", device="cpu")
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        mgbias.mbe(missing, ["he is here"], ["she is here"], precision="fp16", device="cpu")
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        mgbias.tbs(missing, precision="fp16", device="cpu")
