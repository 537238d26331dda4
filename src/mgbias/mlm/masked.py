"""The scoring engine, masked pass: log-probabilities of tokens hidden behind ``[MASK]``.

Every measure that masks tokens reduces to the same request: take a token-id
sequence, replace some positions by the mask token (a *masked copy*), run
the model, and read the log-probability of some candidate tokens at some
positions. This module runs such requests in bulk:

- :func:`score_masked`: one copy per listed position, that position alone
  masked, scored on its own gold token: ``log P(w_i | S minus w_i)`` (CPS,
  Nangia et al. 2020, §3; S_JSD, Steinborn et al. 2022, Eq. 3).
- :func:`masked_logprobs_of`: one copy per sequence with several positions
  masked, candidates scored at one position (TBS's target and prior
  probabilities, Kurita et al. 2019, §3).
- :func:`score_masked_pairs`: shared and modified tokens of sentence pairs
  (:mod:`mgbias.mlm.spans`), every shared token masked alone (CPS, S_JSD) and
  all modified tokens masked together (SSS, Kaneko et al. 2022, App. A), in
  one run.

How the copies are run
----------------------
All copies, across sentences, are sorted by length (copies of one sentence
stay together) and batched, right-padded per batch. Only the *encoder* runs
over the whole batch; the MLM head (the vocabulary projection, ``hidden x
vocabulary`` per row) is applied only to the hidden states at the queried
positions, and only the gold (or candidate) entries are read, using
``logit - logsumexp(logits)``, which equals ``log_softmax`` at those entries.
Applying the head at every position would cost ``|sequence| x vocabulary`` per
copy for nothing, which dominates with a 250k vocabulary (XLM-R, mBERT).
:func:`mlm_encoder_and_head` knows how BERT, RoBERTa, XLM-R, CamemBERT,
ALBERT, DistilBERT and ELECTRA split; any other masked LM is run whole (same
numbers, slower) with a logged warning.

Precision
---------
With ``precision`` ``bf16`` or ``fp16`` the encoder and the head run under autocast;
their logits are cast to float32 before the ``logsumexp`` and the gathers
(:mod:`mgbias.mlm.precision`). ``fp32``, the default, is the full-precision run.

Length limit
------------
:func:`score_masked_pairs` cuts long sentences as :mod:`mgbias.mlm.spans` documents
(special tokens kept, trailing tokens cut, cut shared tokens dropped from both
sides) and reports what it cut; it never fails on a long sentence.
:func:`score_masked` and :func:`masked_logprobs_of` take token ids that are
already cut, and raise a ``ValueError`` naming the sequence if one is longer
than the limit.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm
from transformers import PreTrainedModel, PreTrainedTokenizerBase

from mgbias.mlm.devices import launched_ahead, to_device
from mgbias.mlm.heads import Head, mlm_encoder_and_head
from mgbias.mlm.masked_cache import PairScores, SideScores
from mgbias.mlm.precision import DEFAULT_PRECISION, check_precision, forward_precision
from mgbias.mlm.spans import encode_pairs
from mgbias.mlm.unmasked import default_max_length, padding_id

log = logging.getLogger(__name__)

__all__ = [
    "masked_copy_batches",
    "masked_logprobs_of",
    "masked_max_length",
    "mlm_encoder_and_head",
    "score_masked",
    "score_masked_pairs",
]

HEAD_CHUNK_ELEMENTS = 1 << 24
"""At most this many logits (rows x vocabulary) are held at once (64 MiB in float32)."""

"""Models whose position ids start at ``pad_token_id + 1`` (fairseq convention)."""


def masked_max_length(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> int:
    """Longest sequence the model accepts: :func:`mgbias.mlm.unmasked.default_max_length`."""
    return default_max_length(model, tokenizer)


# --------------------------------------------------------------------------- copy plan


@dataclass(frozen=True)
class _CopyPlan:
    """Masked copies and what to read from each, as flat arrays with offsets.

    Copy ``c`` is ``sequences[sequence[c]]`` with positions
    ``mask_positions[mask_offsets[c]:mask_offsets[c + 1]]`` masked; it is
    queried at ``query_positions[query_offsets[c]:query_offsets[c + 1]]``; query
    ``q`` reads the candidates
    ``candidate_ids[candidate_offsets[q]:candidate_offsets[q + 1]]``. The result
    is one log-probability per candidate, in the order of ``candidate_ids``.
    """

    sequence: np.ndarray
    mask_offsets: np.ndarray
    mask_positions: np.ndarray
    query_offsets: np.ndarray
    query_positions: np.ndarray
    candidate_offsets: np.ndarray
    candidate_ids: np.ndarray

    @property
    def n_copies(self) -> int:
        return len(self.sequence)


def _offsets(counts: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def _ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(start, end)`` for each pair, vectorised."""
    counts = ends - starts
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    steps = np.ones(total, dtype=np.int64)
    first = _offsets(counts)[:-1][counts > 0]
    steps[first] = starts[counts > 0]
    steps[first[1:]] -= ends[counts > 0][:-1] - 1
    return np.cumsum(steps)


def _concat(arrays: list[np.ndarray]) -> np.ndarray:
    if not arrays:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate(arrays).astype(np.int64, copy=False)


def _plan(
    sequence: list[int],
    masks: list[np.ndarray],
    queries: list[np.ndarray],
    candidates: list[list[np.ndarray]],
) -> _CopyPlan:
    query_counts = np.fromiter((len(q) for q in queries), dtype=np.int64, count=len(queries))
    flat_candidates = [row for rows in candidates for row in rows]
    return _CopyPlan(
        sequence=np.asarray(sequence, dtype=np.int64),
        mask_offsets=_offsets(np.fromiter((len(m) for m in masks), np.int64, len(masks))),
        mask_positions=_concat(masks),
        query_offsets=_offsets(query_counts),
        query_positions=_concat(queries),
        candidate_offsets=_offsets(
            np.fromiter((len(c) for c in flat_candidates), np.int64, len(flat_candidates))
        ),
        candidate_ids=_concat(flat_candidates),
    )


def _single_mask_plan(sequences: list[np.ndarray], positions: list[np.ndarray]) -> _CopyPlan:
    """One copy per listed position, it alone masked, read at its own gold id."""
    counts = np.fromiter((len(p) for p in positions), np.int64, len(positions))
    sequence = np.repeat(np.arange(len(sequences), dtype=np.int64), counts)
    flat_positions = _concat(positions)
    if sequences:
        starts = _offsets(np.fromiter((len(ids) for ids in sequences), np.int64, len(sequences)))
        gold = _concat(sequences)[starts[sequence] + flat_positions]
    else:
        gold = np.zeros(0, dtype=np.int64)
    one_each = np.arange(len(sequence) + 1, dtype=np.int64)
    return _CopyPlan(
        sequence=sequence,
        mask_offsets=one_each,
        mask_positions=flat_positions,
        query_offsets=one_each,
        query_positions=flat_positions,
        candidate_offsets=one_each,
        candidate_ids=gold,
    )


def _join_plans(first: _CopyPlan, second: _CopyPlan) -> _CopyPlan:
    """The copies of ``first`` then those of ``second``; results are concatenated alike."""

    def offsets(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.concatenate([a, b[1:] + a[-1]])

    return _CopyPlan(
        sequence=np.concatenate([first.sequence, second.sequence]),
        mask_offsets=offsets(first.mask_offsets, second.mask_offsets),
        mask_positions=np.concatenate([first.mask_positions, second.mask_positions]),
        query_offsets=offsets(first.query_offsets, second.query_offsets),
        query_positions=np.concatenate([first.query_positions, second.query_positions]),
        candidate_offsets=offsets(first.candidate_offsets, second.candidate_offsets),
        candidate_ids=np.concatenate([first.candidate_ids, second.candidate_ids]),
    )


# --------------------------------------------------------------------------- running


def _resolve_limit(
    model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, max_length: int | None
) -> int:
    model_limit = masked_max_length(model, tokenizer)
    if max_length is None:
        return model_limit
    if max_length > model_limit:
        raise ValueError(f"max_length={max_length} exceeds the model's limit of {model_limit}")
    return max_length


def _check_sequences(
    sequences: Sequence[np.ndarray], limit: int, name: str = "sequences"
) -> list[np.ndarray]:
    checked = []
    for index, ids in enumerate(sequences):
        array = np.asarray(ids)
        if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer) or array.size == 0:
            raise ValueError(
                f"{name}[{index}] must be a non-empty 1-D array of token ids, got shape "
                f"{array.shape} and dtype {array.dtype}"
            )
        if array.size > limit:
            raise ValueError(
                f"{name}[{index}] holds {array.size} tokens, more than the limit of {limit}; "
                "cut it first (mgbias.mlm.spans.encode_pairs does, keeping special tokens)"
            )
        checked.append(array.astype(np.int64, copy=False))
    return checked


def _check_positions(
    positions: Sequence[int] | np.ndarray, length: int, name: str, index: int
) -> np.ndarray:
    array = np.asarray(positions, dtype=np.int64).reshape(-1)
    bad = (array < 0) | (array >= length)
    if bad.any():
        raise ValueError(
            f"{name}[{index}] holds position {int(array[bad][0])}, outside the sequence of "
            f"{length} tokens"
        )
    return array


def _mask_id(tokenizer: PreTrainedTokenizerBase) -> int:
    mask_id = tokenizer.mask_token_id
    if mask_id is None:
        raise ValueError("the tokenizer has no mask token; masked scoring needs one")
    return int(mask_id)


@dataclass(frozen=True)
class _Batch:
    """Padded masked copies and where to read them (numpy; row = copy within the batch)."""

    input_ids: np.ndarray  # (B, T) int64
    attention_mask: np.ndarray  # (B, T) int64, 1 = real token
    query_rows: np.ndarray  # (Q,) copy of each query
    query_columns: np.ndarray  # (Q,) position of each query
    candidate_index: np.ndarray  # (K,) indices into the plan's candidates
    candidate_rows: np.ndarray  # (K,) query (0..Q-1) of each candidate
    candidate_ids: np.ndarray  # (K,) token ids to read


def _build_batch(
    sequences: list[np.ndarray],
    sequence_lengths: np.ndarray,
    plan: _CopyPlan,
    batch: np.ndarray,
    *,
    mask_id: int,
    pad_id: int,
) -> _Batch:
    """Pad the copies ``batch`` of ``plan`` to their longest and place their masks."""
    rows = np.arange(len(batch))
    source = plan.sequence[batch]
    lengths = sequence_lengths[source]
    real = np.arange(int(lengths.max()))[None, :] < lengths[:, None]
    input_ids = np.full(real.shape, pad_id, dtype=np.int64)
    input_ids[real] = np.concatenate([sequences[index] for index in source])
    mask_starts, mask_ends = plan.mask_offsets[batch], plan.mask_offsets[batch + 1]
    input_ids[
        np.repeat(rows, mask_ends - mask_starts),
        plan.mask_positions[_ranges(mask_starts, mask_ends)],
    ] = mask_id
    query_starts, query_ends = plan.query_offsets[batch], plan.query_offsets[batch + 1]
    query_index = _ranges(query_starts, query_ends)
    candidate_starts = plan.candidate_offsets[query_index]
    candidate_ends = plan.candidate_offsets[query_index + 1]
    candidate_index = _ranges(candidate_starts, candidate_ends)
    return _Batch(
        input_ids=input_ids,
        attention_mask=real.astype(np.int64),
        query_rows=np.repeat(rows, query_ends - query_starts),
        query_columns=plan.query_positions[query_index],
        candidate_index=candidate_index,
        candidate_rows=np.repeat(np.arange(len(query_index)), candidate_ends - candidate_starts),
        candidate_ids=plan.candidate_ids[candidate_index],
    )


def _batch_order(sequences: list[np.ndarray], plan: _CopyPlan, batch_size: int) -> list[np.ndarray]:
    """Copies sorted by length (stable: copies of one sequence stay together), in batches."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    sequence_lengths = np.fromiter((len(ids) for ids in sequences), np.int64, len(sequences))
    order = np.argsort(sequence_lengths[plan.sequence], kind="stable")
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


def _launch_batch(
    model: PreTrainedModel,
    encoder: nn.Module,
    head: Head | None,
    batch: _Batch,
    device: torch.device,
    precision: str = DEFAULT_PRECISION,
) -> torch.Tensor:
    """Queue one forward pass over a batch of copies; the value of each of its candidates,
    on the device (float32), in the order of ``batch.candidate_index``.

    The encoder and the head run in ``precision``; the ``logsumexp`` and the gathers in
    float32."""
    # Copies to the device are queued without waiting (``to_device``); nothing here
    # waits for the device: the caller reads the values back.
    query_rows = to_device(torch.from_numpy(batch.query_rows), device)
    query_columns = to_device(torch.from_numpy(batch.query_columns), device)
    candidate_rows, candidate_ids = batch.candidate_rows, batch.candidate_ids
    n_queries = len(batch.query_rows)
    ids_tensor = to_device(torch.from_numpy(batch.input_ids), device)
    attention_mask = to_device(torch.from_numpy(batch.attention_mask), device)
    with forward_precision(precision, device):
        if head is None:
            logits_all = model(input_ids=ids_tensor, attention_mask=attention_mask).logits
            vectors = logits_all[query_rows, query_columns]
            vocabulary_head: Head = nn.Identity()
            vocab_size = int(vectors.shape[-1])
        else:
            hidden = encoder(input_ids=ids_tensor, attention_mask=attention_mask)[0]
            vectors = hidden[query_rows, query_columns]  # (Q, hidden): the head sees only these
            vocabulary_head = head
            vocab_size = int(model.config.vocab_size)

    chunk = max(1, HEAD_CHUNK_ELEMENTS // max(vocab_size, 1))
    # candidate_rows is sorted (candidates follow their queries), so each chunk of query
    # rows owns a contiguous run of candidates and the chunks' values concatenate in order.
    firsts = np.arange(0, n_queries, chunk)
    lasts = np.minimum(firsts + chunk, n_queries)
    ends = np.searchsorted(candidate_rows, lasts)
    pieces = []
    start = 0
    for first, last, end in zip(firsts.tolist(), lasts.tolist(), ends.tolist(), strict=True):
        with forward_precision(precision, device):
            logits = vocabulary_head(vectors[first:last])
        logits = logits.float()  # (rows, vocabulary)
        log_normaliser = torch.logsumexp(logits, dim=-1)
        local_rows = to_device(torch.from_numpy(candidate_rows[start:end] - first), device)
        local_ids = to_device(torch.from_numpy(candidate_ids[start:end]), device)
        pieces.append(logits[local_rows, local_ids] - log_normaliser[local_rows])
        start = end
    if not pieces:
        return torch.zeros(0, dtype=torch.float32, device=device)
    return torch.cat(pieces)


def _run_plan(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    sequences: list[np.ndarray],
    plan: _CopyPlan,
    *,
    batch_size: int,
    progress: bool,
    desc: str,
    precision: str = DEFAULT_PRECISION,
) -> np.ndarray:
    """Run every masked copy of ``plan``; float32 log-probability per candidate.

    The single loop behind :func:`score_masked`, :func:`masked_logprobs_of` and
    :func:`score_masked_pairs`; the forward passes in ``precision``.
    """
    device = check_precision(precision, next(model.parameters()).device)
    batches = _batch_order(sequences, plan, batch_size)
    output = np.zeros(len(plan.candidate_ids), dtype=np.float32)
    if plan.n_copies == 0:
        return output
    mask_id = _mask_id(tokenizer)
    pad_id = padding_id(tokenizer)
    encoder, head = mlm_encoder_and_head(model)
    if head is None:
        log.warning(
            "%s: unknown MLM head layout; running the whole model and reading the queried "
            "positions (same numbers, slower)",
            type(model).__name__,
        )
    sequence_lengths = np.fromiter((len(ids) for ids in sequences), np.int64, len(sequences))
    was_training = model.training
    model.eval()

    def launch(indices: np.ndarray) -> tuple[np.ndarray, torch.Tensor]:
        batch = _build_batch(
            sequences, sequence_lengths, plan, indices, mask_id=mask_id, pad_id=pad_id
        )
        return batch.candidate_index, _launch_batch(model, encoder, head, batch, device, precision)

    bar = tqdm(total=plan.n_copies, desc=desc, unit="copy", disable=not progress)
    try:
        with torch.inference_mode():
            # Each batch's values are read back after the next batch is queued, so that on
            # a GPU the host builds the next batch while the device runs this one; the
            # read is the one wait for the device per batch.
            for indices, (candidates, values) in launched_ahead(batches, launch):
                output[candidates] = values.cpu().numpy()
                bar.update(len(indices))
    finally:
        bar.close()
        model.train(was_training)
    return output


# --------------------------------------------------------------------------- public API


def score_masked(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    sequences: Sequence[np.ndarray],
    positions: Sequence[np.ndarray],
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
    precision: str = DEFAULT_PRECISION,
) -> list[np.ndarray]:
    """``log P(w_i | S minus w_i)`` at each listed position, that position alone masked.

    For every sequence ``s`` and every ``i`` in ``positions[s]``, a copy of
    ``s`` with position ``i`` replaced by the mask token is run through the
    model, and ``log_softmax`` of the logits at ``i`` is read at the gold id
    ``s[i]`` (the pseudo-log-likelihood terms of CPS, Nangia et al. 2020, §3,
    and the gold probabilities of S_JSD, Steinborn et al. 2022, Eq. 3). The
    copies of all sequences are batched together (see the module docstring).

    Parameters
    ----------
    model : PreTrainedModel
        A masked LM (any attention implementation).
    tokenizer : PreTrainedTokenizerBase
        Its tokenizer (for the mask and padding ids).
    sequences : Sequence[np.ndarray]
        Token ids, special tokens included, each at most ``max_length`` long.
    positions : Sequence[np.ndarray]
        Per sequence, the positions to mask one at a time (any order; may be empty).
    batch_size : int
        Masked copies per forward pass.
    max_length : int, optional
        Token limit; default :func:`masked_max_length`.
    progress : bool
        Show a tqdm progress bar.
    precision : str
        ``"fp32"`` (default), ``"bf16"`` or ``"fp16"`` (CUDA only): the forward passes
        under autocast, the log-probabilities in float32 (:mod:`mgbias.mlm.precision`).

    Returns
    -------
    list[np.ndarray]
        float32 per sequence, one value per position, in the order of ``positions``.

    Raises
    ------
    ValueError
        If the lists differ in length, a sequence is empty or too long, a
        position is out of range, or the tokenizer has no mask token.
    """
    if len(sequences) != len(positions):
        raise ValueError(
            f"score_masked: {len(sequences)} sequences but {len(positions)} position lists"
        )
    limit = _resolve_limit(model, tokenizer, max_length)
    checked = _check_sequences(sequences, limit)
    wanted = [
        _check_positions(listed, len(ids), "positions", index)
        for index, (ids, listed) in enumerate(zip(checked, positions, strict=True))
    ]
    counts = [len(listed) for listed in wanted]
    plan = _single_mask_plan(checked, wanted)
    flat = _run_plan(
        model,
        tokenizer,
        checked,
        plan,
        batch_size=batch_size,
        progress=progress,
        desc="scoring (masked)",
        precision=precision,
    )
    return np.split(flat, np.cumsum(counts)[:-1]) if counts else []


def masked_logprobs_of(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    sequences: Sequence[np.ndarray],
    mask_positions: Sequence[Sequence[int]],
    query_positions: Sequence[int],
    candidate_ids: Sequence[int] | np.ndarray,
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
    precision: str = DEFAULT_PRECISION,
) -> np.ndarray:
    """``log P(candidate at query position | sequence with all mask positions masked)``.

    One copy per sequence: every position in ``mask_positions[s]`` is replaced
    by the mask token (positions already holding it need not be listed), the
    model runs once, and ``log_softmax`` at ``query_positions[s]`` is read at
    each candidate id. For TBS (Kurita et al. 2019, §3): with the template
    "[MASK] is a programmer", querying the first mask for ``he``/``she`` gives
    ``log p_tgt``; masking the target's positions as well gives ``log p_prior``.

    Parameters
    ----------
    sequences : Sequence[np.ndarray]
        Token ids, special tokens included.
    mask_positions : Sequence[Sequence[int]]
        Per sequence, the positions to mask together (may be empty).
    query_positions : Sequence[int]
        Per sequence, the position whose distribution is read.
    candidate_ids : array-like of int
        Shape ``(n_candidates,)``, the same for every sequence, or
        ``(n_sequences, n_candidates)``.
    precision : str
        As for :func:`score_masked`.

    Returns
    -------
    np.ndarray
        float32, shape ``(n_sequences, n_candidates)``.

    Raises
    ------
    ValueError
        If the inputs disagree in length, a position or candidate id is out of
        range, or a sequence is too long.
    """
    n_sequences = len(sequences)
    if len(mask_positions) != n_sequences or len(query_positions) != n_sequences:
        raise ValueError(
            f"masked_logprobs_of: {n_sequences} sequences, {len(mask_positions)} mask position "
            f"lists and {len(query_positions)} query positions"
        )
    candidates = np.asarray(candidate_ids, dtype=np.int64)
    if candidates.ndim == 1:
        candidates = np.broadcast_to(candidates, (n_sequences, candidates.size))
    if candidates.ndim != 2 or candidates.shape[0] != n_sequences:
        raise ValueError(
            f"masked_logprobs_of: candidate_ids must have shape (n_candidates,) or "
            f"({n_sequences}, n_candidates), got {np.shape(candidate_ids)}"
        )
    vocab_size = int(model.config.vocab_size)
    if candidates.size and (candidates.min() < 0 or candidates.max() >= vocab_size):
        raise ValueError(
            f"masked_logprobs_of: candidate ids must lie in [0, {vocab_size}), got "
            f"{int(candidates.min())}..{int(candidates.max())}"
        )
    limit = _resolve_limit(model, tokenizer, max_length)
    checked = _check_sequences(sequences, limit)
    masks = [
        _check_positions(wanted, len(ids), "mask_positions", index)
        for index, (ids, wanted) in enumerate(zip(checked, mask_positions, strict=True))
    ]
    queries = [
        _check_positions([query], len(ids), "query_positions", index)
        for index, (ids, query) in enumerate(zip(checked, query_positions, strict=True))
    ]
    plan = _plan(list(range(n_sequences)), masks, queries, [[row] for row in candidates])
    flat = _run_plan(
        model,
        tokenizer,
        checked,
        plan,
        batch_size=batch_size,
        progress=progress,
        desc="scoring (masked, several)",
        precision=precision,
    )
    return flat.reshape(candidates.shape)


def masked_copy_batches(
    tokenizer: PreTrainedTokenizerBase,
    sequences: Sequence[np.ndarray],
    positions: Sequence[np.ndarray],
    *,
    batch_size: int = 64,
) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """The padded batches of masked copies that :func:`score_masked` runs, in its order.

    For measuring the encoder alone on exactly the copies the scorer sees
    (``benchmarks/scoring.py``). No length limit is applied.

    Returns
    -------
    list[tuple[torch.Tensor, torch.Tensor]]
        ``(input_ids, attention_mask)`` per batch, int64, on the CPU.
    """
    checked = _check_sequences(sequences, limit=np.iinfo(np.int64).max)
    wanted = [
        _check_positions(listed, len(ids), "positions", index)
        for index, (ids, listed) in enumerate(zip(checked, positions, strict=True))
    ]
    plan = _single_mask_plan(checked, wanted)
    mask_id = _mask_id(tokenizer)
    pad_id = padding_id(tokenizer)
    lengths = np.fromiter((len(ids) for ids in checked), np.int64, len(checked))
    batches = []
    for indices in _batch_order(checked, plan, batch_size):
        batch = _build_batch(checked, lengths, plan, indices, mask_id=mask_id, pad_id=pad_id)
        batches.append((torch.from_numpy(batch.input_ids), torch.from_numpy(batch.attention_mask)))
    return batches


def score_masked_pairs(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    pairs: Sequence[tuple[str, str]],
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
    precision: str = DEFAULT_PRECISION,
) -> PairScores:
    """Masked scores of sentence pairs for CPS, S_JSD and SSS, in one batched run.

    For both sentences of every pair (:func:`mgbias.mlm.spans.encode_pairs`):

    - each shared token masked alone, scored on its gold token (one copy per
      shared token; CPS, Nangia et al. 2020, §3; S_JSD, Steinborn et al. 2022);
    - all modified tokens masked together with the shared tokens visible, each
      modified position scored on its own gold token and on the gold tokens of
      the other modified positions (one copy per sentence; SSS, Kaneko et al.
      2022, App. A: the diagonal is the score).

    Parameters
    ----------
    pairs : Sequence[tuple[str, str]]
        ``(sentence_a, sentence_b)`` per pair.
    batch_size : int
        Masked copies per forward pass.
    max_length : int, optional
        Token limit, special tokens included; default
        :func:`masked_max_length`. Longer sentences are cut (see
        :mod:`mgbias.mlm.spans`), counted, and reported in one warning.
    progress : bool
        Show a tqdm progress bar.
    precision : str
        As for :func:`score_masked`.

    Returns
    -------
    PairScores
        In the order of ``pairs``.

    Raises
    ------
    TypeError, ValueError
        As :func:`mgbias.mlm.spans.encode_pairs` (a sentence that is not a
        string or has no token), or an invalid ``max_length``.
    """
    limit = _resolve_limit(model, tokenizer, max_length)
    spans = encode_pairs(tokenizer, pairs, max_length=limit)
    truncated = [index for index, pair in enumerate(spans) if pair.truncated]
    if truncated:
        log.warning(
            "%d of %d pairs have a sentence longer than %d tokens, cut; %d shared and %d "
            "modified tokens dropped (first: pair %d)",
            len(truncated),
            len(spans),
            limit,
            sum(pair.n_dropped_shared for pair in spans),
            sum(pair.a.n_dropped_modified + pair.b.n_dropped_modified for pair in spans),
            truncated[0],
        )
    sentences = [side for pair in spans for side in (pair.a, pair.b)]
    sequences = [side.input_ids for side in sentences]

    # Shared tokens: one copy each. Modified tokens: one copy per sentence, all masked.
    shared_plan = _single_mask_plan(sequences, [side.shared_positions for side in sentences])
    n_shared_copies = shared_plan.n_copies
    modified_sentences = [
        index for index, side in enumerate(sentences) if len(side.modified_positions)
    ]
    modified_plan = _plan(
        modified_sentences,
        [sentences[index].modified_positions for index in modified_sentences],
        [sentences[index].modified_positions for index in modified_sentences],
        [
            [sentences[index].modified_ids] * len(sentences[index].modified_positions)
            for index in modified_sentences
        ],
    )
    plan = _join_plans(shared_plan, modified_plan)
    flat = _run_plan(
        model,
        tokenizer,
        sequences,
        plan,
        batch_size=batch_size,
        progress=progress,
        desc="scoring pairs (masked)",
        precision=precision,
    )

    shared_counts = [len(side.shared_positions) for side in sentences]
    shared_flat = flat[:n_shared_copies]
    shared_logprobs = np.split(shared_flat, np.cumsum(shared_counts)[:-1])
    matrices = [np.zeros((0, 0), dtype=np.float32) for _ in sentences]
    position = n_shared_copies
    for index in modified_sentences:
        k = len(sentences[index].modified_positions)
        matrices[index] = flat[position : position + k * k].reshape(k, k)
        position += k * k

    def side_scores(offset: int) -> SideScores:
        chosen = range(offset, len(sentences), 2)
        return SideScores(
            token_ids=[sentences[i].input_ids.astype(np.int32) for i in chosen],
            shared_positions=[sentences[i].shared_positions.astype(np.int32) for i in chosen],
            shared_logprobs=[shared_logprobs[i] for i in chosen],
            modified_positions=[sentences[i].modified_positions.astype(np.int32) for i in chosen],
            modified_logprobs=[np.diagonal(matrices[i]).copy() for i in chosen],
            modified_matrices=[matrices[i] for i in chosen],
            truncated=np.array([sentences[i].truncated for i in chosen], dtype=bool),
            n_dropped_modified=np.array(
                [sentences[i].n_dropped_modified for i in chosen], dtype=np.int32
            ),
        )

    return PairScores(
        a=side_scores(0),
        b=side_scores(1),
        n_dropped_shared=np.array([pair.n_dropped_shared for pair in spans], dtype=np.int32),
        max_length=int(limit),
    )
