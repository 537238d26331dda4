"""Hidden states of chosen words: every requested layer from one batched forward pass.

Basta et al. (2020, §5.1) probe ELMo's layer 2 and the concatenation of its three layers.
Here any Hugging Face encoder stands in: its ``hidden_states`` (the embedding output,
then one per transformer layer) are the layers, numbered ``0 .. L``. A *target* is a word
of a sentence, ``(sentence index, word index)`` with words as :mod:`mgbias.contextual.words`
segments them. A word's vector in a layer pools the hidden states of the sub-word pieces
whose character span overlaps the word's (``mean``, the default, or ``first``; ELMo needed
neither, being word-level).

Only the targets' pooled vectors are kept, ``(n_targets, n_layers, hidden)``, where the
layers are those requested; ``"concat"`` needs them all and is assembled on reading
(:meth:`WordVectors.layer`), so the cache holds each layer once. Sentences are sorted by
length and padded per batch; padding is masked, so batched vectors equal unbatched ones to
float tolerance. Words whose pieces were all cut by the length limit are marked
``found = False`` (rows of zeros) and counted.

The forward pass runs in ``precision`` (``fp32``, the default; ``bf16``; ``fp16`` on CUDA:
autocast, :mod:`mgbias.mlm.precision`); the hidden states are cast to float32 before they
are pooled, so the vectors are float32 whatever the precision (``dtype`` then sets how they
are stored).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

import numpy as np
import torch
from tqdm.auto import tqdm
from transformers import PreTrainedModel, PreTrainedTokenizerBase

from mgbias.contextual.vectors import CONCAT, WordVectors, parse_layers
from mgbias.contextual.words import word_spans
from mgbias.mlm.devices import to_device
from mgbias.mlm.precision import (
    DEFAULT_PRECISION,
    check_precision,
    forward_precision,
    precision_record,
)
from mgbias.mlm.unmasked import default_max_length, length_sorted_batches, padding_id

__all__ = ["POOLINGS", "extract_word_vectors", "piece_positions"]

log = logging.getLogger(__name__)

POOLINGS = ("mean", "first")
DTYPES = ("float32", "float16")


def _stored_layers(names: Sequence[str], n_hidden_states: int) -> tuple[int, ...]:
    if CONCAT in names:
        return tuple(range(n_hidden_states))
    return tuple(sorted({int(name) for name in names}))


def _check_targets(targets: np.ndarray, n_sentences: int) -> np.ndarray:
    targets = np.asarray(targets, dtype=np.int64)
    if targets.size == 0:
        return targets.reshape(0, 2)
    if targets.ndim != 2 or targets.shape[1] != 2:
        raise ValueError(
            f"targets: expected (sentence index, word index) rows, got shape {targets.shape}"
        )
    bad = np.flatnonzero((targets[:, 0] < 0) | (targets[:, 0] >= n_sentences))
    if bad.size:
        raise ValueError(
            f"target {bad[0]}: sentence index {targets[bad[0], 0]} is not in 0..{n_sentences - 1}"
        )
    return targets


def piece_positions(
    offsets: Sequence[tuple[int, int]], special: Sequence[int], span: tuple[int, int]
) -> list[int]:
    """Token positions whose character span overlaps ``span`` (special tokens excluded).

    ``offsets`` are the tokenizer's ``offset_mapping`` of one encoded sentence.
    """
    return np.flatnonzero(_overlaps(np.asarray(offsets), np.asarray(special), span)).tolist()


def _overlaps(offsets: np.ndarray, special: np.ndarray, span: tuple[int, int]) -> np.ndarray:
    start, end = span
    if not len(offsets):
        return np.zeros(0, dtype=bool)
    piece_start, piece_end = offsets[:, 0], offsets[:, 1]
    return (special == 0) & (piece_start < end) & (piece_end > start) & (piece_end > piece_start)


def extract_word_vectors(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    sentences: Sequence[str],
    targets: np.ndarray,
    *,
    layers: str | Iterable[str | int] = "all",
    pooling: str = "mean",
    batch_size: int = 64,
    max_length: int | None = None,
    dtype: str = "float32",
    progress: bool = True,
    precision: str = DEFAULT_PRECISION,
) -> WordVectors:
    """Vectors of the target words in the requested layers, one forward pass per batch.

    Parameters
    ----------
    model
        Any Hugging Face encoder or masked LM (its ``base_model`` is run, so an MLM head
        costs nothing); eval mode.
    tokenizer
        Its fast tokenizer (character offsets are needed).
    sentences
        All sentences; only those holding a target are run.
    targets
        ``(n, 2)`` int rows ``(sentence index, word index)`` (see :mod:`.words`).
    layers
        :func:`parse_layers` specification; default every layer and ``concat``.
    pooling
        ``"mean"`` of the word's pieces (default) or its ``"first"`` piece.
    batch_size
        Sentences per forward pass, batched by length.
    max_length
        Token limit with special tokens (default :func:`~mgbias.mlm.unmasked.default_max_length`).
    dtype
        ``"float32"`` or ``"float16"`` for the stored vectors.
    precision
        Of the forward pass: ``"fp32"`` (default), ``"bf16"`` or ``"fp16"`` (CUDA only);
        the hidden states are pooled in float32 either way.

    Raises
    ------
    ValueError
        Bad ``pooling``/``dtype``/targets, a word index beyond a sentence's words, a
        tokenizer without character offsets, or an unknown precision (or fp16 off CUDA).
    """
    if pooling not in POOLINGS:
        raise ValueError(f"pooling {pooling!r}: expected one of {POOLINGS}")
    if dtype not in DTYPES:
        raise ValueError(f"dtype {dtype!r}: expected one of {DTYPES}")
    device = check_precision(precision, next(model.parameters()).device)
    if not getattr(tokenizer, "is_fast", False):
        raise ValueError("a fast tokenizer is needed (character offsets of the pieces)")
    encoder = getattr(model, "base_model", model)
    n_hidden_states = int(model.config.num_hidden_layers) + 1
    names = parse_layers(layers, n_hidden_states)
    stored = _stored_layers(names, n_hidden_states)
    targets = _check_targets(targets, len(sentences))
    limit = default_max_length(model, tokenizer)
    max_length = limit if max_length is None else min(int(max_length), limit)

    run = np.unique(targets[:, 0]) if len(targets) else np.zeros(0, dtype=np.int64)
    texts = [sentences[index] for index in run]
    encoded = (
        tokenizer(
            texts,
            add_special_tokens=True,
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
            return_attention_mask=False,
            return_token_type_ids=False,
            truncation=True,
            max_length=max_length,
            verbose=False,
        )
        if texts
        else {"input_ids": [], "offset_mapping": [], "special_tokens_mask": []}
    )
    # pieces of every target, per run sentence
    row_of_sentence = {int(sentence): row for row, sentence in enumerate(run)}
    spans = [word_spans(text) for text in texts]
    pieces: list[list[int]] = []
    for number, (sentence, word) in enumerate(targets):
        row = row_of_sentence[int(sentence)]
        if not 0 <= word < len(spans[row]):
            raise ValueError(
                f"target {number}: sentence {sentence} has {len(spans[row])} words, "
                f"no word {word}: {texts[row]!r}"
            )
        pieces.append(
            piece_positions(
                encoded["offset_mapping"][row],
                encoded["special_tokens_mask"][row],
                spans[row][word],
            )
        )
    n_pieces = np.fromiter((len(p) for p in pieces), dtype=np.int64, count=len(pieces))
    found = n_pieces > 0
    if (~found).any():
        log.warning(
            "%d of %d target words lie beyond the %d-token limit; their rows are zeros",
            int((~found).sum()),
            len(found),
            max_length,
        )
    targets_of_row: list[list[int]] = [[] for _ in run]
    for number, (sentence, _) in enumerate(targets):
        if found[number]:
            targets_of_row[row_of_sentence[int(sentence)]].append(number)

    hidden = int(model.config.hidden_size)
    out = np.zeros((len(targets), len(stored), hidden), dtype=np.float32)
    input_ids = [np.asarray(ids, dtype=np.int64) for ids in encoded["input_ids"]]
    lengths = np.fromiter((len(ids) for ids in input_ids), dtype=np.int64, count=len(input_ids))
    pad_id = padding_id(tokenizer)
    was_training = model.training
    model.eval()
    bar = tqdm(total=len(run), desc="hidden states", unit="sent", disable=not progress)
    try:
        with torch.inference_mode():
            for rows in length_sorted_batches(lengths, batch_size) if len(run) else []:
                numbers = [number for row in rows for number in targets_of_row[row]]
                if numbers:
                    out[numbers] = _pooled_batch(
                        encoder, input_ids, rows, pieces, targets_of_row, stored, pooling, pad_id,
                        device, precision,
                    )  # fmt: skip
                bar.update(len(rows))
    finally:
        bar.close()
        model.train(was_training)
    return WordVectors(
        vectors=out.astype(dtype, copy=False),
        layers=stored,
        n_hidden_states=n_hidden_states,
        sentence_index=targets[:, 0].copy(),
        word_index=targets[:, 1].copy(),
        found=found,
        n_pieces=n_pieces,
        metadata={
            "pooling": pooling,
            "max_length": max_length,
            "dtype": dtype,
            **precision_record(precision),  # none for fp32: the bytes caches had
        },
    )


def _pooled_batch(
    encoder, input_ids, rows, pieces, targets_of_row, stored, pooling, pad_id, device, precision
) -> np.ndarray:
    """One forward pass over ``rows`` in ``precision``; pooled vectors of their targets, in
    row order, float32."""
    lengths = [len(input_ids[row]) for row in rows]
    width = max(lengths)
    ids = np.full((len(rows), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for b, row in enumerate(rows):
        ids[b, : lengths[b]] = input_ids[row]
        mask[b, : lengths[b]] = 1
    owner, flat, weight = [], [], []
    t = 0
    for b, row in enumerate(rows):
        for number in targets_of_row[row]:
            positions = pieces[number] if pooling == "mean" else pieces[number][:1]
            owner += [t] * len(positions)
            flat += [b * width + p for p in positions]
            weight += [1.0 / len(positions)] * len(positions)
            t += 1
    # copies to the device queued without waiting; the one wait is the result's copy back
    with forward_precision(precision, device):
        output = encoder(
            input_ids=to_device(torch.from_numpy(ids), device),
            attention_mask=to_device(torch.from_numpy(mask), device),
            output_hidden_states=True,
        )
    states = output.hidden_states
    owner_t = to_device(torch.tensor(owner), device)
    flat_t = to_device(torch.tensor(flat), device)
    weight_t = to_device(torch.tensor(weight), device)[:, None]
    pooled = []
    for index in stored:
        pieces_h = states[index].reshape(len(rows) * width, -1)[flat_t].float() * weight_t
        pooled.append(
            torch.zeros(t, pieces_h.shape[1], device=device).index_add_(0, owner_t, pieces_h)
        )
    return torch.stack(pooled, dim=1).cpu().numpy()
