"""The word-vector cache: one safetensors file per (model, sentence set, targets).

Tensors: ``vectors`` ``(n, n_layers, d)`` (float32 or float16), ``layers`` (int64 hidden
state indices), ``sentence_index``, ``word_index``, ``n_pieces`` (int64) and ``found``
(bool). The header's metadata holds one JSON object under ``"mgbias"``: the *key* the
vectors were made with (model id, revision, input hash, layers, pooling, dtype,
max_length, the forward pass's precision where it is not ``fp32``, :data:`CACHE_FORMAT`)
and the number of hidden states. safetensors writes
tensors in a fixed order with no timestamp, so equal vectors give equal bytes.

:func:`cached_word_vectors` reads the file when its key matches and calls the model only
otherwise: every experiment reads vectors, never a model.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from safetensors import SafetensorError
from safetensors.numpy import load_file, save

from mgbias.contextual.vectors import WordVectors
from mgbias.files.atomic import write_bytes
from mgbias.mlm.unmasked_cache import sentences_sha256

__all__ = [
    "CACHE_FORMAT",
    "cache_key",
    "cached_word_vectors",
    "input_sha256",
    "read_word_vectors",
    "write_word_vectors",
]

log = logging.getLogger(__name__)

CACHE_FORMAT = 1
METADATA_KEY = "mgbias"
_TENSORS = ("vectors", "layers", "sentence_index", "word_index", "n_pieces", "found")


def input_sha256(sentences: Sequence[str], targets: np.ndarray) -> str:
    """SHA-256 of the sentences (:func:`~mgbias.mlm.unmasked_cache.sentences_sha256`)
    followed by the targets as little-endian int64 ``(sentence, word)`` rows."""
    digest = hashlib.sha256(sentences_sha256(sentences).encode("ascii"))
    digest.update(np.ascontiguousarray(targets, dtype="<i8").tobytes())
    return digest.hexdigest()


def cache_key(
    *,
    model_id: str,
    revision: str | None,
    sentences: Sequence[str],
    targets: np.ndarray,
    layers: Sequence[str],
    pooling: str,
    dtype: str,
    max_length: int | None,
    precision: str = "fp32",
) -> dict:
    """What identifies a cache: a vector file is reused only when every entry is equal.

    ``precision`` (of the forward pass, :mod:`mgbias.mlm.precision`) is an entry only
    where it is not ``fp32``: a cache written before the option existed, in full
    precision, keeps its key and its bytes."""
    key = {
        "cache_format": CACHE_FORMAT,
        "model_id": str(model_id),
        "revision": revision,
        "input_sha256": input_sha256(sentences, targets),
        "n_sentences": len(sentences),
        "n_targets": int(len(targets)),
        "layers": [str(layer) for layer in layers],
        "pooling": pooling,
        "dtype": dtype,
        "max_length": max_length,
    }
    if precision != "fp32":
        key["precision"] = precision
    return key


def write_word_vectors(vectors: WordVectors, path: str | Path, key: dict) -> None:
    """Write ``vectors`` with ``key`` (and ``vectors.metadata``) atomically to ``path``."""
    tensors = {
        "vectors": np.ascontiguousarray(vectors.vectors),
        "layers": np.asarray(vectors.layers, dtype=np.int64),
        "sentence_index": np.ascontiguousarray(vectors.sentence_index, dtype=np.int64),
        "word_index": np.ascontiguousarray(vectors.word_index, dtype=np.int64),
        "n_pieces": np.ascontiguousarray(vectors.n_pieces, dtype=np.int64),
        "found": np.ascontiguousarray(vectors.found, dtype=bool),
    }
    stored = {**vectors.metadata, "key": key, "n_hidden_states": vectors.n_hidden_states}
    text = json.dumps(stored, sort_keys=True)
    write_bytes(path, save(tensors, metadata={METADATA_KEY: text}))


def _read_metadata(path: Path) -> dict:
    from safetensors import safe_open

    with safe_open(str(path), framework="numpy") as handle:
        header = handle.metadata() or {}
    if METADATA_KEY not in header:
        raise ValueError(f"{path}: not an mgbias word-vector cache (no {METADATA_KEY!r} metadata)")
    return json.loads(header[METADATA_KEY])


def read_word_vectors(path: str | Path) -> WordVectors:
    """Read a cache written by :func:`write_word_vectors`.

    Raises
    ------
    ValueError
        Not a safetensors file, no mgbias metadata, a tensor missing or of the wrong shape.
    """
    path = Path(path)
    try:
        stored = _read_metadata(path)
        tensors = load_file(str(path))
    except SafetensorError as error:
        raise ValueError(f"{path}: not a safetensors file: {error}") from None
    missing = [name for name in _TENSORS if name not in tensors]
    if missing:
        raise ValueError(f"{path}: word-vector cache is missing tensor(s) {missing}")
    vectors = tensors["vectors"]
    n = len(tensors["sentence_index"])
    if vectors.ndim != 3 or vectors.shape[:2] != (n, len(tensors["layers"])):
        raise ValueError(
            f"{path}: vectors of shape {vectors.shape}; expected ({n}, "
            f"{len(tensors['layers'])}, hidden)"
        )
    metadata = {k: v for k, v in stored.items() if k != "n_hidden_states"}
    return WordVectors(
        vectors=vectors,
        layers=tuple(int(layer) for layer in tensors["layers"]),
        n_hidden_states=int(stored["n_hidden_states"]),
        sentence_index=tensors["sentence_index"],
        word_index=tensors["word_index"],
        found=tensors["found"],
        n_pieces=tensors["n_pieces"],
        metadata=metadata,
    )


def cached_word_vectors(
    path: str | Path, key: dict, compute: Callable[[], WordVectors]
) -> tuple[WordVectors, bool]:
    """The vectors at ``path`` if its key equals ``key``; else ``compute()``, written there.

    Returns
    -------
    tuple[WordVectors, bool]
        The vectors and whether they came from the cache (``compute`` was not called).
    """
    path = Path(path)
    if path.is_file():
        try:
            stored_key = _read_metadata(path).get("key")
        except (ValueError, SafetensorError, OSError) as error:
            log.warning("%s: unreadable cache (%s); recomputing", path, error)
            stored_key = None
        if stored_key == key:
            log.info("%s: cache hit (%s, %s)", path, key.get("model_id"), key.get("revision"))
            return read_word_vectors(path), True
        if stored_key is not None:
            keys = set(key) | set(stored_key)
            changed = sorted(k for k in keys if key.get(k) != stored_key.get(k))
            log.info("%s: cache key differs in %s; recomputing", path, changed)
    vectors = compute()
    write_word_vectors(vectors, path, key)
    return read_word_vectors(path), False
