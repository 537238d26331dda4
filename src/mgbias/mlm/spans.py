"""Shared and modified tokens of a sentence pair (Nangia et al. 2020, §3).

The two sentences of a pair are tokenized (special tokens included) and their
token ids *without* the special tokens are aligned with
``difflib.SequenceMatcher(None, ids_a, ids_b, autojunk=False)``
(:func:`mgbias.pairs.tokens.shared_token_indices`). Tokens inside
``equal`` opcodes are *shared* ("unmodified", ``U``); every other token of a
sentence is *modified* (``M``). This is CrowS-Pairs' convention, applied to token
ids, so it works the same for every subword scheme:

- WordPiece (BERT): ``nurse`` -> ``nur ##se``; every piece is a token.
- Byte-level BPE (RoBERTa): a word after a space carries the space
  (``Ġdoctor``), a sentence-initial word does not (``He``); the ids differ, so
  ``He`` / ``She`` at the start and ``Ġhe`` / ``Ġshe`` inside a sentence are
  each one modified token.
- SentencePiece (ALBERT, XLM-R): ``▁doctor``; a lone ``▁`` is a token like
  any other.
- A word split into several subwords is compared piece by piece: ``act ##or``
  vs ``act ##ress`` shares ``act``. Whole-word alignment is not attempted,
  because CrowS-Pairs' metric does not attempt it either.

``autojunk=False``: difflib's junk heuristic only triggers on sequences of 200
or more items, where it would silently stop matching frequent tokens;
disabling it keeps long sentences aligned like short ones. (CrowS-Pairs'
script leaves the default on; on sentences shorter than 200 tokens the two
agree.)

Sentences longer than the limit
-------------------------------
With ``max_length`` set, a sentence whose tokenization (special tokens
included) is longer keeps its special tokens where the tokenizer put them and
its first ``max_length - n_special`` non-special tokens; the rest are cut (the
same result as the tokenizer's own ``truncation=True`` for ``[CLS] ... [SEP]``
and ``<s> ... </s>`` layouts). Shared and modified tokens are found on the
*full* sentences first; then a shared token whose position was cut on either
side is dropped from *both* sides, so that both sentences keep the same list of
shared tokens (CPS and S_JSD compare them one for one), and a modified token
that was cut is dropped from its side. Each pair records what was cut
(:attr:`SentenceSpans.truncated`, :attr:`SentenceSpans.n_dropped_modified`,
:attr:`PairSpans.n_dropped_shared`). Nothing raises on a long sentence.

This module needs neither torch nor a model: only a tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mgbias.pairs.tokens import shared_token_indices

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

__all__ = ["PairSpans", "SentenceSpans", "encode_pairs", "pair_spans"]


@dataclass(frozen=True)
class SentenceSpans:
    """One sentence of a pair: its token ids and where its shared and modified tokens are.

    Attributes
    ----------
    input_ids : np.ndarray
        int64, the token ids with special tokens, after truncation: the exact
        sequence the model is run on.
    shared_positions : np.ndarray
        int64, increasing indices into ``input_ids`` of the shared tokens. The
        ``i``-th shared token of one side has the same id as the ``i``-th of
        the other side.
    modified_positions : np.ndarray
        int64, increasing indices into ``input_ids`` of the modified tokens
        (non-special tokens that are not shared).
    truncated : bool
        True if the sentence was longer than ``max_length`` and was cut.
    n_dropped_modified : int
        Modified tokens lost to truncation.
    """

    input_ids: np.ndarray
    shared_positions: np.ndarray
    modified_positions: np.ndarray
    truncated: bool = False
    n_dropped_modified: int = 0

    @property
    def shared_ids(self) -> np.ndarray:
        """Token ids of the shared tokens, in order."""
        return self.input_ids[self.shared_positions]

    @property
    def modified_ids(self) -> np.ndarray:
        """Token ids of the modified tokens, in order."""
        return self.input_ids[self.modified_positions]


@dataclass(frozen=True)
class PairSpans:
    """Both sentences of a pair, aligned.

    Attributes
    ----------
    a, b : SentenceSpans
        The first and the second sentence, as given.
    n_dropped_shared : int
        Shared tokens removed from both sides because truncation cut them on
        at least one side.
    """

    a: SentenceSpans
    b: SentenceSpans
    n_dropped_shared: int = 0

    @property
    def truncated(self) -> bool:
        """True if either sentence was cut."""
        return self.a.truncated or self.b.truncated


def _check_max_length(tokenizer: PreTrainedTokenizerBase, max_length: int | None) -> None:
    if max_length is None:
        return
    minimum = tokenizer.num_special_tokens_to_add(pair=False) + 1
    if not isinstance(max_length, int | np.integer) or max_length < minimum:
        raise ValueError(
            f"max_length={max_length!r} leaves no room for a token: it must be an integer of at "
            f"least {minimum} (the tokenizer adds {minimum - 1} special tokens)"
        )


def _tokenize(
    tokenizer: PreTrainedTokenizerBase, texts: list[str]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Token ids with special tokens and the special-token mask of each text, untruncated."""
    if not texts:
        return [], []
    encoded = tokenizer(
        texts,
        add_special_tokens=True,
        return_special_tokens_mask=True,
        return_attention_mask=False,
        return_token_type_ids=False,
        verbose=False,
    )
    ids = [np.asarray(row, dtype=np.int64) for row in encoded["input_ids"]]
    special = [np.asarray(row, dtype=bool) for row in encoded["special_tokens_mask"]]
    return ids, special


def check_pair_texts(pairs: Sequence[Any]) -> list[str]:
    """The sentences of ``pairs`` in order (``a_0, b_0, a_1, ...``), each checked.

    Raises
    ------
    TypeError
        If a pair is not two strings (the message names the pair and side).
    ValueError
        If a sentence is empty or whitespace only: ``"pair 3, sentence b is empty: ''"``.
    """
    texts: list[str] = []
    for index, pair in enumerate(pairs):
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise TypeError(f"pair {index}: expected a (sentence_a, sentence_b) pair, got {pair!r}")
        for side, sentence in zip("ab", pair, strict=True):
            if not isinstance(sentence, str):
                raise TypeError(
                    f"pair {index}, sentence {side}: expected str, got {type(sentence).__name__}"
                )
            if not sentence.strip():
                raise ValueError(f"pair {index}, sentence {side} is empty: {sentence!r}")
            texts.append(sentence)
    return texts


def encode_pairs(
    tokenizer: PreTrainedTokenizerBase,
    pairs: Sequence[tuple[str, str]],
    *,
    max_length: int | None = None,
) -> list[PairSpans]:
    """Tokenize sentence pairs and find their shared and modified tokens.

    Parameters
    ----------
    tokenizer : PreTrainedTokenizerBase
        A fast tokenizer (its ``special_tokens_mask`` tells special tokens apart).
    pairs : Sequence[tuple[str, str]]
        ``(sentence_a, sentence_b)`` per pair, e.g. ``(sent_more, sent_less)``.
    max_length : int, optional
        Token limit per sentence, special tokens included; longer sentences are
        cut as described in the module docstring. ``None``: no limit.

    Returns
    -------
    list[PairSpans]
        One per pair, in input order.

    Raises
    ------
    TypeError
        If a pair is not two strings (the message names the pair and side).
    ValueError
        If a sentence is empty or whitespace only, or has no non-special token
        after tokenization (named by pair and side: ``"pair 3, sentence b is
        empty"``), or ``max_length`` is too small to hold one token.
    """
    _check_max_length(tokenizer, max_length)
    texts = check_pair_texts(pairs)
    ids, special = _tokenize(tokenizer, texts)
    result = []
    for index in range(len(texts) // 2):
        sides = []
        for offset, side in enumerate("ab"):
            if special[2 * index + offset].all():
                raise ValueError(
                    f"pair {index}, sentence {side} has no non-special tokens after "
                    f"tokenization: {texts[2 * index + offset]!r}"
                )
            sides.append((ids[2 * index + offset], special[2 * index + offset]))
        result.append(_align(*sides[0], *sides[1], max_length))
    return result


def pair_spans(
    tokenizer: PreTrainedTokenizerBase,
    sent_a: str,
    sent_b: str,
    *,
    max_length: int | None = None,
) -> PairSpans:
    """Shared and modified tokens of one pair; see :func:`encode_pairs`."""
    return encode_pairs(tokenizer, [(sent_a, sent_b)], max_length=max_length)[0]


def _kept_content(special: np.ndarray, max_length: int | None) -> int:
    """How many non-special tokens survive truncation."""
    n_content = int((~special).sum())
    if max_length is None or len(special) <= max_length:
        return n_content
    return max_length - int(special.sum())


def _align(
    ids_a: np.ndarray,
    special_a: np.ndarray,
    ids_b: np.ndarray,
    special_b: np.ndarray,
    max_length: int | None,
) -> PairSpans:
    content_positions_a = np.flatnonzero(~special_a)
    content_positions_b = np.flatnonzero(~special_b)
    shared_a, shared_b = shared_token_indices(
        ids_a[content_positions_a], ids_b[content_positions_b]
    )
    keep_a = _kept_content(special_a, max_length)
    keep_b = _kept_content(special_b, max_length)
    kept_shared = (shared_a < keep_a) & (shared_b < keep_b)
    n_dropped_shared = int((~kept_shared).sum())
    sides = []
    for ids, special, content_positions, shared, keep in (
        (ids_a, special_a, content_positions_a, shared_a, keep_a),
        (ids_b, special_b, content_positions_b, shared_b, keep_b),
    ):
        content_rank = np.cumsum(~special) - 1  # index among non-special tokens
        kept = special | (content_rank < keep)
        new_position = np.cumsum(kept) - 1  # position after truncation
        # Modified = not shared on the full sentences; a shared token whose partner was cut
        # is neither shared nor modified (it stays in the context, unscored).
        is_shared = np.zeros(len(content_positions), dtype=bool)
        is_shared[shared] = True
        modified = np.flatnonzero(~is_shared)
        sides.append(
            SentenceSpans(
                input_ids=ids[kept],
                shared_positions=new_position[content_positions[shared[kept_shared]]],
                modified_positions=new_position[content_positions[modified[modified < keep]]],
                truncated=bool(not kept.all()),
                n_dropped_modified=int((modified >= keep).sum()),
            )
        )
    return PairSpans(a=sides[0], b=sides[1], n_dropped_shared=n_dropped_shared)
