"""Parquet helpers the score caches share (:mod:`mgbias.mlm.unmasked_cache`,
:mod:`mgbias.mlm.masked_cache`): list columns of numpy arrays, and the JSON provenance
stored in the schema metadata under :data:`METADATA_KEY`, written atomically."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import metadata as package_metadata
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from mgbias.files.atomic import atomic_path

__all__ = [
    "METADATA_KEY",
    "installed_mgbias_version",
    "list_column",
    "split_list_column",
    "write_parquet_with_metadata",
]

#: The schema metadata key of a cache's JSON provenance.
METADATA_KEY = b"mgbias"


def installed_mgbias_version() -> str:
    """The installed distribution's version, ``"unknown"`` when mgbias is not installed
    (the caches' ``mgbias_version``; :func:`mgbias.provenance.mgbias_version` reads the
    source tree's instead)."""
    try:
        return package_metadata.version("mgbias")
    except package_metadata.PackageNotFoundError:
        return "unknown"


def list_column(arrays: Sequence[np.ndarray], value_type: pa.DataType) -> pa.ListArray:
    """One parquet list column of ``value_type`` holding ``arrays``, one row each."""
    lengths = np.fromiter((len(array) for array in arrays), dtype=np.int64, count=len(arrays))
    offsets = np.zeros(len(arrays) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    values = (
        np.concatenate(arrays).astype(value_type.to_pandas_dtype(), copy=False)
        if arrays
        else np.zeros(0, dtype=value_type.to_pandas_dtype())
    )
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(values, value_type))


def write_parquet_with_metadata(table: pa.Table, path: Path, stored: dict, what: str) -> None:
    """Attach ``stored`` as JSON schema metadata and write ``table`` atomically."""
    try:
        encoded_metadata = json.dumps(stored, sort_keys=True).encode("utf-8")
    except TypeError as exc:
        raise TypeError(f"{what} metadata for {path} must be JSON-serialisable: {exc}") from exc
    table = table.replace_schema_metadata({METADATA_KEY: encoded_metadata})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def split_list_column(table: pa.Table, name: str, dtype: type) -> list[np.ndarray]:
    """The rows of list column ``name`` of ``table`` as ``dtype`` arrays (the inverse of
    :func:`list_column`)."""
    column = table.column(name).combine_chunks()
    lengths = pc.list_value_length(column).fill_null(0).to_numpy(zero_copy_only=False)
    values = column.flatten().to_numpy(zero_copy_only=False).astype(dtype, copy=False)
    return np.split(values, np.cumsum(lengths)[:-1]) if len(lengths) else []
