"""Planning of the pair benchmarks' tables (``pair_datasets:``, ``pair_tables:``;
Steinborn et al. 2022): the tables a configuration produces and every benchmark file
it downloads.

Plain functions of the validated configuration (:func:`mgbias.config.validate_config`
fills the schema's defaults), on top of the job list of :mod:`mgbias.workflow.core`
(:func:`~mgbias.workflow.core.pair_jobs`); the ``Snakefile`` and
``rules/download.smk`` call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mgbias.workflow import layout
from mgbias.workflow.core import pair_dataset_languages, pair_file, pair_jobs

#: The tables of every configuration that scores a model on a pair dataset.
TABLES = ["pairs_scores", "pairs_by_model"]


def targets(config: Mapping[str, Any]) -> list[str]:
    """The pair tables this configuration produces: none when no model is scored on a
    pair dataset (e.g. every model's languages miss every dataset's), and a paper table
    of ``pair_tables`` only when some model is scored on its dataset."""
    scored = {job["dataset"] for job in pair_jobs(config)}
    if not scored:
        return []
    tables = TABLES + [
        f"pairs_{table}"
        for table, dataset in sorted(config["pair_tables"].items())
        if dataset in scored
    ]
    return [layout.path(table) for table in tables]


def downloads(config: Mapping[str, Any]) -> list[str]:
    """Every benchmark file of the configured pair datasets, dataset by dataset, in each
    one's languages (rule ``pair_downloads``)."""
    return [
        pair_file(config, dataset, lang)
        for dataset in config["pair_datasets"]
        for lang in pair_dataset_languages(config, dataset)
    ]
