"""Pair datasets by name: the shipped public benchmarks, or a configuration's.

``mgbias score --data multilingual_crows_pairs --lang de`` looks the name up
among the benchmarks shipped with the package
(:mod:`mgbias.pairs.benchmarks`: CrowS-Pairs, multilingual CrowS-Pairs,
StereoSet), or, given a workflow configuration, among its ``pair_datasets``;
downloads that language's file once into a cache directory through the
workflow's own downloader (atomic, sha256 sidecar, pinned checksums), and
returns its path. A path to an existing file is returned unchanged. A mirror
(a host serving the same paths as the original hosts) can stand in for them;
the pinned checksums still apply.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from mgbias.config import load_config
from mgbias.files.cache_dirs import cache_root
from mgbias.pairs.benchmarks import benchmark_checksums, load_benchmarks
from mgbias.workflow.core import pair_dataset_languages, pair_file, pair_url

__all__ = ["DEFAULT_CACHE", "benchmarks_config", "mirrored_url", "resolve_pair_data"]

DEFAULT_CACHE = cache_root()


def benchmarks_config() -> dict:
    """The shipped benchmarks as the ``pair_datasets`` and ``checksums`` of a configuration."""
    benchmarks = load_benchmarks()
    checksums: dict[str, str] = {}
    for name, entry in benchmarks.items():
        checksums.update(benchmark_checksums(name, entry["languages"]))
    return {
        "languages": [],
        "pair_datasets": {
            name: {"url": entry["url"], "languages": entry["languages"]}
            for name, entry in benchmarks.items()
        },
        "checksums": checksums,
    }


def mirrored_url(url: str, mirror: str) -> str:
    """``url``'s path on ``mirror``: ``https://host/a/b.csv`` -> ``{mirror}/a/b.csv``.

    Raises
    ------
    ValueError
        ``url`` is not an http(s) URL, or ``mirror`` is not one.
    """
    parts, base = urlsplit(url), urlsplit(mirror)
    for value, what in ((parts, url), (base, mirror)):
        if value.scheme not in ("http", "https") or not value.netloc:
            raise ValueError(f"--mirror: {what!r} is not an http(s) URL")
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return mirror.rstrip("/") + path


def resolve_pair_data(
    data: str,
    *,
    lang: str | None,
    config_path: str | Path | None = None,
    schema_path: str | Path | None = None,
    cache_dir: str | Path = DEFAULT_CACHE,
    mirror: str | None = None,
) -> Path:
    """The local file of ``data``: an existing path, or a named dataset downloaded once.

    Parameters
    ----------
    data
        A file path, or the name of a shipped benchmark (or, with
        ``config_path``, a key of the configuration's ``pair_datasets``).
    lang
        Language of the file to fetch (default: the dataset's only language,
        else an error listing them).
    config_path, schema_path
        A workflow configuration naming the datasets instead of the shipped
        benchmarks, and its schema (default: the shipped one).
    cache_dir
        Where downloads are kept, under the workflow's layout
        (``data/raw/pairs/{dataset}/{lang}/{file}``).
    mirror
        Base URL of a host serving the original hosts' paths; the file is
        fetched from there and checked against the original URL's checksum.

    Raises
    ------
    FileNotFoundError
        ``data`` is neither a file nor a named dataset (the message lists the
        names), or the configuration is missing.
    ValueError
        The language is not one of the dataset's.
    """
    from mgbias.corpora.checksums import verify_sidecar
    from mgbias.corpora.download import fetch

    if Path(data).is_file():
        return Path(data)
    if config_path is None:
        config, source = benchmarks_config(), "shipped pair benchmarks"
    elif not Path(config_path).is_file():
        raise FileNotFoundError(
            f"{data}: no such file, and no configuration {config_path} to look the name up in"
        )
    else:
        config, source = load_config(config_path, schema_path), f"pair datasets of {config_path}"
    datasets = config["pair_datasets"]
    if data not in datasets:
        hint = "" if config_path else " (pass --config for a workflow configuration's)"
        raise FileNotFoundError(
            f"{data}: no such file, nor one of the {source}{hint}; named datasets: "
            f"{sorted(datasets)}"
        )
    languages = pair_dataset_languages(config, data)
    if lang is None:
        if len(languages) != 1:
            raise ValueError(f"{data} has the languages {languages}; pass --lang")
        lang = languages[0]
    if lang not in languages:
        raise ValueError(f"{data} has no language {lang!r}; its languages: {languages}")
    dest = Path(cache_dir) / pair_file(config, data, lang)
    if dest.is_file():
        verify_sidecar(dest)
    else:
        url = pair_url(config, data, lang)
        source_url = mirrored_url(url, mirror) if mirror else url
        fetch(source_url, dest, expected_sha256=config["checksums"].get(url))
    return dest
