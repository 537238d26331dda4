"""Skip-gram training with the fastText package (mgbias.embeddings.train)."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from mgbias.embeddings.train import SkipgramConfig, concatenate_corpus, train_skipgram
from mgbias.embeddings.vectors import read_bin, read_vec, write_vec

TINY = SkipgramConfig(dim=8, epoch=2, minCount=1, bucket=100_000, seed=3)


@pytest.fixture
def corpus(tmp_path):
    lines = ["the cat sat on the mat .", "the dog sat on the log .", "a cat and a dog ."] * 50
    plain = tmp_path / "part1.txt"
    plain.write_text("\n".join(lines[:90]) + "\n", encoding="utf-8")
    packed = tmp_path / "part2.txt.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as stream:
        stream.write("\n".join(lines[90:]))  # no final newline
    return [plain, packed]


def test_training_is_deterministic_with_seed_and_one_thread(tmp_path, corpus):
    first = train_skipgram(corpus, TINY, model_path=tmp_path / "a.bin")
    second = train_skipgram(corpus, TINY, model_path=tmp_path / "b.bin")
    write_vec(tmp_path / "a.vec", first, precision=9)
    write_vec(tmp_path / "b.vec", second, precision=9)
    assert (tmp_path / "a.vec").read_bytes() == (tmp_path / "b.vec").read_bytes()
    other = train_skipgram(corpus, SkipgramConfig(**{**TINY.to_dict(), "seed": 4}))
    assert not np.array_equal(other.matrix, first.matrix)
    # frequency order, fastText's end-of-line token included
    assert first.words[0] == "the"
    assert set(first.words) == {
        "the",
        "cat",
        "sat",
        "on",
        "mat",
        ".",
        "dog",
        "log",
        "a",
        "and",
        "</s>",
    }
    # the .vec written and the .bin saved give the same vectors
    np.testing.assert_array_equal(read_vec(tmp_path / "a.vec").matrix, first.matrix)
    np.testing.assert_array_equal(read_bin(tmp_path / "a.bin").matrix, first.matrix)
    assert read_bin(tmp_path / "a.bin", maxload=3).words == first.words[:3]


def test_uninitialised_fasttext_memory_is_zeroed(corpus):
    """fastText leaves most input rows uninitialised; stale memory must not leak in.

    A small bucket puts the matrix in reused heap memory: after the process freed blocks
    full of 1e30s, training gives the same finite vectors as before.
    """
    config = SkipgramConfig(**{**TINY.to_dict(), "bucket": 1000})
    first = train_skipgram(corpus, config)
    for size in (1 << 12, 1 << 15, 1 << 18):
        garbage = np.full(size, 1e30, dtype=np.float32)
        del garbage
    second = train_skipgram(corpus, config)
    assert np.isfinite(first.matrix).all()
    np.testing.assert_array_equal(first.matrix, second.matrix)


def test_corpus_files_are_joined_line_by_line(tmp_path, corpus):
    out = tmp_path / "all.txt"
    assert concatenate_corpus(corpus, out) == 150
    assert out.read_text(encoding="utf-8").count("\n") == 150


def test_config_rejects_bad_settings():
    with pytest.raises(ValueError, match="model must be skipgram or cbow"):
        SkipgramConfig(model="supervised")
    with pytest.raises(ValueError, match=r"^zhao2020\.vectors\.train: unknown fastText setting"):
        SkipgramConfig.from_mapping({"dimension": 3}, where="zhao2020.vectors.train")
    with pytest.raises(ValueError, match="seed"):
        SkipgramConfig(seed=-1)
