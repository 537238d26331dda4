"""fetch() against a loopback HTTP server and file:// URLs, with real zip and gz files."""

from __future__ import annotations

import gzip
import hashlib
import socket
import zipfile
from pathlib import Path

import pytest
from httpmirror import Misbehaviour, serve_directory

from mgbias.corpora.checksums import (
    ChecksumError,
    read_sidecar,
    sha256_file,
    verify_sidecar,
    write_sidecar,
)
from mgbias.corpora.download import DownloadError, fetch, file_url_path

ZIP_PATH = "OPUS-TED2020/v1/moses/de-en.txt.zip"
DE_LINES = "".join(f"Satz Nummer {i}.\n" for i in range(2000))
EN_LINES = "".join(f"Sentence number {i}.\n" for i in range(2000))


def make_zip(path: Path, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        archive.writestr("README", "demo\n")
        archive.writestr("TED2020.de-en.de", DE_LINES)
        archive.writestr("TED2020.de-en.en", EN_LINES)
    return path.read_bytes()


def flip_byte_inside_member(archive_bytes: bytes, payload: bytes) -> bytes:
    """Flip one byte in the middle of a stored (uncompressed) member's data."""
    start = archive_bytes.index(payload)  # stored members keep their bytes verbatim
    position = start + len(payload) // 2
    data = bytearray(archive_bytes)
    data[position] ^= 0xFF
    return bytes(data)


@pytest.fixture()
def mirror(tmp_path: Path) -> Path:
    root = tmp_path / "mirror"
    make_zip(root / ZIP_PATH)
    (root / "words.txt").write_text("she\nher\nwoman\n", encoding="utf-8")
    text = ("line of WET text\n" * 3000).encode()
    # Two gzip members back to back, like a Common Crawl WET file.
    (root / "crawl.warc.wet.gz").write_bytes(gzip.compress(text) + gzip.compress(text))
    return root


@pytest.fixture()
def out_dir(tmp_path: Path) -> Path:
    path = tmp_path / "out"
    path.mkdir()
    return path


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def names_in(directory: Path) -> set[str]:
    return {path.name for path in directory.iterdir()}


@pytest.mark.parametrize("relative", [ZIP_PATH, "crawl.warc.wet.gz", "words.txt"])
def test_http_download_writes_file_and_sidecar(mirror, out_dir, relative):
    dest = out_dir / Path(relative).name
    with serve_directory(mirror) as base_url:
        digest = fetch(f"{base_url}/{relative}", dest, progress=False)
    expected = sha256((mirror / relative).read_bytes())
    assert digest == expected
    assert dest.read_bytes() == (mirror / relative).read_bytes()
    sidecar = out_dir / f"{dest.name}.sha256"
    assert sidecar.read_text(encoding="utf-8") == f"{expected}  {dest.name}\n"
    assert verify_sidecar(dest) == expected
    assert names_in(out_dir) == {dest.name, sidecar.name}


def test_download_creates_missing_parent_directories(mirror, tmp_path):
    dest = tmp_path / "a" / "b" / "words.txt"
    with serve_directory(mirror) as base_url:
        fetch(f"{base_url}/words.txt", dest, progress=False)
    assert dest.read_text(encoding="utf-8") == "she\nher\nwoman\n"


def test_404_raises_and_leaves_nothing(mirror, out_dir):
    dest = out_dir / "missing.zip"
    plan = Misbehaviour()
    with serve_directory(mirror, misbehaviour=plan) as base_url:
        url = f"{base_url}/OPUS-TED2020/v1/moses/xx-yy.txt.zip"
        with pytest.raises(DownloadError, match=r"HTTP status 404 \(not found\)") as info:
            fetch(url, dest, progress=False, retry_wait=0)
    assert url in str(info.value) and str(dest) in str(info.value)
    assert names_in(out_dir) == set()
    assert len(plan.requests) == 1  # an error status is not retried


def test_server_error_status_is_reported_and_not_retried(mirror, out_dir):
    plan = Misbehaviour(status={"words.txt": 500})
    with serve_directory(mirror, misbehaviour=plan) as base_url:
        with pytest.raises(DownloadError, match="HTTP status 500"):
            fetch(f"{base_url}/words.txt", out_dir / "words.txt", progress=False, retry_wait=0)
    assert plan.requests == ["words.txt"]
    assert names_in(out_dir) == set()


def test_body_shorter_than_content_length_is_truncation(mirror, out_dir):
    size = (mirror / ZIP_PATH).stat().st_size
    plan = Misbehaviour(truncate_at={ZIP_PATH: 100})
    with serve_directory(mirror, misbehaviour=plan) as base_url:
        with pytest.raises(DownloadError, match=rf"truncated: got 100 of {size} bytes"):
            fetch(f"{base_url}/{ZIP_PATH}", out_dir / "de-en.txt.zip", progress=False)
    assert names_in(out_dir) == set()
    assert len(plan.requests) == 1


def test_truncated_zip_with_matching_length_fails_archive_check(mirror, out_dir):
    whole = (mirror / ZIP_PATH).read_bytes()
    (mirror / "cut.zip").write_bytes(whole[: len(whole) // 2])
    with serve_directory(mirror) as base_url:
        with pytest.raises(DownloadError, match="corrupt archive.*not a readable zip"):
            fetch(f"{base_url}/cut.zip", out_dir / "cut.zip", progress=False)
    assert names_in(out_dir) == set()


def test_truncated_gz_with_matching_length_fails_archive_check(mirror, out_dir):
    whole = (mirror / "crawl.warc.wet.gz").read_bytes()
    (mirror / "cut.wet.gz").write_bytes(whole[: len(whole) - 40])
    with serve_directory(mirror) as base_url:
        with pytest.raises(DownloadError, match="corrupt archive.*gzip"):
            fetch(f"{base_url}/cut.wet.gz", out_dir / "cut.wet.gz", progress=False)
    assert names_in(out_dir) == set()


def test_flipped_byte_in_stored_zip_member_fails_crc(mirror, out_dir):
    whole = make_zip(mirror / "stored.zip", compression=zipfile.ZIP_STORED)
    bad = flip_byte_inside_member(whole, EN_LINES.encode())
    (mirror / "stored.zip").write_bytes(bad)
    with serve_directory(mirror) as base_url:
        with pytest.raises(DownloadError, match=r"'TED2020.de-en.en' fails its CRC-32 check"):
            fetch(f"{base_url}/stored.zip", out_dir / "stored.zip", progress=False)
    assert names_in(out_dir) == set()


def test_flipped_bytes_in_deflated_zip_member_are_detected(mirror, out_dir):
    whole = bytearray((mirror / ZIP_PATH).read_bytes())
    with zipfile.ZipFile(mirror / ZIP_PATH) as archive:
        info = archive.getinfo("TED2020.de-en.de")
    # Local header: 30 bytes + name + extra, then the compressed data.
    data_start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(5, 15):
        whole[data_start + offset] ^= 0x55
    (mirror / "bad.zip").write_bytes(bytes(whole))
    with serve_directory(mirror) as base_url:
        with pytest.raises(DownloadError, match="corrupt archive"):
            fetch(f"{base_url}/bad.zip", out_dir / "bad.zip", progress=False)
    assert names_in(out_dir) == set()


def test_corrupted_gz_fails_archive_check(mirror, out_dir):
    whole = bytearray((mirror / "crawl.warc.wet.gz").read_bytes())
    whole[len(whole) // 3] ^= 0xFF
    (mirror / "bad.wet.gz").write_bytes(bytes(whole))
    with serve_directory(mirror) as base_url:
        with pytest.raises(DownloadError, match="corrupt archive"):
            fetch(f"{base_url}/bad.wet.gz", out_dir / "bad.wet.gz", progress=False)
    assert names_in(out_dir) == set()


def test_garbage_under_a_non_archive_name_is_not_content_checked(mirror, out_dir):
    (mirror / "notes.txt").write_bytes(b"PK\x03\x04 not really a zip")
    with serve_directory(mirror) as base_url:
        fetch(f"{base_url}/notes.txt", out_dir / "notes.txt", progress=False)
    assert (out_dir / "notes.txt").read_bytes() == b"PK\x03\x04 not really a zip"


def test_expected_sha256_mismatch_names_both_digests(mirror, out_dir):
    actual = sha256((mirror / "words.txt").read_bytes())
    wrong = "0" * 64
    with serve_directory(mirror) as base_url:
        with pytest.raises(DownloadError, match=f"expected {wrong}, got {actual}"):
            fetch(f"{base_url}/words.txt", out_dir / "w.txt", expected_sha256=wrong)
        assert names_in(out_dir) == set()
        digest = fetch(f"{base_url}/words.txt", out_dir / "w.txt", expected_sha256=actual.upper())
    assert digest == actual


def test_malformed_expected_sha256_is_rejected(out_dir):
    with pytest.raises(ValueError, match="64 hex characters"):
        fetch("file:///nowhere", out_dir / "x", expected_sha256="abc")


def test_file_url_relative_to_working_directory(mirror, out_dir, monkeypatch):
    monkeypatch.chdir(mirror.parent)
    digest = fetch(f"file://mirror/{ZIP_PATH}", out_dir / "de-en.txt.zip", progress=False)
    assert digest == sha256((mirror / ZIP_PATH).read_bytes())
    assert file_url_path("file://mirror/a%20b.txt") == Path("mirror/a b.txt")


def test_file_url_absolute(mirror, out_dir):
    url = f"file://{(mirror / 'words.txt').resolve()}"
    assert url.startswith("file:///")
    digest = fetch(url, out_dir / "words.txt", progress=False)
    assert digest == sha256(b"she\nher\nwoman\n")
    assert read_sidecar(out_dir / "words.txt") == digest


def test_file_url_missing_file_is_not_found(tmp_path, out_dir):
    with pytest.raises(DownloadError, match="not found"):
        fetch(f"file://{tmp_path}/absent.zip", out_dir / "absent.zip", progress=False)
    assert names_in(out_dir) == set()


def test_file_url_corrupt_archive_is_rejected_too(mirror, out_dir):
    whole = (mirror / ZIP_PATH).read_bytes()
    (mirror / "cut.zip").write_bytes(whole[:-30])
    with pytest.raises(DownloadError, match="corrupt archive"):
        fetch(f"file://{mirror}/cut.zip", out_dir / "cut.zip", progress=False)


def test_unsupported_scheme(out_dir):
    with pytest.raises(DownloadError, match="unsupported URL scheme 'ftp'"):
        fetch("ftp://example.org/x.zip", out_dir / "x.zip", progress=False)


def test_failure_leaves_existing_destination_and_sidecar_untouched(mirror, out_dir):
    dest = out_dir / "de-en.txt.zip"
    dest.write_bytes(b"previous content")
    write_sidecar(dest, sha256(b"previous content"))
    before = {name: (out_dir / name).read_bytes() for name in names_in(out_dir)}
    plan = Misbehaviour(truncate_at={ZIP_PATH: 10})
    with serve_directory(mirror, misbehaviour=plan) as base_url:
        with pytest.raises(DownloadError, match="truncated"):
            fetch(f"{base_url}/{ZIP_PATH}", dest, progress=False)
        with pytest.raises(DownloadError, match="SHA-256 mismatch"):
            fetch(f"{base_url}/words.txt", dest, expected_sha256="1" * 64, progress=False)
    after = {name: (out_dir / name).read_bytes() for name in names_in(out_dir)}
    assert after == before
    assert verify_sidecar(dest) == sha256(b"previous content")


def test_successful_download_replaces_existing_destination(mirror, out_dir):
    dest = out_dir / "words.txt"
    dest.write_bytes(b"old")
    write_sidecar(dest, sha256(b"old"))
    with serve_directory(mirror) as base_url:
        digest = fetch(f"{base_url}/words.txt", dest, progress=False)
    assert dest.read_bytes() == b"she\nher\nwoman\n"
    assert verify_sidecar(dest) == digest


def test_dropped_connections_are_retried(mirror, out_dir):
    plan = Misbehaviour(drop_first={"words.txt": 2})
    with serve_directory(mirror, misbehaviour=plan) as base_url:
        digest = fetch(
            f"{base_url}/words.txt", out_dir / "words.txt", retries=2, retry_wait=0, progress=False
        )
    assert plan.requests == ["words.txt"] * 3
    assert digest == sha256(b"she\nher\nwoman\n")


def test_gives_up_after_all_retries(mirror, out_dir):
    plan = Misbehaviour(drop_first={"words.txt": 5})
    with serve_directory(mirror, misbehaviour=plan) as base_url:
        with pytest.raises(DownloadError, match=r"gave up after 3 attempt\(s\)"):
            fetch(
                f"{base_url}/words.txt",
                out_dir / "words.txt",
                retries=2,
                retry_wait=0,
                progress=False,
            )
    assert len(plan.requests) == 3
    assert names_in(out_dir) == set()


def test_connection_refused_is_a_download_error(out_dir):
    with socket.socket() as probe:  # find a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(DownloadError, match="cannot connect"):
        fetch(f"http://127.0.0.1:{port}/x.zip", out_dir / "x.zip", retries=0, progress=False)
    assert names_in(out_dir) == set()


def test_verify_sidecar_detects_a_modified_file(tmp_path):
    path = tmp_path / "data.gz"
    path.write_bytes(b"original")
    digest = sha256_file(path)
    write_sidecar(path, digest)
    assert verify_sidecar(path) == digest == sha256(b"original")
    path.write_bytes(b"originaL")
    with pytest.raises(ChecksumError, match=f"records {digest}, file has {sha256(b'originaL')}"):
        verify_sidecar(path)


def test_verify_sidecar_missing_or_malformed(tmp_path):
    path = tmp_path / "data.gz"
    path.write_bytes(b"x")
    with pytest.raises(ChecksumError, match="sidecar .*data.gz.sha256 is missing"):
        verify_sidecar(path)
    (tmp_path / "data.gz.sha256").write_text("not a digest\n", encoding="utf-8")
    with pytest.raises(ChecksumError, match="malformed sidecar"):
        verify_sidecar(path)
    (tmp_path / "data.gz.sha256").write_text(f"{sha256(b'x')}  other.gz\n", encoding="utf-8")
    with pytest.raises(ChecksumError, match="names file 'other.gz'"):
        verify_sidecar(path)
    # sha256sum's binary-mode marker is accepted
    (tmp_path / "data.gz.sha256").write_text(f"{sha256(b'x')} *data.gz\n", encoding="utf-8")
    assert verify_sidecar(path) == sha256(b"x")
