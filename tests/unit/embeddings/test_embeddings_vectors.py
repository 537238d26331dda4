"""fastText .vec reading and writing (mgbias.embeddings.vectors), MUSE dictionaries."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from mgbias.embeddings import vectors as vectors_module
from mgbias.embeddings.dictionaries import (
    TEST_SPLIT,
    TRAIN_SPLIT,
    dictionary_name,
    read_dictionary,
    source_words,
    translations,
    write_dictionary,
)
from mgbias.embeddings.vectors import (
    VecFormatError,
    Vectors,
    read_vec,
    read_vec_header,
    unit_rows,
    write_vec,
)


def _vectors(n=7, d=5, seed=0) -> Vectors:
    rng = np.random.default_rng(seed)
    words = ["der", "é", "l'équipe", "naïve", "#", '"', "nan"][:n]
    return Vectors(words, rng.standard_normal((n, d)).astype(np.float32))


def test_round_trip_is_exact_with_nine_digits(tmp_path):
    vectors = _vectors()
    path = tmp_path / "v.vec"
    write_vec(path, vectors, precision=9)
    assert path.read_text(encoding="utf-8").splitlines()[0] == "7 5"
    back = read_vec(path)
    assert back.words == vectors.words
    assert back.matrix.dtype == np.float32
    np.testing.assert_array_equal(back.matrix, vectors.matrix)
    assert read_vec_header(path) == (7, 5)


def test_default_precision_is_six_significant_digits(tmp_path):
    vectors = Vectors(["a"], np.array([[1.23456789, -0.000123456789]], dtype=np.float32))
    write_vec(tmp_path / "v.vec", vectors)
    assert (tmp_path / "v.vec").read_text().splitlines()[1] == "a 1.23457 -0.000123457"


def test_reads_fasttext_layout_with_trailing_spaces_and_maxload(tmp_path):
    path = tmp_path / "ft.vec"
    path.write_text("3 2\n</s> 0.5 -1 \nthe 1 2 \nof 3 4 \n", encoding="utf-8")
    full = read_vec(path)
    assert full.words == ("</s>", "the", "of")
    np.testing.assert_array_equal(full.matrix, [[0.5, -1], [1, 2], [3, 4]])
    capped = read_vec(path, maxload=2)
    assert capped.words == ("</s>", "the")
    assert read_vec(path, maxload=-1).words == full.words


def test_word_is_everything_before_the_first_space(tmp_path):
    path = tmp_path / "ws.vec"
    path.write_text("2 1\na\u00a0b 1\nc\td 2\n", encoding="utf-8")
    assert read_vec(path).words == ("a\u00a0b", "c\td")


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        ("2 3\na 1 2 3\nb 1 2\n", 3, "'b' has 2 space-separated fields"),
        ("2 3\na 1 2 3\nb 1 2 3 4\n", 3, "'b' has 4 space-separated fields"),
        ("2 3\na 1 2 3\nb 1 x 3\n", 3, "value 'x' that is not a number"),
        ("2 3\na 1 2 3\nb 1 nan 3\n", 3, "not finite"),
        ("3 3\na 1 2 3\nb 1 2 3\n", 4, "file ends after 2 rows"),
        ("2 3\na 1 2 3\n\n", 3, "empty word"),
        ("2 3\na 1 2 3\na 4 5 6\n", 3, "duplicate word 'a' (first at line 2)"),
        ("two 3\na 1 2 3\n", 1, "header 'n d'"),
    ],
)
def test_bad_vec_rejected_with_file_and_line(tmp_path, body, line, fragment):
    path = tmp_path / "bad.vec"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(VecFormatError) as error:
        read_vec(path)
    message = str(error.value)
    assert f"{path}, line {line}:" in message
    assert fragment in message


def test_rows_past_maxload_are_not_read(tmp_path):
    path = tmp_path / "tail.vec"
    path.write_text("3 2\na 1 2\nb 3 4\nc broken\n", encoding="utf-8")
    assert read_vec(path, maxload=2).words == ("a", "b")
    with pytest.raises(VecFormatError, match="line 4"):
        read_vec(path)


def test_duplicates_first_keeps_the_first_row(tmp_path):
    path = tmp_path / "dup.vec"
    path.write_text("3 1\na 1\nb 2\na 3\n", encoding="utf-8")
    vectors = read_vec(path, duplicates="first")
    assert vectors.words == ("a", "b")
    np.testing.assert_array_equal(vectors.matrix[:, 0], [1, 2])


WORDS_VEC = "5 3\nthe 1 2 3 \nnurse 0.5 -1 2.25 \nof 1 x 3 \npoet 4 5 6 \nnurse 9 9 9 \n"


def test_words_keeps_the_listed_words_in_file_order(tmp_path):
    path = tmp_path / "w.vec"
    path.write_text(WORDS_VEC, encoding="utf-8")
    vectors = read_vec(path, duplicates="first", words=["poet", "absent", "nurse"])
    assert vectors.words == ("nurse", "poet") and vectors.dim == 3
    assert vectors.matrix.dtype == np.float32
    np.testing.assert_array_equal(vectors.matrix, [[0.5, -1, 2.25], [4, 5, 6]])
    none = read_vec(path, words=[])
    assert none.words == () and none.matrix.shape == (0, 3)
    assert read_vec(path, maxload=3, words=["poet", "nurse"]).words == ("nurse",)


def test_words_rows_equal_the_whole_file_read(tmp_path):
    vectors = _vectors()
    path = tmp_path / "v.vec"
    write_vec(path, vectors, precision=9)
    some = read_vec(path, words=["nan", "der", "l'équipe"])
    assert some.words == ("der", "l'équipe", "nan")
    whole = read_vec(path)
    np.testing.assert_array_equal(some.matrix, whole.rows(some.words))


@pytest.mark.parametrize(
    ("words", "line", "fragment"),
    [
        (["of"], 4, "word 'of' has a value 'x' that is not a number"),
        (["nurse"], 6, "duplicate word 'nurse' (first at line 3)"),
    ],
)
def test_words_a_bad_listed_row_is_named_by_file_and_line(tmp_path, words, line, fragment):
    path = tmp_path / "w.vec"
    path.write_text(WORDS_VEC, encoding="utf-8")
    with pytest.raises(VecFormatError) as error:
        read_vec(path, words=words)
    assert f"{path}, line {line}: {fragment}" in str(error.value)


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        ("2 3\na 1 2 3\nb 1 2\n", 3, "'b' has 2 space-separated fields"),
        ("2 3\na 1 2 3\nb 1 inf 3\n", 3, "not finite"),
        ("3 3\na 1 2 3\nc 1 2 3\n", 4, "file ends after 2 rows"),
        ("two 3\na 1 2 3\n", 1, "header 'n d'"),
    ],
)
def test_words_bad_files_are_rejected_with_file_and_line(tmp_path, body, line, fragment):
    path = tmp_path / "bad.vec"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(VecFormatError) as error:
        read_vec(path, words=["b"])
    assert f"{path}, line {line}:" in str(error.value) and fragment in str(error.value)


def test_words_rows_of_other_words_are_not_parsed(tmp_path):
    """Only the listed rows are parsed: a malformed or undecodable row of another word
    costs nothing (the bios classifier reads its vocabulary from large files)."""
    path = tmp_path / "w.vec"
    path.write_bytes(b"4 2\nok 1 2\nbroken 1\n\xff\xfe 3 4\nzu 5 6\n")
    vectors = read_vec(path, errors="replace", words={"ok", "zu"})
    assert vectors.words == ("ok", "zu")
    np.testing.assert_array_equal(vectors.matrix, [[1, 2], [5, 6]])
    with pytest.raises(VecFormatError, match="line 3: word 'broken' has 1 space-separated"):
        read_vec(path, errors="replace", words=["broken"])


def test_write_refuses_words_that_cannot_be_read_back(tmp_path):
    with pytest.raises(ValueError, match="holds a space"):
        write_vec(tmp_path / "x.vec", Vectors(["a b"], np.ones((1, 2))))
    assert not (tmp_path / "x.vec").exists()


def test_a_parallel_write_gives_the_serial_bytes(tmp_path, monkeypatch):
    # 3 blocks of rows and a part of one, with words in several scripts
    n = 3 * vectors_module._WRITE_BLOCK_ROWS + 17
    rng = np.random.default_rng(1)
    words = [f"w{i}" if i % 3 else f"é{i}" for i in range(n)]
    vectors = Vectors(words, rng.standard_normal((n, 4)).astype(np.float32))
    write_vec(tmp_path / "serial.vec", vectors, workers=1)
    write_vec(tmp_path / "parallel.vec", vectors, workers=3)
    assert (tmp_path / "parallel.vec").read_bytes() == (tmp_path / "serial.vec").read_bytes()
    assert read_vec(tmp_path / "parallel.vec", cache=False).words == tuple(words)
    # the environment's setting, and a large file's default, choose processes too
    monkeypatch.setenv("MGBIAS_WRITE_WORKERS", "2")
    write_vec(tmp_path / "env.vec", vectors)
    assert (tmp_path / "env.vec").read_bytes() == (tmp_path / "serial.vec").read_bytes()
    monkeypatch.delenv("MGBIAS_WRITE_WORKERS")
    assert vectors_module._write_workers(None, vectors_module.PARALLEL_WRITE_VALUES - 1) == 1
    assert vectors_module._write_workers(None, vectors_module.PARALLEL_WRITE_VALUES) >= 1


def test_bad_write_worker_counts_are_refused(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="at least 1 worker, got 0"):
        write_vec(tmp_path / "x.vec", _vectors(), workers=0)
    monkeypatch.setenv("MGBIAS_WRITE_WORKERS", "many")
    with pytest.raises(ValueError, match="MGBIAS_WRITE_WORKERS='many': expected a whole number"):
        write_vec(tmp_path / "x.vec", _vectors())
    monkeypatch.setenv("MGBIAS_WRITE_WORKERS", "-1")
    with pytest.raises(ValueError, match="MGBIAS_WRITE_WORKERS must be at least 1, got -1"):
        write_vec(tmp_path / "x.vec", _vectors())
    assert not (tmp_path / "x.vec").exists()


def test_vectors_type_checks_and_normalises():
    with pytest.raises(ValueError, match="duplicate word 'a'"):
        Vectors(["a", "a"], np.ones((2, 2)))
    with pytest.raises(ValueError, match="2 words but 3 matrix rows"):
        Vectors(["a", "b"], np.ones((3, 2)))
    vectors = Vectors(["a", "b", "z"], [[3.0, 4.0], [1.0, 1.0], [0.0, 0.0]])
    unit = vectors.normalized()
    np.testing.assert_allclose(unit.vector("a"), [0.6, 0.8], rtol=1e-6)
    np.testing.assert_array_equal(unit.vector("z"), [0.0, 0.0])
    centred = vectors.head(2).normalized(center=True)
    # two unit rows centred are opposite; normalised again they are unit and antipodal
    np.testing.assert_allclose(centred.matrix[0], -centred.matrix[1], atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(centred.matrix, axis=1), 1.0, rtol=1e-6)
    with pytest.raises(KeyError, match="'q' is not in the vocabulary"):
        vectors.vector("q")
    np.testing.assert_allclose(unit_rows(np.array([[0.0, 2.0]])), [[0.0, 1.0]])


def test_muse_dictionary_spaces_tabs_and_several_translations(tmp_path):
    path = tmp_path / "en-es.txt"
    path.write_text("doctor médico\ndoctor\tmédica\n\nthe el\nthe  la\n", encoding="utf-8")
    pairs = read_dictionary(path)
    assert pairs == [("doctor", "médico"), ("doctor", "médica"), ("the", "el"), ("the", "la")]
    assert source_words(pairs) == ["doctor", "the"]
    assert translations(pairs)["doctor"] == {"médico", "médica"}
    write_dictionary(tmp_path / "out.txt", pairs)
    assert read_dictionary(tmp_path / "out.txt") == pairs
    with gzip.open(tmp_path / "d.txt.gz", "wt", encoding="utf-8") as stream:
        stream.write("a b\n")
    assert read_dictionary(tmp_path / "d.txt.gz") == [("a", "b")]
    assert dictionary_name("en", "es", TRAIN_SPLIT) == "en-es.0-5000.txt"
    assert dictionary_name("en", "es", TEST_SPLIT) == "en-es.5000-6500.txt"


def test_muse_dictionary_bad_line_named(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("a b\nc d e\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.txt, line 2: expected 'source target'"):
        read_dictionary(path)
