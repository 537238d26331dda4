"""Token-id sequences for masked-LM training: encoding lines, grouping them into blocks.

Two ways to turn a text into training examples, both those of the Hugging Face
``run_mlm.py`` example script (transformers v4.22, the version Kaneko et al. 2023 used):

- **line by line** (:func:`encode_lines` with ``max_length``): each non-blank line is one
  example, ``[CLS] tokens [SEP]``, truncated to ``max_length`` tokens;
- **grouped** (:func:`group_blocks`): every line is encoded with its special tokens and
  no truncation, the encodings are concatenated and cut into blocks of exactly
  ``block_size`` tokens. ``run_mlm.py`` groups the lines 1,000 at a time (its
  ``datasets.map(batched=True)`` batch) and drops each group's remainder shorter than a
  block; ``chunk_lines`` reproduces that (``None`` groups the whole text at once).

The examples are stored end to end (:class:`PackedSequences`), so a corpus of millions of
lines costs one integer array, not a Python list per line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import torch
from transformers import PreTrainedTokenizerBase

__all__ = ["TOKENIZE_CHUNK", "Encoded", "PackedSequences", "encode_lines", "group_blocks"]

TOKENIZE_CHUNK = 2048
"""Number of lines encoded per tokenizer call."""


@dataclass(frozen=True)
class PackedSequences:
    """Token-id sequences stored end to end: ``ids[offsets[i]:offsets[i + 1]]``."""

    ids: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_tokens(self) -> int:
        """Tokens in all sequences (special tokens included, no padding)."""
        return int(self.offsets[-1])

    def batch(self, indices: np.ndarray, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Sequences ``indices`` padded to the longest: ``(input_ids, attention_mask)``."""
        starts, ends = self.offsets[indices], self.offsets[indices + 1]
        lengths = ends - starts
        input_ids = np.full((len(indices), int(lengths.max())), pad_id, dtype=np.int64)
        for row, (start, end) in enumerate(zip(starts, ends, strict=True)):
            input_ids[row, : end - start] = self.ids[start:end]
        attention_mask = np.arange(input_ids.shape[1])[None, :] < lengths[:, None]
        return torch.from_numpy(input_ids), torch.from_numpy(attention_mask.astype(np.int64))

    @classmethod
    def from_lengths(cls, ids: np.ndarray, lengths: Iterable[int]) -> PackedSequences:
        """Sequences of the given ``lengths`` laid end to end in ``ids``."""
        lengths = np.fromiter(lengths, dtype=np.int64)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        if offsets[-1] != len(ids):
            raise ValueError(f"lengths sum to {offsets[-1]} but there are {len(ids)} ids")
        return cls(ids=ids, offsets=offsets)


@dataclass(frozen=True)
class Encoded:
    """The examples made from a text, and what they were made from."""

    sequences: PackedSequences
    n_lines: int
    text_sha256: str


def _encoded_chunks(
    lines: Iterable[str],
    tokenizer: PreTrainedTokenizerBase,
    max_length: int | None,
    chunk_lines: int,
    digest: hashlib._Hash,
) -> Iterable[list[list[int]]]:
    buffer: list[str] = []
    options = {"truncation": True, "max_length": max_length} if max_length else {}
    for line in lines:
        digest.update(line.encode("utf-8") + b"\n")
        buffer.append(line)
        if len(buffer) == chunk_lines:
            yield tokenizer(buffer, **options)["input_ids"]
            buffer = []
    if buffer:
        yield tokenizer(buffer, **options)["input_ids"]


def encode_lines(
    lines: Iterable[str], tokenizer: PreTrainedTokenizerBase, max_length: int | None
) -> Encoded:
    """One example per line, with special tokens, truncated to ``max_length`` tokens.

    Also hashes the text (sha256 of the lines, each followed by ``\\n``).
    """
    digest = hashlib.sha256()
    chunks: list[np.ndarray] = []
    lengths: list[int] = []
    for encoded in _encoded_chunks(lines, tokenizer, max_length, TOKENIZE_CHUNK, digest):
        for ids in encoded:
            chunks.append(np.asarray(ids, dtype=np.int32))
            lengths.append(len(ids))
    ids = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    sequences = PackedSequences.from_lengths(ids, lengths)
    return Encoded(sequences=sequences, n_lines=len(lengths), text_sha256=digest.hexdigest())


def group_blocks(
    lines: Iterable[str],
    tokenizer: PreTrainedTokenizerBase,
    block_size: int,
    chunk_lines: int | None = 1000,
) -> Encoded:
    """Blocks of exactly ``block_size`` tokens from the concatenated line encodings.

    Parameters
    ----------
    lines
        Sentences; each is encoded with its special tokens (``[CLS] ... [SEP]``).
    tokenizer
        The model's tokenizer.
    block_size
        Tokens per block (``run_mlm.py``'s ``max_seq_length``).
    chunk_lines
        Lines grouped together; the tokens of each group that do not fill a last block
        are dropped (1000 in ``run_mlm.py``). ``None``: one group, one remainder.

    Returns
    -------
    Encoded
        ``n_lines`` counts the lines read, ``sequences`` the blocks.
    """
    if block_size < 1:
        raise ValueError(f"block_size must be positive, got {block_size}")
    digest = hashlib.sha256()
    per_call = chunk_lines or TOKENIZE_CHUNK
    blocks: list[np.ndarray] = []
    pending: list[np.ndarray] = []
    n_lines = 0

    def flush() -> None:
        if not pending:
            return
        joined = np.concatenate(pending)
        pending.clear()
        usable = len(joined) // block_size * block_size
        if usable:
            blocks.append(joined[:usable])

    for encoded in _encoded_chunks(lines, tokenizer, None, per_call, digest):
        n_lines += len(encoded)
        pending.extend(np.asarray(ids, dtype=np.int32) for ids in encoded)
        if chunk_lines:
            flush()
    flush()
    ids = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int32)
    sequences = PackedSequences.from_lengths(ids, [block_size] * (len(ids) // block_size))
    return Encoded(sequences=sequences, n_lines=n_lines, text_sha256=digest.hexdigest())
