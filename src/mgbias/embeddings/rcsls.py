"""RCSLS: supervised alignment of two word-vector spaces (Joulin et al. 2018), in torch.

Given dictionary pairs ``(x_i, y_i)`` of unit source and target vectors, RCSLS learns a
linear map ``R`` (no orthogonality constraint) minimising the relaxed CSLS loss (Joulin et
al. 2018, Eq. 5, with the "extended" negatives of §3.1)::

    L(R) = (1/n) Σ_i [ -2 x_iᵀRᵀy_i + (1/k) Σ_{y ∈ N_Y(Rx_i)} x_iᵀRᵀy
                                    + (1/k) Σ_{Rx ∈ N_X(y_i)} xᵀRᵀy_i ]

where ``N_Y(Rx_i)`` are the ``k`` target vectors among the first ``maxneg`` target words
with the largest inner product with ``Rx_i``, and ``N_X(y_i)`` the ``k`` mapped source
vectors among the first ``maxneg`` source words with the largest inner product with
``y_i``. ``R`` starts at the Procrustes solution ``R = UVᵀ`` (``UΣVᵀ = svd(YᵀX)``) and
takes gradient steps ``R ← R − lr ∇L``.

The settings and their semantics follow fastText's ``alignment/align.py``:

- vectors are read capped at ``maxload`` words, unit-normalised, then (``center``)
  mean-centred and normalised again;
- the loop runs ``niter + 1`` steps (align.py's ``for it in range(0, niter + 1)``) and
  stops early once ``lr < 1e-4``;
- ``sgd``: each step uses ``batchsize`` dictionary pairs drawn without replacement
  (align.py draws them unseeded; here from ``seed``) and the learning rate is constant;
- full batch (``sgd=False``): when the loss at the current ``R`` exceeds the loss at the
  previous one, the learning rate is halved and the previous ``R`` restored before the
  next step. align.py means to do the same, but its in-place update aliases ``R`` and the
  saved copy, so there the step is never undone (only ``lr`` is halved);
- ``maxsup``: only the first ``maxsup`` dictionary pairs found in both vocabularies train
  (``<= 0``: all);
- the output maps the *full* source vocabulary (read again with no cap), normalised as
  above, by ``R`` and L2-normalises every row.

Zhao et al. (2020, App. A.1) use align.py's defaults with ``batchsize 5000``, ``sgd`` and
``maxsup = maxneg = 200000``; those are the defaults of :class:`RCSLSConfig`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from mgbias.embeddings.dictionaries import check_coverage
from mgbias.embeddings.rcsls_config import RCSLSConfig
from mgbias.embeddings.vectors import Vectors, unit_rows

__all__ = [
    "AlignmentResult",
    "RCSLSConfig",
    "align",
    "fit_rcsls",
    "map_vectors",
    "procrustes",
    "rcsls_loss",
    "resolve_device",
    "training_pairs",
]

logger = logging.getLogger(__name__)

#: align.py stops once the learning rate falls below this.
MIN_LR = 1e-4
#: align.py's norm offset when it normalises the mapped output.
OUTPUT_EPS = 1e-8
_MAP_BLOCK = 100_000


@dataclass(frozen=True)
class AlignmentResult:
    """A fitted map and what went into it.

    Attributes
    ----------
    R
        ``(d_tgt, d_src)`` float32 map: a source vector ``x`` maps to ``R @ x``.
    losses
        RCSLS loss at each step, before the step's update.
    learning_rates
        Learning rate of each step's update.
    n_pairs
        Dictionary pairs used for training (both words in the capped vocabularies).
    n_pairs_file
        Pairs in the training dictionary.
    config
        The settings.
    """

    R: np.ndarray
    losses: tuple[float, ...]
    learning_rates: tuple[float, ...]
    n_pairs: int
    n_pairs_file: int
    config: RCSLSConfig

    def summary(self) -> dict[str, Any]:
        """JSON-ready description (without ``R``)."""
        return {
            "losses": list(self.losses),
            "learning_rates": list(self.learning_rates),
            "n_pairs": self.n_pairs,
            "n_pairs_file": self.n_pairs_file,
            "config": self.config.to_dict(),
        }


def resolve_device(device: str) -> torch.device:
    """``"auto"`` -> CUDA when available, else CPU; ``"cuda"`` without a GPU is an error."""
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device 'cuda' requested but no CUDA device is available")
    return torch.device(device)


def procrustes(X: torch.Tensor, Y: torch.Tensor) -> torch.Tensor:
    """Orthogonal Procrustes map ``R = UVᵀ`` with ``UΣVᵀ = svd(YᵀX)`` (Schönemann 1966).

    ``R`` minimises ``‖XRᵀ − Y‖_F`` over orthogonal matrices; the SVD runs in float64.
    """
    U, _, Vh = torch.linalg.svd((Y.T.double() @ X.double()), full_matrices=False)
    return (U @ Vh).to(X.dtype)


def _top_k(
    queries: torch.Tensor, keys: torch.Tensor, k: int, block_elements: int
) -> tuple[float, torch.Tensor]:
    """Sum of each query's ``k`` largest inner products with ``keys``, and their indices."""
    rows = max(1, block_elements // max(1, keys.shape[0]))
    total = 0.0
    indices = []
    for start in range(0, queries.shape[0], rows):
        scores = queries[start : start + rows] @ keys.T
        values, index = torch.topk(scores, k, dim=1, sorted=False)
        total += float(values.sum(dtype=torch.float64))
        indices.append(index)
    return total, torch.cat(indices)


def rcsls_loss(
    X: torch.Tensor,
    Y: torch.Tensor,
    Z_src: torch.Tensor,
    Z_tgt: torch.Tensor,
    R: torch.Tensor,
    knn: int,
    block_elements: int = 1 << 25,
) -> tuple[float, torch.Tensor]:
    """RCSLS loss (Joulin et al. 2018, Eq. 5 with extended negatives) and its gradient.

    Parameters
    ----------
    X, Y
        ``(n, d)`` source and target vectors of the dictionary pairs.
    Z_src, Z_tgt
        Negatives: ``(m_s, d)`` source and ``(m_t, d)`` target vectors.
    R
        ``(d, d)`` current map.
    knn
        ``k``.

    Returns
    -------
    (float, torch.Tensor)
        ``L(R)`` and ``∂L/∂R``. The neighbour sets are held fixed when differentiating
        (the loss is piecewise linear in ``R``).
    """
    n = X.shape[0]
    k = min(knn, Z_src.shape[0], Z_tgt.shape[0])
    mapped = X @ R.T
    f_pairs = float((mapped * Y).sum(dtype=torch.float64))
    f_tgt, near_tgt = _top_k(mapped, Z_tgt, k, block_elements)
    f_src, near_src = _top_k(Y, Z_src @ R.T, k, block_elements)
    sum_tgt = Z_tgt[near_tgt].sum(dim=1)  # (n, d): Σ of y over N_Y(Rx_i)
    sum_src = Z_src[near_src].sum(dim=1)  # (n, d): Σ of x over N_X(y_i), unmapped
    loss = (-2.0 * f_pairs + (f_tgt + f_src) / k) / n
    grad = (-2.0 * (Y.T @ X) + (sum_tgt.T @ X + Y.T @ sum_src) / k) / n
    return loss, grad


def training_pairs(
    pairs: Sequence[tuple[str, str]], src: Vectors, tgt: Vectors, maxsup: int = -1
) -> list[tuple[int, int]]:
    """Row indices of the dictionary pairs whose words are both in the vocabularies.

    File order and repeated pairs are kept (as align.py's ``load_pairs``); with
    ``maxsup > 0`` only the first ``maxsup`` found pairs.
    """
    found = [(src.index[a], tgt.index[b]) for a, b in pairs if a in src.index and b in tgt.index]
    if 0 < maxsup < len(found):
        found = found[:maxsup]
    return found


def fit_rcsls(
    X: torch.Tensor,
    Y: torch.Tensor,
    Z_src: torch.Tensor,
    Z_tgt: torch.Tensor,
    config: RCSLSConfig,
) -> tuple[torch.Tensor, list[float], list[float]]:
    """Procrustes start, then ``niter + 1`` RCSLS gradient steps.

    Returns ``R``, the loss at each step (before its update) and each step's learning rate.
    """
    R = procrustes(X, Y)
    rng = np.random.default_rng(config.seed)
    n = X.shape[0]
    lr = float(config.lr)
    losses: list[float] = []
    rates: list[float] = []
    previous: tuple[torch.Tensor, float, torch.Tensor] | None = None
    for step in range(config.niter + 1):
        if lr < MIN_LR:
            break
        if config.sgd:
            batch = rng.choice(n, size=min(config.batchsize, n), replace=False)
            index = torch.as_tensor(np.sort(batch), device=X.device)
            loss, grad = rcsls_loss(
                X[index], Y[index], Z_src, Z_tgt, R, config.knn, config.block_elements
            )
        else:
            loss, grad = rcsls_loss(X, Y, Z_src, Z_tgt, R, config.knn, config.block_elements)
            if previous is not None and loss > previous[1]:
                lr /= 2
                R, loss, grad = previous
            previous = (R, loss, grad)
        losses.append(loss)
        rates.append(lr)
        logger.info("RCSLS step %d: loss %.6f (lr %g)", step, loss, lr)
        R = R - lr * grad
    return R, losses, rates


def align(
    src: Vectors,
    tgt: Vectors,
    dictionary: Sequence[tuple[str, str]],
    config: RCSLSConfig | None = None,
    dictionary_source: str = "the training dictionary",
) -> AlignmentResult:
    """Fit RCSLS from ``src`` to ``tgt`` on the training dictionary (align.py's main).

    Parameters
    ----------
    src, tgt
        Vectors as read (any number of words; capped here at ``config.maxload``, then
        normalised as in :meth:`Vectors.normalized` with ``config.center``).
    dictionary
        Training pairs ``(source word, target word)``.
    config
        Settings (default: Zhao et al. 2020's).
    dictionary_source
        The dictionary's file, for the message of a dictionary that does not fit.

    Returns
    -------
    AlignmentResult

    Raises
    ------
    ValueError
        Spaces of different dimension.
    InputError
        Fewer than :data:`~mgbias.embeddings.dictionaries.MIN_COVERAGE` of the
        dictionary's pairs have both words in the first ``maxload`` words (before
        ``maxsup``): the dictionary does not fit the vectors (other languages, or the
        files swapped), and a map fitted on the few shared strings would be written as
        an alignment.
    """
    config = config or RCSLSConfig()
    if src.dim != tgt.dim:
        raise ValueError(
            f"{src.source} has dimension {src.dim} but {tgt.source} has {tgt.dim}; RCSLS maps "
            "spaces of equal dimension"
        )
    src_cap = src.head(config.maxload).normalized(center=config.center, eps=OUTPUT_EPS)
    tgt_cap = tgt.head(config.maxload).normalized(center=config.center, eps=OUTPUT_EPS)
    pairs = training_pairs(dictionary, src_cap, tgt_cap)
    check_coverage(
        len(pairs),
        len(dictionary),
        "training pairs",
        f"{dictionary_source} on {src.source} -> {tgt.source}",
        config.maxload,
    )
    if 0 < config.maxsup < len(pairs):
        pairs = pairs[: config.maxsup]
    device = resolve_device(config.device)
    rows_src = np.array([i for i, _ in pairs])
    rows_tgt = np.array([j for _, j in pairs])
    X = torch.from_numpy(src_cap.matrix[rows_src]).to(device)
    Y = torch.from_numpy(tgt_cap.matrix[rows_tgt]).to(device)
    Z_src = torch.from_numpy(src_cap.matrix[: config.maxneg]).to(device)
    Z_tgt = torch.from_numpy(tgt_cap.matrix[: config.maxneg]).to(device)
    logger.info(
        "RCSLS %s -> %s: %d of %d dictionary pairs found, %d x %d negatives, device %s",
        src.source,
        tgt.source,
        len(pairs),
        len(dictionary),
        Z_src.shape[0],
        Z_tgt.shape[0],
        device,
    )
    R, losses, rates = fit_rcsls(X, Y, Z_src, Z_tgt, config)
    return AlignmentResult(
        R=R.cpu().numpy().astype(np.float32),
        losses=tuple(losses),
        learning_rates=tuple(rates),
        n_pairs=len(pairs),
        n_pairs_file=len(dictionary),
        config=config,
    )


def map_vectors(src: Vectors, R: np.ndarray, center: bool = False) -> Vectors:
    """The source vectors normalised (and centred), mapped by ``R``, rows L2-normalised.

    This is align.py's output: pass the *full* source vocabulary (read with no cap).
    """
    R32 = np.asarray(R, dtype=np.float32)
    out = np.empty((len(src), R32.shape[0]), dtype=np.float32)
    mean = None
    if center:
        mean = np.zeros(src.dim)
        for start in range(0, len(src), _MAP_BLOCK):
            mean += unit_rows(src.matrix[start : start + _MAP_BLOCK], OUTPUT_EPS).sum(axis=0)
        mean = (mean / max(1, len(src))).astype(np.float32)
    for start in range(0, len(src), _MAP_BLOCK):
        block = unit_rows(src.matrix[start : start + _MAP_BLOCK], OUTPUT_EPS)
        if mean is not None:
            block = unit_rows(block - mean, OUTPUT_EPS)
        out[start : start + len(block)] = unit_rows(block @ R32.T, OUTPUT_EPS)
    return src.with_matrix(out)
