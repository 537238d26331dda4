"""The two model passes every pair measure is computed from.

The model runs once unmasked over all sentences (AUL, AULA) and once over the
batched masked copies (CPS, SSS, S_JSD); the workflow caches both and
:func:`mgbias.pairs.scoring.pair_measures` computes every measure from them,
so a change to a measure never runs the model again.
"""

from __future__ import annotations

from collections.abc import Sequence

from mgbias.mlm.masked import score_masked_pairs
from mgbias.mlm.precision import DEFAULT_PRECISION
from mgbias.mlm.spans import check_pair_texts
from mgbias.mlm.unmasked import score_unmasked

__all__ = ["score_pair_passes"]


def score_pair_passes(
    model,
    tokenizer,
    pairs: Sequence[tuple[str, str]],
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
    pair_ids: Sequence[str] | None = None,
    precision: str = DEFAULT_PRECISION,
):
    """The two model passes every pair measure is computed from.

    Returns ``(unmasked, masked)``: a
    :class:`~mgbias.mlm.scores.SentenceScores` over the sentences
    ``sent_more_0, sent_less_0, sent_more_1, ...`` (AUL, AULA) and a
    :class:`~mgbias.mlm.masked_cache.PairScores` with side ``a`` =
    ``sent_more`` (CPS, SSS, S_JSD). Both are written to caches by the
    workflow; :func:`pair_measures` needs nothing else. ``pair_ids`` (the
    dataset's id of each pair) are carried by both, so per-pair results can
    be joined to the data by id. ``precision`` (``fp32``, ``bf16``, ``fp16``) is that
    of both passes' forward calls (:mod:`mgbias.mlm.precision`).
    """
    if pair_ids is not None and len(pair_ids) != len(pairs):
        raise ValueError(f"{len(pair_ids)} pair ids for {len(pairs)} pairs")
    sentences = check_pair_texts(pairs)  # names the pair and side of an empty sentence
    unmasked = score_unmasked(
        model,
        tokenizer,
        sentences,
        batch_size=batch_size,
        max_length=max_length,
        progress=progress,
        precision=precision,
    )
    masked = score_masked_pairs(
        model,
        tokenizer,
        pairs,
        batch_size=batch_size,
        max_length=max_length,
        progress=progress,
        precision=precision,
    )
    if pair_ids is not None:
        ids = [str(pair_id) for pair_id in pair_ids]
        unmasked.pair_ids = [pair_id for pair_id in ids for _ in range(2)]
        masked.pair_ids = ids
    return unmasked, masked
