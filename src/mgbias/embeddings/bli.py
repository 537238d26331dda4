"""Bilingual lexicon induction (BLI): translate test words by retrieval, score top-1.

Retrieval of the translation of a mapped source vector ``Rx`` among the target words:

- ``nn``: the nearest neighbour by cosine;
- ``csls`` (cross-domain similarity local scaling; Conneau et al. 2018, §2.3, Eq. 6)::

      CSLS(Rx, y) = 2 cos(Rx, y) − r_T(Rx) − r_S(y)

  where ``r_T(Rx)`` is the mean cosine of ``Rx`` to its ``k`` nearest target words and
  ``r_S(y)`` the mean cosine of ``y`` to its ``k`` nearest mapped source words. ``r_T(Rx)``
  does not depend on ``y`` and is left out of the argmax, as in fastText's
  ``compute_csls_accuracy``.

Accuracy follows fastText's ``alignment/eval.py``: both vocabularies are capped at
``maxload`` words and unit-normalised; a source word counts as correct when its top-1
target is one of its gold translations; the denominator is the number of *distinct source
words of the test dictionary*, so a word missing from either vocabulary counts as an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import torch

from mgbias.embeddings.dictionaries import covered_source_words, source_words, translations
from mgbias.embeddings.rcsls import resolve_device
from mgbias.embeddings.vectors import Vectors
from mgbias.stats import proportion_interval

__all__ = ["RETRIEVALS", "BLIResult", "bli_accuracy", "csls_target_penalty", "retrieve"]

RETRIEVALS = ("csls", "nn")
_BLOCK_ELEMENTS = 1 << 25
_NORM_EPS = 1e-8


@dataclass(frozen=True)
class BLIResult:
    """BLI top-1 accuracy on one test dictionary.

    Attributes
    ----------
    accuracy
        ``100 * n_correct / n_source_words`` (percent); :attr:`interval` is its 95%
        confidence interval.
    n_correct
        Source words whose top-1 target is a gold translation.
    n_source_words
        Distinct source words of the test dictionary (the denominator).
    n_covered
        Source words in the source vocabulary with at least one gold translation in the
        target vocabulary (the others cannot be correct).
    retrieval
        ``"csls"`` or ``"nn"``.
    k
        CSLS neighbourhood size.
    maxload
        Vocabulary cap of both sides.
    """

    accuracy: float
    n_correct: int
    n_source_words: int
    n_covered: int
    retrieval: str
    k: int
    maxload: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the accuracy, in percent, over the source words
        (:func:`mgbias.stats.proportion_interval`; NaN without source words)."""
        low, high = proportion_interval(self.n_correct, self.n_source_words)
        return 100.0 * low, 100.0 * high

    def to_dict(self) -> dict:
        """JSON-ready values, with the interval (``ci_low``, ``ci_high``; null without
        source words)."""
        low, high = self.interval
        return {
            **asdict(self),
            "ci_low": None if np.isnan(low) else low,
            "ci_high": None if np.isnan(high) else high,
        }


def _unit(matrix: np.ndarray, device: torch.device) -> torch.Tensor:
    tensor = torch.from_numpy(np.ascontiguousarray(matrix, dtype=np.float32)).to(device)
    return tensor / (tensor.norm(dim=1, keepdim=True) + _NORM_EPS)


def csls_target_penalty(
    tgt: torch.Tensor, src: torch.Tensor, k: int = 10, block_elements: int = _BLOCK_ELEMENTS
) -> torch.Tensor:
    """``r_S(y)`` for every target row: mean cosine to its ``k`` nearest source rows.

    Both inputs are unit rows; ``k`` is capped at the number of source rows.
    """
    k = min(k, src.shape[0])
    rows = max(1, block_elements // max(1, src.shape[0]))
    out = torch.empty(tgt.shape[0], dtype=tgt.dtype, device=tgt.device)
    for start in range(0, tgt.shape[0], rows):
        scores = tgt[start : start + rows] @ src.T
        out[start : start + rows] = torch.topk(scores, k, dim=1, sorted=False).values.mean(dim=1)
    return out


def retrieve(
    queries: torch.Tensor,
    src: torch.Tensor,
    tgt: torch.Tensor,
    retrieval: str = "csls",
    k: int = 10,
) -> torch.Tensor:
    """Index of the top-1 target row for each query row (unit rows throughout).

    ``src`` is the whole (capped) mapped source space, used by CSLS's ``r_S``.
    """
    if retrieval not in RETRIEVALS:
        raise ValueError(f"retrieval must be one of {RETRIEVALS}, got {retrieval!r}")
    penalty = csls_target_penalty(tgt, src, k) if retrieval == "csls" else None
    rows = max(1, _BLOCK_ELEMENTS // max(1, tgt.shape[0]))
    best = []
    for start in range(0, queries.shape[0], rows):
        scores = queries[start : start + rows] @ tgt.T
        if penalty is not None:
            scores = 2 * scores - penalty
        best.append(scores.argmax(dim=1))
    if not best:
        return torch.empty(0, dtype=torch.long, device=tgt.device)
    return torch.cat(best)


def bli_accuracy(
    src: Vectors,
    tgt: Vectors,
    dictionary: Sequence[tuple[str, str]],
    retrieval: str = "csls",
    k: int = 10,
    maxload: int = 200_000,
    center: bool = False,
    device: str = "auto",
) -> BLIResult:
    """Top-1 BLI accuracy (%) of ``src`` (already mapped) against ``tgt``.

    Parameters
    ----------
    src
        Source vectors in the target space (e.g. the output of RCSLS).
    tgt
        Target vectors.
    dictionary
        Test pairs ``(source word, gold target word)``; several lines per source allowed.
    retrieval
        ``"csls"`` (default, the paper's) or ``"nn"``.
    k
        CSLS neighbourhood size.
    maxload
        Words of each vocabulary used (``<= 0``: all).
    center
        Mean-centre both sides after normalising (eval.py ``--center``).
    device
        ``"auto"``, ``"cpu"`` or ``"cuda"``.

    Returns
    -------
    BLIResult
    """
    if retrieval not in RETRIEVALS:
        raise ValueError(f"retrieval must be one of {RETRIEVALS}, got {retrieval!r}")
    words = source_words(dictionary)
    if not words:
        raise ValueError("the test dictionary has no pairs")
    gold = translations(dictionary)
    src_cap = src.head(maxload).normalized(center=center, eps=_NORM_EPS)
    tgt_cap = tgt.head(maxload).normalized(center=center, eps=_NORM_EPS)
    covered = covered_source_words(dictionary, src_cap.index, tgt_cap.index)
    n_correct = 0
    if covered:
        torch_device = resolve_device(device)
        src_t = _unit(src_cap.matrix, torch_device)
        tgt_t = _unit(tgt_cap.matrix, torch_device)
        queries = src_t[[src_cap.index[word] for word in covered]]
        best = retrieve(queries, src_t, tgt_t, retrieval, k).cpu().tolist()
        n_correct = sum(
            tgt_cap.words[target] in gold[word] for word, target in zip(covered, best, strict=True)
        )
    return BLIResult(
        accuracy=100.0 * n_correct / len(words),
        n_correct=n_correct,
        n_source_words=len(words),
        n_covered=len(covered),
        retrieval=retrieval,
        k=k,
        maxload=maxload,
    )
