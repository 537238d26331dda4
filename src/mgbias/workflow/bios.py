"""Planning of the multilingual BiosBias (Zhao et al. 2020, §4-5; ``bios:``): the crawl
and its shards, the datasets, Table 5 and Figure 2, and the occupation classifier's
monolingual and transfer runs on static spaces and on a frozen encoder.

Plain functions of the validated configuration (:func:`mgbias.config.validate_config`
fills the schema's defaults and checks the classifier's grid: :func:`mgbias.config
._check_bios`); wildcards are passed as strings. The rules call them (``rules/bios.smk``,
``rules/download.smk``, ``rules/demo.smk``): through a lambda where they take the
wildcards, or an adapter of ``rules/common.smk`` that several rule files use; the shards
of a snapshot, which only its plan (a checkpoint) knows, are passed in as a function.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from mgbias.seeds import derive_seed
from mgbias.workflow import layout, zhao2020
from mgbias.workflow.core import canonical, model_dir, model_is_trained, model_source
from mgbias.workflow.schema import filled_section, section_defaults

#: The keys of a transfer run's wildcards, in the order of :func:`transfer_experiments`.
TRANSFER_KEYS = ("world", "src", "tgt", "src_space", "tgt_space", "text", "sampling")

#: Table keys the classifier's static spaces add, and those of the encoder.
STATIC_TABLES = {
    "monolingual": ["bios_monolingual", "bios_monolingual_markdown"],
    "transfer": ["bios_transfer", "bios_transfer_markdown"],
}


def configured(config: Mapping[str, Any]) -> bool:
    """Whether the configuration has a ``bios`` section."""
    return bool(config.get("bios"))


def section(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``bios`` section over the schema's defaults of its keys (only the defaults
    without one), so that a rule's settings read the same keys either way."""
    return filled_section(config, "bios")


def languages(config: Mapping[str, Any]) -> list[str]:
    """The languages whose bios are extracted (none without the section)."""
    return list(config["bios"]["languages"]) if configured(config) else []


def snapshots(config: Mapping[str, Any]) -> list[str]:
    """The Common Crawl snapshots (none without the section)."""
    return list(config["bios"]["snapshots"]) if configured(config) else []


def listing_url(config: Mapping[str, Any], snapshot: str) -> str:
    """The URL of a snapshot's ``wet.paths.gz`` under the configured crawl root."""
    from mgbias.bios.ccfetch import url_for
    from mgbias.bios.ccpaths import listing_path

    return url_for(section(config)["url"], listing_path(snapshot))


def demo_outputs(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The demo crawl's listings and WET files (none without the section)."""
    from mgbias.bios.demo import segment_of, wet_paths

    if not configured(config):
        return {"listings": [], "wet": []}
    n_files = section(config)["demo_files"]
    listings = [layout.path("demo_bios_listing", snapshot=s) for s in snapshots(config)]
    wet = [
        layout.path(
            "demo_bios_wet",
            snapshot=s,
            segment=segment_of(s),
            filename=os.path.basename(p),
        )
        for s in snapshots(config)
        for p in wet_paths(s, n_files)
    ]
    return {"listings": listings, "wet": wet}


def dest_root(path: str, up: int) -> str:
    """Where the WET files go (``data/raw/bios``): ``up`` directories above ``path``
    (the listing ``.../crawl-data/{snapshot}/wet.paths.gz`` or a shard's manifest)."""
    for _ in range(up):
        path = os.path.dirname(path)
    return path


def seed(config: Mapping[str, Any]) -> int:
    """The seed of the WET file selection (``max_files``)."""
    return derive_seed(config["seed"], "bios", "wet_files")


def shard_outputs(
    config: Mapping[str, Any], lang: str, shards: Callable[[str], list[str]]
) -> list[str]:
    """Every shard's bios of ``lang``, every snapshot; ``shards`` gives a snapshot's
    shard indices (from its plan)."""
    return [
        layout.path("bios_shard", lang=lang, snapshot=snapshot, shard=shard)
        for snapshot in snapshots(config)
        for shard in shards(snapshot)
    ]


def manifests(config: Mapping[str, Any], shards: Callable[[str], list[str]]) -> list[str]:
    """Every shard's download manifest, every snapshot (``shards``: as
    :func:`shard_outputs`)."""
    return [
        layout.path("raw_bios_shard", snapshot=snapshot, shard=shard)
        for snapshot in snapshots(config)
        for shard in shards(snapshot)
    ]


def datasets(config: Mapping[str, Any]) -> list[str]:
    """Every language's dataset and the split of each language the classifier's runs read
    (monolingual or transfer): what the workflow mines from the crawl, under
    ``data/mined/bios/`` (rule ``bios_datasets``, the DVC data stage's target; none
    without the section)."""
    used = {run[1] for run in classifier_experiments(config)}
    used |= {lang for run in transfer_experiments(config) for lang in run[1:3]}
    return [layout.path("bios_dataset", lang=lang) for lang in languages(config)] + [
        layout.path("bios_split", lang=lang) for lang in languages(config) if lang in used
    ]


def names(config: Mapping[str, Any]) -> list[str]:
    """The name list of the ``blank`` NER fallback: the demo's, a file, or none."""
    value = section(config)["names"]
    if value == "demo":
        return [layout.path("demo_bios_names")]
    return [value] if value else []


def titles_url(config: Mapping[str, Any], lang: str) -> str | None:
    """``bios.titles.<lang>`` when it is a URL (downloaded by download_bios_titles)."""
    titles = section(config)["titles"].get(lang)
    return titles if titles and re.match(r"^(https?|file)://", titles) else None


def titles(config: Mapping[str, Any], lang: str) -> list[str]:
    """The configured title lexicon of ``lang``: its download when a URL, else the local
    file (none: the shipped demo lexicon)."""
    if titles_url(config, lang):
        return [layout.path("raw_bios_titles", lang=lang)]
    value = section(config)["titles"].get(lang)
    return [value] if value else []


def pipeline(config: Mapping[str, Any], lang: str) -> str:
    """The spaCy pipeline of ``lang`` (``bios.spacy``; default the library's)."""
    from mgbias.bios.ner import DEFAULT_PIPELINES

    return section(config)["spacy"].get(lang, DEFAULT_PIPELINES[lang])


def classifier_section(config: Mapping[str, Any]) -> dict[str, Any]:
    """``bios: classifier:`` (settings and the experiment grid; empty: no classifier)."""
    return section(config).get("classifier") or {}


def classifier_grid(config: Mapping[str, Any]) -> dict[str, Any]:
    """``bios: classifier:`` over the schema's defaults (``runs``, ``texts``,
    ``samplings``, ``monolingual``): what the experiment grid reads."""
    return {**section_defaults("bios.classifier"), **classifier_section(config)}


def classifier_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """The classifier's settings, the authors' defaults completed (checked keys)."""
    from mgbias.bios.experiment import ClassifierSettings

    return asdict(ClassifierSettings.from_mapping(classifier_section(config)))


def classifier_worlds(config: Mapping[str, Any]) -> list[str]:
    """The worlds whose vectors the classifier uses (``classifier.worlds``; without it,
    every world of ``worlds``: a derived default)."""
    chosen = classifier_section(config).get("worlds")
    return list(chosen) if chosen is not None else list(config["worlds"])


def classifier_variants(config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(text, sampling) of the runs: ``variants`` (``{text}-{sampling}``), else
    ``texts`` x ``samplings`` (their defaults: the schema's)."""
    classifier = classifier_grid(config)
    if "variants" in classifier:
        return [tuple(variant.split("-")) for variant in classifier["variants"]]
    return [
        (text, sampling) for text in classifier["texts"] for sampling in classifier["samplings"]
    ]


def classifier_experiments(config: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """(world, lang, space, text, sampling) of every configured monolingual run: the
    classifier's worlds x ``monolingual`` (language -> spaces) x the variants."""
    return [
        (world, lang, space, text, sampling)
        for world in classifier_worlds(config)
        for lang, spaces in classifier_grid(config)["monolingual"].items()
        for space in spaces
        for text, sampling in classifier_variants(config)
    ]


def encoder(config: Mapping[str, Any]):
    """``bios.classifier.encoder`` (EncoderSettings; None without one): the frozen
    encoder whose space name (``name``, default the model's) runs Tables 10 and 11."""
    from mgbias.bios.encoder import EncoderSettings

    return EncoderSettings.from_config(classifier_section(config).get("encoder"))


def is_encoder(config: Mapping[str, Any], space: str | None) -> bool:
    """Whether ``space`` names the classifier's encoder."""
    settings = encoder(config)
    return settings is not None and space == settings.name


def transfer_section(config: Mapping[str, Any]) -> dict[str, Any]:
    """``bios: classifier: transfer:`` (empty: no transfer runs)."""
    return classifier_section(config).get("transfer") or {}


def transfer_grid(config: Mapping[str, Any]) -> dict[str, Any]:
    """``bios: classifier: transfer:`` over the schema's defaults."""
    return {**section_defaults("bios.classifier.transfer"), **transfer_section(config)}


def transfer_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """Share, full targets and labels of the transfer runs (the schema's defaults, the
    authors'; the labels of a language in ``labels_by_language`` replace ``labels`` for
    its runs)."""
    from mgbias.bios.experiment import TRANSFER_LABELS

    transfer = transfer_grid(config)
    return {
        "share": transfer["share"],
        "full": list(transfer["full"]),
        "labels": list(transfer["labels"] if "labels" in transfer else TRANSFER_LABELS),
        "labels_by_language": {
            lang: list(labels) for lang, labels in transfer["labels_by_language"].items()
        },
    }


def encoder_params(
    config: Mapping[str, Any], space: str | None, lang: str | None = None
) -> dict[str, Any] | None:
    """The encoder's settings, source (hub id or directory) and revision for a run of
    ``space``, else None (a static space); for a monolingual run (its ``lang``) with
    ``labels: transfer``, the ``occupations`` it keeps (the transfer labels of its
    language). ``precision`` and ``disk_cache`` are left out at their defaults (fp32,
    false), so that the params and the records of runs made before the options are
    unchanged."""
    if not is_encoder(config, space):
        return None
    settings = encoder(config)
    params = {
        **asdict(settings),
        "source": model_source(config, settings.model),
        "revision": config["models"][settings.model].get("revision"),
    }
    if params["precision"] == "fp32":
        del params["precision"]
    if not params["disk_cache"]:
        del params["disk_cache"]
    if lang and settings.labels == "transfer":
        from mgbias.bios.experiment import transfer_labels

        transfer = transfer_settings(config)
        params["occupations"] = transfer_labels(
            lang, lang, transfer["labels"], transfer["labels_by_language"]
        )
    return canonical(params)


def vectors(config: Mapping[str, Any], world: str, lang: str, space: str) -> str:
    """The .vec file of a classifier's static space for ``lang`` bios: the language's own
    vectors (``{lang}``), ENDEB (``endeb``, English only), or the language aligned to
    another space (``{lang}-{tgt}``, e.g. ``es-en``, ``de-endeb``; ``endeb-{tgt}``); the
    spaces are checked by :mod:`mgbias.config`."""
    if space == lang or (space == zhao2020.DEBIASED and lang == "en"):
        return zhao2020.space(config, world, space)
    src, _, tgt = space.partition("-")
    return layout.path("zhao2020_aligned", world=world, src=src, tgt=tgt)


def space_input(config: Mapping[str, Any], world: str, lang: str, space: str) -> dict:
    """``{"vectors": .vec}`` of a static space, or the encoder's model directory when the
    workflow trains it (``{"encoder": dir}``; a hub model: nothing, it loads from the
    Hugging Face cache)."""
    if is_encoder(config, space):
        model = encoder(config).model
        return {"encoder": model_dir(model)} if model_is_trained(config["models"][model]) else {}
    return {"vectors": vectors(config, world, lang, space)}


def classifier_input(config: Mapping[str, Any], world: str, lang: str, space: str) -> dict:
    """The dataset, split and space of a monolingual run (:func:`space_input`)."""
    return {
        "dataset": layout.path("bios_dataset", lang=lang),
        "split": layout.path("bios_split", lang=lang),
        **space_input(config, world, lang, space),
    }


def classifier_seeds(config: Mapping[str, Any], world: str, lang: str) -> list[int]:
    """One seed per run (``classifier.runs``), shared by every space, text and sampling
    of a world and language, so that their runs are paired."""
    runs = int(classifier_grid(config)["runs"])
    return [derive_seed(config["seed"], "bios_classifier", world, lang, run) for run in range(runs)]


def classifier_outputs(config: Mapping[str, Any], encoder: bool = False) -> list[str]:
    """The metrics JSON of every configured monolingual run on a static space, or with
    ``encoder``, on the encoder (Table 10)."""
    return [
        layout.path("bios_classifier", world=w, lang=lang, space=s, text=t, sampling=m)
        for w, lang, s, t, m in classifier_experiments(config)
        if is_encoder(config, s) == encoder
    ]


def transfer_experiments(config: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """(world, src, tgt, src_space, tgt_space, text, sampling) of every transfer run."""
    transfer = transfer_grid(config)
    out = []
    for src, tgt, src_space, tgt_space in transfer["runs"]:
        for world in classifier_worlds(config):
            for variant in transfer["variants"]:
                text, sampling = variant.split("-")
                out.append((world, src, tgt, src_space, tgt_space, text, sampling))
    return out


def transfer_input(
    config: Mapping[str, Any], world: str, src: str, tgt: str, src_space: str, tgt_space: str
) -> dict[str, str]:
    """Both languages' datasets, splits and spaces of a transfer run (the encoder: its
    model directory once, when the workflow trains it)."""
    source = space_input(config, world, src, src_space)
    target = space_input(config, world, tgt, tgt_space)
    return {
        "source": layout.path("bios_dataset", lang=src),
        "target": layout.path("bios_dataset", lang=tgt),
        "source_split": layout.path("bios_split", lang=src),
        "target_split": layout.path("bios_split", lang=tgt),
        **{f"source_{key}": path for key, path in source.items() if key == "vectors"},
        **{f"target_{key}": path for key, path in target.items() if key == "vectors"},
        **{key: path for key, path in source.items() if key == "encoder"},
    }


def transfer_seeds(config: Mapping[str, Any], world: str, src: str, tgt: str) -> list[int]:
    """One seed per run (``classifier.runs``) of a world and language pair."""
    runs = int(classifier_grid(config)["runs"])
    return [
        derive_seed(config["seed"], "bios_transfer", world, src, tgt, run) for run in range(runs)
    ]


def transfer_outputs(config: Mapping[str, Any], encoder: bool = False) -> list[str]:
    """The metrics JSON of every configured transfer run on static spaces, or with
    ``encoder``, on the encoder (Table 11)."""
    return [
        layout.path("bios_finetune", **dict(zip(TRANSFER_KEYS, run, strict=True)))
        for run in transfer_experiments(config)
        if is_encoder(config, run[3]) == encoder
    ]


def static_tables(config: Mapping[str, Any]) -> list[str]:
    """The table keys of the classifier's runs on static spaces (monolingual, transfer)
    that the configuration has runs for."""
    tables = []
    if classifier_outputs(config):
        tables += STATIC_TABLES["monolingual"]
    if transfer_outputs(config):
        tables += STATIC_TABLES["transfer"]
    return tables


def left_out(config: Mapping[str, Any]) -> list[str]:
    """The static-space tables the default target leaves out: those of a configuration
    without ``zhao2020:`` (the word vectors); they can still be asked for as targets."""
    return static_tables(config) if not zhao2020.configured(config) else []


def targets(config: Mapping[str, Any]) -> list[str]:
    """Table 5, Figure 2 and its counts, the classifier tables on static spaces when
    configured and the vectors are (``zhao2020:``; :func:`left_out`), and the encoder's
    Tables 10 and 11 when configured."""
    if not configured(config):
        return []
    keys = ["bios_table5", "bios_table5_markdown", "bios_counts", "bios_figure2"]
    if zhao2020.configured(config):
        keys += static_tables(config)
    if classifier_outputs(config, encoder=True):
        keys += ["bios_table10", "bios_table10_markdown"]
    if transfer_outputs(config, encoder=True):
        keys += ["bios_table11", "bios_table11_markdown"]
    return [layout.path(key) for key in keys]
