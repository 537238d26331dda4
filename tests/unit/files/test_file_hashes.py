"""The sha256 of files, and the cache that keeps a large file's digest across processes."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from mgbias.files import file_hashes
from mgbias.files.file_hashes import file_sha256, hash_cache_dir

# FIPS 180-2, appendix B.1 and B.2
ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
ABC_LONG = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
LONG = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The hash cache in a temporary folder, every file "large", nothing remembered yet."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(file_hashes.HASH_CACHE_ENV, str(folder))
    monkeypatch.setattr(file_hashes, "CACHED_FROM_BYTES", 1)
    monkeypatch.setattr(file_hashes, "_HASHES", {})
    return folder


def forget():
    """What a new process starts with: nothing remembered in memory."""
    file_hashes._HASHES.clear()


def entries(folder):
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def test_digests_checked_by_hand_with_and_without_the_cache(tmp_path, cache, monkeypatch):
    path = tmp_path / "weights.bin"
    path.write_bytes(b"abc")
    assert file_sha256(path) == ABC  # hashed, entry written
    forget()
    assert file_sha256(path) == ABC  # read from the entry
    monkeypatch.setenv(file_hashes.HASH_CACHE_ENV, "off")
    forget()
    assert file_sha256(path) == ABC  # hashed again
    path.write_bytes(LONG)
    assert file_sha256(path) == ABC_LONG


def test_a_second_process_reads_the_entry_instead_of_the_file(tmp_path, cache, monkeypatch):
    path = tmp_path / "model.safetensors"
    path.write_bytes(b"abc")
    assert file_sha256(path) == ABC
    (entry,) = entries(cache)
    record = json.loads(entry.read_text())
    assert record["path"] == os.path.realpath(path) and record["sha256"] == ABC
    assert record["size"] == 3
    forget()

    def no_reading(real):
        raise AssertionError(f"{real} was hashed again")

    monkeypatch.setattr(file_hashes, "_hash_bytes", no_reading)
    assert file_sha256(path) == ABC


def test_a_changed_file_is_hashed_again_even_with_its_old_size_and_time(tmp_path, cache):
    path = tmp_path / "model.safetensors"
    path.write_bytes(b"abc")
    old = os.stat(path)
    assert file_sha256(path) == ABC
    path.write_bytes(b"abd")  # same size; the time set back: only the change time tells
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns))
    forget()
    assert file_sha256(path) == hashlib.sha256(b"abd").hexdigest()
    forget()
    assert file_sha256(path) == hashlib.sha256(b"abd").hexdigest()  # the entry was rewritten
    assert len(entries(cache)) == 1


def test_a_file_replaced_by_another_is_hashed_again(tmp_path, cache):
    path, other = tmp_path / "model.safetensors", tmp_path / "other"
    path.write_bytes(b"abc")
    other.write_bytes(LONG)
    assert file_sha256(path) == ABC
    os.replace(other, path)
    forget()
    assert file_sha256(path) == ABC_LONG


def test_an_entry_is_only_used_for_its_own_path(tmp_path, cache):
    first, second = tmp_path / "a.bin", tmp_path / "b.bin"
    first.write_bytes(b"abc")
    second.write_bytes(b"abc")
    file_sha256(first)
    (entry,) = entries(cache)
    # the first file's entry under the second's name, with the second's stamp and a false digest
    record = json.loads(entry.read_text())
    record.update(file_hashes._stamp(os.stat(second)), sha256="0" * 64)
    entry.with_name(file_hashes._entry_path(os.path.realpath(second)).name).write_text(
        json.dumps(record)
    )
    forget()
    assert file_sha256(second) == ABC


@pytest.mark.parametrize(
    "damage",
    ["{not json", "[]", '{"path": 1}', "BAD_DIGEST"],
    ids=["not-json", "not-a-record", "wrong-types", "bad-digest"],
)
def test_a_damaged_entry_is_passed_over_and_rewritten(tmp_path, cache, damage):
    path = tmp_path / "model.safetensors"
    path.write_bytes(b"abc")
    file_sha256(path)
    (entry,) = entries(cache)
    if damage == "BAD_DIGEST":
        record = json.loads(entry.read_text())
        record["sha256"] = "not a digest"
        damage = json.dumps(record)
    entry.write_text(damage)
    forget()
    assert file_sha256(path) == ABC
    assert json.loads(entry.read_text())["sha256"] == ABC


def test_small_files_and_an_unwritable_cache_leave_no_entry(tmp_path, cache, monkeypatch):
    path = tmp_path / "table.csv"
    path.write_bytes(b"abc")
    monkeypatch.setattr(file_hashes, "CACHED_FROM_BYTES", 4)
    assert file_sha256(path) == ABC
    assert entries(cache) == []
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv(file_hashes.HASH_CACHE_ENV, str(blocked / "sha256"))
    monkeypatch.setattr(file_hashes, "CACHED_FROM_BYTES", 1)
    forget()
    assert file_sha256(path) == ABC


def test_cache_folder_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(file_hashes.HASH_CACHE_ENV, raising=False)
    monkeypatch.delenv("MGBIAS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert hash_cache_dir() == tmp_path / "mgbias" / "sha256"
    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(tmp_path / "root"))
    assert hash_cache_dir() == tmp_path / "root" / "sha256"
    monkeypatch.setenv(file_hashes.HASH_CACHE_ENV, "OFF")
    assert hash_cache_dir() is None
    monkeypatch.setenv(file_hashes.HASH_CACHE_ENV, "")
    assert hash_cache_dir() is None
    monkeypatch.setenv(file_hashes.HASH_CACHE_ENV, str(tmp_path / "elsewhere"))
    assert hash_cache_dir() == tmp_path / "elsewhere"


def test_a_missing_file_is_an_error(tmp_path, cache):
    with pytest.raises(FileNotFoundError):
        file_sha256(tmp_path / "missing.bin")
