"""Planning of the contextual-embedding probes of Basta et al. (2020) (``basta2020:``):
the probe jobs' settings and static vectors, the shipped lists they read, and the
tables and figures.

Plain functions of the validated configuration, on top of the job lists of
:mod:`mgbias.workflow.core` (:func:`~mgbias.workflow.core.basta2020_jobs`,
:func:`~mgbias.workflow.core.basta2020_grammatical_jobs`); wildcards are passed as
strings. The rules call them (``rules/basta2020.smk``, ``rules/download.smk``): through
a lambda where they take the wildcards, or an adapter of ``rules/common.smk`` that
several rule files use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mgbias.seeds import derive_seed
from mgbias.workflow import layout, zhao2020
from mgbias.workflow.core import basta2020_grammatical_jobs, basta2020_jobs
from mgbias.workflow.schema import filled_section

#: The probe tables and figures of every configuration with the section.
TARGETS = [
    "basta2020_results",
    "basta2020_table1",
    "basta2020_tables2to5",
    "basta2020_pca_variance",
    "basta2020_layers",
    "basta2020_clusters",
    "basta2020_figure1",
]
#: Those of Exp. 6-9 (grammatical gender), with a Spanish, French or German domain.
GRAMMATICAL_TARGETS = [
    "basta2020_table6",
    "basta2020_table7",
    "basta2020_figure7",
    "basta2020_figure8",
    "basta2020_figure9",
]


def configured(config: Mapping[str, Any]) -> bool:
    """Whether the configuration has a ``basta2020`` section."""
    return bool(config.get("basta2020"))


def section(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``basta2020`` section over the schema's defaults of its keys (only the defaults
    without one), so that a rule's settings read the same keys either way."""
    return filled_section(config, "basta2020")


def domains(config: Mapping[str, Any]) -> list[str]:
    """The probe domains (none without the section)."""
    return list(config["basta2020"]["domains"]) if configured(config) else []


def jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every probe job (:func:`~mgbias.workflow.core.basta2020_jobs`; none without the
    section)."""
    return basta2020_jobs(config) if configured(config) else []


def grammatical_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The probe jobs of Exp. 6-9 (none without the section)."""
    return basta2020_grammatical_jobs(config) if configured(config) else []


def domain_lang(config: Mapping[str, Any], domain: str) -> str:
    """The language of a probe domain."""
    return section(config)["domains"][domain]["lang"]


def settings(
    config: Mapping[str, Any], kind: str, model: str, world: str, domain: str
) -> dict[str, Any]:
    """Settings of a probe job: ``basta2020.vectors`` or ``.probes`` (``kind``), the word
    lists (``lists``), the language's spaCy pipeline (``spacy``), the static vectors'
    sizes (``static``) and the job's seed."""
    basta = section(config)
    result = {
        **basta[kind],
        "lists": basta["lists"],
        "seed": derive_seed(config["seed"], "basta2020", kind, model, world, domain),
    }
    spacy = basta["spacy"].get(domain_lang(config, domain))
    if kind == "vectors" and spacy:
        result["spacy"] = spacy
    if kind == "vectors" and basta.get("static"):
        sizes = ("n_biased", "n_extended", "top_n")
        result.update({key: basta["static"][key] for key in sizes})
    return result


def static_input(config: Mapping[str, Any], world: str, domain: str) -> dict[str, str]:
    """A probe job's static vectors (``basta2020.static``): the static-embedding layer's
    vectors of the domain's language in the job's world, or the file configured for the
    language; none without the key."""
    static = section(config).get("static")
    if not static:
        return {}
    lang = domain_lang(config, domain)
    if static["vectors"] == "zhao2020":
        return {"static": zhao2020.vectors(config, world, lang)}
    return {"static": static["vectors"][lang]}


def lists(config: Mapping[str, Any], domain: str, package: str) -> list[str]:
    """The shipped list files (under ``package``, the mgbias source directory: relative
    to the working directory, the paths are too) that a probe job's language reads
    (:func:`mgbias.contextual.lists.list_files`)."""
    from mgbias.contextual.lists import list_files

    return [str(path) for path in list_files(domain_lang(config, domain), package)]


def targets(config: Mapping[str, Any]) -> list[str]:
    """The probe tables and figures, when configured (Tables 6-7 and Figures 7-9 with a
    Spanish, French or German domain)."""
    if not configured(config):
        return []
    keys = TARGETS + (GRAMMATICAL_TARGETS if grammatical_jobs(config) else [])
    return [layout.path(key) for key in keys]
