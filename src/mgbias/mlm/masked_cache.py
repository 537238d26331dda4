"""Masked scores of a pair data set and their parquet cache: one row per pair.

:class:`PairScores` holds, for both sentences of every pair, what CPS, S_JSD
and SSS consume (see :func:`mgbias.mlm.masked.score_masked_pairs`):

- ``shared_logprobs``: ``log P(u_i | rest)`` of each shared token, that token
  alone masked (CPS, Nangia et al. 2020, §3; S_JSD, Steinborn et al. 2022);
- ``modified_logprobs``: ``log P(w_i | U)`` of each modified token, all
  modified tokens masked at once, each scored on its own gold token (SSS, the
  diagonal; Kaneko et al. 2022, App. A);
- ``modified_matrices``: the ``k x k`` matrix ``L[i, j] = log P(w_j at i | U)``
  of that same pass, for reproducing code that averages it.

Parquet columns, for ``side`` in ``a`` and ``b``: ``{side}_token_ids``,
``{side}_shared_positions``, ``{side}_modified_positions`` (list<int32>),
``{side}_shared_logprob``, ``{side}_modified_logprob``, ``{side}_modified_matrix``
(list<float32>, the matrix row-major), ``{side}_truncated`` (bool),
``{side}_n_dropped_modified`` (int32); plus ``pair_index`` (int64),
``n_dropped_shared`` (int32) and, when the pairs come from a benchmark with
ids, ``pair_id`` (string). The schema metadata holds a JSON object under
``b"mgbias"``: the caller's provenance (``model_id``, ``revision`` and
``input_sha256`` are required) plus ``n_pairs``, ``n_truncated_pairs``,
``n_dropped_shared``, ``max_length``, ``cache_kind``, ``cache_format`` and
``mgbias_version``. Values round-trip exactly.

Kept free of torch and transformers, so measures can read a cache without
loading a model library.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
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
from mgbias.mlm.unmasked_cache import read_pair_ids, sentences_sha256

__all__ = [
    "PairScores",
    "SideScores",
    "pairs_sha256",
    "read_pair_cache",
    "write_pair_cache",
]

CACHE_KIND = "masked_pairs"
CACHE_FORMAT = 1
REQUIRED_METADATA = ("model_id", "revision", "input_sha256")
SIDES = ("a", "b")


@dataclass
class SideScores:
    """One side (``a`` or ``b``) of every pair, in pair order.

    Attributes
    ----------
    token_ids : list[np.ndarray]
        int32, the ids the model saw, special tokens included (after truncation).
    shared_positions, modified_positions : list[np.ndarray]
        int32 indices into ``token_ids`` (see :mod:`mgbias.mlm.spans`).
    shared_logprobs : list[np.ndarray]
        float32, one per shared position: its gold token, it alone masked.
    modified_logprobs : list[np.ndarray]
        float32, one per modified position: its gold token, all modified
        positions masked together (the diagonal of ``modified_matrices``).
    modified_matrices : list[np.ndarray]
        float32 ``(k, k)``: ``[i, j]`` = log-probability of the ``j``-th
        modified gold token at the ``i``-th modified position, same pass.
    truncated : np.ndarray
        bool per pair, True if this sentence was cut to the length limit.
    n_dropped_modified : np.ndarray
        int32 per pair, modified tokens of this sentence lost to truncation.
    """

    token_ids: list[np.ndarray]
    shared_positions: list[np.ndarray]
    shared_logprobs: list[np.ndarray]
    modified_positions: list[np.ndarray]
    modified_logprobs: list[np.ndarray]
    modified_matrices: list[np.ndarray]
    truncated: np.ndarray
    n_dropped_modified: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.token_ids)
        for name in (
            "shared_positions",
            "shared_logprobs",
            "modified_positions",
            "modified_logprobs",
            "modified_matrices",
            "truncated",
            "n_dropped_modified",
        ):
            if len(getattr(self, name)) != n:
                raise ValueError(
                    f"SideScores: {name} holds {len(getattr(self, name))} entries, "
                    f"token_ids holds {n}"
                )
        for index in range(n):
            n_shared = len(self.shared_positions[index])
            n_modified = len(self.modified_positions[index])
            if len(self.shared_logprobs[index]) != n_shared:
                raise ValueError(
                    f"SideScores: pair {index} has {n_shared} shared positions but "
                    f"{len(self.shared_logprobs[index])} shared log-probabilities"
                )
            if len(self.modified_logprobs[index]) != n_modified or self.modified_matrices[
                index
            ].shape != (n_modified, n_modified):
                raise ValueError(
                    f"SideScores: pair {index} has {n_modified} modified positions but "
                    f"{len(self.modified_logprobs[index])} modified log-probabilities and a "
                    f"matrix of shape {self.modified_matrices[index].shape}"
                )

    def __len__(self) -> int:
        return len(self.token_ids)

    @property
    def shared_ids(self) -> list[np.ndarray]:
        """Gold token ids of the shared tokens, per pair."""
        return [ids[pos] for ids, pos in zip(self.token_ids, self.shared_positions, strict=True)]

    @property
    def modified_ids(self) -> list[np.ndarray]:
        """Gold token ids of the modified tokens, per pair."""
        return [ids[pos] for ids, pos in zip(self.token_ids, self.modified_positions, strict=True)]


@dataclass
class PairScores:
    """Masked scores of both sentences of every pair.

    Attributes
    ----------
    a, b : SideScores
        First and second sentence of each pair, as given (e.g. ``sent_more``
        and ``sent_less``). ``a.shared_logprobs[k][i]`` and
        ``b.shared_logprobs[k][i]`` belong to the same shared token.
    n_dropped_shared : np.ndarray
        int32 per pair: shared tokens removed from both sides by truncation.
    max_length : int
        The token limit that applied (special tokens included).
    pair_ids : list[str] or None
        The dataset's id of each pair, if known.
    """

    a: SideScores
    b: SideScores
    n_dropped_shared: np.ndarray
    max_length: int
    pair_ids: list[str] | None = None

    def __post_init__(self) -> None:
        if not len(self.a) == len(self.b) == len(self.n_dropped_shared):
            raise ValueError(
                f"PairScores: side a holds {len(self.a)} pairs, side b {len(self.b)}, "
                f"n_dropped_shared {len(self.n_dropped_shared)}"
            )
        if self.pair_ids is not None and len(self.pair_ids) != len(self.a):
            raise ValueError(f"PairScores: {len(self.pair_ids)} pair ids for {len(self.a)} pairs")
        for index, (first, second) in enumerate(
            zip(self.a.shared_ids, self.b.shared_ids, strict=True)
        ):
            if not np.array_equal(first, second):
                raise ValueError(
                    f"PairScores: pair {index}: the shared tokens of side a ({first.tolist()}) "
                    f"differ from those of side b ({second.tolist()})"
                )

    def __len__(self) -> int:
        return len(self.a)

    @property
    def n_truncated_pairs(self) -> int:
        """Pairs in which at least one sentence was cut to the length limit."""
        return int((self.a.truncated | self.b.truncated).sum())


def pairs_sha256(pairs: Sequence[tuple[str, str]]) -> str:
    """SHA-256 of an ordered list of pairs: :func:`~mgbias.mlm.unmasked_cache.sentences_sha256` of
    ``a_0, b_0, a_1, b_1, ...``."""
    return sentences_sha256([sentence for pair in pairs for sentence in pair])


def _matrix_column(matrices: Sequence[np.ndarray]) -> pa.ListArray:
    return list_column([matrix.reshape(-1) for matrix in matrices], pa.float32())


def write_pair_cache(scores: PairScores, path: Path, metadata: dict) -> None:
    """Write masked pair scores to a parquet file atomically.

    Parameters
    ----------
    scores : PairScores
        Output of :func:`mgbias.mlm.masked.score_masked_pairs`.
    path : Path
        Destination ``.parquet`` file; parent directories are created.
    metadata : dict
        JSON-serialisable provenance; must hold ``model_id``, ``revision``
        (may be None) and ``input_sha256`` (e.g. :func:`pairs_sha256`). The
        counts, ``max_length``, ``cache_kind``, ``cache_format`` and
        ``mgbias_version`` are set from the scores.

    Raises
    ------
    ValueError
        If a required metadata key is missing.
    TypeError
        If the metadata is not JSON-serialisable.
    """
    path = Path(path)
    missing = [key for key in REQUIRED_METADATA if key not in metadata]
    if missing:
        raise ValueError(f"masked pair cache {path}: metadata is missing key(s) {missing}")
    n_pairs = len(scores)
    stored = {
        **metadata,
        "n_pairs": n_pairs,
        "n_truncated_pairs": scores.n_truncated_pairs,
        "n_dropped_shared": int(np.sum(scores.n_dropped_shared)),
        "max_length": int(scores.max_length),
        "cache_kind": CACHE_KIND,
        "cache_format": CACHE_FORMAT,
        "mgbias_version": installed_mgbias_version(),
    }
    columns: dict[str, pa.Array] = {
        "pair_index": pa.array(np.arange(n_pairs, dtype=np.int64)),
        "n_dropped_shared": pa.array(np.asarray(scores.n_dropped_shared, dtype=np.int32)),
    }
    for name, side in zip(SIDES, (scores.a, scores.b), strict=True):
        columns[f"{name}_token_ids"] = list_column(side.token_ids, pa.int32())
        columns[f"{name}_shared_positions"] = list_column(side.shared_positions, pa.int32())
        columns[f"{name}_shared_logprob"] = list_column(side.shared_logprobs, pa.float32())
        columns[f"{name}_modified_positions"] = list_column(side.modified_positions, pa.int32())
        columns[f"{name}_modified_logprob"] = list_column(side.modified_logprobs, pa.float32())
        columns[f"{name}_modified_matrix"] = _matrix_column(side.modified_matrices)
        columns[f"{name}_truncated"] = pa.array(np.asarray(side.truncated, dtype=bool))
        columns[f"{name}_n_dropped_modified"] = pa.array(
            np.asarray(side.n_dropped_modified, dtype=np.int32)
        )
    if scores.pair_ids is not None:
        columns["pair_id"] = pa.array(list(scores.pair_ids), pa.string())
    write_parquet_with_metadata(pa.table(columns), path, stored, "masked pair cache")


def _column_names() -> list[str]:
    names = ["pair_index", "n_dropped_shared"]
    for side in SIDES:
        names += [
            f"{side}_{suffix}"
            for suffix in (
                "token_ids",
                "shared_positions",
                "shared_logprob",
                "modified_positions",
                "modified_logprob",
                "modified_matrix",
                "truncated",
                "n_dropped_modified",
            )
        ]
    return names


def read_pair_cache(path: Path, *, expected_sha256: str | None = None) -> tuple[PairScores, dict]:
    """Read a cache written by :func:`write_pair_cache`.

    Parameters
    ----------
    path : Path
        The parquet file.
    expected_sha256 : str, optional
        If given, the stored ``input_sha256`` must equal it (the cache was
        computed on these pairs).

    Returns
    -------
    tuple[PairScores, dict]
        The scores and the stored metadata.

    Raises
    ------
    ValueError
        If the file is not a masked pair cache, lacks a column, its rows are
        not pairs ``0 .. n-1`` in order, or its input hash differs from
        ``expected_sha256``.
    """
    path = Path(path)
    table = pq.read_table(path)
    schema_metadata = table.schema.metadata or {}
    if METADATA_KEY not in schema_metadata:
        raise ValueError(f"{path}: not an mgbias cache (no {METADATA_KEY!r} metadata)")
    stored = json.loads(schema_metadata[METADATA_KEY].decode("utf-8"))
    if stored.get("cache_kind") != CACHE_KIND:
        raise ValueError(
            f"{path}: cache_kind is {stored.get('cache_kind')!r}, expected {CACHE_KIND!r}"
        )
    if expected_sha256 is not None and stored.get("input_sha256") != expected_sha256:
        raise ValueError(
            f"{path}: input_sha256 {stored.get('input_sha256')} does not match the pairs "
            f"given ({expected_sha256}); the cache was computed on other input"
        )
    missing = [name for name in _column_names() if name not in table.column_names]
    if missing:
        raise ValueError(f"{path}: masked pair cache is missing column(s) {missing}")
    n_pairs = table.num_rows
    if not np.array_equal(table.column("pair_index").to_numpy(), np.arange(n_pairs)):
        raise ValueError(f"{path}: pair_index must be 0..{n_pairs - 1} in order")

    sides = []
    for side in SIDES:
        modified_logprobs = split_list_column(table, f"{side}_modified_logprob", np.float32)
        flat_matrices = split_list_column(table, f"{side}_modified_matrix", np.float32)
        matrices = []
        for index, (diagonal, flat) in enumerate(
            zip(modified_logprobs, flat_matrices, strict=True)
        ):
            k = len(diagonal)
            if flat.size != k * k:
                raise ValueError(
                    f"{path}: pair {index}, side {side}: modified matrix holds {flat.size} "
                    f"values, expected {k} x {k}"
                )
            matrices.append(flat.reshape(k, k))
        sides.append(
            SideScores(
                token_ids=split_list_column(table, f"{side}_token_ids", np.int32),
                shared_positions=split_list_column(table, f"{side}_shared_positions", np.int32),
                shared_logprobs=split_list_column(table, f"{side}_shared_logprob", np.float32),
                modified_positions=split_list_column(table, f"{side}_modified_positions", np.int32),
                modified_logprobs=modified_logprobs,
                modified_matrices=matrices,
                truncated=table.column(f"{side}_truncated").to_numpy(zero_copy_only=False),
                n_dropped_modified=table.column(f"{side}_n_dropped_modified").to_numpy(),
            )
        )
    scores = PairScores(
        a=sides[0],
        b=sides[1],
        n_dropped_shared=table.column("n_dropped_shared").to_numpy(),
        max_length=int(stored["max_length"]),
        pair_ids=read_pair_ids(table),
    )
    return scores, stored
