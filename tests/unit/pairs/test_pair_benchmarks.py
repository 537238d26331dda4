"""The public pair benchmarks shipped in the package, and configurations that name them."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mgbias.config import ConfigError, load_config, validate_config
from mgbias.pairs.benchmarks import load_benchmarks, validate_benchmarks
from mgbias.pairs.named import benchmarks_config, mirrored_url, resolve_pair_data
from mgbias.resources import resource_path

REPO = Path(__file__).resolve().parents[3]
CROWS = (
    "https://raw.githubusercontent.com/nyu-mll/crows-pairs/master/data/crows_pairs_anonymized.csv"
)
MCP = (
    "https://raw.githubusercontent.com/VSteinborn/s_jsd-multilingual-bias/main/data/"
    "cps_translated_{lang}_formatted.csv"
)
STEREOSET = "https://raw.githubusercontent.com/moinnadeem/StereoSet/master/data/dev.json"
# sha256 of the files at the upstream commits the resource file names
CROWS_SHA = "dfb36986ce0502abbaf7055b9176da3d08d48e07df1251991b5dfbcbceab9d0c"
MCP_DE_SHA = "68495e0185780c8a47fc4d999a1774f5718be8654c8926f67f97d4f4b5ba1630"


def test_shipped_benchmarks_are_the_papers_files():
    benchmarks = load_benchmarks()
    assert sorted(benchmarks) == ["crows_pairs", "multilingual_crows_pairs", "stereoset"]
    assert benchmarks["crows_pairs"]["url"] == CROWS
    assert benchmarks["crows_pairs"]["sha256"] == {"en": CROWS_SHA}
    assert benchmarks["multilingual_crows_pairs"]["url"] == MCP
    assert benchmarks["multilingual_crows_pairs"]["languages"] == ["en", "de", "id", "th", "fi"]
    assert benchmarks["multilingual_crows_pairs"]["sha256"]["de"] == MCP_DE_SHA
    assert benchmarks["stereoset"]["url"] == STEREOSET
    assert "sha256" not in benchmarks["stereoset"]
    assert {b["format"] for b in benchmarks.values()} == {
        "crows_pairs",
        "multilingual_crows_pairs",
        "stereoset",
    }
    # a copy: changing it changes nothing shipped
    benchmarks["crows_pairs"]["url"] = "x"
    assert load_benchmarks()["crows_pairs"]["url"] == CROWS


def test_resources_are_files_of_the_package():
    assert resource_path("schema.yaml").parent.name == "resources"
    with pytest.raises(FileNotFoundError, match="nope.yaml: no such file in the mgbias package"):
        resource_path("nope.yaml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b["x"].update(format="csv"), r"x\.format: 'csv' is not one of"),
        (lambda b: b["x"].update(url="http://h/{lang}.csv"), r"x\.url: .* does not match"),
        (lambda b: b["x"].update(url="https://h/all.csv"), r"x\.url: several languages"),
        (lambda b: b["x"]["sha256"].update(fr="0" * 64), r"x\.sha256: \['fr'\] not among"),
        (lambda b: b["x"]["sha256"].update(de="abc"), r"x\.sha256\.de: 'abc' does not match"),
        (lambda b: b["x"].pop("languages"), r"<top level>|x: 'languages' is a required"),
    ],
)
def test_a_bad_benchmark_entry_is_named(change, message):
    benchmarks = {
        "x": {
            "description": "d",
            "format": "multilingual_crows_pairs",
            "url": "https://h/{lang}.csv",
            "languages": ["en", "de"],
            "sha256": {"de": "0" * 64},
        }
    }
    validate_benchmarks(copy.deepcopy(benchmarks), "b.yaml")
    change(benchmarks)
    with pytest.raises(ValueError, match=r"^b\.yaml: .*" + message):
        validate_benchmarks(benchmarks, "b.yaml")


@pytest.fixture()
def paper() -> dict:
    return yaml.safe_load((REPO / "config" / "paper.yaml").read_text(encoding="utf-8"))


def test_paper_config_takes_urls_languages_and_checksums_from_the_benchmarks(paper):
    config = validate_config(paper)
    datasets = config["pair_datasets"]
    assert datasets["crows_pairs"]["url"] == CROWS
    assert datasets["crows_pairs"]["languages"] == ["en"]
    assert datasets["crows_pairs"]["bias_type"] == "all"  # the configuration's own keys stay
    assert datasets["multilingual_crows_pairs"]["languages"] == ["en", "de", "id", "th", "fi"]
    assert datasets["stereoset"]["url"] == STEREOSET
    assert config["checksums"][CROWS] == CROWS_SHA
    assert config["checksums"][MCP.format(lang="de")] == MCP_DE_SHA
    # StereoSet is not pinned; the configuration pins Kaneko et al. (2022)'s two human
    # translations and Zhao et al. (2020)'s 12 MIBs lists and 4 title lexicons itself
    assert len(config["checksums"]) == 1 + 5 + 2 + 12 + 4
    assert sum("translated_data" in url for url in config["checksums"]) == 2
    assert sum("intrinsic" in url for url in config["checksums"]) == 12
    assert sum("freq_titles" in url for url in config["checksums"]) == 4
    # validating again changes nothing
    assert validate_config(copy.deepcopy(config)) == config


def test_a_benchmark_subset_of_languages_and_own_checksums(paper):
    paper["pair_datasets"]["multilingual_crows_pairs"]["languages"] = ["de"]
    own = "1" * 64
    paper["checksums"] = {CROWS: own}
    config = validate_config(paper)
    assert config["pair_datasets"]["multilingual_crows_pairs"]["languages"] == ["de"]
    assert config["checksums"] == {CROWS: own, MCP.format(lang="de"): MCP_DE_SHA}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"benchmark": "wino"}, r"pair_datasets.p.benchmark': 'wino' is not a shipped .*stereoset"),
        (
            {"benchmark": "crows_pairs", "url": "https://x.org/cp.csv"},
            r"pair_datasets.p': expected exactly one of 'url' or 'benchmark'",
        ),
        ({"models": ["bert"]}, r"pair_datasets.p': expected exactly one of 'url' .* 'benchmark'"),
        (
            {"benchmark": "crows_pairs", "languages": ["en", "de"]},
            r"pair_datasets.p.languages': \['de'\] not among the languages of the benchmark",
        ),
    ],
)
def test_bad_benchmark_references_are_named(paper, entry, message):
    paper["pair_datasets"]["p"] = entry
    with pytest.raises(ConfigError, match=message):
        validate_config(paper)


def test_mirrored_url_keeps_the_path():
    assert mirrored_url(CROWS, "http://127.0.0.1:8000/") == (
        "http://127.0.0.1:8000/nyu-mll/crows-pairs/master/data/crows_pairs_anonymized.csv"
    )
    assert mirrored_url("https://h/a.csv?raw=1", "https://m/base") == "https://m/base/a.csv?raw=1"
    with pytest.raises(ValueError, match="'file://data/a.csv' is not an http"):
        mirrored_url("file://data/a.csv", "http://m")
    with pytest.raises(ValueError, match="'m.org' is not an http"):
        mirrored_url(CROWS, "m.org")


def test_benchmarks_config_is_a_valid_pair_datasets_section():
    config = benchmarks_config()
    assert config["pair_datasets"]["crows_pairs"] == {"url": CROWS, "languages": ["en"]}
    assert config["checksums"][CROWS] == CROWS_SHA


def test_the_default_lookup_needs_no_configuration(tmp_path, monkeypatch):
    """From an empty directory: names are the shipped ones, files come from a mirror."""
    from httpmirror import Misbehaviour, serve_directory

    from mgbias.corpora.download import DownloadError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"wino: no such file, nor one of the shipped"):
        resolve_pair_data("wino", lang=None, cache_dir=tmp_path / "cache")
    with pytest.raises(ValueError, match=r"multilingual_crows_pairs has the languages"):
        resolve_pair_data("multilingual_crows_pairs", lang=None, cache_dir=tmp_path / "cache")
    served = tmp_path / "served"
    (served / "moinnadeem/StereoSet/master/data").mkdir(parents=True)
    (served / "moinnadeem/StereoSet/master/data/dev.json").write_text("{}")
    (served / "nyu-mll/crows-pairs/master/data").mkdir(parents=True)
    (served / "nyu-mll/crows-pairs/master/data/crows_pairs_anonymized.csv").write_text("x\n")
    plan = Misbehaviour()
    with serve_directory(served, misbehaviour=plan) as base:
        path = resolve_pair_data("stereoset", lang=None, cache_dir="cache", mirror=base)
        assert path == Path("cache/data/raw/pairs/stereoset/en/dev.json")
        assert path.read_text() == "{}"
        # the pinned checksum applies to a mirror's file too
        with pytest.raises(DownloadError, match=CROWS_SHA):
            resolve_pair_data("crows_pairs", lang="en", cache_dir="cache", mirror=base)
    assert plan.requests == [
        "moinnadeem/StereoSet/master/data/dev.json",
        "nyu-mll/crows-pairs/master/data/crows_pairs_anonymized.csv",
    ]
    assert not Path("cache/data/raw/pairs/crows_pairs/en/crows_pairs_anonymized.csv").exists()


def test_check_config_of_a_shipped_config_copied_anywhere(tmp_path, monkeypatch):
    (tmp_path / "paper.yaml").write_text((REPO / "config" / "paper.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    config = load_config("paper.yaml")
    assert config["pair_datasets"]["stereoset"]["url"] == STEREOSET
