"""Static word vectors: one type, fastText ``.vec``/``.bin`` readers and a ``.vec`` writer.

:class:`Vectors` holds the words in file order and a float32 matrix with one row per word.
fastText files list words by decreasing corpus frequency, so the first ``maxload`` rows are
the most frequent words; every reader here keeps that order and caps the vocabulary the way
fastText's ``alignment/utils.py`` ``load_vectors`` does (``maxload <= 0``: every word).

The ``.vec`` format is text: a header line ``n d``, then ``n`` lines ``word v1 ... vd``
separated by single spaces (fastText itself ends each line with a space). The word is
everything before the first space, so words may hold other whitespace characters.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from mgbias.embeddings.duplicates import DEFAULT_DUPLICATES, DUPLICATES, DUPLICATES_HINT
from mgbias.embeddings.veccache import CachedRows, cache_enabled, cached_rows
from mgbias.errors import InputError, WeightsError
from mgbias.files.atomic import atomic_path
from mgbias.files.textio import decoding
from mgbias.measures.linalg import unit_rows

__all__ = [
    "Vectors",
    "VecFormatError",
    "read_bin",
    "read_vec",
    "read_vectors",
    "read_vec_header",
    "normalize_rows_inplace",
    "unit_rows",
    "write_vec",
]

logger = logging.getLogger(__name__)

_CHUNK_ROWS = 50_000


class VecFormatError(InputError):
    """A ``.vec`` file that does not follow the format; the message names file and line."""


def normalize_rows_inplace(matrix: np.ndarray, eps: float = 0.0) -> np.ndarray:
    """Divide each row of ``matrix`` by its L2 norm (plus ``eps``) in place, in blocks.

    All-zero rows stay zero. Returns ``matrix``.
    """
    for start in range(0, matrix.shape[0], _CHUNK_ROWS):
        block = matrix[start : start + _CHUNK_ROWS]
        norms = np.linalg.norm(block, axis=1, keepdims=True) + eps
        block /= np.where(norms > 0, norms, 1).astype(block.dtype, copy=False)
    return matrix


class Vectors:
    """Words and their vectors: ``words[i]`` has row ``matrix[i]`` (float32).

    Parameters
    ----------
    words
        Distinct words, in file (frequency) order.
    matrix
        ``(len(words), d)`` array, converted to a C-contiguous float32 array.
    source
        Where the vectors came from, used in error messages.
    """

    __slots__ = ("words", "matrix", "index", "source")

    def __init__(self, words: Sequence[str], matrix: np.ndarray, source: str = "<memory>"):
        matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        words = tuple(words)
        if matrix.ndim != 2:
            raise ValueError(f"{source}: expected a 2-D matrix, got shape {matrix.shape}")
        if matrix.shape[0] != len(words):
            raise ValueError(
                f"{source}: {len(words)} words but {matrix.shape[0]} matrix rows; expected one "
                "row per word"
            )
        index: dict[str, int] = {}
        for i, word in enumerate(words):
            if word in index:
                raise ValueError(
                    f"{source}: duplicate word {word!r} at rows {index[word]} and {i}; "
                    "expected distinct words"
                )
            index[word] = i
        self.words = words
        self.matrix = matrix
        self.index = index
        self.source = source

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __repr__(self) -> str:
        return f"Vectors({len(self)} x {self.dim}, source={self.source!r})"

    @property
    def dim(self) -> int:
        """Dimension of the vectors."""
        return int(self.matrix.shape[1])

    def vector(self, word: str) -> np.ndarray:
        """The row of ``word``; ``KeyError`` naming the source if it is not in the vocabulary."""
        try:
            return self.matrix[self.index[word]]
        except KeyError:
            raise KeyError(f"{self.source}: word {word!r} is not in the vocabulary") from None

    def rows(self, words: Iterable[str]) -> np.ndarray:
        """Rows of ``words`` stacked in order (``KeyError`` for a missing word)."""
        return self.matrix[[self._row(word) for word in words]]

    def _row(self, word: str) -> int:
        try:
            return self.index[word]
        except KeyError:
            raise KeyError(f"{self.source}: word {word!r} is not in the vocabulary") from None

    def head(self, n: int) -> Vectors:
        """The first ``n`` words (all of them for ``n <= 0`` or ``n >= len``)."""
        if n <= 0 or n >= len(self):
            return self
        return Vectors(self.words[:n], self.matrix[:n], self.source)

    def normalized(self, center: bool = False, eps: float = 0.0) -> Vectors:
        """Unit-length rows; with ``center``, then mean-centred and unit-length again.

        This is the order of fastText's ``load_vectors(norm=True, center=...)``. The
        result has its own matrix (one copy; the work is done in place, in blocks).
        """
        matrix = normalize_rows_inplace(self.matrix.copy(), eps)
        if center:
            matrix -= matrix.mean(axis=0, keepdims=True, dtype=np.float64).astype(np.float32)
            normalize_rows_inplace(matrix, eps)
        return self.with_matrix(matrix)

    def with_matrix(self, matrix: np.ndarray) -> Vectors:
        """The same words (sharing the word index) with another ``(len, d)`` matrix."""
        matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(self.words):
            raise ValueError(
                f"{self.source}: a matrix of shape {matrix.shape} for {len(self.words)} words"
            )
        other = object.__new__(Vectors)
        other.words, other.matrix, other.index, other.source = (
            self.words,
            matrix,
            self.index,
            self.source,
        )
        return other


# --------------------------------------------------------------------------------------
# Reading .vec
# --------------------------------------------------------------------------------------


def read_vec_header(path: str | Path) -> tuple[int, int]:
    """``(n, d)`` from the first line of a ``.vec`` file."""
    with decoding(path), open(path, encoding="utf-8", errors="strict", newline="\n") as stream:
        return _parse_header(stream.readline(), path)


def _parse_header(line: str, path: str | Path) -> tuple[int, int]:
    fields = line.split()
    try:
        n, d = (int(field) for field in fields)
    except ValueError:
        raise VecFormatError(
            f"{path}, line 1: expected the header 'n d' (two integers), got {line.rstrip()!r}"
        ) from None
    if n < 0 or d < 1:
        raise VecFormatError(f"{path}, line 1: header 'n d' needs n >= 0 and d >= 1, got {n} {d}")
    return n, d


def read_vec(
    path: str | Path,
    maxload: int = -1,
    *,
    errors: str = "strict",
    duplicates: str = DEFAULT_DUPLICATES,
    words: Iterable[str] | None = None,
    cache: bool | None = None,
) -> Vectors:
    """Read a fastText ``.vec`` file, streaming, keeping the first ``maxload`` words.

    The parsed rows are kept in a binary cache keyed by the file's sha256
    (:mod:`mgbias.embeddings.veccache`), so a later read of the same content loads them
    instead of parsing the text; the result is the same either way.

    Parameters
    ----------
    path
        The ``.vec`` file (header ``n d``).
    maxload
        Number of words to keep, in file order; ``<= 0`` keeps all ``n``.
    errors
        How undecodable UTF-8 is handled (``"strict"``; fastText's alignment code uses
        ``"ignore"``).
    duplicates
        ``"error"`` rejects a repeated word; ``"first"`` keeps its first row and drops the
        later ones (what fastText's ``idx`` does), logging how many were dropped.
    words
        Keep only the rows of these words (``None``: every row), in file order; a listed
        word not in the file is no error. The other rows are counted (the header's ``n``
        and ``maxload`` still bound the read, and a file ending early is an error) but not
        parsed: only the kept rows are checked, so a large file costs little memory and
        time when few words are wanted. ``duplicates`` applies to the listed words. With
        the cache, the first read parses every row (once) and the listed rows are taken
        from the cached ones; a file with a malformed row of another word is read without
        the cache.
    cache
        Use the binary cache (``None``: unless ``MGBIAS_VEC_CACHE=0``).

    Returns
    -------
    Vectors
        float32 rows as stored (not normalised; see :meth:`Vectors.normalized`).

    Raises
    ------
    VecFormatError
        A bad header, a row whose number of values is not ``d``, a value that is not a
        finite number, an empty word, a duplicate word (with ``duplicates="error"``), or
        fewer rows than the header promises; the message names the file and line.
    """
    if duplicates not in DUPLICATES:
        raise ValueError(f"duplicates must be one of {DUPLICATES}, got {duplicates!r}")
    path = Path(path)
    with decoding(path):
        with open(path, encoding="utf-8", errors=errors, newline="\n") as stream:
            n_header, d = _parse_header(stream.readline(), path)
        n = n_header if maxload <= 0 else min(n_header, maxload)
        _check_size(path, n, d)
        wanted = None if words is None else frozenset(words)
        if cache_enabled(cache):
            try:
                rows = cached_rows(path, n, d, errors, lambda: _read_rows(path, n, d, errors))
            except (VecFormatError, UnicodeDecodeError):
                if wanted is None:
                    raise
            else:
                with rows:
                    return _from_rows(rows, n, path, duplicates, wanted)
        if wanted is not None:
            return _read_vec_words(path, n, d, errors, wanted, duplicates)
        words, matrix = _read_rows(path, n, d, errors)
    return _deduplicate(words, matrix, path, duplicates)


def _read_rows(path: Path, n: int, d: int, errors: str) -> tuple[list[str], np.ndarray]:
    """The first ``n`` rows, every one parsed and checked: the pandas reader, or the
    line-by-line one where it stumbles (it names the bad line)."""
    import pandas as pd  # here: a read from the binary cache needs no parser

    try:
        return _read_vec_fast(path, n, d, errors)
    except (ValueError, pd.errors.ParserError, _Recheck):
        return _read_vec_checked(path, n, d, errors)


def _from_rows(
    rows: CachedRows, n: int, path: Path, duplicates: str, wanted: frozenset[str] | None
) -> Vectors:
    """What the text reader returns, from the first ``n`` of the parsed (or cached) rows."""
    names = rows.words if len(rows.words) == n else rows.words[:n]
    if wanted is None:
        if rows.first_duplicate is None or rows.first_duplicate >= n:
            return Vectors(names, rows.head(n), str(path))
        return _deduplicate(names, rows.head(n), path, duplicates)
    kept = [i for i, word in enumerate(names) if word in wanted]
    return _deduplicate(
        [names[i] for i in kept], rows.take(kept), path, duplicates, [i + 2 for i in kept]
    )


def _check_size(path: Path, n: int, d: int) -> None:
    """Refuse a large header whose rows cannot fit in the file, before the matrix is allocated.

    A row is at least ``2 d + 2`` bytes (a one-character word, ``d`` one-digit values each
    after a space, a line end). Small files go to the readers, which name the line where
    the rows end.
    """
    size = path.stat().st_size
    if n * d > _CHUNK_ROWS * 20 and n * (2 * d + 2) - 1 > size:
        raise VecFormatError(
            f"{path}, line 1: the header promises {n} rows of d = {d} values, which cannot "
            f"fit in the file's {size} bytes (file truncated, or the header wrong)"
        )


class _Recheck(Exception):
    """The fast parser saw something odd; the line-by-line reader finds and names it."""


def _read_vec_fast(path: Path, n: int, d: int, errors: str) -> tuple[list[str], np.ndarray]:
    """The pandas C tokenizer in chunks; any irregularity raises for the checked reader."""
    import pandas as pd

    matrix = np.empty((n, d), dtype=np.float32)
    words: list[str] = []
    if n == 0:
        return words, matrix
    dtypes: dict[int, object] = {0: str, d + 1: str}
    dtypes.update(dict.fromkeys(range(1, d + 1), np.float32))
    reader = pd.read_csv(
        path,
        sep=" ",
        header=None,
        names=list(range(d + 2)),
        skiprows=1,
        nrows=n,
        quoting=3,  # csv.QUOTE_NONE: quote characters are ordinary
        na_filter=False,
        engine="c",
        dtype=dtypes,
        lineterminator="\n",
        skip_blank_lines=False,
        encoding="utf-8",
        encoding_errors=errors,
        chunksize=_CHUNK_ROWS,
    )
    start = 0
    with reader:
        for chunk in reader:
            values = chunk.iloc[:, 1 : d + 1].to_numpy(dtype=np.float32)
            chunk_words = chunk[0].tolist()
            trailing = chunk[d + 1]
            if (
                (trailing != "").any()
                or not np.isfinite(values).all()
                or any(not word for word in chunk_words)
            ):
                raise _Recheck
            matrix[start : start + len(chunk)] = values
            words.extend(chunk_words)
            start += len(chunk)
    if start != n:
        raise _Recheck
    return words, matrix


def _read_vec_checked(path: Path, n: int, d: int, errors: str) -> tuple[list[str], np.ndarray]:
    """Line-by-line reader that names the first bad line."""
    matrix = np.empty((n, d), dtype=np.float32)
    words: list[str] = []
    with open(path, encoding="utf-8", errors=errors, newline="\n") as stream:
        stream.readline()
        for row, line in zip(range(n), _lines(stream), strict=False):
            words.append(_parse_row(line, row + 2, d, path, matrix[row]))
    if len(words) < n:
        raise VecFormatError(
            f"{path}, line {len(words) + 2}: file ends after {len(words)} rows; the header "
            f"promises {n}"
        )
    return words, matrix


def _read_vec_words(
    path: Path, n: int, d: int, errors: str, wanted: frozenset[str], duplicates: str
) -> Vectors:
    """The rows of the ``wanted`` words among the first ``n``, line by line; only those
    rows are parsed and checked."""
    words: list[str] = []
    rows: list[np.ndarray] = []
    first: dict[str, int] = {}
    seen = dropped = 0
    with open(path, encoding="utf-8", errors=errors, newline="\n") as stream:
        stream.readline()
        for line_number, line in zip(range(2, n + 2), _lines(stream), strict=False):
            seen += 1
            space = line.find(" ")
            word = line if space < 0 else line[:space]
            if word not in wanted:
                continue
            if word in first:
                if duplicates == "error":
                    raise VecFormatError(
                        f"{path}, line {line_number}: duplicate word {word!r} (first at line "
                        f"{first[word]}); expected distinct words ({DUPLICATES_HINT})"
                    )
                dropped += 1
                continue
            row = np.empty(d, dtype=np.float32)
            words.append(_parse_row(line, line_number, d, path, row))
            rows.append(row)
            first[word] = line_number
    if seen < n:
        raise VecFormatError(
            f"{path}, line {seen + 2}: file ends after {seen} rows; the header promises {n}"
        )
    if dropped:
        logger.warning("%s: %d repeated words dropped (first occurrence kept)", path, dropped)
    matrix = np.stack(rows) if rows else np.empty((0, d), dtype=np.float32)
    return Vectors(words, matrix, str(path))


def _lines(stream) -> Iterator[str]:
    for line in stream:
        yield line[:-1] if line.endswith("\n") else line


def _parse_row(line: str, line_number: int, d: int, path: Path, out: np.ndarray) -> str:
    word, _, rest = line.partition(" ")
    if not word:
        raise VecFormatError(
            f"{path}, line {line_number}: expected 'word v1 ... v{d}', got a line starting "
            f"with {line[:30]!r} (empty word)"
        )
    fields = rest.rstrip(" ").split(" ")
    if len(fields) != d:
        raise VecFormatError(
            f"{path}, line {line_number}: word {word!r} has {len(fields)} space-separated "
            f"fields ({len(rest.split())} numbers); the header says d = {d}"
        )
    try:
        values = [float(field) for field in fields]
    except ValueError:
        bad = next(field for field in fields if not _is_float(field))
        raise VecFormatError(
            f"{path}, line {line_number}: word {word!r} has a value {bad!r} that is not a number"
        ) from None
    if not all(math.isfinite(value) for value in values):
        raise VecFormatError(
            f"{path}, line {line_number}: word {word!r} has a value that is not finite"
        )
    out[:] = values
    return word


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _deduplicate(
    words: list[str],
    matrix: np.ndarray,
    path: Path,
    duplicates: str,
    lines: Sequence[int] | None = None,
) -> Vectors:
    """``Vectors`` of the rows, a repeated word rejected or its later rows dropped;
    ``lines`` are the rows' line numbers in the file (default: row ``i`` is line
    ``i + 2``)."""
    seen: dict[str, int] = {}
    keep: list[int] = []
    for i, word in enumerate(words):
        if word in seen:
            if duplicates == "error":
                line = i + 2 if lines is None else lines[i]
                first = seen[word] + 2 if lines is None else lines[seen[word]]
                raise VecFormatError(
                    f"{path}, line {line}: duplicate word {word!r} (first at line "
                    f"{first}); expected distinct words ({DUPLICATES_HINT})"
                )
            continue
        seen[word] = i
        keep.append(i)
    if len(keep) < len(words):
        logger.warning(
            "%s: %d repeated words dropped (first occurrence kept)", path, len(words) - len(keep)
        )
        return Vectors([words[i] for i in keep], matrix[keep], str(path))
    return Vectors(words, matrix, str(path))


# --------------------------------------------------------------------------------------
# Reading .bin, dispatch
# --------------------------------------------------------------------------------------


def read_bin(path: str | Path, maxload: int = -1) -> Vectors:
    """Word vectors of a fastText ``.bin`` model, in its dictionary (frequency) order.

    Each word's vector is fastText's ``get_word_vector`` (the word's row averaged with its
    character n-gram rows), which is what fastText writes to the ``.vec`` file.

    Parameters
    ----------
    path
        A model saved by fastText (``save_model``).
    maxload
        Number of words to keep; ``<= 0`` keeps all.
    """
    import fasttext

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such fastText model file")
    try:
        model = fasttext.load_model(str(path))
    except ValueError as error:
        raise WeightsError(
            f"{path}: not a fastText model, or a corrupt or truncated one ({error}); "
            "expected a file written by fastText's save_model"
        ) from None
    _check_bin_size(path, model)
    words = model.get_words(on_unicode_error="replace")
    if maxload > 0:
        words = words[:maxload]
    matrix = np.empty((len(words), model.get_dimension()), dtype=np.float32)
    for i, word in enumerate(words):
        matrix[i] = model.get_word_vector(word)
    return Vectors(words, matrix, str(path))


def _check_bin_size(path: Path, model) -> None:
    """Refuse a truncated ``.bin``: fastText reads one without complaint, zeros and all.

    A model that is not quantized holds its input matrix (words and n-gram buckets) and
    its output matrix as float32 after the header, so the file is at least that large.
    """
    if model.is_quantized():
        return
    args = model.f.getArgs()
    rows = len(model.get_words(on_unicode_error="replace")) + args.bucket
    rows += len(model.get_labels(on_unicode_error="replace"))
    need = 4 * args.dim * rows
    size = path.stat().st_size
    if size < need:
        raise WeightsError(
            f"{path}: a truncated fastText model: {size} bytes, but its header describes "
            f"{need} bytes of matrices ({rows} rows of dimension {args.dim}); copy or "
            "download it again"
        )


def read_vectors(path: str | Path, maxload: int = -1, **options) -> Vectors:
    """Read ``.bin`` with :func:`read_bin`, anything else as ``.vec`` with :func:`read_vec`."""
    if Path(path).suffix == ".bin":
        return read_bin(path, maxload)
    return read_vec(path, maxload, **options)


# --------------------------------------------------------------------------------------
# Writing .vec
# --------------------------------------------------------------------------------------


def write_vec(
    path: str | Path, vectors: Vectors, precision: int = 6, workers: int | None = None
) -> None:
    """Write ``vectors`` as a ``.vec`` file with its ``n d`` header, atomically.

    Parameters
    ----------
    path
        Destination.
    vectors
        What to write; a word containing a space or a newline cannot be written (it
        would not read back).
    precision
        Significant digits per value (``%.{precision}g``); 9 reproduces float32 exactly.
    workers
        Processes that format the numbers, blocks of rows each, written in order: the
        same bytes for any number. Formatting is nearly all of the time (about 3 s for
        50,000 x 300 on one core), so a large file is written in parallel. ``None``:
        ``MGBIAS_WRITE_WORKERS`` if set, else, from :data:`PARALLEL_WRITE_VALUES`
        values on, the CPUs this process may run on (at most 8; a SLURM job's own),
        else 1. Parallel writing needs the ``fork`` start method (Linux); elsewhere
        it is serial.
    """
    for word in vectors.words:
        if not word or " " in word or "\n" in word:
            raise ValueError(
                f"{vectors.source}: word {word!r} cannot be written to a .vec file (empty, or "
                "holds a space or newline)"
            )
    n, d = vectors.matrix.shape
    line = "%s " + " ".join([f"%.{precision}g"] * d) + "\n"
    processes = _write_workers(workers, n * d)
    blocks = (
        (
            vectors.words[start : start + _WRITE_BLOCK_ROWS],
            vectors.matrix[start : start + _WRITE_BLOCK_ROWS],
            line,
        )
        for start in range(0, n, _WRITE_BLOCK_ROWS)
    )
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(f"{n} {d}\n")
        if processes <= 1:
            stream.writelines(map(_format_block, blocks))
            return
        context = multiprocessing.get_context("fork")
        # The workers only format numbers, so a fork of a process that runs other
        # threads (torch's) is safe here, as it is for torch's own data loaders; Python
        # 3.12 warns about such forks in general.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r".*fork\(\)", category=DeprecationWarning)
            with ProcessPoolExecutor(processes, mp_context=context) as pool:
                stream.writelines(pool.map(_format_block, blocks))


#: Values (rows x dimensions) from which :func:`write_vec` formats in several processes
#: by default: 20,000 x 100 (a process's start costs about 0.1 s; 2 million values take
#: about 0.4 s to format).
PARALLEL_WRITE_VALUES = 2_000_000
#: Rows per block of :func:`write_vec` (a block is formatted by one process).
_WRITE_BLOCK_ROWS = 4096
#: Most processes of a parallel write by default.
_MOST_WRITE_WORKERS = 8


def _write_workers(workers: int | None, values: int) -> int:
    """Processes of a :func:`write_vec` of ``values`` numbers (see there)."""
    if workers is not None and workers < 1:
        raise ValueError(f"write_vec needs at least 1 worker, got {workers}")
    if workers is None:
        workers = _workers_setting()
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if workers is None:
        if values < PARALLEL_WRITE_VALUES:
            return 1
        return min(_usable_cpus(), _MOST_WRITE_WORKERS)
    return workers


def _workers_setting() -> int | None:
    """``MGBIAS_WRITE_WORKERS``, checked; None where it is not set."""
    setting = os.environ.get("MGBIAS_WRITE_WORKERS", "").strip()
    if not setting:
        return None
    try:
        workers = int(setting)
    except ValueError:
        raise ValueError(
            f"MGBIAS_WRITE_WORKERS={setting!r}: expected a whole number of processes"
        ) from None
    if workers < 1:
        raise ValueError(f"MGBIAS_WRITE_WORKERS must be at least 1, got {workers}")
    return workers


def _usable_cpus() -> int:
    """The CPUs this process may run on (its affinity: a SLURM job's own), or all."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def _format_block(block: tuple[list[str], np.ndarray, str]) -> str:
    """The ``.vec`` lines of a block of rows: ``line % (word, *values)`` each."""
    words, matrix, line = block
    return "".join(line % (word, *row) for word, row in zip(words, matrix.tolist(), strict=True))
