"""Planning of the demo world (``demo:``): the files the generator writes for a world and
for the pair benchmarks, and the settings a world's bytes depend on.

Plain functions of the validated configuration (:func:`mgbias.config.validate_config`
fills the schema's defaults); ``rules/demo.smk`` adapts them to the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mgbias.demo.world import MONOLINGUAL_YEAR, OPUS_CORPORA
from mgbias.languages import PIVOT
from mgbias.workflow import corpora, layout
from mgbias.workflow.mirror_layout import BENCHMARK_FILES
from mgbias.workflow.schema import filled_section

#: The settings of every world (the corpus sizes); a world's own are its entry.
SIZES = ("n_parallel", "n_monolingual")


def section(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``demo`` section over the schema's defaults of its keys (only the defaults
    without one), so that a rule's settings read the same keys either way."""
    return filled_section(config, "demo")


def world_files(config: Mapping[str, Any], world: str) -> list[str]:
    """Every file the generator writes for ``world``: the moses zips of the configured
    corpora it knows (``OPUS_CORPORA``) for every language, then the news-crawl text of
    English and every language."""
    zips = [
        layout.path(
            "demo_opus_zip",
            world=world,
            opus_dir=OPUS_CORPORA[corpus][0],
            release=OPUS_CORPORA[corpus][1],
            pair=corpora.pair(config, corpus, lang),
        )
        for corpus in config["corpora"]
        if corpus in OPUS_CORPORA
        for lang in config["languages"]
    ]
    text = [
        layout.path("demo_news_crawl", world=world, lang=lang, year=MONOLINGUAL_YEAR)
        for lang in [PIVOT, *config["languages"]]
    ]
    return zips + text


def world_settings(config: Mapping[str, Any], world: str) -> dict[str, Any]:
    """What determines ``world``'s bytes besides its seed: the corpus sizes and its own
    entry of the ``demo`` section, so that changing another world or a setting of rules
    downstream of the worlds (``mt_flip``, ``n_pairs``) regenerates nothing."""
    demo = config["demo"]
    return {**{key: demo[key] for key in SIZES}, world: demo[world]}


def pair_files(config: Mapping[str, Any]) -> list[str]:
    """Every file the generator writes for the pair benchmarks: each benchmark's file of
    English, then of every other language."""
    languages = [PIVOT, *(lang for lang in config["languages"] if lang != PIVOT)]
    return [
        layout.path(f"demo_{dataset}", lang=lang)
        for lang in languages
        for dataset in BENCHMARK_FILES
    ]
