"""Basta et al. (2020) in the workflow: jobs, domain corpora, and the tables' shapes."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile

import pandas as pd
import pytest

from mgbias.contextual.corpus import read_domain_lines
from mgbias.contextual.run import COLUMNS
from mgbias.report.basta2020 import long_table, table1, table1_markdown, tables2to5_markdown
from mgbias.workflow.core import basta2020_download, basta2020_jobs

CONFIG = {
    "worlds": ["planted", "balanced"],
    "models": {"enc": {}, "es-enc": {"languages": ["es"]}},
    "basta2020": {
        "models": ["enc", "es-enc"],
        "domains": {
            "news": {"lang": "en", "url": "file://mirror/{world}/news.en.gz"},
            "ted": {"lang": "en", "url": "https://x.org/{world}/en-es.txt.zip", "member": "a.en"},
            "news-es": {"lang": "es", "url": "file://mirror/{world}/news.es.gz"},
        },
    },
}


def test_jobs_cover_models_worlds_and_domains_of_their_languages():
    jobs = basta2020_jobs(CONFIG)
    assert len(jobs) == 2 * 3 + 2 * 1  # enc: every domain; es-enc: the Spanish one
    assert jobs[0] == {"model": "enc", "world": "planted", "domain": "news", "lang": "en"}
    assert {j["domain"] for j in jobs if j["model"] == "es-enc"} == {"news-es"}
    only_en = {**CONFIG, "basta2020": {**CONFIG["basta2020"], "model_languages": {"enc": ["en"]}}}
    assert {j["lang"] for j in basta2020_jobs(only_en) if j["model"] == "enc"} == {"en"}
    bad = {**CONFIG, "basta2020": {**CONFIG["basta2020"], "models": ["nope"]}}
    with pytest.raises(ValueError, match="'nope' is not a configured model"):
        basta2020_jobs(bad)


def test_download_path_keeps_the_url_file_name():
    path = basta2020_download(CONFIG, "balanced", "ted")
    assert path == "data/raw/basta2020/balanced/ted/en-es.txt.zip"


def test_domain_lines_from_zip_tar_gzip_and_text(tmp_path):
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x.en", "one\n\n two \nthree\n")
        z.writestr("x.es", "uno\n")
    assert read_domain_lines(archive, member="x.en") == ["one", "two", "three"]
    assert read_domain_lines(archive, member="x.en", max_lines=2) == ["one", "two"]
    with pytest.raises(ValueError, match="member 'x.de' not in the zip"):
        read_domain_lines(archive, member="x.de")
    tgz = tmp_path / "b.tgz"
    with tarfile.open(tgz, "w:gz") as tar:
        data = b"alpha\nbeta\n"
        info = tarfile.TarInfo("training/nc.en")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    assert read_domain_lines(tgz, member="training/nc.en") == ["alpha", "beta"]
    text = tmp_path / "c.gz"
    text.write_bytes(gzip.compress("é\n".encode()))
    assert read_domain_lines(text) == ["é"]
    with pytest.raises(ValueError, match="not an archive"):
        read_domain_lines(text, member="x")


def probe_rows(clustering: dict[str, float]) -> pd.DataFrame:
    rows = []
    for layer, accuracy in clustering.items():
        rows.append({"layer": layer, "experiment": "clustering", "measure": "accuracy",
                     "mean": accuracy, "min": accuracy - 0.01, "max": accuracy + 0.02,
                     "range": 0.03, "n_items": 16, "n_runs": 10})  # fmt: skip
        rows.append({"layer": layer, "experiment": "direct_bias", "measure": "direct_bias",
                     "mean": 0.1, "min": 0.1, "max": 0.1, "range": 0.0, "n_items": 5,
                     "n_runs": 1})  # fmt: skip
    return pd.DataFrame(rows, columns=list(COLUMNS))


def test_tables2to5_put_layers_in_columns_with_the_least_biased_in_bold():
    jobs = [{"model": "m", "world": "w", "domain": "news", "lang": "en"}]
    frame = long_table(jobs, [probe_rows({"0": 0.6, "2": 0.95, "concat": 0.9, "1": 0.55})])
    assert list(frame.columns[:4]) == ["model", "world", "domain", "lang"]
    text = tables2to5_markdown(frame)
    header = next(line for line in text.splitlines() if line.startswith("| |"))
    assert header == "| | layer 0 | layer 1 | layer 2 | concat |"
    row = next(line for line in text.splitlines() if line.startswith("| Clustering"))
    assert row == "| Clustering (Acc. %) | 60.0 (3.0) | **55.0 (3.0)** | 95.0 (3.0) | 90.0 (3.0) |"
    with pytest.raises(ValueError, match="1 probe tables for 2 jobs"):
        long_table(jobs * 2, [probe_rows({"0": 0.5})])


def test_table1_in_percent_and_by_domain():
    jobs = [{"model": "m", "world": "w", "domain": d, "lang": "en"} for d in ("a", "b")]
    summaries = [
        {"table1": {"lines": 10, "lines_direct_bias": 4, "female_share_knn": 0.5}},
        {"table1": {"lines": 20, "lines_direct_bias": 0, "female_share_knn": None}},
    ]
    table = table1(jobs, summaries)
    share = table[(table.domain == "a") & (table.statistic == "female_share_knn")]["value"]
    assert float(share.iloc[0]) == 50.0
    text = table1_markdown(table)
    assert "| No. lines of corpus | 10 | 20 |" in text
    assert "| Female in KNN % | 50.00 | n/a |" in text


def test_cluster_projection_is_run_0_of_the_clustering_experiment(tmp_path):
    import numpy as np

    from mgbias.contextual.clustering import cluster_projection, clustering_experiment
    from mgbias.report.basta2020 import cluster_figure

    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(12)] * 3
    male = {f"w{i}": i < 6 for i in range(12)}
    signal = np.array([1.0 if male[w] else -1.0 for w in words])[:, None]
    matrix = rng.normal(size=(len(words), 8)) + 0.8 * signal * np.eye(8)[0]
    points = cluster_projection(matrix, words, male, seed=5)
    experiment = clustering_experiment(matrix, words, male, runs=1, seed=5)
    assert points["accuracy"] == experiment.values[0]
    assert points["xy"].shape == (12, 2) and points["words"] == sorted(male)
    assert list(points["male"]) == [male[w] for w in points["words"]]
    cluster_figure([("demo", points)], tmp_path / "f.png")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
