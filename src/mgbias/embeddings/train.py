"""Skip-gram word vectors trained with fastText (Bojanowski et al. 2017).

The paper's vectors are fastText's published Wikipedia vectors (skip-gram, 300 dimensions,
fastText's defaults). Where those cannot be downloaded, the same model is trained on a
text corpus with the ``fasttext`` package. One thread and a fixed seed make the result
reproducible byte for byte (fastText's Hogwild updates are nondeterministic with several
threads).

fastText allocates its matrices without zeroing them (``posix_memalign`` in its
``AlignedVector``) and, with ``thread`` below 10, fills only the first ``thread/10`` of the
input matrix at random (``DenseMatrix::uniform``). The rest of the rows (most character
n-gram rows) then hold whatever the allocator hands out: often zeros, sometimes stale
values of earlier allocations, which makes results depend on the process's history and can
stop training with "Encountered NaN". Training therefore runs with glibc's ``M_PERTURB``
set so that every allocation is zero-filled: those rows start at zero, as they did when
fastText's matrices were ``std::vector``s.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import dataclasses
import gzip
import logging
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mgbias.embeddings.vectors import Vectors
from mgbias.files.atomic import atomic_path
from mgbias.seeds import check_seed
from mgbias.settings import schema_settings

__all__ = ["SkipgramConfig", "concatenate_corpus", "train_skipgram", "zero_filled_allocations"]

logger = logging.getLogger(__name__)


@schema_settings("zhao2020.vectors.train", what="fastText setting(s)")
class SkipgramConfig:
    """Settings of ``fasttext.train_unsupervised``; defaults are fastText's own.

    Attributes
    ----------
    model
        ``"skipgram"`` (the published vectors) or ``"cbow"``.
    dim
        Vector dimension (the published vectors: 300).
    epoch, lr, ws, neg, minCount, minn, maxn, t, bucket, lrUpdateRate
        fastText's options of the same names.
    thread
        Training threads; 1 for reproducible output.
    seed
        fastText's random seed.
    """

    model: str = "skipgram"
    dim: int = 100
    epoch: int = 5
    lr: float = 0.05
    ws: int = 5
    neg: int = 5
    minCount: int = 5
    minn: int = 3
    maxn: int = 6
    t: float = 1e-4
    bucket: int = 2_000_000
    lrUpdateRate: int = 100
    thread: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        if self.model not in ("skipgram", "cbow"):
            raise ValueError(f"SkipgramConfig.model must be skipgram or cbow, got {self.model!r}")
        for name in ("dim", "epoch", "ws", "neg", "minCount", "thread", "lrUpdateRate"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"SkipgramConfig.{name} must be an integer >= 1, got {value!r}")
        if not 0 <= self.minn <= self.maxn:
            raise ValueError(
                f"SkipgramConfig needs 0 <= minn <= maxn, got minn={self.minn}, maxn={self.maxn}"
            )
        if not self.lr > 0:
            raise ValueError(f"SkipgramConfig.lr must be > 0, got {self.lr!r}")
        check_seed(self.seed)

    def to_dict(self) -> dict[str, Any]:
        """The settings as keyword arguments of ``fasttext.train_unsupervised``."""
        return dataclasses.asdict(self)


def concatenate_corpus(paths: Sequence[str | Path], out: Path) -> int:
    """Write the text of ``paths`` (plain or ``.gz``) into ``out``, one file after another.

    Returns
    -------
    int
        Number of lines written. A file not ending in a newline gets one, so lines of
        consecutive files never merge.
    """
    lines = 0
    with open(out, "wb") as sink:
        for path in paths:
            path = Path(path)
            opener = gzip.open if path.suffix == ".gz" else open
            last = b"\n"
            with opener(path, "rb") as source:
                for block in iter(lambda source=source: source.read(1 << 20), b""):
                    sink.write(block)
                    lines += block.count(b"\n")
                    last = block[-1:]
            if last != b"\n":
                sink.write(b"\n")
                lines += 1
    return lines


_M_PERTURB = -6  # glibc mallopt parameter: fill allocations with ~byte, freed memory with byte


@contextlib.contextmanager
def zero_filled_allocations() -> Iterator[None]:
    """Make glibc zero-fill every allocation inside the block (``mallopt(M_PERTURB, 0xFF)``).

    Outside glibc (no ``mallopt``) it logs a warning and changes nothing.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        logger.warning("no glibc mallopt: fastText's uninitialised rows are not zeroed")
        yield
        return
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    if not mallopt(_M_PERTURB, 0xFF):
        logger.warning("mallopt(M_PERTURB) refused: fastText's uninitialised rows are not zeroed")
    try:
        yield
    finally:
        mallopt(_M_PERTURB, 0)


def _train_unsupervised(path: str, config: SkipgramConfig):
    """``fasttext.train_unsupervised`` with ``config``, including its seed.

    The package's ``train_unsupervised`` takes no ``seed`` keyword, but fills every option
    it is not given from ``fasttext.FastText.unsupervised_default``, which has one; the
    seed is set there for the call and restored afterwards.
    """
    from fasttext import FastText

    options = config.to_dict()
    seed = options.pop("seed")
    defaults = FastText.unsupervised_default
    previous = defaults.get("seed")
    defaults["seed"] = seed
    try:
        with zero_filled_allocations():
            return FastText.train_unsupervised(input=path, verbose=0, **options)
    finally:
        defaults["seed"] = previous


def train_skipgram(
    corpus: Sequence[str | Path],
    config: SkipgramConfig | None = None,
    model_path: str | Path | None = None,
) -> Vectors:
    """Train fastText vectors on the lines of ``corpus`` and return them.

    Parameters
    ----------
    corpus
        Text files (plain or gzip), one sentence per line, tokens separated by spaces.
    config
        fastText settings (default: fastText's).
    model_path
        Where to save the fastText model (``.bin``) as well, atomically; ``None`` saves none.

    Returns
    -------
    Vectors
        Every word of fastText's dictionary (frequency order, end-of-line token ``</s>``
        included, as in the ``.vec`` files fastText writes), with its ``get_word_vector``
        row.
    """
    config = config or SkipgramConfig()
    if not corpus:
        raise ValueError("train_skipgram needs at least one corpus file")
    with tempfile.TemporaryDirectory(prefix="mgbias-fasttext-") as tmp:
        text = Path(tmp) / "corpus.txt"
        n_lines = concatenate_corpus(corpus, text)
        if n_lines == 0:
            raise ValueError(f"corpus {[str(p) for p in corpus]} is empty")
        logger.info("fastText %s on %d lines with %s", config.model, n_lines, config)
        model = _train_unsupervised(str(text), config)
        words = model.get_words(on_unicode_error="replace")
        matrix = np.empty((len(words), config.dim), dtype=np.float32)
        for i, word in enumerate(words):
            matrix[i] = model.get_word_vector(word)
        if model_path is not None:
            with atomic_path(model_path, suffix=".bin") as partial:
                model.save_model(str(partial))
    name = ",".join(str(p) for p in corpus)
    return Vectors(words, matrix, f"fastText({name})")
