"""A parallel corpus of plain-text files, packed into the moses zip the workflow reads."""

from __future__ import annotations

import gzip

import pytest

from mgbias.corpora.checksums import sha256_file, verify_sidecar
from mgbias.corpora.opus import iter_moses_zip
from mgbias.corpora.parallel_files import write_moses_zip


def test_files_round_trip_through_the_moses_reader(tmp_path):
    (tmp_path / "c.en").write_text("she reads .\nhe writes .\r\nit rains .", encoding="utf-8")
    with gzip.open(tmp_path / "c.de.gz", "wt", encoding="utf-8") as handle:
        handle.write("sie liest .\ner schreibt .\nes regnet .\n")
    dest = tmp_path / "out" / "de-en.txt.zip"
    files = {"en": tmp_path / "c.en", "de": tmp_path / "c.de.gz"}
    digest = write_moses_zip(dest, "mine", files)
    assert digest == sha256_file(dest) == verify_sidecar(dest)
    assert list(iter_moses_zip(dest, "mine", "en", "de")) == [
        ("she reads .", "sie liest ."),
        ("he writes .", "er schreibt ."),
        ("it rains .", "es regnet ."),
    ]


def test_unequal_files_are_refused_naming_both_counts(tmp_path):
    (tmp_path / "c.en").write_text("a\nb\nc\n", encoding="utf-8")
    (tmp_path / "c.fi").write_text("a\nb\n", encoding="utf-8")
    dest = tmp_path / "en-fi.txt.zip"
    with pytest.raises(ValueError, match=r"c\.en has 3 lines but .*c\.fi has 2"):
        write_moses_zip(dest, "mine", {"en": tmp_path / "c.en", "fi": tmp_path / "c.fi"})
    assert list(tmp_path.glob("en-fi*")) == []  # nothing half written


def test_a_line_that_is_not_utf8_is_named(tmp_path):
    (tmp_path / "c.en").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "c.de").write_bytes("a\nGrüße\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"c\.de: line 2 is not valid UTF-8 \(byte 2"):
        write_moses_zip(
            tmp_path / "x.zip", "mine", {"en": tmp_path / "c.en", "de": tmp_path / "c.de"}
        )


def test_two_languages_are_needed(tmp_path):
    with pytest.raises(ValueError, match="needs two languages"):
        write_moses_zip(tmp_path / "x.zip", "mine", {"en": tmp_path / "c.en"})
