"""The scoring engine, unmasked pass: one forward pass per sentence gives every input of AUL,
AULA and MBE.

For each sentence the pass keeps, at every non-special token position:

- the token id;
- ``log P(w_i | S)``: ``log_softmax`` of the logits over the vocabulary, at the gold
  token, with nothing masked (the ``log P_MLM(w_i | T)`` of AUL and AULA; Kaneko
  et al. 2022, Eq. 1);
- ``alpha_i``: the attention token ``i`` *receives*, averaged over layers, then
  heads, then over the query positions of the real (non-padding) tokens,
  special-token query rows included, and not renormalised after dropping the
  special-token columns (the ``alpha_i`` of AULA, Kaneko et al. 2022, Eq. 1, averaged
  as in the authors' code);

and per sentence the mean of the last-layer hidden states over the non-special
tokens (the sentence embedding behind ``C(T_m, T_f)`` of MBE, Kaneko et al. 2022,
text below Eq. 2).

Special tokens are identified with the tokenizer's ``special_tokens_mask``
rather than by slicing ``[1:-1]``, so the same code serves tokenizers that add
a different number of special tokens. Batches are sorted by length and padded
per batch; padding never enters an average, so batched results equal
unbatched ones to float tolerance.

With ``precision`` ``bf16`` or ``fp16`` the forward pass (encoder and MLM head) runs
under autocast and everything above is computed from its outputs cast to float32
(:mod:`mgbias.mlm.precision`); ``fp32``, the default, is the full-precision pass.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from tqdm.auto import tqdm
from transformers import PreTrainedModel, PreTrainedTokenizerBase

from mgbias.mlm.devices import launched_ahead, to_device
from mgbias.mlm.heads import mlm_encoder_and_head
from mgbias.mlm.precision import DEFAULT_PRECISION, check_precision, forward_precision
from mgbias.mlm.scores import SentenceScores

log = logging.getLogger(__name__)

UNBOUNDED_TOKENIZER_LENGTH = 1_000_000
"""``model_max_length`` at or above this means the tokenizer sets no limit."""


@dataclass(frozen=True)
class EncodedSentences:
    """Tokenized sentences with special tokens, ready to batch.

    Attributes
    ----------
    input_ids : list[np.ndarray]
        int64 ids per sentence, special tokens included, truncated to the limit.
    special_mask : list[np.ndarray]
        bool per sentence, True at special-token positions.
    truncated : np.ndarray
        bool per sentence, True where the sentence was longer than the limit.
    """

    input_ids: list[np.ndarray]
    special_mask: list[np.ndarray]
    truncated: np.ndarray

    @property
    def lengths(self) -> np.ndarray:
        return np.fromiter((len(ids) for ids in self.input_ids), dtype=np.int64)


#: Models whose position ids start after the padding index (RoBERTa family).
OFFSET_POSITION_MODEL_TYPES = frozenset({"roberta", "xlm-roberta", "camembert", "xlm-roberta-xl"})


def padding_id(tokenizer: PreTrainedTokenizerBase) -> int:
    """The id that fills padded positions: the tokenizer's pad token, else 0.

    Padded positions are excluded by the attention mask and never read, so any
    valid id serves when a tokenizer defines no pad token.
    """
    return tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0


def default_max_length(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> int:
    """Longest sequence the model accepts, special tokens included.

    The tokenizer's ``model_max_length`` capped by the model's
    ``max_position_embeddings``, and for RoBERTa-style models, whose positions
    start after the padding index, by ``max_position_embeddings -
    pad_token_id - 1`` (e.g. 514 - 1 - 1 = 512).

    Raises
    ------
    ValueError
        If neither the tokenizer nor the model config states a limit.
    """
    limits = []
    tokenizer_limit = getattr(tokenizer, "model_max_length", None)
    if isinstance(tokenizer_limit, int) and 0 < tokenizer_limit < UNBOUNDED_TOKENIZER_LENGTH:
        limits.append(tokenizer_limit)
    position_limit = getattr(model.config, "max_position_embeddings", None)
    if isinstance(position_limit, int) and position_limit > 0:
        limits.append(position_limit)
    if not limits:
        raise ValueError(
            "cannot infer the maximum sequence length: the tokenizer has no model_max_length and "
            "the model config has no max_position_embeddings; pass max_length"
        )
    config = model.config
    pad = getattr(config, "pad_token_id", None)
    offset = getattr(config, "model_type", None) in OFFSET_POSITION_MODEL_TYPES
    if offset and isinstance(position_limit, int) and isinstance(pad, int):
        limits.append(position_limit - pad - 1)
    return min(limits)


def encode_sentences(
    tokenizer: PreTrainedTokenizerBase, sentences: Sequence[str], max_length: int
) -> EncodedSentences:
    """Tokenize sentences with special tokens; truncate those longer than ``max_length``.

    Raises
    ------
    TypeError
        If a sentence is not a string (the message names its index).
    ValueError
        If a sentence is empty or whitespace only, or has no non-special tokens
        after tokenization (the message names its index).
    """
    for index, sentence in enumerate(sentences):
        if not isinstance(sentence, str):
            raise TypeError(f"sentence {index}: expected str, got {type(sentence).__name__}")
        if not sentence.strip():
            raise ValueError(f"sentence {index} is empty: {sentence!r}")
    texts = list(sentences)
    if not texts:
        return EncodedSentences(input_ids=[], special_mask=[], truncated=np.zeros(0, dtype=bool))
    encoded = tokenizer(
        texts,
        add_special_tokens=True,
        return_special_tokens_mask=True,
        return_attention_mask=False,
        return_token_type_ids=False,
        verbose=False,
    )
    ids_per_sentence = encoded["input_ids"]
    special_per_sentence = encoded["special_tokens_mask"]
    truncated = np.fromiter((len(ids) > max_length for ids in ids_per_sentence), dtype=bool)
    too_long = np.flatnonzero(truncated)
    if too_long.size:
        shortened = tokenizer(
            [texts[index] for index in too_long],
            add_special_tokens=True,
            return_special_tokens_mask=True,
            return_attention_mask=False,
            return_token_type_ids=False,
            truncation=True,
            max_length=max_length,
        )
        for position, index in enumerate(too_long):
            ids_per_sentence[index] = shortened["input_ids"][position]
            special_per_sentence[index] = shortened["special_tokens_mask"][position]
    input_ids = [np.asarray(ids, dtype=np.int64) for ids in ids_per_sentence]
    special_mask = [np.asarray(mask, dtype=bool) for mask in special_per_sentence]
    for index, mask in enumerate(special_mask):
        if mask.all():
            raise ValueError(
                f"sentence {index} has no non-special tokens after tokenization: {texts[index]!r}"
            )
    return EncodedSentences(input_ids=input_ids, special_mask=special_mask, truncated=truncated)


def length_sorted_batches(lengths: np.ndarray, batch_size: int) -> list[np.ndarray]:
    """Indices grouped into batches of similar length (stable sort, shortest first)."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    order = np.argsort(lengths, kind="stable")
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


def pad_batch(
    encoded: EncodedSentences, indices: np.ndarray, pad_id: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Right-pad the chosen sentences to the batch's longest.

    Returns
    -------
    tuple[torch.Tensor, torch.Tensor, torch.Tensor]
        ``input_ids`` (int64), ``attention_mask`` (int64, 1 = real token) and
        ``special_mask`` (bool, True at special tokens and padding), all ``(B, T)``.
    """
    lengths = np.fromiter((len(encoded.input_ids[i]) for i in indices), dtype=np.int64)
    real = np.arange(int(lengths.max()))[None, :] < lengths[:, None]
    input_ids = np.full(real.shape, pad_id, dtype=np.int64)
    input_ids[real] = np.concatenate([encoded.input_ids[i] for i in indices])
    special = np.ones(real.shape, dtype=bool)
    special[real] = np.concatenate([encoded.special_mask[i] for i in indices])
    return (
        torch.from_numpy(input_ids),
        torch.from_numpy(real.astype(np.int64)),
        torch.from_numpy(special),
    )


def received_attention(
    attentions: Sequence[torch.Tensor], attention_mask: torch.Tensor
) -> torch.Tensor:
    """Attention each key position receives, averaged as in AULA.

    Parameters
    ----------
    attentions : sequence of torch.Tensor
        One ``(B, H, Q, K)`` tensor per layer (``output_attentions=True``).
    attention_mask : torch.Tensor
        ``(B, T)``, 1 for real tokens, 0 for padding.

    Returns
    -------
    torch.Tensor
        ``(B, K)`` float32: mean over layers, then heads, then the real query
        rows (special-token rows included, padding rows excluded).
    """
    layer_mean = attentions[0].float().mean(dim=1)
    for layer in attentions[1:]:
        layer_mean = layer_mean + layer.float().mean(dim=1)
    head_layer_mean = layer_mean / len(attentions)  # (B, Q, K)
    query_weight = attention_mask.to(head_layer_mean.dtype)
    summed = torch.einsum("bqk,bq->bk", head_layer_mean, query_weight)
    return summed / query_weight.sum(dim=1, keepdim=True)


def score_unmasked(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    sentences: Sequence[str],
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
    precision: str = DEFAULT_PRECISION,
) -> SentenceScores:
    """Run the model once over each sentence, nothing masked, and keep what AUL/AULA/MBE need.

    Parameters
    ----------
    model : PreTrainedModel
        A masked LM loaded with ``attn_implementation="eager"`` (see
        :func:`mgbias.mlm.load.load_mlm`); run in eval mode.
    tokenizer : PreTrainedTokenizerBase
        Its tokenizer (a fast tokenizer: ``special_tokens_mask`` is used).
    sentences : Sequence[str]
        Sentences to score; none may be empty after tokenization.
    batch_size : int
        Sentences per forward pass (batches are formed after sorting by length).
    max_length : int, optional
        Token limit, special tokens included; default :func:`default_max_length`.
        Longer sentences are truncated, counted in ``n_truncated`` and reported
        in one logged warning.
    progress : bool
        Show a tqdm progress bar.
    precision : str
        ``"fp32"`` (default), ``"bf16"`` or ``"fp16"`` (CUDA only): the forward pass
        under autocast, the log-probabilities, attention and embeddings computed from
        its outputs in float32 (:mod:`mgbias.mlm.precision`).

    Returns
    -------
    SentenceScores
        In the order of ``sentences``.

    Raises
    ------
    ValueError
        If a sentence is empty or has no non-special tokens (the message names
        its index), ``max_length`` is invalid, or the precision is unknown (or
        ``fp16`` on a model that is not on CUDA).
    RuntimeError
        If the model returns no attention weights (not loaded with eager attention).
    """
    device = check_precision(precision, next(model.parameters()).device)
    model_limit = default_max_length(model, tokenizer)
    if max_length is None:
        max_length = model_limit
    elif max_length > model_limit:
        raise ValueError(f"max_length={max_length} exceeds the model's limit of {model_limit}")
    minimum = tokenizer.num_special_tokens_to_add(pair=False) + 1
    if max_length < minimum:
        raise ValueError(f"max_length={max_length} leaves no room for a token (minimum {minimum})")

    encoded = encode_sentences(tokenizer, sentences, max_length)
    n_sentences = len(encoded.input_ids)
    n_truncated = int(encoded.truncated.sum())
    if n_truncated:
        log.warning(
            "%d of %d sentences are longer than %d tokens and were truncated (first: index %d)",
            n_truncated,
            n_sentences,
            max_length,
            int(np.flatnonzero(encoded.truncated)[0]),
        )

    hidden_size = int(model.config.hidden_size)
    token_ids: list[np.ndarray] = [np.zeros(0, dtype=np.int32)] * n_sentences
    logprobs: list[np.ndarray] = [np.zeros(0, dtype=np.float32)] * n_sentences
    attention: list[np.ndarray] = [np.zeros(0, dtype=np.float32)] * n_sentences
    embeddings = np.zeros((n_sentences, hidden_size), dtype=np.float32)

    pad_id = padding_id(tokenizer)
    split = mlm_encoder_and_head(model)
    was_training = model.training
    model.eval()
    bar = tqdm(total=n_sentences, desc="scoring (unmasked)", unit="sent", disable=not progress)
    try:
        with torch.inference_mode():
            # Each batch's values are read back after the next batch is queued, so that on
            # a GPU the host prepares and files one batch while the device runs the next.
            for indices, launched in launched_ahead(
                length_sorted_batches(encoded.lengths, batch_size),
                lambda indices: _launch_batch(
                    model, encoded, indices, pad_id, device, split, precision
                ),
            ):
                _file_batch(indices, launched, token_ids, logprobs, attention, embeddings)
                bar.update(len(indices))
    finally:
        bar.close()
        model.train(was_training)
    return SentenceScores(
        token_ids=token_ids,
        logprobs=logprobs,
        attention=attention,
        embeddings=embeddings,
        n_truncated=n_truncated,
    )


@dataclass(frozen=True)
class _QueuedBatch:
    """A batch whose forward pass is queued on the device: what the host already knows of
    it, and the device tensor its values will be read from."""

    gold: np.ndarray  # int64 ids of the kept positions, row-major over the batch
    counts: np.ndarray  # kept positions per sentence
    packed: torch.Tensor  # on the device: logprobs, alphas (kept positions), embeddings
    embedding_shape: tuple[int, int]

    def values(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Token ids, log-probabilities and alphas (flat over the kept positions),
        embeddings and counts; the one wait for the device per batch."""
        n_kept = len(self.gold)
        packed = self.packed.cpu().numpy()
        return (
            self.gold.astype(np.int32),
            packed[:n_kept],
            packed[n_kept : 2 * n_kept],
            packed[2 * n_kept :].reshape(self.embedding_shape),
            self.counts,
        )


def _file_batch(
    indices: np.ndarray,
    queued: _QueuedBatch,
    token_ids: list[np.ndarray],
    logprobs: list[np.ndarray],
    attention: list[np.ndarray],
    embeddings: np.ndarray,
) -> None:
    """Read a queued batch's values back and file them under its sentences' indices."""
    ids, logprob, alpha, embedding, counts = queued.values()
    splits = np.cumsum(counts)[:-1]
    for position, (index, row_ids, row_logprob, row_alpha) in enumerate(
        zip(
            indices,
            np.split(ids, splits),
            np.split(logprob, splits),
            np.split(alpha, splits),
            strict=True,
        )
    ):
        token_ids[index] = row_ids
        logprobs[index] = row_logprob
        attention[index] = row_alpha
        embeddings[index] = embedding[position]


def _launch_batch(
    model: PreTrainedModel,
    encoded: EncodedSentences,
    indices: np.ndarray,
    pad_id: int,
    device: torch.device,
    split: tuple[torch.nn.Module, object] | None = None,
    precision: str = DEFAULT_PRECISION,
) -> _QueuedBatch:
    """Queue one forward pass and what is computed from it; nothing waits for the device.

    With ``split`` (:func:`mgbias.mlm.heads.mlm_encoder_and_head` of ``model``) the
    encoder runs on the batch and the MLM head only on the kept (real, non-special)
    positions, so neither the head nor the ``log_softmax`` over the vocabulary is
    computed for padding and special tokens; otherwise the whole model runs. The
    encoder and the head run in ``precision``, the rest in float32.
    """
    input_ids, attention_mask, special = pad_batch(encoded, indices, pad_id)
    # Which positions are kept is known on the host: the kept positions' flat indices,
    # gold ids and counts come from there, so the device never has to report a
    # boolean mask's size back (each ``tensor[mask]`` on CUDA waits for the GPU).
    keep = ~special.numpy()  # real, non-special positions, (B, T)
    gold = input_ids.numpy()[keep]
    counts = keep.sum(axis=1)
    flat_keep = to_device(torch.from_numpy(np.flatnonzero(keep)), device)
    keep_weight = to_device(torch.from_numpy(keep.astype(np.float32)), device)
    input_ids = to_device(input_ids, device)
    attention_mask = to_device(attention_mask, device)
    encoder, head = split if split is not None else (model, None)
    with forward_precision(precision, device):
        output = encoder(
            input_ids=input_ids,
            attention_mask=attention_mask,
            output_attentions=True,
            output_hidden_states=True,
        )
        # (B, T, V) of the whole model, or (kept tokens, V) of the head alone
        logits = output.logits if head is None else head(_kept_rows(output[0], flat_keep))
    if not output.attentions:
        raise RuntimeError(
            "the model returned no attention weights; load it with attn_implementation='eager' "
            "(mgbias.mlm.load.load_mlm does)"
        )
    if head is None:
        # One fused log_softmax over the whole (B, T, V) batch, then the gold ids.
        log_probs = torch.log_softmax(logits.float(), dim=-1)
        logprob = _kept_rows(log_probs.gather(2, input_ids[:, :, None]), flat_keep)[:, 0]
    else:
        gold_ids = input_ids.reshape(-1).index_select(0, flat_keep)
        logprob = torch.log_softmax(logits.float(), dim=-1).gather(1, gold_ids[:, None]).squeeze(1)
    alpha = _kept_rows(received_attention(output.attentions, attention_mask)[:, :, None], flat_keep)
    last_hidden = output.hidden_states[-1].float()
    embedding = torch.einsum("btd,bt->bd", last_hidden, keep_weight) / keep_weight.sum(
        dim=1, keepdim=True
    )
    return _QueuedBatch(
        gold=gold,
        counts=counts,
        packed=torch.cat([logprob, alpha[:, 0], embedding.reshape(-1)]),
        embedding_shape=(int(embedding.shape[0]), int(embedding.shape[1])),
    )


def _kept_rows(values: torch.Tensor, flat_keep: torch.Tensor) -> torch.Tensor:
    """The rows of ``(B, T, D)`` ``values`` at the flat positions ``flat_keep`` (into
    ``B * T``, row-major), as ``(len(flat_keep), D)``: ``values[keep]`` for the boolean
    mask ``keep`` behind ``flat_keep``, without the device-to-host wait of a boolean mask."""
    return values.reshape(-1, values.shape[-1]).index_select(0, flat_keep)
