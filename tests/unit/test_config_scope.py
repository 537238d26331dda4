"""What a configuration may leave out and where its files are: one paper's section alone
(the examples in config/examples/), every location key read one way (a URL or a local
path that must exist), and every error of a file reported in one pass."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path

import pytest
import yaml
from snakerun import planned_jobs, run_snakemake

from mgbias.cli.main import main
from mgbias.config import (
    ConfigError,
    config_warnings,
    load_schema,
    validate_config,
    workflow_config,
)
from mgbias.workflow.config_locations import location_keys

REPO = Path(__file__).resolve().parents[2]


def dry_run(workdir: Path, config: Path) -> subprocess.CompletedProcess:
    command = ["-n", "-s", str(REPO / "Snakefile"), "--directory", str(workdir)]
    command += ["--configfile", str(config), "--cores", "1"]
    return run_snakemake(command, cwd=REPO, timeout=300)


# ------------------------------------------------------------------------------------
# One paper's section alone: the shipped examples check and plan offline
# ------------------------------------------------------------------------------------

EXAMPLES = {
    "kaneko2023-only": {
        "present": {"finetune_mlm", "mix_controlled", "kaneko2023_table1", "download_controlled"},
        "absent": {"mbe", "mine_gendered", "mine_counts", "pairs_scores", "demo_world"},
    },
    "mbe-only": {
        "present": {"download_corpus", "mine_gendered", "mbe", "mbe_scores", "mbe_figure"},
        "absent": {"score_pairs", "pairs_scores", "finetune_mlm", "demo_world"},
    },
    "pairs-only": {
        "present": {"download_pairs", "score_pairs", "pair_measures", "pairs_scores"},
        "absent": {"mbe", "mine_counts", "mbe_scores", "finetune_mlm", "demo_world"},
    },
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_example_of_one_paper_checks_strictly_and_plans_offline(name, tmp_path, capsys):
    example = REPO / "config" / "examples" / f"{name}.yaml"
    assert main(["check-config", "--strict", str(example)]) == 0
    assert capsys.readouterr().err == ""
    result = dry_run(tmp_path, example)
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = planned_jobs(result.stdout)
    rules = {rule for rule, _ in jobs}
    assert EXAMPLES[name]["present"] <= rules, rules
    assert not EXAMPLES[name]["absent"] & rules, rules
    if name == "pairs-only":
        scored = sorted((w["dataset"], w["lang"]) for rule, w in jobs if rule == "score_pairs")
        assert scored == [
            ("crows_pairs", "en"),
            ("multilingual_crows_pairs", "de"),
            ("multilingual_crows_pairs", "en"),
        ]
    if name == "mbe-only":
        mbe = sorted((w["corpus"], w["lang"]) for rule, w in jobs if rule == "mbe")
        assert mbe == [("TED2020", "de"), ("TED2020", "fi")]
    if name == "kaneko2023-only":
        rates = sorted(w["model"] for rule, w in jobs if rule == "finetune_mlm")
        assert rates == [f"my-model-news-en-r{r}-s0" for r in ("000", "025", "050", "075", "100")]


PAIRS_ONLY = {
    "languages": ["en"],
    "models": {"m": {"source": "some-org/some-model"}},
    "pair_datasets": {"crows_pairs": {"benchmark": "crows_pairs"}},
}


def test_english_is_a_language_without_corpora_and_the_pivot_with_them():
    config = validate_config(copy.deepcopy(PAIRS_ONLY))
    assert config["corpora"] == {} and config_warnings(config) == []
    with_corpus = copy.deepcopy(PAIRS_ONLY)
    with_corpus["corpora"] = {"c": {"url": "https://h/{pair}.zip"}}
    with pytest.raises(ConfigError, match=r"key 'languages\.0': 'en' is the pivot language"):
        validate_config(with_corpus)


def test_a_section_that_reads_mined_sentences_needs_a_corpus():
    config = {**copy.deepcopy(PAIRS_ONLY), "mbe_figure2": {}}
    with pytest.raises(
        ConfigError, match=r"key 'mbe_figure2': .* but 'corpora' names no parallel corpus"
    ):
        validate_config(config)


# ------------------------------------------------------------------------------------
# Every location key: a URL, a file:// URL, a relative or an absolute local path
# ------------------------------------------------------------------------------------

# Per location key, a template in the key's own placeholders (the file names only).
TEMPLATES = {
    "corpora.*.url": "{pair}.txt.zip",
    "corpora.*.files": "{pair}.{lang}",
    "monolingual.url": "{world}.{lang}.gz",
    "pair_datasets.*.url": "pairs_{lang}.csv",
    "kaneko2023.sources.*.url": "news.{lang}.txt",
    "zhao2020.vectors.url": "{filename}",
    "zhao2020.dictionaries.url": "{filename}",
    "zhao2020.mibs.url": "{filename}",
    "basta2020.domains.*.url": "{world}.txt",
    "bios.url": "crawl",
    "bios.titles.*": "titles.json",
}


@pytest.fixture(scope="module")
def base_config() -> dict:
    """The demo's configuration (every location a file the workflow writes) with a
    minimal ``bios`` section."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text("utf-8"))
    config["bios"] = {"url": "https://h", "snapshots": ["CC-MAIN-2017-13"], "languages": ["en"]}
    return config


def placed(config: dict, pattern: str, value: str) -> tuple[dict, str]:
    """A copy of ``config`` with ``value`` at the key ``pattern`` (``*``: the first name,
    or ``en``); and the concrete dotted key."""
    config = copy.deepcopy(config)
    node, keys = config, []
    *path, last = pattern.split(".")
    for part in path:
        name = next(iter(node), "en") if part == "*" else part
        node = node.setdefault(name, {})
        keys.append(name)
    if last == "*":
        last = next(iter(node), "en")
    node[last] = value
    if pattern == "corpora.*.files":
        node.pop("url")
    if pattern == "zhao2020.vectors.url":
        node.pop("train")
    return config, ".".join([*keys, last])


def test_every_location_key_of_the_schema_is_tested():
    assert sorted(".".join(path) for path, _ in location_keys(load_schema())) == sorted(TEMPLATES)


def check(config: dict) -> list[ConfigError]:
    try:
        validate_config(config, check_files=True)
    except ConfigError as error:
        return error.errors
    return []


@pytest.mark.parametrize("pattern", sorted(TEMPLATES))
def test_a_location_is_a_url_or_a_local_path_that_must_exist(
    pattern, base_config, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    relative = f"mine/{TEMPLATES[pattern]}"
    config, key = placed(base_config, pattern, relative)
    missing = [str(e) for e in check(config)]
    assert missing and all(m.startswith(f"key '{key}': mine/") for m in missing), missing
    kind = "directory" if pattern == "bios.url" else "file"
    ends = (f": no such {kind} (in {tmp_path})", f": no file matches (in {tmp_path})")
    assert all(m.endswith(ends) for m in missing), missing
    for message in missing:  # make what is named, then every form of the path passes
        named = message.split(": ")[1]  # placeholders expanded but a listing's {filename}
        assert (
            named == "mine/{filename}" if "{filename}" in TEMPLATES[pattern] else "{" not in named
        )
        path = Path(named.replace("{filename}", "wiki.en.vec"))
        if pattern == "bios.url":
            path.mkdir(parents=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("x\n", encoding="utf-8")
    for value in (relative, f"{tmp_path}/{relative}", f"file://{relative}"):
        config, _ = placed(base_config, pattern, value)
        assert check(config) == []
        node = config
        for part in key.split("."):
            node = node[part]
        assert node == (value if value.startswith("file://") else f"file://{value}")
    config, _ = placed(base_config, pattern, f"file:///nowhere/{TEMPLATES[pattern]}")
    assert [str(e) for e in check(config)][0].startswith(f"key '{key}': /nowhere/")


def test_a_local_kaneko2023_source_is_read_like_a_pair_dataset(tmp_path, monkeypatch, capsys):
    """The reported case: a bare path passed check-config, then failed in three jobs
    with "unsupported URL scheme ''"."""
    monkeypatch.chdir(tmp_path)
    text = (REPO / "config/examples/kaneko2023-only.yaml").read_text("utf-8")
    remote = '"https://data.statmt.org/news-crawl/{lang}/news.2021.{lang}.shuffled.deduped.gz"'
    text = text.replace(remote, '"data/news.{lang}.txt"')
    config = tmp_path / "k.yaml"
    config.write_text(text, encoding="utf-8")
    assert main(["check-config", str(config)]) == 2
    line = text.splitlines().index('      url: "data/news.{lang}.txt"') + 1
    assert capsys.readouterr().err == (
        f"mgbias: {config}:{line}: key 'kaneko2023.sources.news.url': data/news.en.txt: "
        f"no such file (in {tmp_path})\n"
    )
    (tmp_path / "data").mkdir()
    (tmp_path / "data/news.en.txt").write_text("she reads .\n", encoding="utf-8")
    assert main(["check-config", str(config)]) == 0
    checked = validate_config(yaml.safe_load(text), check_files=True)
    assert checked["kaneko2023"]["sources"]["news"]["url"] == "file://data/news.{lang}.txt"


# ------------------------------------------------------------------------------------
# Every error at once
# ------------------------------------------------------------------------------------

FIVE_ERRORS = """\
languages: [de, qq]
models:
  m:
    source: some-org/some-model
    revison: v1
corpora:
  TED2020:
    url: "https://h/{pair}.txt.zip"
pair_datasets:
  mine: {url: "data/missing_{lang}.csv", languages: [de]}
scoring:
  batch_size: many
kaneko2023:
  sources:
    news: {url: "https://h/{lang}.txt"}
  base_models: [nobody]
  languages: [de]
  wordlists:
    de: {female: [kaneko2023_de_female], male: [kaneko2023_de_male]}
  pair_dataset: mine
"""


def test_check_config_reports_every_error_in_one_run_one_line_each(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(FIVE_ERRORS, encoding="utf-8")
    assert main(["check-config", str(config)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"mgbias: {config}:1: key 'languages.1': unknown language code 'qq'; expected an "
        "ISO 639-1 code such as 'de', 'es' or 'ja'",
        f"mgbias: {config}:5: invalid configuration: unknown key 'revison' under 'models.m'; "
        "allowed keys: allow_untrained_head, corpora, languages, mbe, pairs, paper_name, "
        "revision, source, structural_baseline, train, worlds",
        f"mgbias: {config}:10: key 'pair_datasets.mine.url': data/missing_de.csv: no such "
        f"file (in {Path.cwd()})",
        f"mgbias: {config}:12: invalid configuration: key 'scoring.batch_size': expected "
        "integer, got str 'many'",
        f"mgbias: {config}:16: key 'kaneko2023.base_models': 'nobody' is not one of the "
        "configured models ['m']",
    ]


def test_the_workflow_lists_every_error_before_any_job(tmp_path):
    """A missing local file is a warning there (a run of some targets may not read it)."""
    config = tmp_path / "c.yaml"
    config.write_text(FIVE_ERRORS, encoding="utf-8")
    result = dry_run(tmp_path, config)
    assert result.returncode == 1
    assert result.stderr.endswith(
        "mgbias: 4 errors in the configuration:\n"
        "c.yaml:1: key 'languages.1': unknown language code 'qq'; expected an ISO 639-1 code "
        "such as 'de', 'es' or 'ja'\n"
        "c.yaml:5: invalid configuration: unknown key 'revison' under 'models.m'; allowed "
        "keys: allow_untrained_head, corpora, languages, mbe, pairs, paper_name, revision, "
        "source, structural_baseline, train, worlds\n"
        "c.yaml:12: invalid configuration: key 'scoring.batch_size': expected integer, got "
        "str 'many'\n"
        "c.yaml:16: key 'kaneko2023.base_models': 'nobody' is not one of the configured "
        "models ['m']\n"
    )
    assert "Traceback" not in result.stderr


def test_the_workflow_warns_of_a_missing_local_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "c.yaml"
    text = yaml.safe_dump(
        {**PAIRS_ONLY, "pair_datasets": {"mine": {"url": "p_{lang}.csv", "languages": ["en"]}}},
        sort_keys=False,
    )
    path.write_text(text, encoding="utf-8")
    warnings = workflow_config(yaml.safe_load(text), [path])
    assert warnings == [
        f"c.yaml:8: key 'pair_datasets.mine.url': p_en.csv: no such file (in {tmp_path})"
    ]
    (tmp_path / "p_en.csv").write_text("x\n", encoding="utf-8")
    assert workflow_config(yaml.safe_load(text), [path]) == []
