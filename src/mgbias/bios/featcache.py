"""A disk cache of a frozen encoder's token features, one float16 ``.npy`` file per split
(Zhao et al. 2020, §4.3, Tables 10 and 11: M-BERT's last-layer hidden states as the
occupation classifier's inputs).

A split whose features do not fit in the encoder's ``cache_mb`` would otherwise run the
frozen encoder on every training batch of every epoch. With ``disk_cache: true``
(:class:`mgbias.bios.encoder.EncoderSettings`) its features are written here once, as
float16, and every later epoch and every later run with the same key reads them through
a memory map (``np.load(..., mmap_mode="r")``); the classifier converts each batch's
rows to float32 (:func:`mgbias.bios.classifier.train`).

- :func:`feature_key`: the sha256 of what the features are of: the model (its name or
  path and revision, or the sha256 of its weights), the forward pass's precision,
  ``max_pieces`` and ``max_len``, and the sha256 of the split's ids and attention masks.
- :func:`open_entry`: the entry of a key as a read-only memory map, or ``None`` when it is
  absent or not whole (a header of another dtype or shape, a file shorter or longer than
  its header says, a description naming another key): such an entry is written again.
- :func:`write_entry`: the features, block by block, into a new entry, atomically
  (:func:`mgbias.files.atomic.atomic_paths`: a killed job leaves only a hidden
  ``.<name>.partial-*`` file, never a file at the entry's name, and the next write of the
  entry removes it); the ``.json`` description is renamed into place last.

Where: ``$MGBIAS_CACHE_DIR/bios-features/`` (default ``~/.cache/mgbias/bios-features/``,
:func:`mgbias.files.cache_dirs.cache_root`), outside the workflow's folders. An entry is
``n x T x dim`` (T the split's longest sequence; the columns after a row's own length
are padding, masked by the classifier). The check on opening reads the header and the
file's size, not its bytes: a file changed in place at the same size is not detected
(remove the folder; it holds nothing that cannot be computed again).

float16 keeps 11 significant bits: a feature of magnitude ``|x|`` is stored within
``|x| * 2**-11`` (about 0.05% of it), the classifier's inputs to that rounding.

This module imports nothing of :mod:`mgbias.bios` and no torch.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from mgbias.files.atomic import atomic_paths, read_json
from mgbias.files.cache_dirs import cache_root

__all__ = [
    "DTYPE",
    "FORMAT",
    "array_sha256",
    "entry_paths",
    "feature_cache_dir",
    "feature_key",
    "open_entry",
    "write_entry",
]

logger = logging.getLogger(__name__)

#: Version of what an entry holds; a change to the features' layout bumps it.
FORMAT = 1
#: The entries' dtype: half of float32's bytes, 11 significant bits.
DTYPE = np.dtype("<f2")


def feature_cache_dir() -> Path:
    """``$MGBIAS_CACHE_DIR/bios-features`` (else ``~/.cache/mgbias/bios-features``)."""
    return cache_root() / "bios-features"


def array_sha256(array: np.ndarray) -> str:
    """The sha256 of an array's dtype, shape and bytes (C order)."""
    array = np.ascontiguousarray(array)
    digest = hashlib.sha256(f"{array.dtype.str} {array.shape}\n".encode("ascii"))
    digest.update(memoryview(array).cast("B"))
    return digest.hexdigest()


def feature_key(
    model: Mapping,
    *,
    precision: str,
    max_pieces: int,
    max_len: int,
    ids: np.ndarray,
    mask: np.ndarray,
) -> str:
    """The sha256 naming the features of ``ids`` and ``mask`` under ``model`` (a JSON
    mapping: its name or path and revision, or its weights' sha256), ``precision``,
    ``max_pieces`` and ``max_len``."""
    record = {
        "format": FORMAT,
        "model": dict(model),
        "precision": precision,
        "max_pieces": int(max_pieces),
        "max_len": int(max_len),
        "ids": array_sha256(ids),
        "mask": array_sha256(mask),
    }
    text = json.dumps(record, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def entry_paths(key: str, root: str | Path | None = None) -> tuple[Path, Path]:
    """The ``.npy`` features and the ``.json`` description of one entry."""
    base = Path(feature_cache_dir() if root is None else root) / f"{key}.v{FORMAT}"
    return base.with_name(base.name + ".npy"), base.with_name(base.name + ".json")


def open_entry(
    key: str, shape: tuple[int, int, int], root: str | Path | None = None
) -> np.ndarray | None:
    """The features of ``key`` as a read-only memory map of ``shape``, or ``None`` when the
    entry is absent or not whole (logged): its description must name ``key`` and
    ``shape``, its header be C-order float16 of ``shape``, and the file exactly as long as
    header and data."""
    features_path, meta_path = entry_paths(key, root)
    if not (features_path.exists() and meta_path.exists()):
        return None
    shape = tuple(int(n) for n in shape)
    try:
        meta = read_json(meta_path)
        with open(features_path, "rb") as stream:
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                stored, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
            else:
                stored, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
            header = stream.tell()
            size = os.fstat(stream.fileno()).st_size
        whole = (
            isinstance(meta, dict)
            and meta.get("format") == FORMAT
            and meta.get("key") == key
            and tuple(meta.get("shape", ())) == shape
            and dtype == DTYPE
            and not fortran
            and tuple(stored) == shape
            and size == header + DTYPE.itemsize * int(np.prod(shape))
        )
        if not whole:
            logger.warning("%s: not a whole cache entry of its key; computing again", features_path)
            return None
        return np.load(features_path, mmap_mode="r")
    except (OSError, ValueError, KeyError, TypeError, EOFError) as error:
        logger.warning("%s: unreadable cache entry, computing again (%s)", features_path, error)
        return None


def write_entry(
    key: str,
    shape: tuple[int, int, int],
    blocks: Iterable[np.ndarray],
    meta: Mapping,
    root: str | Path | None = None,
) -> np.ndarray | None:
    """Write the entry of ``key``: ``blocks`` are the features of consecutive rows
    (``rows x t x dim``, ``t`` at most ``shape[1]``; the columns after ``t`` are written
    as zeros), stored as float16; ``meta`` (JSON) joins the description. Returns the new
    entry opened by :func:`open_entry`, or ``None`` when it could not be written (a
    read-only or full disk: logged; the caller computes the features per batch). An
    exception of ``blocks`` propagates and leaves no entry."""
    features_path, meta_path = entry_paths(key, root)
    n, length, dim = (int(size) for size in shape)
    description = {**meta, "format": FORMAT, "key": key, "shape": [n, length, dim]}
    try:
        with atomic_paths(features_path, meta_path) as (features_tmp, meta_tmp):
            with open(features_tmp, "wb") as stream:
                header = {"descr": DTYPE.str, "fortran_order": False, "shape": (n, length, dim)}
                np.lib.format.write_array_header_1_0(stream, header)
                written = 0
                for block in blocks:
                    rows, width = block.shape[0], block.shape[1]
                    if width > length or block.shape[2] != dim or written + rows > n:
                        raise ValueError(
                            f"block of shape {block.shape} at row {written} "
                            f"does not fit the entry's {(n, length, dim)}"
                        )
                    padded = np.zeros((rows, length, dim), dtype=DTYPE)
                    padded[:, :width] = block
                    stream.write(memoryview(padded).cast("B"))
                    written += rows
                if written != n:
                    raise ValueError(f"{written} rows of features written, the entry has {n}")
            meta_tmp.write_text(json.dumps(description, sort_keys=True) + "\n", encoding="ascii")
    except OSError as error:
        logger.warning("%s: cannot write the feature cache (%s)", features_path, error)
        return None
    logger.info("features of %d texts cached in %s", n, features_path)
    return open_entry(key, shape, root)
