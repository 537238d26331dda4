"""Settings of an RCSLS run (:mod:`mgbias.embeddings.rcsls`), importable without torch."""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any

from mgbias.seeds import check_seed
from mgbias.settings import schema_settings

__all__ = ["RCSLSConfig"]


@schema_settings("zhao2020.rcsls", what="RCSLS setting(s)")
class RCSLSConfig:
    """Every setting of one RCSLS run; defaults are Zhao et al. (2020)'s.

    Attributes
    ----------
    knn
        Neighbours ``k`` in the loss's CSLS terms (align.py ``--knn``).
    lr
        Learning rate (``--lr``; fastText's example script uses 25).
    niter
        Iterations (``--niter``); ``niter + 1`` gradient steps are taken, as in align.py.
    maxneg
        Negatives: the first ``maxneg`` words of each side (``--maxneg``).
    maxsup
        Training pairs kept, in file order (``--maxsup``; ``<= 0``: all). align.py's default
        is -1; the paper sets 200000, which keeps every pair of a MUSE training split.
    maxload
        Words read from each vector file for training and evaluation (``--maxload``).
    batchsize
        Pairs per step with ``sgd`` (``--batchsize``; align.py's default is 10000).
    sgd
        Mini-batch steps with a constant learning rate (``--sgd``; align.py's default is
        full-batch with learning-rate halving).
    center
        Mean-centre the vectors after normalising (``--center``).
    seed
        Seed of the mini-batch draws.
    device
        ``"auto"`` (CUDA if available), ``"cpu"`` or ``"cuda"``.
    block_elements
        Largest score block (queries x negatives) held at once; bounds memory, not results.
    """

    knn: int = 10
    lr: float = 1.0
    niter: int = 10
    maxneg: int = 200_000
    maxsup: int = 200_000
    maxload: int = 200_000
    batchsize: int = 5000
    sgd: bool = True
    center: bool = False
    seed: int = 0
    device: str = "auto"
    block_elements: int = field(default=1 << 25, compare=False)

    def __post_init__(self) -> None:
        for name, minimum in (
            ("knn", 1),
            ("niter", 0),
            ("maxneg", 1),
            ("batchsize", 1),
            ("block_elements", 1),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise ValueError(
                    f"RCSLSConfig.{name} must be an integer >= {minimum}, got {value!r}"
                )
        for name in ("maxsup", "maxload"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"RCSLSConfig.{name} must be an integer, got {value!r}")
        if not (isinstance(self.lr, int | float) and self.lr > 0):
            raise ValueError(f"RCSLSConfig.lr must be > 0, got {self.lr!r}")
        if self.device not in ("auto", "cpu", "cuda"):
            raise ValueError(f"RCSLSConfig.device must be auto, cpu or cuda, got {self.device!r}")
        check_seed(self.seed)

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return dataclasses.asdict(self)
