"""Streaming WET files written by warcio, including the awkward records."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from wetfiles import EN_LINE, write_wet

from mgbias.bios.wet import Page, WetError, iter_pages, parse_languages


def test_conversion_records_only_with_uri_language_and_text(tmp_path: Path) -> None:
    path = write_wet(
        tmp_path / "a.warc.wet.gz",
        [
            {"uri": "http://a/1", "text": EN_LINE, "lang": "eng,spa"},
            {"uri": "http://a/2", "text": "Sin cabecera.", "lang": None},
            {"uri": "http://a/3", "text": b""},
            {"uri": "http://a/4", "text": b"caf\xe9 \xc3\xa9t\xc3\xa9"},  # latin-1 byte, then UTF-8
        ],
    )
    pages = list(iter_pages(path))  # the warcinfo record is skipped
    assert pages == [
        Page("http://a/1", ("eng", "spa"), EN_LINE),
        Page("http://a/2", None, "Sin cabecera."),
        Page("http://a/3", None, ""),
        Page("http://a/4", None, "caf\ufffd été"),
    ]


def test_page_text_is_cut_at_max_chars(tmp_path: Path) -> None:
    path = write_wet(tmp_path / "b.warc.wet.gz", [{"uri": "u", "text": "x" * 50}])
    assert [p.text for p in iter_pages(path, max_chars=20)] == ["x" * 20]


def test_concatenated_gzip_members_of_two_files(tmp_path: Path) -> None:
    one = write_wet(tmp_path / "1.warc.wet.gz", [{"uri": "u1", "text": "one"}])
    two = write_wet(tmp_path / "2.warc.wet.gz", [{"uri": "u2", "text": "two"}])
    both = tmp_path / "both.warc.wet.gz"
    both.write_bytes(one.read_bytes() + two.read_bytes())
    assert [(p.uri, p.text) for p in iter_pages(both)] == [("u1", "one"), ("u2", "two")]


def test_parse_languages() -> None:
    assert parse_languages("ENG, fra") == ("eng", "fra")
    assert parse_languages("") is None
    assert parse_languages(None) is None


def test_not_a_warc_file_fails_with_its_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.warc.wet.gz"
    bad.write_bytes(gzip.compress(b"this is not a WARC record\n" * 10))
    with pytest.raises(WetError, match="bad.warc.wet.gz"):
        list(iter_pages(bad))


def test_truncated_gzip_fails_with_its_name(tmp_path: Path) -> None:
    good = write_wet(tmp_path / "g.warc.wet.gz", [{"uri": "u", "text": EN_LINE * 20}])
    cut = tmp_path / "cut.warc.wet.gz"
    cut.write_bytes(good.read_bytes()[:-40])
    with pytest.raises(WetError, match="cut.warc.wet.gz"):
        list(iter_pages(cut))
