"""On CUDA the scoring engine waits for the device once per batch, beyond the model's own
forward pass: the kept positions are chosen on the host (no boolean mask on the device,
whose size the host must wait for) and each batch's values come back in one copy.

Each wait is what ``torch.cuda.set_sync_debug_mode("warn")`` reports as "a
synchronizing CUDA operation". The bare forward passes over the same batches are
counted alike, so that waits inside the model's own code (transformers' attention-mask
checks) are not charged to the engine. Needs CUDA; skipped without it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pytest
import torch
from fixtures.tiny_models import WORDPIECE_VOCAB, build_model, wordpiece_tokenizer

from mgbias.mlm.heads import mlm_encoder_and_head
from mgbias.mlm.masked import masked_copy_batches, score_masked
from mgbias.mlm.unmasked import (
    encode_sentences,
    length_sorted_batches,
    pad_batch,
    padding_id,
    score_unmasked,
)

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")

BATCH_SIZE = 8
WORDS = ["he", "she", "is", "a", "doctor", "nurse", "the", "actor", "man", "woman", "works"]


def device_waits(run: Callable[[], object]) -> int:
    """How many times ``run`` made the host wait for the device."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            run()
        finally:
            torch.cuda.set_sync_debug_mode("default")
    return sum("synchronizing" in str(warning.message) for warning in caught)


@pytest.fixture(scope="module")
def cuda_world():
    rng = np.random.default_rng(0)
    sentences = [" ".join(rng.choice(WORDS, size=int(rng.integers(3, 12)))) for _ in range(40)]
    model = build_model("bert", len(WORDPIECE_VOCAB), attn_implementation="eager").to("cuda")
    return model, wordpiece_tokenizer(), sentences


def test_unmasked_pass_waits_once_per_batch(cuda_world):
    model, tokenizer, sentences = cuda_world
    encoded = encode_sentences(tokenizer, sentences, max_length=64)
    batches = [
        tuple(t.to("cuda") for t in pad_batch(encoded, indices, padding_id(tokenizer))[:2])
        for indices in length_sorted_batches(encoded.lengths, BATCH_SIZE)
    ]
    encoder, _ = mlm_encoder_and_head(model)

    def bare() -> None:
        with torch.inference_mode():
            for input_ids, attention_mask in batches:
                encoder(
                    input_ids=input_ids,
                    attention_mask=attention_mask,
                    output_attentions=True,
                    output_hidden_states=True,
                )

    def engine() -> None:
        score_unmasked(model, tokenizer, sentences, batch_size=BATCH_SIZE, progress=False)

    engine()  # warm up (CUDA context, kernels' first use)
    assert device_waits(engine) <= device_waits(bare) + len(batches)
    on_cpu = score_unmasked(
        model.to("cpu"), tokenizer, sentences, batch_size=BATCH_SIZE, progress=False
    )
    model.to("cuda")
    on_cuda = score_unmasked(model, tokenizer, sentences, batch_size=BATCH_SIZE, progress=False)
    for cpu_values, cuda_values in zip(on_cpu.logprobs, on_cuda.logprobs, strict=True):
        np.testing.assert_allclose(cuda_values, cpu_values, atol=1e-4)


def test_masked_pass_waits_once_per_batch(cuda_world):
    model, tokenizer, sentences = cuda_world
    encoded = encode_sentences(tokenizer, sentences, max_length=64)
    positions = [np.flatnonzero(~special) for special in encoded.special_mask]
    batches = [
        tuple(t.to("cuda") for t in batch)
        for batch in masked_copy_batches(
            tokenizer, encoded.input_ids, positions, batch_size=BATCH_SIZE
        )
    ]
    encoder, _ = mlm_encoder_and_head(model)

    def bare() -> None:
        with torch.inference_mode():
            for input_ids, attention_mask in batches:
                encoder(input_ids=input_ids, attention_mask=attention_mask)

    def engine() -> None:
        score_masked(
            model, tokenizer, encoded.input_ids, positions, batch_size=BATCH_SIZE, progress=False
        )

    engine()
    assert device_waits(engine) <= device_waits(bare) + len(batches)
