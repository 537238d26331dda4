"""Pair datasets by name: the ``pair_datasets`` of a workflow configuration.

``mgbias score --data multilingual_crows_pairs --lang de`` looks the name up
in a configuration file (default ``config/paper.yaml``, which names the public
CrowS-Pairs, multilingual CrowS-Pairs and StereoSet files), downloads that
language's file once into a cache directory through the workflow's own
downloader (atomic, sha256 sidecar, pinned checksums of the config), and
returns its path. A path to an existing file is returned unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path

from mgbias.config import load_config
from mgbias.workflow import pair_dataset_languages, pair_file, pair_url

__all__ = ["DEFAULT_CACHE", "DEFAULT_CONFIG", "resolve_pair_data"]

DEFAULT_CONFIG = Path("config/paper.yaml")
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mgbias"


def resolve_pair_data(
    data: str,
    *,
    lang: str | None,
    config_path: str | Path = DEFAULT_CONFIG,
    schema_path: str | Path | None = None,
    cache_dir: str | Path = DEFAULT_CACHE,
) -> Path:
    """The local file of ``data``: an existing path, or a named dataset downloaded once.

    Parameters
    ----------
    data
        A file path, or a key of ``pair_datasets`` in the configuration.
    lang
        Language of the file to fetch (default: the dataset's only language,
        else an error listing them).
    config_path, schema_path
        The workflow configuration naming the datasets, and its schema
        (default: ``schema.yaml`` next to the configuration).
    cache_dir
        Where downloads are kept, under the workflow's layout
        (``data/raw/pairs/{dataset}/{lang}/{file}``).

    Raises
    ------
    FileNotFoundError
        ``data`` is neither a file nor a dataset of the configuration (the
        message lists the names), or the configuration is missing.
    ValueError
        The language is not one of the dataset's.
    """
    from mgbias.corpora.checksums import verify_sidecar
    from mgbias.corpora.download import fetch

    if Path(data).is_file():
        return Path(data)
    if not Path(config_path).is_file():
        raise FileNotFoundError(
            f"{data}: no such file, and no configuration {config_path} to look the name up "
            "in (pass --config)"
        )
    schema = schema_path or Path(config_path).parent / "schema.yaml"
    config = load_config(config_path, schema)
    datasets = config["pair_datasets"]
    if data not in datasets:
        raise FileNotFoundError(
            f"{data}: no such file, nor a pair dataset of {config_path}; "
            f"named datasets there: {sorted(datasets)}"
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
        fetch(url, dest, expected_sha256=config["checksums"].get(url))
    return dest
