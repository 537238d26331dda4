"""The binary cache of parsed .vec files (mgbias.embeddings.veccache): a cached read is the
text read, a changed file is parsed again, a damaged entry is rebuilt, the switch works."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from mgbias.embeddings import veccache
from mgbias.embeddings import vectors as vectors_module
from mgbias.embeddings.veccache import cache_enabled, entry_paths, file_sha256, vec_cache_dir
from mgbias.embeddings.vectors import VecFormatError, Vectors, read_vec, read_vectors, write_vec
from mgbias.errors import EncodingError


@pytest.fixture(autouse=True)
def cache_root(tmp_path, monkeypatch) -> Path:
    """A cache of each test's own, switched on."""
    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MGBIAS_VEC_CACHE", raising=False)
    return tmp_path / "cache" / "vec"


def _entry(path: Path, errors: str = "strict") -> tuple[Path, Path]:
    return entry_paths(file_sha256(path), errors)


def _entries(root: Path) -> list[str]:
    return sorted(p.name for p in root.glob("*.npy")) if root.exists() else []


def _same(a: Vectors, b: Vectors) -> None:
    assert a.words == b.words
    assert a.matrix.dtype == b.matrix.dtype == np.float32
    assert a.matrix.shape == b.matrix.shape
    assert a.matrix.tobytes() == b.matrix.tobytes()  # bit for bit, -0.0 and all


def _no_parsing(monkeypatch) -> None:
    """Fail any parse of the text from here on: what follows must come from the cache."""

    def refuse(*args):
        raise AssertionError("the text was parsed; expected the cached rows")

    monkeypatch.setattr(vectors_module, "_read_rows", refuse)


# fastText's trailing spaces; words that are not ASCII, hold tabs or quotes, look like
# numbers or like NaN; values with exponents, signs and -0
ODD = (
    "7 3\n"
    "der 1 2 3 \n"
    "l'équipe -0 1e-3 -2.5E+2 \n"
    "naïve\ttab 0.1 0.2 0.3 \n"
    '" 4 5 6 \n'
    "1.5 7 8 9 \n"
    "nan 1 1 1 \n"
    "日本語 3.4028234e38 -1.17549435e-38 1e-45 \n"
)


@pytest.mark.parametrize("maxload", [-1, 3])
def test_cached_read_equals_the_text_read_bit_for_bit(tmp_path, monkeypatch, cache_root, maxload):
    path = tmp_path / "odd.vec"
    path.write_text(ODD, encoding="utf-8")
    text = read_vec(path, maxload, cache=False)
    assert _entries(cache_root) == []
    first = read_vec(path, maxload)  # parses and stores
    assert len(_entries(cache_root)) == 1
    _no_parsing(monkeypatch)
    again = read_vec(path, maxload)
    _same(text, first)
    _same(text, again)
    assert text.words[:3] == ("der", "l'équipe", "naïve\ttab")
    assert np.signbit(again.matrix[1, 0])  # -0 stays -0


def test_random_vectors_round_trip_through_the_cache(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    path = tmp_path / "r.vec"
    words = [f"w{i}" for i in range(500)]
    write_vec(path, Vectors(words, rng.standard_normal((500, 20))), precision=9)
    text, head = read_vec(path, cache=False), read_vectors(path, 100, cache=False)
    read_vec(path)
    _no_parsing(monkeypatch)
    _same(text, read_vec(path))
    _same(head, read_vectors(path, 100))


def test_duplicates_and_errors_modes_as_the_text_reader(tmp_path, monkeypatch):
    path = tmp_path / "dup.vec"
    path.write_bytes(b"4 1\na 1\nb\xff 2\na 3\nc 4\n")
    text = read_vec(path, errors="replace", duplicates="first", cache=False)
    with pytest.raises(VecFormatError) as parsed:
        read_vec(path, errors="replace", cache=False)
    read_vec(path, errors="replace", duplicates="first")
    # the decoding mode is part of the entry: other modes are not served the replaced words
    assert read_vec(path, errors="ignore", duplicates="first").words == ("a", "b", "c")
    with pytest.raises(EncodingError, match="byte 0xff is not UTF-8"):
        read_vec(path, duplicates="first")
    _no_parsing(monkeypatch)
    cached = read_vec(path, errors="replace", duplicates="first")
    _same(text, cached)
    assert cached.words == ("a", "b\ufffd", "c")
    with pytest.raises(VecFormatError) as error:
        read_vec(path, errors="replace")
    assert str(error.value) == str(parsed.value)
    assert f"{path}, line 4: duplicate word 'a' (first at line 2)" in str(error.value)


BAD = [
    ("3 3\na 1 2 3\nc 1 2 3\n", "line 4: file ends after 2 rows; the header promises 3"),
    ("2 3\na 1 2 3\nb 1 2\n", "line 3: word 'b' has 2 space-separated fields"),
    ("2 3\na 1 2 3\n\nb 1 2 3\n", "line 3"),
    ("2 3\na 1 2 3\nb 1 x 3\n", "line 3: word 'b' has a value 'x' that is not a number"),
    ("2 2\na 1 2\nb 1 inf\n", "line 3: word 'b' has a value that is not finite"),
    ("two 3\na 1 2 3\n", "line 1: expected the header 'n d'"),
]


@pytest.mark.parametrize(("body", "fragment"), BAD)
def test_a_bad_file_raises_the_text_readers_error_and_caches_nothing(
    tmp_path, cache_root, body, fragment
):
    path = tmp_path / "bad.vec"
    path.write_text(body, encoding="utf-8")
    messages = []
    for cache in (False, True, True):
        with pytest.raises(VecFormatError) as error:
            read_vec(path, cache=cache)
        messages.append(str(error.value))
    assert len(set(messages)) == 1 and f"{path}, {fragment}" in messages[0]
    assert _entries(cache_root) == []


def test_a_changed_file_of_the_same_size_is_parsed_again(tmp_path):
    path = tmp_path / "v.vec"
    path.write_text("2 2\na 1 2\nb 3 4\n", encoding="utf-8")
    assert read_vec(path).matrix.tolist() == [[1, 2], [3, 4]]
    path.write_text("2 2\na 5 6\nb 7 8\n", encoding="utf-8")  # same size, same second
    assert read_vec(path).matrix.tolist() == [[5, 6], [7, 8]]
    os.replace(tmp_path / "v.vec", tmp_path / "moved.vec")
    (tmp_path / "v.vec").write_text("2 2\nz 1 2\nb 3 4\n", encoding="utf-8")
    assert read_vec(tmp_path / "v.vec").words == ("z", "b")


@pytest.fixture
def hashed(monkeypatch) -> list:
    """The paths the cache hashes, in order (the hashing itself unchanged)."""
    calls: list = []
    real = veccache.file_sha256
    monkeypatch.setattr(veccache, "file_sha256", lambda p: calls.append(p) or real(p))
    return calls


def test_a_trusted_stat_record_spares_the_hashing(tmp_path, monkeypatch, hashed):
    """Once a file's time stamps are older than its hashing, a read whose stat matches
    takes the recorded sha256; a rewrite (other time stamps) is hashed again."""
    monkeypatch.setattr(veccache, "STAT_MARGIN_NS", 0)
    path = tmp_path / "v.vec"
    path.write_text("2 2\na 1 2\nb 3 4\n", encoding="utf-8")
    read_vec(path)
    read_vec(path)
    read_vec(path)
    assert len(hashed) == 1
    stat = path.stat()
    path.write_text("2 2\na 5 6\nb 7 8\n", encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert read_vec(path).matrix.tolist() == [[5, 6], [7, 8]]
    assert len(hashed) == 2


def test_a_racy_stat_record_is_not_trusted(tmp_path, hashed):
    """A file hashed within STAT_MARGIN_NS of its last change is hashed on every read."""
    path = tmp_path / "v.vec"
    path.write_text("1 1\na 1\n", encoding="utf-8")
    read_vec(path)
    read_vec(path)
    assert len(hashed) == 2


def _build(tmp_path) -> tuple[Path, Vectors]:
    path = tmp_path / "v.vec"
    rng = np.random.default_rng(1)
    write_vec(path, Vectors([f"w{i}" for i in range(50)], rng.standard_normal((50, 4))))
    read_vec(path)
    return path, read_vec(path, cache=False)


def _truncate(matrix: Path, words: Path) -> None:
    matrix.write_bytes(matrix.read_bytes()[:300])


def _garbage(matrix: Path, words: Path) -> None:
    matrix.write_bytes(b"\x00not a numpy file" * 40)


def _pickled(matrix: Path, words: Path) -> None:
    np.save(matrix, np.array([{"a": 1}], dtype=object), allow_pickle=True)


def _bad_json(matrix: Path, words: Path) -> None:
    words.write_text('{"format": 1, "words": [', encoding="utf-8")


def _short_words(matrix: Path, words: Path) -> None:
    meta = json.loads(words.read_text(encoding="utf-8"))
    meta["words"] = meta["words"][:-1]
    words.write_text(json.dumps(meta), encoding="utf-8")


def _other_shape(matrix: Path, words: Path) -> None:
    np.save(matrix, np.zeros((50, 3), dtype=np.float32))


def _float64(matrix: Path, words: Path) -> None:
    np.save(matrix, np.zeros((50, 4)))


def _missing(matrix: Path, words: Path) -> None:
    words.unlink()


@pytest.mark.parametrize(
    "damage",
    [_truncate, _garbage, _pickled, _bad_json, _short_words, _other_shape, _float64, _missing],
)
def test_a_damaged_entry_is_parsed_again_and_rebuilt(tmp_path, monkeypatch, damage):
    path, text = _build(tmp_path)
    matrix, words = _entry(path)
    good = matrix.read_bytes(), words.read_bytes()
    damage(matrix, words)
    _same(text, read_vec(path))
    assert (matrix.read_bytes(), words.read_bytes()) == good
    _no_parsing(monkeypatch)
    _same(text, read_vec(path))


def test_the_cache_is_what_a_later_read_returns_and_the_switch_bypasses_it(
    tmp_path, monkeypatch, cache_root
):
    """An entry whose values were replaced (consistently) is served by a cached read; with
    the cache off, by parameter or by MGBIAS_VEC_CACHE=0, the text is read instead."""
    path, text = _build(tmp_path)
    matrix, _ = _entry(path)
    np.save(matrix, np.full((50, 4), 7, dtype=np.float32))
    assert (read_vec(path).matrix == 7).all()
    assert (read_vec(path, words=["w3"]).matrix == 7).all()
    _same(text, read_vec(path, cache=False))
    monkeypatch.setenv("MGBIAS_VEC_CACHE", "0")
    _same(text, read_vec(path))
    assert (read_vec(path, cache=True).matrix == 7).all()


@pytest.mark.parametrize(
    ("value", "enabled"), [(None, True), ("1", True), ("0", False), ("off", False), ("No", False)]
)
def test_the_switch_reads_the_environment(monkeypatch, value, enabled):
    if value is not None:
        monkeypatch.setenv("MGBIAS_VEC_CACHE", value)
    assert cache_enabled() is enabled
    assert cache_enabled(True) is True and cache_enabled(False) is False


def test_with_the_cache_off_nothing_is_written(tmp_path, monkeypatch, cache_root):
    path = tmp_path / "v.vec"
    path.write_text("1 1\na 1\n", encoding="utf-8")
    read_vec(path, cache=False)
    monkeypatch.setenv("MGBIAS_VEC_CACHE", "0")
    read_vec(path)
    assert not cache_root.exists()


def test_the_cache_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("MGBIAS_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert vec_cache_dir() == tmp_path / "xdg" / "mgbias" / "vec"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert vec_cache_dir() == tmp_path / "home" / ".cache" / "mgbias" / "vec"
    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(tmp_path / "mine"))
    assert vec_cache_dir() == tmp_path / "mine" / "vec"


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(blocker))
    path = tmp_path / "v.vec"
    path.write_text("2 1\na 1\nb 2\n", encoding="utf-8")
    assert read_vec(path).words == ("a", "b")
    assert "cannot write the cache entry" in caplog.text


def test_a_longer_read_replaces_a_shorter_entry_and_a_shorter_read_slices_it(
    tmp_path, monkeypatch, cache_root
):
    path = tmp_path / "v.vec"
    path.write_text("3 1\na 1\nb 2\nc 3\n", encoding="utf-8")
    assert read_vec(path, maxload=2).words == ("a", "b")
    matrix, words = _entry(path)
    assert json.loads(words.read_text())["rows"] == 2
    assert read_vec(path).words == ("a", "b", "c")
    assert json.loads(words.read_text())["rows"] == 3 and len(_entries(cache_root)) == 1
    _no_parsing(monkeypatch)
    assert read_vec(path, maxload=1).words == ("a",)
    assert read_vec(path, maxload=1).matrix.tolist() == [[1]]
    assert read_vec(path, maxload=2, words=["c", "b"]).words == ("b",)


def test_rows_past_maxload_are_still_not_read(tmp_path, cache_root):
    path = tmp_path / "tail.vec"
    path.write_text("3 2\na 1 2\nb 3 4\nc broken\n", encoding="utf-8")
    assert read_vec(path, maxload=2).words == ("a", "b")
    with pytest.raises(VecFormatError, match="line 4"):
        read_vec(path)
    assert len(_entries(cache_root)) == 1  # the two good rows


def test_words_are_taken_from_the_cached_rows(tmp_path, monkeypatch):
    path = tmp_path / "w.vec"
    path.write_text("5 2\nthe 1 2\nnurse 3 4\nof 5 6\npoet 7 8\nnurse 9 9\n", encoding="utf-8")
    wanted = ["poet", "absent", "nurse"]
    text = read_vec(path, duplicates="first", words=wanted, cache=False)
    run = read_vec(path, duplicates="first", words=["of", "the", "poet", "nurse"], cache=False)
    with pytest.raises(VecFormatError) as parsed:
        read_vec(path, words=["of", "nurse"], cache=False)
    read_vec(path, duplicates="first")
    _no_parsing(monkeypatch)
    _same(text, read_vec(path, duplicates="first", words=wanted))
    _same(run, read_vec(path, duplicates="first", words=["of", "the", "poet", "nurse"]))
    assert text.words == ("nurse", "poet")
    assert read_vec(path, words=["the", "poet"]).words == ("the", "poet")  # no duplicate
    assert read_vec(path, words=[]).matrix.shape == (0, 2)
    with pytest.raises(VecFormatError) as error:
        read_vec(path, words=["of", "nurse"])
    assert str(error.value) == str(parsed.value)
    assert f"{path}, line 6: duplicate word 'nurse' (first at line 3)" in str(error.value)


def test_words_of_a_file_with_a_bad_row_elsewhere_are_read_from_the_text(tmp_path, cache_root):
    """Only the listed rows are checked, as without the cache: the whole file does not
    parse, so it is not cached, and the listed rows are read from the text."""
    path = tmp_path / "w.vec"
    path.write_bytes(b"4 2\nok 1 2\nbroken 1\n\xff\xfe 3 4\nzu 5 6\n")
    for _ in range(2):
        vectors = read_vec(path, errors="replace", words={"ok", "zu"})
        assert vectors.words == ("ok", "zu")
        assert vectors.matrix.tolist() == [[1, 2], [5, 6]]
    assert _entries(cache_root) == []
    with pytest.raises(VecFormatError, match="line 3: word 'broken' has 1 space-separated"):
        read_vec(path, errors="replace", words=["broken"])


def test_a_write_killed_midway_leaves_no_entry(tmp_path, monkeypatch, cache_root):
    """The entry's files appear together once complete: an interrupted write leaves
    neither them nor a partial file, and the next read writes the entry."""
    path = tmp_path / "v.vec"
    path.write_text("2 2\na 1 2\nb 3 4\n", encoding="utf-8")
    text = read_vec(path, cache=False)
    real_save = np.save

    def killed(stream, array, **options):
        stream.write(b"\x93NUMPY partial")
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "save", killed)
    with pytest.raises(KeyboardInterrupt):
        read_vec(path)
    left = sorted(p.name for p in cache_root.iterdir() if p.is_file())
    assert left == []  # no entry, no .partial- file
    monkeypatch.setattr(np, "save", real_save)
    _same(text, read_vec(path))
    assert len(_entries(cache_root)) == 1
