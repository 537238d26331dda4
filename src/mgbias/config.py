"""Load and validate the workflow configuration.

The schema (``mgbias/resources/schema.yaml``, shipped with the package) is
the single description of every key; this module applies its defaults, turns
jsonschema errors into messages that name the key and what was expected, adds
the checks a schema cannot express (ISO language codes, cross-references
between sections), and fills in the pair datasets that name a shipped
``benchmark`` (:mod:`mgbias.pair_benchmarks`).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from mgbias.errors import InputError
from mgbias.languages import ISO_639_1, PIVOT
from mgbias.pair_benchmarks import benchmark_checksums, load_benchmarks
from mgbias.resources import resource_path
from mgbias.workflow import (
    BASTA2020_GRAMMATICAL,
    demo_worlds,
    known_worlds,
    pair_dataset_languages,
)


class ConfigError(InputError):
    """A configuration value is missing, unknown or of the wrong kind."""


def _with_defaults(validator_class):
    """Extend a jsonschema validator so that it fills in ``default`` values."""
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if "default" in subschema and name not in instance:
                    instance[name] = copy.deepcopy(subschema["default"])
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


_Validator = _with_defaults(jsonschema.Draft202012Validator)


def _key(path) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


def _describe(error: jsonschema.ValidationError) -> str:
    key = _key(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        where = f"under '{key}'" if error.absolute_path else "at the top level"
        hint = f"; allowed keys: {', '.join(allowed)}" if allowed else ""
        return f"unknown key {', '.join(repr(e) for e in extra)} {where}{hint}"
    if error.validator == "type":
        return (
            f"key '{key}': expected {error.validator_value}, "
            f"got {type(error.instance).__name__} {error.instance!r}"
        )
    if error.validator == "enum":
        return f"key '{key}': expected one of {error.validator_value}, got {error.instance!r}"
    if error.validator == "required":
        return f"key '{key}': {error.message}"
    if error.validator == "pattern":
        return (
            f"key '{key}': {error.instance!r} does not match the expected form "
            f"{error.validator_value!r}"
        )
    return f"key '{key}': {error.message}"


def schema_path() -> Path:
    """The shipped schema of a workflow configuration (``mgbias/resources/schema.yaml``)."""
    return resource_path("schema.yaml")


def load_schema(path: str | Path | None = None) -> dict:
    """Read a YAML schema file (default: the shipped one, :func:`schema_path`)."""
    with open(path or schema_path(), encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _check_languages(codes, key: str, *, pivot_allowed: bool = False) -> None:
    """Every code is ISO 639-1; the pivot only where ``pivot_allowed`` (pair benchmarks)."""
    for index, code in enumerate(codes):
        if code not in ISO_639_1:
            raise ConfigError(
                f"key '{key}.{index}': unknown language code {code!r}; "
                "expected an ISO 639-1 code such as 'de', 'es' or 'ja'"
            )
        if code == PIVOT and not pivot_allowed:
            raise ConfigError(
                f"key '{key}.{index}': {PIVOT!r} is the pivot language of the parallel "
                "corpora and cannot be a target language"
            )


def _check_configured(codes, key: str, languages: set[str], *, pivot: bool = False) -> None:
    """Every code is ISO 639-1 and a configured language (or, with ``pivot``, English)."""
    _check_languages(codes, key, pivot_allowed=pivot)
    unknown = set(codes) - languages - ({PIVOT} if pivot else set())
    if unknown:
        among = "English and the configured languages" if pivot else "the configured languages"
        raise ConfigError(f"key '{key}': {sorted(unknown)} not among {among} {sorted(languages)}")


def _check_references(config: Mapping[str, Any]) -> None:
    languages = set(config["languages"])
    _check_languages(config["languages"], "languages")
    for name, corpus in config["corpora"].items():
        _check_configured(corpus.get("languages", []), f"corpora.{name}.languages", languages)
        for code in corpus.get("codes", {}):
            _check_languages([code], f"corpora.{name}.codes")
    for name, model in config["models"].items():
        has_source, has_train = "source" in model, "train" in model
        if has_source == has_train:
            raise ConfigError(
                f"key 'models.{name}': expected exactly one of 'source' (a hub id or "
                "a local directory) or 'train' (trained by the workflow)"
            )
        if has_train:
            world = model["train"]["world"]
            if world not in known_worlds(config):
                raise ConfigError(
                    f"key 'models.{name}.train.world': {world!r} is not one of the "
                    f"configured worlds {known_worlds(config)}"
                )
            key = f"models.{name}.train.languages"
            _check_configured(model["train"].get("languages", []), key, languages, pivot=True)
            if "monolingual" not in config:
                raise ConfigError(
                    f"key 'models.{name}.train': training needs a 'monolingual' section"
                )
        _check_configured(model.get("languages", []), f"models.{name}.languages", languages)
    _check_pair_datasets(config)
    _check_mbe(config)
    if "demo" in config:
        missing = [w for w in config["worlds"] if w not in demo_worlds(config)]
        if missing:
            raise ConfigError(
                f"key 'worlds': the demo generates only the worlds of its section "
                f"{demo_worlds(config)}, got {missing}"
            )


def _expand_benchmarks(config: dict) -> None:
    """Give each pair dataset its ``url``: its own, or its shipped ``benchmark``'s.

    A ``benchmark`` entry also takes the benchmark's languages (or keeps a
    subset of them it lists) and adds the benchmark's pinned checksums to
    ``checksums`` (an entry there wins). Idempotent: a dataset whose ``url``
    is its benchmark's own passes again.
    """
    benchmarks = load_benchmarks()
    for name, dataset in config.get("pair_datasets", {}).items():
        key = f"pair_datasets.{name}"
        if "benchmark" not in dataset:
            if "url" not in dataset:
                raise ConfigError(
                    f"key '{key}': expected exactly one of 'url' (a URL template of the "
                    f"files) or 'benchmark' (one of the shipped {sorted(benchmarks)})"
                )
            continue
        benchmark = benchmarks.get(dataset["benchmark"])
        if benchmark is None:
            raise ConfigError(
                f"key '{key}.benchmark': {dataset['benchmark']!r} is not a shipped pair "
                f"benchmark; expected one of {sorted(benchmarks)}"
            )
        if dataset.setdefault("url", benchmark["url"]) != benchmark["url"]:
            raise ConfigError(
                f"key '{key}': expected exactly one of 'url' or 'benchmark' "
                f"({dataset['benchmark']!r} has its own URL)"
            )
        languages = dataset.setdefault("languages", list(benchmark["languages"]))
        unknown = [lang for lang in languages if lang not in benchmark["languages"]]
        if unknown:
            raise ConfigError(
                f"key '{key}.languages': {unknown} not among the languages of the "
                f"benchmark {dataset['benchmark']!r}: {benchmark['languages']}"
            )
        for url, digest in benchmark_checksums(dataset["benchmark"], languages).items():
            config["checksums"].setdefault(url, digest)


def _check_mbe(config: Mapping[str, Any]) -> None:
    """The permutation test can reach p < alpha: 1 / (permutations + 1) < alpha."""
    mbe = config.get("mbe", {})
    if mbe.get("test") != "permutation":
        return
    permutations, alpha = mbe["permutations"], mbe["alpha"]
    if 1.0 / (permutations + 1) >= alpha:
        raise ConfigError(
            f"key 'mbe.permutations': {permutations} relabellings can never give "
            f"p < alpha = {alpha} (the smallest p-value is 1 / (permutations + 1)); "
            f"expected at least {math.floor(1.0 / alpha)}"
        )


def _check_pair_datasets(config: Mapping[str, Any]) -> None:
    """Pair datasets name known models and languages; paper tables name datasets."""
    datasets = config.get("pair_datasets", {})
    for name, dataset in datasets.items():
        _check_languages(
            dataset.get("languages", []), f"pair_datasets.{name}.languages", pivot_allowed=True
        )
        unknown = [m for m in dataset.get("models", []) if m not in config["models"]]
        if unknown:
            raise ConfigError(
                f"key 'pair_datasets.{name}.models': {unknown} not among the configured "
                f"models {list(config['models'])}"
            )
        if "{lang}" not in dataset["url"] and len(pair_dataset_languages(config, name)) > 1:
            raise ConfigError(
                f"key 'pair_datasets.{name}.url': one file for several languages; put "
                "{lang} in the URL or list one language under 'languages'"
            )
    for table, name in config.get("pair_tables", {}).items():
        if name not in datasets:
            raise ConfigError(
                f"key 'pair_tables.{table}': {name!r} is not one of the configured "
                f"pair_datasets {list(datasets)}"
            )
    table3 = config.get("pair_tables", {}).get("steinborn_table3")
    if table3 is not None and not datasets[table3].get("perturb", False):
        raise ConfigError(
            f"key 'pair_datasets.{table3}.perturb': must be true, since "
            "'pair_tables.steinborn_table3' (unperturbed and perturbed scores) names it"
        )
    _check_kaneko2023(config, datasets)
    _check_mbe_table3(config, datasets)
    _check_mbe_figure2(config)
    _check_mbe_translations(config, datasets)
    _check_zhao2020(config)
    _check_basta2020(config)
    _check_bios(config)


def _check_kaneko2023(config: dict, datasets: dict) -> None:
    """The ``kaneko2023`` section names configured models, pair dataset and languages."""
    section = config.get("kaneko2023")
    if not section:
        return
    for base in section["base_models"]:
        if base not in config["models"]:
            raise ConfigError(
                f"key 'kaneko2023.base_models': {base!r} is not one of the configured "
                f"models {list(config['models'])}"
            )
    if section["pair_dataset"] not in datasets:
        raise ConfigError(
            f"key 'kaneko2023.pair_dataset': {section['pair_dataset']!r} is not one of the "
            f"configured pair_datasets {list(datasets)}"
        )
    missing = [lang for lang in section["languages"] if lang not in section["wordlists"]]
    if missing:
        raise ConfigError(
            f"key 'kaneko2023.wordlists': no word lists for {missing}; expected one "
            "{female: [...], male: [...]} entry per language of 'kaneko2023.languages'"
        )
    for source, entry in section["sources"].items():
        languages = entry.get("languages") or section["languages"]
        if "{lang}" not in entry["url"] and len(languages) > 1:
            raise ConfigError(
                f"key 'kaneko2023.sources.{source}.url': one file for several languages; "
                "put {lang} in the URL or list one language under 'languages'"
            )
    for r in section["ratios"]:
        if abs(round(r * 100) - r * 100) > 1e-9:
            raise ConfigError(f"key 'kaneko2023.ratios': {r} is not a multiple of 0.01")
    for key, known in (("worlds", config["worlds"]), ("corpora", list(config["corpora"]))):
        for name in (section.get("mbe") or {}).get(key, []):
            if name not in known:
                raise ConfigError(
                    f"key 'kaneko2023.mbe.{key}': {name!r} is not one of the configured "
                    f"{key} {known}"
                )


def _check_mbe_table3(config: dict, datasets: dict) -> None:
    """The ``mbe_table3`` section names configured pair datasets and models."""
    section = config.get("mbe_table3")
    if not section:
        return
    for dataset in section["datasets"]:
        if dataset not in datasets:
            raise ConfigError(
                f"key 'mbe_table3.datasets': {dataset!r} is not one of the configured "
                f"pair_datasets {list(datasets)}"
            )
    for model in section.get("models", []):
        if model not in config["models"]:
            raise ConfigError(
                f"key 'mbe_table3.models': {model!r} is not one of the configured "
                f"models {list(config['models'])}"
            )
    if section.get("bias_controlled") and not config.get("kaneko2023"):
        raise ConfigError(
            "key 'mbe_table3.bias_controlled': true needs a 'kaneko2023' section "
            "(the bias-controlled models)"
        )


def _check_mbe_figure2(config: dict) -> None:
    """The ``mbe_figure2`` corpora are configured corpora."""
    section = config.get("mbe_figure2") or {}
    for corpus in section.get("corpora", []):
        if corpus not in config["corpora"]:
            raise ConfigError(
                f"key 'mbe_figure2.corpora': {corpus!r} is not one of the configured "
                f"corpora {list(config['corpora'])}"
            )


def _check_mbe_translations(config: dict, datasets: dict) -> None:
    """The ``mbe_translations`` entries name configured models and pair datasets."""
    for lang, entry in (config.get("mbe_translations") or {}).items():
        for model in entry["models"]:
            if model not in config["models"]:
                raise ConfigError(
                    f"key 'mbe_translations.{lang}.models': {model!r} is not one of the "
                    f"configured models {list(config['models'])}"
                )
        for method in ("ht", "mt", "tmp", "names", "english"):
            if method in entry and entry[method] not in datasets:
                raise ConfigError(
                    f"key 'mbe_translations.{lang}.{method}': {entry[method]!r} is not one "
                    f"of the configured pair_datasets {list(datasets)}"
                )
        if "names" in entry:
            from mgbias.native_names import shipped_name_specs

            if lang not in shipped_name_specs():
                raise ConfigError(
                    f"key 'mbe_translations.{lang}.names': no native names for {lang!r} in "
                    f"mgbias/resources/native_names.yaml (languages: "
                    f"{sorted(shipped_name_specs())})"
                )


def _check_basta2020(config: dict) -> None:
    """The ``basta2020`` section names configured models and worlds, and a spaCy pipeline
    for every language whose swap needs agreement (Spanish)."""
    section = config.get("basta2020")
    if not section:
        return
    for key in ("models", "model_languages"):
        for model in section.get(key) or ():
            if model not in config["models"]:
                raise ConfigError(
                    f"key 'basta2020.{key}': {model!r} is not one of the configured models "
                    f"{list(config['models'])}"
                )
    for world in section.get("worlds") or ():
        if world not in known_worlds(config):
            raise ConfigError(
                f"key 'basta2020.worlds': {world!r} is not one of the configured worlds "
                f"{known_worlds(config)}"
            )
    static = section.get("static")
    if static:
        wanted = {e["lang"] for e in section["domains"].values()}
        if static["vectors"] == "zhao2020":
            have, where = (config.get("zhao2020") or {}).get("languages", []), "zhao2020"
        else:
            have, where = static["vectors"], "a file"
        missing = sorted(wanted - set(have))
        if missing:
            raise ConfigError(
                f"key 'basta2020.static.vectors': {where} has no vectors of {missing}; "
                "expected every language of the domains"
            )
    for domain, entry in section["domains"].items():
        lang = entry["lang"]
        if lang in BASTA2020_GRAMMATICAL and not section.get("spacy", {}).get(lang):
            raise ConfigError(
                f"key 'basta2020.domains.{domain}': swapping {lang!r} needs a token analyser "
                f"for its agreement, e.g. basta2020.spacy: {{{lang}: {lang}_core_news_sm}} "
                "(or `demo` for the demo's text)"
            )


def _check_bios(config: dict) -> None:
    """A ``blank`` NER pipeline has names to match; the demo's names come with the demo
    crawl; a file:// crawl root is a directory path."""
    section = config.get("bios")
    if not section:
        return
    blank = [lang for lang in section["languages"] if section.get("spacy", {}).get(lang) == "blank"]
    if blank and not section.get("names"):
        raise ConfigError(
            f"key 'bios.names': the blank NER pipeline of {blank} needs a name list "
            "(a file of full names, or `demo` with the demo crawl)"
        )
    if section.get("names") == "demo" and "data/demo/mirror/" not in section["url"]:
        raise ConfigError(
            "key 'bios.names': `demo` names the demo crawl's names, but bios.url "
            f"({section['url']!r}) is not the demo mirror"
        )
    if not re.match(r"^(https?|file)://", section["url"]):
        raise ConfigError(
            f"key 'bios.url': {section['url']!r} is not an http(s):// or file:// crawl root"
        )
    _check_bios_encoder(config, section.get("classifier") or {})


def _check_bios_encoder(config: dict, classifier: dict) -> None:
    """The classifier's encoder is a configured model, and a transfer run uses it on both
    sides or on neither."""
    encoder = classifier.get("encoder")
    if not encoder:
        return
    if encoder["model"] not in config["models"]:
        raise ConfigError(
            f"key 'bios.classifier.encoder.model': {encoder['model']!r} is not a key of "
            f"models: {sorted(config['models'])}"
        )
    name = encoder.get("name") or encoder["model"]
    for run in (classifier.get("transfer") or {}).get("runs", []):
        if (run[2] == name) != (run[3] == name):
            raise ConfigError(
                f"key 'bios.classifier.transfer.runs': {run} mixes the encoder {name!r} "
                "with a static space"
            )


def _check_zhao2020(config: dict) -> None:
    """The ``zhao2020`` languages have monolingual text to train vectors on (unless the
    vectors are downloaded), and the alignment grid's and Figure 1's languages and worlds
    are configured ones."""
    section = config.get("zhao2020")
    if not section:
        return
    from mgbias.languages import PIVOT

    known = [PIVOT, *config["languages"]]
    unknown = [lang for lang in section["languages"] if lang not in known]
    if unknown and not section["vectors"].get("url"):
        raise ConfigError(
            f"key 'zhao2020.languages': {unknown} have no monolingual text to train "
            f"vectors on; expected some of {known}"
        )
    grid = section.get("grid_languages", [])
    outside = [lang for lang in grid if lang not in section["languages"]]
    if outside:
        raise ConfigError(
            f"key 'zhao2020.grid_languages': {outside} are not among "
            f"zhao2020.languages {section['languages']}"
        )
    figure1 = section.get("figure1", {})
    spaces = [figure1.get("lang", "es"), *figure1.get("targets", ["en", "de"])]
    absent = [lang for lang in spaces if lang not in section["languages"]]
    if "figure1" in section and absent:
        raise ConfigError(
            f"key 'zhao2020.figure1': {absent} are not among zhao2020.languages "
            f"{section['languages']}"
        )
    worlds = section.get("grid_worlds", [])
    unknown_worlds = [world for world in worlds if world not in config["worlds"]]
    if unknown_worlds:
        raise ConfigError(
            f"key 'zhao2020.grid_worlds': {unknown_worlds} are not among the worlds "
            f"{config['worlds']}"
        )


def validate_config(config: dict, schema: dict | str | Path | None = None) -> dict:
    """Validate ``config`` in place, fill in defaults, and return it.

    ``schema`` defaults to the shipped one (:func:`schema_path`). Pair datasets
    that name a ``benchmark`` get its URL, languages and checksums.

    Raises
    ------
    ConfigError
        naming the first offending key and what was expected.
    """
    if not isinstance(schema, dict):
        schema = load_schema(schema)
    if not isinstance(config, dict):
        raise ConfigError(f"configuration must be a mapping, got {type(config).__name__}")
    errors = sorted(_Validator(schema).iter_errors(config), key=lambda e: list(e.absolute_path))
    if errors:
        raise ConfigError("invalid configuration: " + _describe(errors[0]))
    _expand_benchmarks(config)
    _check_references(config)
    return config


def load_config(path: str | Path, schema: str | Path | None = None) -> dict:
    """Read a YAML configuration file and validate it against ``schema``
    (default: the shipped one)."""
    with open(path, encoding="utf-8") as handle:
        config = yaml.safe_load(handle) or {}
    try:
        return validate_config(config, schema)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None
