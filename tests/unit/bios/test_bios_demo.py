"""The demo crawl: real WET files whose extraction gives exactly the planted bios."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mgbias.bios.ccpaths import read_listing
from mgbias.bios.demo import (
    DISTRACTORS,
    PLANTED,
    demo_pages,
    snapshot_date,
    wet_paths,
    write_demo_crawl,
)
from mgbias.bios.pipeline import extract_dataset
from mgbias.bios.rules import rules_for
from mgbias.bios.tables import counts, table5, table5_markdown

SNAPSHOTS = ["CC-MAIN-2017-13", "CC-MAIN-2018-34"]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory) -> tuple[Path, dict, dict]:
    root = tmp_path_factory.mktemp("crawl")
    world = write_demo_crawl(root, SNAPSHOTS, 2)
    files = [root / path for snapshot in SNAPSHOTS for path in wet_paths(snapshot, 2)]
    datasets = {
        lang: extract_dataset(files, lang, pipeline="blank", names=world["names"])
        for lang in ["en", "es", "de", "fr"]
    }
    return root, world, datasets


def test_listing_names_the_wet_files_in_the_real_layout(crawl):
    root, _, _ = crawl
    paths = read_listing(root / "crawl-data/CC-MAIN-2018-34/wet.paths.gz", "CC-MAIN-2018-34")
    assert paths == wet_paths("CC-MAIN-2018-34", 2)
    assert all((root / path).stat().st_size > 0 for path in paths)


@pytest.mark.parametrize("lang", ["en", "es", "de", "fr"])
def test_extraction_gives_exactly_the_planted_bios(crawl, lang):
    _, world, datasets = crawl
    got = sorted((r["name"], r["title"], r["gender"]) for r in datasets[lang])
    planted = sorted(
        (p["name"], p["title"], p["gender"]) for p in world["planted"] if p["lang"] == lang
    )
    assert got == planted
    # 2 snapshots x (nurse 3 F + 1 M, journalist 3 M + 1 F); the duplicate kept once
    assert len(got) == 2 * sum(PLANTED.values()) == 16


@pytest.mark.parametrize("lang", ["en", "es", "de", "fr"])
def test_every_distractor_yields_nothing(crawl, lang):
    _, _, datasets = crawl
    extracted = {r["uri"] for r in datasets[lang]}
    for index, snapshot in enumerate(SNAPSHOTS):
        pages = demo_pages(lang, snapshot, index)
        kinds = {page.kind for page in pages if page.kind != "planted"}
        assert kinds == set(DISTRACTORS)
        for page in pages:
            if page.kind != "planted":
                assert page.uri not in extracted, (page.kind, page.text)
            else:
                assert page.uri in extracted or page.uri + "/copy" in extracted


@pytest.mark.parametrize("lang", ["en", "es", "de", "fr"])
def test_scrubbed_bios_hold_no_gendered_word_or_name_token(crawl, lang):
    _, _, datasets = crawl
    rules = rules_for(lang)
    for record in datasets[lang]:
        words = {w.strip(".,;:").lower() for w in record["bio"].split()}
        assert not words & set(rules.scrub_words), record["bio"]
        assert not words & {t.lower() for t in record["name"].split()}, record["bio"]
        assert record["raw"] != record["bio"]


def test_table5_and_counts_equal_the_planted_counts(crawl):
    _, _, datasets = crawl
    assert table5(datasets) == [
        {"lang": lang, "occupations": 2, "instances": 16, "female": 8, "male": 8}
        for lang in ["en", "es", "de", "fr"]
    ]
    rows = counts(datasets)
    assert [(r["lang"], r["title"], r["female"], r["male"]) for r in rows[:2]] == [
        ("en", "journalist", 2, 6),
        ("en", "nurse", 6, 2),
    ]
    assert not any(r["figure2"] for r in rows)  # below 200 instances
    assert counts(datasets, figure2_min=8)[0]["figure2"]
    assert "| Instances | 16 | 16 | 16 | 16 |" in table5_markdown(table5(datasets))


def test_demo_crawl_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="n_files"):
        write_demo_crawl(tmp_path, ["CC-MAIN-2018-34"], 0)
    with pytest.raises(ValueError, match="snapshot"):
        write_demo_crawl(tmp_path, ["2018-34"], 1)
    with pytest.raises(ValueError, match="language"):
        demo_pages("it", "CC-MAIN-2018-34")


def test_the_demo_crawl_is_the_same_bytes_every_time(tmp_path):
    """Record IDs and dates are fixed (warcio would draw a uuid and take the clock)."""
    first, second = tmp_path / "a", tmp_path / "b"
    for root in (first, second):
        write_demo_crawl(root, ["CC-MAIN-2018-13"], 2, ["en"])
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert len(files) == 3  # the listing and two WET files
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert snapshot_date("CC-MAIN-2018-13") == "2018-03-26T00:00:00Z"


@pytest.mark.parametrize("lang", ["en", "es", "de", "fr"])
def test_scaled_world_with_ambiguous_bios_extracts_and_scrubs_gender_away(tmp_path, lang):
    world = write_demo_crawl(tmp_path, ["CC-MAIN-2018-34"], 1, [lang], scale=3, ambiguous=0.5)
    files = [tmp_path / path for path in wet_paths("CC-MAIN-2018-34", 1)]
    rows = extract_dataset(files, lang, pipeline="blank", names=world["names"])
    planted = {p["name"]: p for p in world["planted"]}
    assert sorted((r["name"], r["title"], r["gender"]) for r in rows) == sorted(
        (p["name"], p["title"], p["gender"]) for p in planted.values()
    )
    assert len(rows) == 3 * sum(PLANTED.values()) == 24
    # groups of 9 and 3: 5 and 2 ambiguous (half, rounded up)
    vague = Counter((p["title"], p["gender"]) for p in planted.values() if p["ambiguous"])
    assert vague == {
        ("nurse", "F"): 5,
        ("nurse", "M"): 2,
        ("journalist", "M"): 5,
        ("journalist", "F"): 2,
    }
    # scrubbed, a bio tells its occupation (or nothing) but not its gender
    texts = {}
    for row in rows:
        key = (row["title"], planted[row["name"]]["ambiguous"])
        texts.setdefault(key, set()).add(row["bio"])
        assert row["raw"] != row["bio"]
    assert all(len(bodies) == 1 for bodies in texts.values()), texts
    assert texts[("nurse", True)] == texts[("journalist", True)]
    assert len({next(iter(b)) for b in texts.values()}) == 3


def test_scale_and_ambiguous_are_checked(tmp_path):
    with pytest.raises(ValueError, match="scale"):
        demo_pages("en", "CC-MAIN-2018-34", scale=0)
    with pytest.raises(ValueError, match="ambiguous"):
        demo_pages("en", "CC-MAIN-2018-34", ambiguous=1.5)
