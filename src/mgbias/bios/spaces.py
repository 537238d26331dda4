"""The token features of a classifier run (Zhao et al. 2020, §4.1, §4.3): a static space (a
``.vec`` file) or a frozen encoder's hidden states (Tables 10 and 11).

- :class:`VectorSpace`: the frozen fixed-size embedding of a ``.vec`` file; per run the
  vocabulary is fit on the unscrubbed training bios, the rows of its words read with
  :func:`mgbias.embeddings.vectors.read_vec` (``words=``), scaled by :func:`unit_rows`
  when ``normalize`` (off as the authors: for barely trained demo vectors, whose tiny
  rows leave "er" and "sie" indistinguishable).
- :class:`EncoderSpace`: a :class:`mgbias.bios.encoder.FrozenEncoder`.
- :class:`TokenFeatures`: what a space gives a run (the frozen table and the inputs).
- :func:`as_space`: a space of a ``.vec`` path, a frozen encoder or a space;
  :func:`load_space`: a rule's space, of its ``encoder`` params or its vectors input.

The torch modules (:mod:`mgbias.bios.classifier`, :mod:`mgbias.bios.encoder`) are
imported where used, so importing this module (and :mod:`mgbias.bios.experiment`, which
the workflow's planner reads) does not import torch. Neither imports this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mgbias.embeddings.vectors import read_vec, read_vec_header
from mgbias.seeds import derive_seed

if TYPE_CHECKING:
    from mgbias.bios.experiment import ClassifierSettings

__all__ = [
    "EncoderSpace",
    "TokenFeatures",
    "VectorSpace",
    "as_space",
    "load_space",
    "unit_rows",
]


def unit_rows(vectors: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each vector scaled to unit length (a zero vector stays zero)."""
    out = {}
    for word, vector in vectors.items():
        norm = float(np.linalg.norm(vector))
        out[word] = vector / norm if norm > 0 else vector
    return out


@dataclass
class TokenFeatures:
    """What a run's classifier reads tokens with: ``table`` (the frozen embedding matrix,
    or a :class:`mgbias.bios.encoder.FrozenEncoder`), ``inputs`` (texts -> the model's
    input arrays) and ``info`` (recorded with the training)."""

    table: object
    inputs: Callable[[Sequence[str]], object]
    info: dict


class VectorSpace:
    """A static space: the ``.vec`` file of the frozen embedding matrix (Tables 6-9,
    14-18). Per run, the vocabulary is fit on the unscrubbed training bios (for either
    text, as the authors did) and the matrix built of its words' vectors (the first row
    of a word; undecodable bytes replaced)."""

    def __init__(self, path: str | Path):
        self.path = path

    def __str__(self) -> str:
        return str(self.path)

    @property
    def dim(self) -> int:
        return read_vec_header(self.path)[1]

    def features(
        self, train: Sequence[dict], settings: ClassifierSettings, seed: int, key=None
    ) -> TokenFeatures:
        from mgbias.bios.classifier import embedding_matrix, encode, fit_vocabulary

        vocabulary = fit_vocabulary(
            [r["raw"] for r in train], min_df=settings.min_df, max_df=settings.max_df
        )
        found = read_vec(self.path, errors="replace", duplicates="first", words=vocabulary)
        vectors = dict(zip(found.words, found.matrix, strict=True))
        if settings.normalize:
            vectors = unit_rows(vectors)
        row_seed = (
            derive_seed(seed, "embedding") if key is None else derive_seed(seed, "embedding", key)
        )
        matrix = embedding_matrix(
            vocabulary, vectors, rows=settings.rows, dim=found.dim, seed=row_seed
        )
        return TokenFeatures(
            matrix,
            lambda texts: encode(texts, vocabulary, settings.max_len),
            {"vocabulary": len(vocabulary), "with_vector": len(vectors)},
        )


class EncoderSpace:
    """A frozen encoder's hidden states as the token features (Tables 10 and 11)."""

    def __init__(self, encoder):
        self.encoder = encoder

    def __str__(self) -> str:
        return f"encoder {self.encoder.name}"

    @property
    def dim(self) -> int:
        return self.encoder.dim

    def features(
        self, train: Sequence[dict], settings: ClassifierSettings, seed: int, key=None
    ) -> TokenFeatures:
        encoder = self.encoder
        info = {"encoder": encoder.name, "revision": encoder.revision}
        info.update(max_pieces=encoder.max_pieces, max_len=encoder.max_len)
        info.update(cache_mb=encoder.cache_mb)
        if encoder.disk_cache:  # recorded when on: the records of runs without it unchanged
            info.update(disk_cache=True)
        return TokenFeatures(encoder, encoder.inputs, info)


def as_space(space) -> VectorSpace | EncoderSpace:
    """A space given as a ``.vec`` path, a frozen encoder, or a space."""
    if isinstance(space, VectorSpace | EncoderSpace):
        return space
    from mgbias.bios.encoder import FrozenEncoder

    if isinstance(space, FrozenEncoder):
        return EncoderSpace(space)
    return VectorSpace(space)


def load_space(encoder: Mapping | None, inputs, vectors_key: str, device: str | None = None):
    """A rule's space: the frozen encoder of its ``encoder`` params (settings, ``source``,
    ``revision``), else the ``.vec`` file ``inputs[vectors_key]``."""
    if not encoder:
        return VectorSpace(getattr(inputs, vectors_key))
    from mgbias.bios.encoder import EncoderSettings, FrozenEncoder

    encoder = dict(encoder)
    source, revision = encoder.pop("source"), encoder.pop("revision", None)
    encoder.pop("occupations", None)
    settings = EncoderSettings(**encoder)
    return EncoderSpace(FrozenEncoder.load(source, settings, revision=revision, device=device))
