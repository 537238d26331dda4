"""Planning of Zhao et al. (2020)'s static embeddings (``zhao2020:``): the vectors, the
alignment grid with ENDEB, inBias, BLI, the tables and Figure 1.

Plain functions of the validated configuration (:func:`mgbias.config.validate_config`
fills the schema's defaults); wildcards are passed as strings. The rules call them
(``rules/zhao2020.smk``, ``rules/models.smk``, ``rules/download.smk``): through a lambda
where they take the wildcards, or an adapter of ``rules/common.smk`` that several rule
files use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mgbias.workflow import layout
from mgbias.workflow.schema import filled_section

#: The English space after hard debiasing (the paper's ENDEB).
DEBIASED = "endeb"

#: Tables of Zhao et al. cut from the grid, without and with ENDEB.
TABLES = ["table1", "table2", "table12"]
ENDEB_TABLES = ["table3", "table4", "table13"]

#: Figure 1 without ``zhao2020.figure1`` keys: Spanish pairs in es, es-en and es-de.
FIGURE1 = {"lang": "es", "targets": ["en", "de"], "pairs": [], "n_pairs": 6}

#: The MUSE dictionaries' ranges: training pairs and the BLI test pairs.
DICTIONARY_RANGES = {"train": "0-5000", "test": "5000-6500"}


def configured(config: Mapping[str, Any]) -> bool:
    """Whether the configuration has a ``zhao2020`` section."""
    return bool(config.get("zhao2020"))


def section(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``zhao2020`` section over the schema's defaults of its keys (only the defaults
    without one), so that a rule's settings read the same keys either way."""
    return filled_section(config, "zhao2020")


def languages(config: Mapping[str, Any]) -> list[str]:
    """The languages with vectors (none without the section)."""
    return list(config["zhao2020"]["languages"]) if configured(config) else []


def grid_languages(config: Mapping[str, Any]) -> list[str]:
    """The languages of the alignment grid (``grid_languages``; without it, those of
    ``languages``: a default derived from another key, which the schema cannot state)."""
    chosen = section(config).get("grid_languages")
    return list(chosen) if chosen is not None else languages(config)


def grid_worlds(config: Mapping[str, Any]) -> list[str]:
    """The worlds whose spaces are aligned (``grid_worlds``; without it, every world of
    ``worlds``: a derived default)."""
    chosen = section(config).get("grid_worlds")
    return list(chosen) if chosen is not None else list(config["worlds"])


def inbias_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """inBias settings; ``n_strong`` defaults to the count of the demo's strong-gendered
    pairs."""
    from mgbias.demo.embeddings import n_strong

    return {"n_strong": n_strong(), **section(config)["inbias"]}


def debiases(config: Mapping[str, Any]) -> bool:
    """Whether the English space is hard-debiased (ENDEB): ``debias`` and English in the
    grid."""
    return bool(section(config)["debias"]) and "en" in grid_languages(config)


def alignments(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (source, target) spaces aligned: Zhao et al.'s grid.

    Every ordered pair of the grid languages (X->EN included, which the paper took from
    the published wiki.xx.align.vec), and with ENDEB (:func:`debiases`) ENDEB->X and
    X->ENDEB for every other language X.
    """
    grid = grid_languages(config)
    pairs = [(src, tgt) for src in grid for tgt in grid if src != tgt]
    if debiases(config):
        others = [lang for lang in grid if lang != "en"]
        pairs += [(DEBIASED, lang) for lang in others]
        pairs += [(lang, DEBIASED) for lang in others]
    return pairs


def downloads(config: Mapping[str, Any], source: str) -> bool:
    """Whether ``source`` (vectors, dictionaries, mibs) is downloaded
    (``zhao2020.<source>.url``) rather than trained on the world's text or generated from
    the demo lexicon."""
    return bool((section(config).get(source) or {}).get("url"))


def url(config: Mapping[str, Any], source: str, filename: str) -> str:
    """The URL of one downloaded resource: ``zhao2020.<source>.url`` with ``{filename}``."""
    return section(config)[source]["url"].format(filename=filename)


def vectors(config: Mapping[str, Any], world: str, lang: str) -> str:
    """A language's original .vec: the published wiki.{lang}.vec when
    ``zhao2020.vectors.url`` is set (the same file in every world), else the vectors
    trained on the world's text."""
    if downloads(config, "vectors"):
        return layout.path("raw_zhao2020", source="vectors", filename=f"wiki.{lang}.vec")
    return layout.path("vectors", world=world, lang=lang)


def training(config: Mapping[str, Any]) -> dict[str, Any]:
    """fastText settings of the trained vectors (``zhao2020.vectors.train``)."""
    return dict((section(config).get("vectors") or {}).get("train") or {})


def space_lang(space: str) -> str:
    """The language whose words a space holds (ENDEB: en)."""
    return "en" if space == DEBIASED else space


def space(config: Mapping[str, Any], world: str, name: str) -> str:
    """The .vec file of a space: a language's original vectors, or ENDEB."""
    if name == DEBIASED:
        return layout.path("zhao2020_debiased", world=world, lang="en")
    return vectors(config, world, name)


def dictionary(src: str, tgt: str, split: str) -> str:
    """The MUSE dictionary file name between two spaces' languages (``train``/``test``)."""
    return f"{space_lang(src)}-{space_lang(tgt)}.{DICTIONARY_RANGES[split]}.txt"


def dictionary_input(config: Mapping[str, Any], src: str, tgt: str, split: str) -> dict:
    """``{dico_<split>: file}`` (a downloaded MUSE dictionary) or ``{dictionaries: dir}``
    (the demo's; the script reads ``params.dico_<split>`` in it)."""
    if downloads(config, "dictionaries"):
        name = dictionary(src, tgt, split)
        path = layout.path("raw_zhao2020", source="dictionaries", filename=name)
        return {f"dico_{split}": path}
    return {"dictionaries": layout.path("zhao2020_dictionaries")}


def mibs_input(config: Mapping[str, Any], lang: str) -> dict[str, str]:
    """The MIBs lists of a language: the three downloaded files, or the demo's
    directory."""
    if not downloads(config, "mibs"):
        return {"mibs": layout.path("zhao2020_mibs")}
    from mgbias.embeddings.mibs import occupation_file_names, seed_file_name

    male, female = occupation_file_names(lang)
    files = {"male_occupations": male, "female_occupations": female}
    files["seeds"] = seed_file_name(lang)
    return {
        key: layout.path("raw_zhao2020", source="mibs", filename=name)
        for key, name in files.items()
    }


def inbias_spaces(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(src, tgt) of every inBias of an aligned space; (endeb, endeb): ENDEB itself."""
    spaces = alignments(config)
    if debiases(config):
        spaces.append((DEBIASED, DEBIASED))
    return spaces


def inbias_space_input(config: Mapping[str, Any], world: str, src: str, tgt: str) -> dict:
    """An aligned space, or ENDEB itself (``src == tgt == endeb``), with its language's
    original space (vocabulary filter), original scores (the t-test's reference) and
    MIBs lists."""
    lang = space_lang(src)
    if src == tgt:
        vec = space(config, world, src)
    else:
        vec = layout.path("zhao2020_aligned", world=world, src=src, tgt=tgt)
    return {
        "vec": vec,
        "original": vectors(config, world, lang),
        "reference": layout.path("zhao2020_inbias_scores", world=world, lang=lang),
        **mibs_input(config, lang),
    }


def grid_keys(config: Mapping[str, Any], kind: str) -> list[list[str]]:
    """[world, src, tgt] of every BLI (``bli``) or inBias (``inbias``) of the grid."""
    pairs = alignments(config) if kind == "bli" else inbias_spaces(config)
    return [[world, src, tgt] for world in grid_worlds(config) for src, tgt in pairs]


def original_keys(config: Mapping[str, Any]) -> list[list[str]]:
    """[world, lang] of every original space in the grid (its diagonal)."""
    grid = grid_languages(config)
    return [[world, lang] for world in grid_worlds(config) for lang in grid]


def figure1(config: Mapping[str, Any]) -> dict[str, Any]:
    """Figure 1's settings with their defaults (:data:`FIGURE1`)."""
    return {**FIGURE1, **(section(config).get("figure1") or {})}


def figure1_panels(config: Mapping[str, Any]) -> list[list[str]]:
    """[world, space] of Figure 1's panels (``es``, ``es-en``, ``es-de``) per grid world;
    none unless the language and its targets are among ``zhao2020.languages``."""
    figure = figure1(config)
    lang, targets = figure["lang"], figure["targets"]
    if not configured(config) or any(x not in languages(config) for x in [lang, *targets]):
        return []
    spaces = [lang, *[f"{lang}-{target}" for target in targets]]
    return [[world, name] for world in grid_worlds(config) for name in spaces]


def figure1_spaces(config: Mapping[str, Any]) -> list[str]:
    """The .vec file of every Figure 1 panel."""
    paths = []
    for world, name in figure1_panels(config):
        src, _, tgt = name.partition("-")
        if tgt:
            paths.append(layout.path("zhao2020_aligned", world=world, src=src, tgt=tgt))
        else:
            paths.append(vectors(config, world, src))
    return paths


def targets(config: Mapping[str, Any]) -> list[str]:
    """The inBias table of the original spaces and, when configured, the alignment grid
    with Tables 1, 2 and 12 (with ENDEB: 3, 4 and 13) and Figure 1."""
    if not configured(config):
        return []
    paths = [layout.path("zhao2020_inbias_original")]
    if alignments(config):
        paths.append(layout.path("zhao2020_grid"))
        paths += [layout.path(f"zhao2020_{name}") for name in TABLES]
        if debiases(config):
            paths += [layout.path(f"zhao2020_{name}") for name in ENDEB_TABLES]
    if figure1_panels(config):
        paths.append(layout.path("zhao2020_figure1"))
    return paths
