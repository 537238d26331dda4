"""Reading OPUS moses zips built in the real layout."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from mgbias.corpora.opus import iter_moses_zip, moses_member_names, opus_pair


def write_moses_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README", b"TED2020 v1\n")
        archive.writestr("LICENSE", b"CC BY-NC-ND 4.0\n")
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.fixture()
def ted_zip(tmp_path: Path) -> Path:
    german = "Er ist Arzt.\nSie ist Ärztin.\n\nDanke schön.\n".encode()
    english = b"He is a doctor.\r\nShe is a doctor.\r\n\r\nThank you.\r\n"  # CRLF
    return write_moses_zip(
        tmp_path / "de-en.txt.zip", {"TED2020.de-en.de": german, "TED2020.de-en.en": english}
    )


def test_pair_names_are_sorted():
    assert opus_pair("en", "de") == "de-en"
    assert opus_pair("de", "en") == "de-en"
    assert opus_pair("en", "zh_cn") == "en-zh_cn"
    assert opus_pair("pt", "en") == "en-pt"
    with pytest.raises(ValueError, match="two different languages"):
        opus_pair("en", "en")


def test_member_names_follow_argument_order():
    assert moses_member_names("TED2020", "en", "de") == ("TED2020.de-en.en", "TED2020.de-en.de")
    assert moses_member_names("GlobalVoices", "es", "en") == (
        "GlobalVoices.en-es.es",
        "GlobalVoices.en-es.en",
    )


def test_pairs_in_requested_order_with_terminators_stripped(ted_zip):
    pairs = list(iter_moses_zip(ted_zip, "TED2020", "en", "de"))
    assert pairs == [
        ("He is a doctor.", "Er ist Arzt."),
        ("She is a doctor.", "Sie ist Ärztin."),
        ("", ""),
        ("Thank you.", "Danke schön."),
    ]
    reversed_pairs = list(iter_moses_zip(ted_zip, "TED2020", "de", "en"))
    assert reversed_pairs == [(tgt, src) for src, tgt in pairs]


def test_only_newline_separates_lines(tmp_path):
    # U+2028, a lone \r and a form feed inside a sentence must not split it.
    english = "one\u2028still one\nsecond \r line\nthird\fline".encode()  # no final newline
    german = b"eins\nzwei\ndrei\n"
    path = write_moses_zip(
        tmp_path / "de-en.txt.zip", {"TED2020.de-en.en": english, "TED2020.de-en.de": german}
    )
    assert list(iter_moses_zip(path, "TED2020", "en", "de")) == [
        ("one\u2028still one", "eins"),
        ("second \r line", "zwei"),
        ("third\fline", "drei"),
    ]


def test_missing_member_lists_what_the_zip_contains(ted_zip, tmp_path):
    with pytest.raises(ValueError, match="no member TED2020.en-fr.en or TED2020.en-fr.fr") as info:
        list(iter_moses_zip(ted_zip, "TED2020", "en", "fr"))
    message = str(info.value)
    assert str(ted_zip) in message
    assert "the zip contains: LICENSE, README, TED2020.de-en.de, TED2020.de-en.en" in message
    one_sided = write_moses_zip(tmp_path / "one.zip", {"TED2020.de-en.de": b"Hallo\n"})
    with pytest.raises(ValueError, match=r"no member TED2020.de-en.en for corpus 'TED2020'"):
        list(iter_moses_zip(one_sided, "TED2020", "en", "de"))


@pytest.mark.parametrize("short_lang", ["en", "de"])
def test_line_count_mismatch_names_member_and_line(tmp_path, short_lang):
    members = {"TED2020.de-en.en": b"a\nb\nc\n", "TED2020.de-en.de": b"x\ny\nz\n"}
    members[f"TED2020.de-en.{short_lang}"] = b"a\nb\n"
    long_lang = "de" if short_lang == "en" else "en"
    path = write_moses_zip(tmp_path / "de-en.txt.zip", members)
    reader = iter_moses_zip(path, "TED2020", "en", "de")
    assert next(reader) and next(reader)  # the first two lines pair up
    with pytest.raises(
        ValueError,
        match=rf"member TED2020.de-en.{short_lang} ended after 2 lines "
        rf"but TED2020.de-en.{long_lang} has line 3",
    ) as info:
        next(reader)
    assert str(path) in str(info.value)


def test_invalid_utf8_names_member_and_line_after_streaming_earlier_lines(tmp_path):
    members = {
        "TED2020.de-en.en": b"one\ntwo\nthree\n",
        "TED2020.de-en.de": b"eins\nzwei\ndr\xffei\n",
    }
    path = write_moses_zip(tmp_path / "de-en.txt.zip", members)
    reader = iter_moses_zip(path, "TED2020", "en", "de")
    assert next(reader) == ("one", "eins")
    assert next(reader) == ("two", "zwei")
    with pytest.raises(ValueError, match=r"member TED2020.de-en.de line 3 is not valid UTF-8"):
        next(reader)


def test_not_a_zip(tmp_path):
    path = tmp_path / "de-en.txt.zip"
    path.write_bytes(b"<html>503 Service Unavailable</html>")
    with pytest.raises(ValueError, match="not a zip archive"):
        list(iter_moses_zip(path, "TED2020", "en", "de"))


def test_large_member_streams(tmp_path):
    n_lines = 50_000
    english = "".join(f"sentence {i}\n" for i in range(n_lines)).encode()
    german = "".join(f"Satz {i}\n" for i in range(n_lines)).encode()
    path = write_moses_zip(
        tmp_path / "de-en.txt.zip", {"TED2020.de-en.en": english, "TED2020.de-en.de": german}
    )
    count = 0
    for src, tgt in iter_moses_zip(path, "TED2020", "en", "de"):
        assert src.split()[1] == tgt.split()[1] == str(count)
        count += 1
    assert count == n_lines
