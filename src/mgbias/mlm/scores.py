"""Per-sentence outputs of the unmasked scoring pass.

Kept free of torch and transformers so that measures and the score cache can
be read without loading a model library.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class SentenceScores:
    """Per-sentence outputs of the unmasked pass, in input order.

    Attributes
    ----------
    token_ids : list[np.ndarray]
        int32, the non-special token ids of each sentence.
    logprobs : list[np.ndarray]
        float32, ``log P(w_i | S)`` at each of those positions (nothing masked).
    attention : list[np.ndarray]
        float32, ``alpha_i``, the attention each of those tokens receives.
    embeddings : np.ndarray
        float32, shape ``(n_sentences, hidden)``: mean last-layer hidden state
        over the non-special tokens.
    n_truncated : int
        Sentences longer than the length limit that were truncated.
    pair_ids : list[str] or None
        For the sentences of a pair benchmark (``sent_more_0, sent_less_0,
        sent_more_1, ...``): the dataset's pair id of each sentence (each id
        twice); ``None`` for sentences that are not pairs.
    """

    token_ids: list[np.ndarray]
    logprobs: list[np.ndarray]
    attention: list[np.ndarray]
    embeddings: np.ndarray
    n_truncated: int
    pair_ids: list[str] | None = None

    def __post_init__(self) -> None:
        n = len(self.token_ids)
        if len(self.logprobs) != n or len(self.attention) != n or self.embeddings.shape[0] != n:
            raise ValueError(
                f"SentenceScores: inconsistent sentence counts: token_ids {n}, logprobs "
                f"{len(self.logprobs)}, attention {len(self.attention)}, embeddings "
                f"{self.embeddings.shape[0]}"
            )
        if self.embeddings.ndim != 2:
            raise ValueError(
                f"SentenceScores: embeddings must be 2-D (n, hidden), got shape "
                f"{self.embeddings.shape}"
            )
        for index, (ids, logprob, alpha) in enumerate(
            zip(self.token_ids, self.logprobs, self.attention, strict=True)
        ):
            if not len(ids) == len(logprob) == len(alpha):
                raise ValueError(
                    f"SentenceScores: sentence {index} has {len(ids)} token ids, "
                    f"{len(logprob)} log-probabilities and {len(alpha)} attention values"
                )

        if self.pair_ids is not None and len(self.pair_ids) != n:
            raise ValueError(f"SentenceScores: {len(self.pair_ids)} pair ids for {n} sentences")

    def __len__(self) -> int:
        return len(self.token_ids)
