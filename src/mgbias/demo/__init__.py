"""Seeded demo world with a planted gender bias (the default configuration; docs/demo.md).

A small multilingual grammar (:mod:`mgbias.demo.lexicon`) renders abstract meanings into
aligned English, German, Spanish and French sentences; :mod:`mgbias.demo.world` samples
meanings with a configurable bias and writes them in the real corpora's file layouts.
"""

from mgbias.demo.lexicon import (
    OCCUPATIONS,
    STEREOTYPICALLY_FEMALE_OCCUPATIONS,
    STEREOTYPICALLY_MALE_OCCUPATIONS,
    Meaning,
    render,
)
from mgbias.demo.world import (
    DEFAULT_CORPORA,
    OPUS_CORPORA,
    WorldSpec,
    balanced,
    describe_world,
    monolingual_corpus,
    monolingual_path,
    opus_zip_path,
    pair_name,
    parallel_corpus,
    planted,
    supported_languages,
    write_world,
)

__all__ = [
    "DEFAULT_CORPORA",
    "OCCUPATIONS",
    "OPUS_CORPORA",
    "STEREOTYPICALLY_FEMALE_OCCUPATIONS",
    "STEREOTYPICALLY_MALE_OCCUPATIONS",
    "Meaning",
    "WorldSpec",
    "balanced",
    "describe_world",
    "monolingual_corpus",
    "monolingual_path",
    "opus_zip_path",
    "pair_name",
    "parallel_corpus",
    "planted",
    "render",
    "supported_languages",
    "write_world",
]
