"""Parquet cache of the unmasked scoring pass: one row per sentence.

Columns: ``sentence_index`` (int64), ``token_ids`` (list<int32>), ``logprob``,
``attention`` and ``embedding`` (list<float32>), and for the sentences of a
pair benchmark ``pair_id`` (string, the dataset's id of each sentence's
pair). The file's schema metadata
holds a JSON object under the key ``b"mgbias"``: whatever the caller passed
(model id, revision, input sha256, ...) plus ``n_truncated``, ``n_sentences``,
``hidden_size``, ``cache_format`` and ``mgbias_version``. Values round-trip
exactly (float32 is stored as float32).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from mgbias.mlm.cache_io import (
    METADATA_KEY,
    installed_mgbias_version,
    list_column,
    split_list_column,
    write_parquet_with_metadata,
)
from mgbias.mlm.scores import SentenceScores

CACHE_FORMAT = 1
COLUMNS = ("sentence_index", "token_ids", "logprob", "attention", "embedding")


def sentences_sha256(sentences: Sequence[str]) -> str:
    """SHA-256 identifying an ordered list of sentences.

    Each sentence is hashed as its UTF-8 length (8 bytes, little-endian)
    followed by its UTF-8 bytes, so no choice of separator can make two
    different lists collide.
    """
    digest = hashlib.sha256()
    for sentence in sentences:
        data = sentence.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def write_score_cache(scores: SentenceScores, path: Path, metadata: dict) -> None:
    """Write scores to a parquet file atomically (temporary file, then rename).

    Parameters
    ----------
    scores : SentenceScores
        Output of :func:`mgbias.mlm.unmasked.score_unmasked`.
    path : Path
        Destination ``.parquet`` file; parent directories are created.
    metadata : dict
        JSON-serialisable provenance (model id, revision, input sha256, ...).
        The keys ``n_truncated``, ``n_sentences``, ``hidden_size``,
        ``cache_format`` and ``mgbias_version`` are set from the scores.
    """
    path = Path(path)
    n_sentences = len(scores)
    stored = {
        **metadata,
        "n_truncated": int(scores.n_truncated),
        "n_sentences": n_sentences,
        "hidden_size": int(scores.embeddings.shape[1]),
        "cache_format": CACHE_FORMAT,
        "mgbias_version": installed_mgbias_version(),
    }
    table = pa.table(
        {
            "sentence_index": pa.array(np.arange(n_sentences, dtype=np.int64)),
            "token_ids": list_column(scores.token_ids, pa.int32()),
            "logprob": list_column(scores.logprobs, pa.float32()),
            "attention": list_column(scores.attention, pa.float32()),
            "embedding": list_column(list(scores.embeddings), pa.float32()),
        }
    )
    if scores.pair_ids is not None:
        table = table.append_column("pair_id", pa.array(list(scores.pair_ids), pa.string()))
    write_parquet_with_metadata(table, path, stored, "score cache")


def read_score_cache(path: Path) -> tuple[SentenceScores, dict]:
    """Read a cache written by :func:`write_score_cache`.

    Returns
    -------
    tuple[SentenceScores, dict]
        The scores (``n_truncated`` from the metadata) and the stored metadata.

    Raises
    ------
    ValueError
        If the file lacks the mgbias metadata or a column, or its rows are not
        sentences ``0 .. n-1`` in order.
    """
    path = Path(path)
    table = pq.read_table(path)
    schema_metadata = table.schema.metadata or {}
    if METADATA_KEY not in schema_metadata:
        raise ValueError(f"{path}: not an mgbias score cache (no {METADATA_KEY!r} metadata)")
    stored = json.loads(schema_metadata[METADATA_KEY].decode("utf-8"))
    missing = [name for name in COLUMNS if name not in table.column_names]
    if missing:
        raise ValueError(f"{path}: score cache is missing column(s) {missing}")
    n_sentences = table.num_rows
    sentence_index = table.column("sentence_index").to_numpy()
    if not np.array_equal(sentence_index, np.arange(n_sentences)):
        raise ValueError(f"{path}: sentence_index must be 0..{n_sentences - 1} in order")

    hidden_size = int(stored.get("hidden_size", 0))
    flat_embedding = (
        table.column("embedding").combine_chunks().flatten().to_numpy(zero_copy_only=False)
    )
    if flat_embedding.size != n_sentences * hidden_size:
        raise ValueError(
            f"{path}: embedding column holds {flat_embedding.size} values, expected "
            f"{n_sentences} sentences x hidden_size {hidden_size}"
        )
    scores = SentenceScores(
        token_ids=split_list_column(table, "token_ids", np.int32),
        logprobs=split_list_column(table, "logprob", np.float32),
        attention=split_list_column(table, "attention", np.float32),
        embeddings=flat_embedding.astype(np.float32, copy=False).reshape(n_sentences, hidden_size),
        n_truncated=int(stored.get("n_truncated", 0)),
        pair_ids=read_pair_ids(table),
    )
    return scores, stored


def read_pair_ids(table: pa.Table) -> list[str] | None:
    """The ``pair_id`` column of a cache table as strings, or None if it has none."""
    if "pair_id" not in table.column_names:
        return None
    return [str(value) for value in table.column("pair_id").to_pylist()]
