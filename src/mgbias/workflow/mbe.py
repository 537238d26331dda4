"""Planning of Kaneko et al. (2022)'s further experiments (MBE): Table 3 (pair datasets
classified by gendered words, ``mbe_table3:``), Figure 2 (gender preservation,
``mbe_figure2:``) and Tables 4-6 (translated pairs and native names,
``mbe_translations:``).

Plain functions of the validated configuration, on top of the job lists of
:mod:`mgbias.workflow.core` (:func:`~mgbias.workflow.core.mbe_table3_jobs`,
:func:`~mgbias.workflow.core.mbe_preservation_jobs`,
:func:`~mgbias.workflow.core.mbe_translation_jobs`,
:func:`~mgbias.workflow.core.mbe_translated_jobs`); wildcards are passed as strings.
The rules call them (``rules/mbe.smk``, ``rules/mine.smk``, the ``Snakefile``'s targets),
through a lambda where they take the wildcards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mgbias.languages import PIVOT
from mgbias.workflow import layout
from mgbias.workflow.core import (
    ORIGINAL,
    mbe_preservation_jobs,
    mbe_table3_jobs,
    mbe_translated_jobs,
    mbe_translation_jobs,
    pair_file,
)
from mgbias.workflow.schema import filled_section


def targets(config: Mapping[str, Any]) -> list[str]:
    """Every table and figure of Kaneko et al. (2022) the configuration asks for (`rule
    all`): Tables 1 and 2, Table 3, Figure 2, Tables 4 and 5."""
    return [
        *tables12_targets(config),
        *table3_targets(config),
        *figure2_targets(config),
        *translations_targets(config),
    ]


def tables12_targets(config: Mapping[str, Any]) -> list[str]:
    """Tables 1 and 2 of Kaneko et al. (2022) (the mined counts, the MBE scores and their
    figure), when a parallel corpus is configured: a configuration of pair benchmarks
    or of another paper only mines nothing."""
    if not config["corpora"]:
        return []
    return [layout.path("mine_counts"), layout.path("mbe_scores"), layout.path("mbe_figure")]


def table3_targets(config: Mapping[str, Any]) -> list[str]:
    """Table 3 of Kaneko et al. (2022) and its rows per model, when configured."""
    if not mbe_table3_jobs(config):
        return []
    return [layout.path("mbe_table3"), layout.path("mbe_table3_models")]


def table3_section(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``mbe_table3`` section over the schema's defaults of its keys (only the defaults
    without one), so that a rule's settings read the same keys either way."""
    return filled_section(config, "mbe_table3")


def table3_wordlists(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The word lists classifying Table 3's sentences (default the mining's)."""
    return table3_section(config).get("wordlists") or config["wordlists"]


def pairs_inputs(config: Mapping[str, Any], model: str, dataset: str, lang: str) -> dict:
    """Table 3 inputs of one job: the pair file, its unmasked pass and pair measures."""
    keys = {"model": model, "dataset": dataset, "variant": ORIGINAL, "lang": lang}
    return {
        "data": pair_file(config, dataset, lang),
        "unmasked": layout.path("score_pairs_unmasked", **keys),
        "measures": layout.path("pairs_measures", **keys),
        "per_pair": layout.path("pairs_per_pair", **keys),
    }


def figure2_targets(config: Mapping[str, Any]) -> list[str]:
    """Figure 2 of Kaneko et al. (2022) and its table, when configured."""
    if not mbe_preservation_jobs(config):
        return []
    return [layout.path("mbe_figure2"), layout.path("mbe_figure2_table")]


def translations_targets(config: Mapping[str, Any]) -> list[str]:
    """Tables 4 and 5 of Kaneko et al. (2022), when configured."""
    if not mbe_translation_jobs(config):
        return []
    return [layout.path("mbe_translations")]


def translation_measures(config: Mapping[str, Any]) -> list[str]:
    """The pair measures of every Tables 4-5 job (original variant), in job order."""
    return [
        layout.path(
            "pairs_measures",
            model=job["model"],
            dataset=job["dataset"],
            variant=ORIGINAL,
            lang=job["lang"],
        )
        for job in mbe_translation_jobs(config)
    ]


def translated_english(config: Mapping[str, Any], lang: str, dataset: str) -> str:
    """The English pair dataset whose translations ``dataset`` holds in ``lang``."""
    for job in mbe_translated_jobs(config):
        if job["lang"] == lang and job["dataset"] == dataset:
            return job["english"]
    raise ValueError(
        f"mbe_translations: no entry for {lang!r} names {dataset!r} as `ht` with its "
        "`english` originals"
    )


def translated_inputs(config: Mapping[str, Any], model: str, dataset: str, lang: str) -> dict:
    """The translations, their English originals and the unmasked pass over the former."""
    return {
        "data": pair_file(config, dataset, lang),
        "english": pair_file(config, translated_english(config, lang, dataset), PIVOT),
        "unmasked": layout.path(
            "score_pairs_unmasked", model=model, dataset=dataset, variant=ORIGINAL, lang=lang
        ),
    }


def translated_results(config: Mapping[str, Any]) -> list[str]:
    """The MBE rows of Tables 4-5, in :func:`~mgbias.workflow.core.mbe_translated_jobs`
    order."""
    return [
        layout.path(
            "mbe_translated_result", model=job["model"], dataset=job["dataset"], lang=job["lang"]
        )
        for job in mbe_translated_jobs(config)
    ]


def native_names_ht(config: Mapping[str, Any], lang: str) -> str:
    """The human translations (``mbe_translations.<lang>.ht``) whose names Table 6
    replaces."""
    entry = (config.get("mbe_translations") or {}).get(lang)
    if not entry:
        raise ValueError(
            f"native_name_pairs: mbe_translations has no entry for {lang!r}, so there "
            "are no human translations to rewrite"
        )
    return pair_file(config, entry["ht"], lang)
