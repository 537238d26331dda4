"""The download and mining rules against a mirror served over HTTP on 127.0.0.1.

The demo world is written in the real OPUS layout, served by a loopback HTTP
server, and fetched by the workflow's own rules through `http://` URLs: the
same path a paper run takes against the OPUS object store.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from httpmirror import serve_directory
from snakerun import run_snakemake

from mgbias.demo.world import WorldSpec, write_world

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mirror(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mirror")
    spec = WorldSpec(
        name="planted",
        seed=7,
        languages=("de",),
        n_parallel=400,
        n_monolingual=200,
        male_ratio=2.0,
        occupation_bias=0.8,
    )
    write_world(spec, root / "planted", corpora=("TED2020",))
    return root


def http_config(tmp_path: Path, base_url: str) -> Path:
    config = {
        "languages": ["de"],
        "worlds": ["planted"],
        "corpora": {"TED2020": {"url": base_url + "/{world}/OPUS-TED2020/v1/moses/{pair}.txt.zip"}},
        "models": {"any": {"source": "not-used", "languages": ["de"]}},
    }
    path = tmp_path / "http.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def run(workdir: Path, config: Path, *targets: str) -> subprocess.CompletedProcess:
    return run_snakemake(
        [
            "-s",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--configfile",
            str(config),
            "--cores",
            "1",
            *targets,
        ],
        cwd=REPO,
        timeout=300,
    )


def test_http_download_then_mining(tmp_path, mirror):
    with serve_directory(mirror) as base_url:
        result = run(tmp_path, http_config(tmp_path, base_url), "data/mined/planted/TED2020/de.tsv")
    assert result.returncode == 0, result.stdout + result.stderr
    archive = tmp_path / "data/raw/planted/TED2020/de-en.txt.zip"
    assert (
        archive.read_bytes()
        == (mirror / "planted/OPUS-TED2020/v1/moses/de-en.txt.zip").read_bytes()
    )
    assert (tmp_path / "data/raw/planted/TED2020/de-en.txt.zip.sha256").read_text().split()[
        1
    ] == archive.name
    lines = (
        (tmp_path / "data/mined/planted/TED2020/de.tsv").read_text(encoding="utf-8").splitlines()
    )
    assert lines[0] == "gender\tsentence\tgender_words"
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(row) == 3 and row[2] for row in rows)  # every sentence names its words
    genders = [row[0] for row in rows]
    assert genders.count("female") == genders.count("male") > 20


def test_truncated_http_download_fails_and_leaves_nothing(tmp_path, mirror):
    member = "planted/OPUS-TED2020/v1/moses/de-en.txt.zip"
    with serve_directory(mirror, truncate_at={member: 1000}) as base_url:
        result = run(
            tmp_path, http_config(tmp_path, base_url), "data/raw/planted/TED2020/de-en.txt.zip"
        )
    assert result.returncode != 0
    log = (tmp_path / "logs/download_corpus/planted/TED2020/de-en.log").read_text()
    assert "truncated" in log
    raw = tmp_path / "data/raw/planted/TED2020"
    assert not raw.exists() or list(raw.iterdir()) == []


def test_missing_file_404_names_the_url(tmp_path, mirror):
    with serve_directory(
        mirror, status={"planted/OPUS-TED2020/v1/moses/de-en.txt.zip": 404}
    ) as base_url:
        result = run(
            tmp_path, http_config(tmp_path, base_url), "data/raw/planted/TED2020/de-en.txt.zip"
        )
    assert result.returncode != 0
    log = (tmp_path / "logs/download_corpus/planted/TED2020/de-en.log").read_text()
    assert "404" in log and base_url in log
