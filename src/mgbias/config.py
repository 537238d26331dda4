"""Load and validate the workflow configuration.

The schema (``mgbias/resources/schema.yaml``, shipped with the package) is
the single description of every key; this module applies its defaults, turns
jsonschema errors into messages that name the key and what was expected, adds
the checks a schema cannot express (ISO language codes, cross-references
between sections), and fills in the pair datasets that name a shipped
``benchmark`` (:mod:`mgbias.pairs.benchmarks`). Locations given as local paths
become ``file://`` URLs, and ``mgbias check-config`` looks for the local files
(:mod:`mgbias.workflow.config_locations`).

Every error is found in one pass: the schema's (jsonschema's ``iter_errors``) and
those the ``_check_*`` generators yield, joined in one :class:`ConfigError` whose
``errors`` lists them, each located at the file and line of its key.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mgbias.errors import InputError
from mgbias.files.yaml_lines import YAMLDocument, YAMLInputError, read_yaml
from mgbias.languages import ISO_639_1, PIVOT
from mgbias.pairs.benchmarks import benchmark_checksums, load_benchmarks
from mgbias.settings import SECTIONS as SETTINGS_SECTIONS
from mgbias.settings import allowed_keys, section_class, unknown_keys
from mgbias.workflow.config_locations import as_url as as_url  # where it was first defined
from mgbias.workflow.config_locations import localize, missing_locations
from mgbias.workflow.core import (
    BASELINE_OF,
    BASTA2020_GRAMMATICAL,
    DEFAULT_WORLD,
    demo_worlds,
    evaluation_jobs,
    is_finetuned,
    known_worlds,
    model_languages,
    pair_dataset_languages,
    pair_jobs,
    scored_together,
    scoring_items,
    trained_models,
    training_settings,
)
from mgbias.workflow.schema import (
    filled_entry as filled_entry,
)
from mgbias.workflow.schema import (
    filled_section as filled_section,
)
from mgbias.workflow.schema import load_schema as _load_schema
from mgbias.workflow.schema import schema_node
from mgbias.workflow.schema import (
    schema_path as schema_path,
)
from mgbias.workflow.schema import (
    section_defaults as section_defaults,
)
from mgbias.workflow.schema import validator_class as _validator_class

if TYPE_CHECKING:
    import jsonschema


class ConfigError(InputError):
    """A configuration value is missing, unknown or of the wrong kind, or the file does
    not parse.

    ``key`` is the dotted path of the offending key where one is known (e.g.
    ``models.m.languages``); messages of :func:`load_config` start with
    ``<file>:<line>:`` of that key. ``errors`` lists every error found in one pass
    (this one alone, or those :meth:`of` joined: the message then says how many and
    gives one a line).
    """

    def __init__(
        self, message: str, key: str | None = None, *, errors: Sequence[ConfigError] = ()
    ) -> None:
        super().__init__(message)
        self.key = key if key is not None else _key_in_message(message)
        self.errors: list[ConfigError] = list(errors) or [self]

    @classmethod
    def of(cls, errors: Sequence[ConfigError]) -> ConfigError:
        """One error for ``errors`` (the error itself when there is one)."""
        if len(errors) == 1:
            return errors[0]
        lines = "\n".join(str(error) for error in errors)
        return cls(
            f"{len(errors)} errors in the configuration:\n{lines}", errors[0].key, errors=errors
        )


def _key_in_message(message: str) -> str | None:
    """The key a message names as ``key 'a.b'``, if any."""
    found = re.search(r"key '([^']+)'", message)
    return found[1] if found and found[1] != "<top level>" else None


@dataclass(frozen=True)
class ConfigWarning:
    """A configuration that validates but will not do what it seems to: a model that
    meets no data in its languages, a language without a model. ``key`` is the dotted
    path of the key to change."""

    key: str
    message: str


def _key(path) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


def _located_key(error: jsonschema.ValidationError) -> str | None:
    """The dotted key a schema error is about (an unknown key: the first one)."""
    path = [str(part) for part in error.absolute_path]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        extra = sorted(str(e) for e in set(error.instance) - set(allowed))
        path += extra[:1]
    return ".".join(path) or None


def _describe(error: jsonschema.ValidationError) -> str:
    key = _key(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed), key=str)
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
        if "x-form" in error.schema:  # the form in words, where the pattern says it badly
            return f"key '{key}': {error.instance!r} is not {error.schema['x-form']}"
        return (
            f"key '{key}': {error.instance!r} does not match the expected form "
            f"{error.validator_value!r}"
        )
    return f"key '{key}': {error.message}"


def load_schema(path: str | Path | None = None) -> dict:
    """Read a YAML schema file (default: the shipped one), parsed once per process
    (:func:`mgbias.workflow.schema.load_schema`); a file that does not parse is a
    :class:`ConfigError` naming it."""
    try:
        return _load_schema(path)
    except YAMLInputError as error:
        raise ConfigError(str(error)) from None


def _check_languages(codes, key: str, *, pivot_allowed: bool = False) -> Iterator[ConfigError]:
    """Every code is ISO 639-1; the pivot only where ``pivot_allowed`` (pair benchmarks,
    a configuration without parallel corpora)."""
    for index, code in enumerate(codes):
        if code not in ISO_639_1:
            yield ConfigError(
                f"key '{key}.{index}': unknown language code {code!r}; "
                "expected an ISO 639-1 code such as 'de', 'es' or 'ja'"
            )
        elif code == PIVOT and not pivot_allowed:
            yield ConfigError(
                f"key '{key}.{index}': {PIVOT!r} is the pivot language of the parallel "
                "corpora and cannot be a target language (a configuration without "
                "corpora may list it)"
            )


def _check_configured(
    codes, key: str, languages: set[str], *, pivot: bool = False
) -> Iterator[ConfigError]:
    """Every code is ISO 639-1 and a configured language (or, with ``pivot``, English)."""
    yield from _check_languages(codes, key, pivot_allowed=pivot or PIVOT in languages)
    unknown = set(codes) - languages - ({PIVOT} if pivot else set())
    if unknown:
        among = "English and the configured languages" if pivot else "the configured languages"
        yield ConfigError(f"key '{key}': {sorted(unknown)} not among {among} {sorted(languages)}")


def _check_corpora(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """A corpus has exactly one of ``url`` and ``files``, and languages and codes that are
    configured ones."""
    languages = set(config["languages"])
    for name, corpus in config["corpora"].items():
        given = [key for key in ("url", "files") if key in corpus]
        if len(given) != 1:
            yield ConfigError(
                f"key 'corpora.{name}': expected exactly one of 'url' (a moses zip per "
                "language pair) or 'files' (two aligned plain-text files per pair), "
                f"got {given or 'neither'}"
            )
        key = f"corpora.{name}.languages"
        yield from _check_configured(corpus.get("languages", []), key, languages)
        for code in corpus.get("codes", {}):
            yield from _check_languages([code], f"corpora.{name}.codes")


def _check_languages_key(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """The target languages: English, the pivot, only without parallel corpora (a
    configuration of English pair benchmarks, or of an English-only paper)."""
    yield from _check_languages(
        config["languages"], "languages", pivot_allowed=not config["corpora"]
    )


def _check_models(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """A model has a ``source`` or is trained; its world and languages are configured."""
    languages = set(config["languages"])
    for name, model in config["models"].items():
        has_source, has_train = "source" in model, "train" in model
        if has_source == has_train:
            yield ConfigError(
                f"key 'models.{name}': expected exactly one of 'source' (a hub id or "
                "a local directory) or 'train' (trained by the workflow)"
            )
        if has_train:
            world = model["train"]["world"]
            if world not in known_worlds(config):
                yield ConfigError(
                    f"key 'models.{name}.train.world': {world!r} is not one of the "
                    f"configured worlds {known_worlds(config)}"
                )
            key = f"models.{name}.train.languages"
            trained = model["train"].get("languages", [])
            yield from _check_configured(trained, key, languages, pivot=True)
            if "monolingual" not in config:
                yield ConfigError(
                    f"key 'models.{name}.train': training needs a 'monolingual' section"
                )
        key = f"models.{name}.languages"
        yield from _check_configured(model.get("languages", []), key, languages)


def _check_demo(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """The worlds are the demo's, and a mirrored world is balanced."""
    if "demo" not in config:
        return
    missing = [w for w in config["worlds"] if w not in demo_worlds(config)]
    if missing:
        yield ConfigError(
            f"key 'worlds': the demo generates only the worlds of its section "
            f"{demo_worlds(config)}, got {missing}"
        )
    yield from _check_mirrored_worlds(config)


def _check_corpora_needed(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """The sections that read the mined parallel sentences have corpora to mine."""
    if config["corpora"]:
        return
    needing = [
        ("mbe_figure2", "Figure 2 of Kaneko et al. (2022) counts mined sentences"),
        ("kaneko2023.mbe", "MBE of the bias-controlled models scores mined sentences"),
    ]
    for key, why in needing:
        section, _, sub = key.partition(".")
        value = config.get(section)
        if value is not None and (not sub or (value or {}).get(sub) is not None):
            yield ConfigError(
                f"key '{key}': {why}, but 'corpora' names no parallel corpus; add one "
                "under 'corpora' or remove the key",
                key=key,
            )


def _check_mirrored_worlds(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """A ``mirrored`` world writes every gendered sentence in both genders: exactly
    balanced, so a planted ratio or association there would be silently undone."""
    for world in demo_worlds(config):
        spec = config["demo"][world]
        if not spec.get("mirrored"):
            continue
        settings = (spec["male_ratio"], spec["occupation_bias"])
        if settings != (1.0, 0.5):
            yield ConfigError(
                f"key 'demo.{world}.mirrored': a mirrored world is exactly balanced, so it "
                f"needs male_ratio 1 and occupation_bias 0.5, got male_ratio "
                f"{settings[0]} and occupation_bias {settings[1]}"
            )


def _expand_benchmarks(config: dict) -> Iterator[ConfigError]:
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
                yield ConfigError(
                    f"key '{key}': expected exactly one of 'url' (a URL template of the "
                    f"files) or 'benchmark' (one of the shipped {sorted(benchmarks)})"
                )
            continue
        benchmark = benchmarks.get(dataset["benchmark"])
        if benchmark is None:
            yield ConfigError(
                f"key '{key}.benchmark': {dataset['benchmark']!r} is not a shipped pair "
                f"benchmark; expected one of {sorted(benchmarks)}"
            )
            continue
        if dataset.setdefault("url", benchmark["url"]) != benchmark["url"]:
            yield ConfigError(
                f"key '{key}': expected exactly one of 'url' or 'benchmark' "
                f"({dataset['benchmark']!r} has its own URL)"
            )
        languages = dataset.setdefault("languages", list(benchmark["languages"]))
        unknown = [lang for lang in languages if lang not in benchmark["languages"]]
        if unknown:
            yield ConfigError(
                f"key '{key}.languages': {unknown} not among the languages of the "
                f"benchmark {dataset['benchmark']!r}: {benchmark['languages']}"
            )
        for url, digest in benchmark_checksums(dataset["benchmark"], languages).items():
            config["checksums"].setdefault(url, digest)


def _check_mbe(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """The permutation test can reach p < alpha: 1 / (permutations + 1) < alpha."""
    mbe = config.get("mbe", {})
    if mbe.get("test") != "permutation":
        return
    permutations, alpha = mbe["permutations"], mbe["alpha"]
    if 1.0 / (permutations + 1) >= alpha:
        yield ConfigError(
            f"key 'mbe.permutations': {permutations} relabellings can never give "
            f"p < alpha = {alpha} (the smallest p-value is 1 / (permutations + 1)); "
            f"expected at least {math.floor(1.0 / alpha)}"
        )


def _check_scoring_together(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """The models of ``scoring.together`` are configured, neither fine-tuned nor a
    structural baseline, and scored on the same sentence sets and pair files: their
    joint job writes every one's scores wherever one of them is needed."""
    together = scored_together(config)
    known = [name for name in together if name in config["models"]]
    for index, name in enumerate(together):
        key = f"scoring.together.{index}"
        if name not in config["models"]:
            yield ConfigError(
                f"key '{key}': {name!r} is not a model of 'models' {list(config['models'])}",
                key=key,
            )
        elif is_finetuned(config["models"][name]) or BASELINE_OF in config["models"][name]:
            yield ConfigError(
                f"key '{key}': {name!r} is a fine-tuned model or a structural baseline; "
                "expected a model of 'models' that the workflow scores itself (kaneko2023 "
                "scores a grid's fine-tuned models in one job already)",
                key=key,
            )
    if len(known) < 2:
        return
    items_of = scoring_items(config, known)
    first = items_of[known[0]]
    for name in known[1:]:
        items = items_of[name]
        for kind, what in (("mined", "sentence sets"), ("pairs", "pair files")):
            if items[kind] != first[kind]:
                only = ["/".join(item) for item in sorted(set(items[kind]) ^ set(first[kind]))]
                more = f" and {len(only) - 3} more" if len(only) > 3 else ""
                shown = ", ".join(only[:3]) + more
                yield ConfigError(
                    f"key 'scoring.together': {known[0]!r} and {name!r} are not scored on "
                    f"the same {what} (differing: {shown}); "
                    "models scored together need the same languages, worlds, corpora and "
                    "pair datasets",
                    key="scoring.together",
                )


def _check_precisions(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """fp16 is not asked of a section whose device is the CPU (fp16 autocast needs CUDA;
    :mod:`mgbias.mlm.precision`)."""
    basta2020 = config.get("basta2020") or {}
    classifier = (config.get("bios") or {}).get("classifier") or {}
    sections = [
        ("scoring", config.get("scoring") or {}, "scoring.device"),
        ("basta2020.vectors", basta2020.get("vectors") or {}, "basta2020.vectors.device"),
        (
            "bios.classifier.encoder",
            {**(classifier.get("encoder") or {}), "device": classifier.get("device")},
            "bios.classifier.device",
        ),
    ]
    for key, section, device_key in sections:
        device = str(section.get("device") or "auto")
        if section.get("precision") == "fp16" and device == "cpu":
            yield ConfigError(
                f"key '{key}.precision': fp16 needs a CUDA device, but {device_key} is cpu; "
                "expected bf16 or fp32 on the CPU (or the device auto or cuda)"
            )


def _check_pair_datasets(config: Mapping[str, Any]) -> Iterator[ConfigError]:
    """Pair datasets name known models and languages; paper tables name datasets."""
    datasets = config.get("pair_datasets", {})
    for name, dataset in datasets.items():
        yield from _check_languages(
            dataset.get("languages", []), f"pair_datasets.{name}.languages", pivot_allowed=True
        )
        unknown = [m for m in dataset.get("models", []) if m not in config["models"]]
        if unknown:
            yield ConfigError(
                f"key 'pair_datasets.{name}.models': {unknown} not among the configured "
                f"models {list(config['models'])}"
            )
        if (
            "{lang}" not in dataset.get("url", "{lang}")
            and len(pair_dataset_languages(config, name)) > 1
        ):
            yield ConfigError(
                f"key 'pair_datasets.{name}.url': one file for several languages; put "
                "{lang} in the URL or list one language under 'languages'"
            )
    for table, name in config.get("pair_tables", {}).items():
        if name not in datasets:
            yield ConfigError(
                f"key 'pair_tables.{table}': {name!r} is not one of the configured "
                f"pair_datasets {list(datasets)}"
            )
    table3 = config.get("pair_tables", {}).get("steinborn_table3")
    if table3 in datasets and not datasets[table3].get("perturb", False):
        yield ConfigError(
            f"key 'pair_datasets.{table3}.perturb': must be true, since "
            "'pair_tables.steinborn_table3' (unperturbed and perturbed scores) names it"
        )


def _check_kaneko2023(config: dict) -> Iterator[ConfigError]:
    """The ``kaneko2023`` section names configured models, pair dataset and languages."""
    datasets = config.get("pair_datasets", {})
    section = config.get("kaneko2023")
    if not section:
        return
    for base in section["base_models"]:
        if base not in config["models"]:
            yield ConfigError(
                f"key 'kaneko2023.base_models': {base!r} is not one of the configured "
                f"models {list(config['models'])}"
            )
    if section["pair_dataset"] not in datasets:
        yield ConfigError(
            f"key 'kaneko2023.pair_dataset': {section['pair_dataset']!r} is not one of the "
            f"configured pair_datasets {list(datasets)}"
        )
    missing = [lang for lang in section["languages"] if lang not in section["wordlists"]]
    if missing:
        yield ConfigError(
            f"key 'kaneko2023.wordlists': no word lists for {missing}; expected one "
            "{female: [...], male: [...]} entry per language of 'kaneko2023.languages'"
        )
    for source, entry in section["sources"].items():
        languages = entry.get("languages") or section["languages"]
        if "{lang}" not in entry["url"] and len(languages) > 1:
            yield ConfigError(
                f"key 'kaneko2023.sources.{source}.url': one file for several languages; "
                "put {lang} in the URL or list one language under 'languages'"
            )
    for r in section["ratios"]:
        if abs(round(r * 100) - r * 100) > 1e-9:
            yield ConfigError(f"key 'kaneko2023.ratios': {r} is not a multiple of 0.01")
    for key, known in (("worlds", config["worlds"]), ("corpora", list(config["corpora"]))):
        for name in (section.get("mbe") or {}).get(key, []):
            if name not in known:
                yield ConfigError(
                    f"key 'kaneko2023.mbe.{key}': {name!r} is not one of the configured "
                    f"{key} {known}"
                )


def _check_mbe_table3(config: dict) -> Iterator[ConfigError]:
    """The ``mbe_table3`` section names configured pair datasets and models."""
    datasets = config.get("pair_datasets", {})
    section = config.get("mbe_table3")
    if not section:
        return
    for dataset in section["datasets"]:
        if dataset not in datasets:
            yield ConfigError(
                f"key 'mbe_table3.datasets': {dataset!r} is not one of the configured "
                f"pair_datasets {list(datasets)}"
            )
    for model in section.get("models", []):
        if model not in config["models"]:
            yield ConfigError(
                f"key 'mbe_table3.models': {model!r} is not one of the configured "
                f"models {list(config['models'])}"
            )
    if section.get("bias_controlled") and not config.get("kaneko2023"):
        yield ConfigError(
            "key 'mbe_table3.bias_controlled': true needs a 'kaneko2023' section "
            "(the bias-controlled models)"
        )


def _check_mbe_figure2(config: dict) -> Iterator[ConfigError]:
    """The ``mbe_figure2`` corpora are configured corpora."""
    section = config.get("mbe_figure2") or {}
    for corpus in section.get("corpora", []):
        if corpus not in config["corpora"]:
            yield ConfigError(
                f"key 'mbe_figure2.corpora': {corpus!r} is not one of the configured "
                f"corpora {list(config['corpora'])}"
            )


def _check_mbe_translations(config: dict) -> Iterator[ConfigError]:
    """The ``mbe_translations`` entries name configured models and pair datasets."""
    datasets = config.get("pair_datasets", {})
    for lang, entry in (config.get("mbe_translations") or {}).items():
        for model in entry["models"]:
            if model not in config["models"]:
                yield ConfigError(
                    f"key 'mbe_translations.{lang}.models': {model!r} is not one of the "
                    f"configured models {list(config['models'])}"
                )
        for method in ("ht", "mt", "tmp", "names", "english"):
            if method in entry and entry[method] not in datasets:
                yield ConfigError(
                    f"key 'mbe_translations.{lang}.{method}': {entry[method]!r} is not one "
                    f"of the configured pair_datasets {list(datasets)}"
                )
        if "names" in entry:
            from mgbias.kaneko2022.native_names import shipped_name_specs

            if lang not in shipped_name_specs():
                yield ConfigError(
                    f"key 'mbe_translations.{lang}.names': no native names for {lang!r} in "
                    f"mgbias/resources/native_names.yaml (languages: "
                    f"{sorted(shipped_name_specs())})"
                )


def _check_basta2020(config: dict) -> Iterator[ConfigError]:
    """The ``basta2020`` section names configured models and worlds, and a spaCy pipeline
    for every language whose swap needs agreement (Spanish)."""
    section = config.get("basta2020")
    if not section:
        return
    for key in ("models", "model_languages"):
        for model in section.get(key) or ():
            if model not in config["models"]:
                yield ConfigError(
                    f"key 'basta2020.{key}': {model!r} is not one of the configured models "
                    f"{list(config['models'])}"
                )
    for world in section.get("worlds") or ():
        if world not in known_worlds(config):
            yield ConfigError(
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
            yield ConfigError(
                f"key 'basta2020.static.vectors': {where} has no vectors of {missing}; "
                "expected every language of the domains"
            )
    for domain, entry in section["domains"].items():
        lang = entry["lang"]
        if lang in BASTA2020_GRAMMATICAL and not section.get("spacy", {}).get(lang):
            yield ConfigError(
                f"key 'basta2020.domains.{domain}': swapping {lang!r} needs a token analyser "
                f"for its agreement, e.g. basta2020.spacy: {{{lang}: {lang}_core_news_sm}} "
                "(or `demo` for the demo's text)"
            )


def _check_bios(config: dict) -> Iterator[ConfigError]:
    """A ``blank`` NER pipeline has names to match; the demo's names come with the demo
    crawl; a file:// crawl root is a directory path."""
    section = config.get("bios")
    if not section:
        return
    blank = [lang for lang in section["languages"] if section.get("spacy", {}).get(lang) == "blank"]
    if blank and not section.get("names"):
        yield ConfigError(
            f"key 'bios.names': the blank NER pipeline of {blank} needs a name list "
            "(a file of full names, or `demo` with the demo crawl)"
        )
    if section.get("names") == "demo" and "data/demo/mirror/" not in section["url"]:
        yield ConfigError(
            "key 'bios.names': `demo` names the demo crawl's names, but bios.url "
            f"({section['url']!r}) is not the demo mirror"
        )
    if not re.match(r"^(https?|file)://", section["url"]):
        yield ConfigError(
            f"key 'bios.url': {section['url']!r} is not an http(s):// or file:// crawl root"
        )
    classifier = section.get("classifier") or {}
    yield from _check_bios_encoder(config, classifier)
    yield from _check_bios_grid(section, classifier)


def _check_bios_grid(section: dict, classifier: dict) -> Iterator[ConfigError]:
    """The classifier's runs are in languages of ``bios.languages``, each on a space of
    its language: the language's own vectors, ENDEB (English), the language aligned to
    another space (``<lang>-<target>``; ``endeb-<target>``: English), or the encoder."""
    languages = section["languages"]
    encoder = classifier.get("encoder")
    encoder_name = (encoder.get("name") or encoder["model"]) if encoder else None

    def check_space(lang: str, space: str, key: str) -> Iterator[ConfigError]:
        src, _, tgt = space.partition("-")
        if space in (lang, encoder_name) or (space == "endeb" and lang == "en"):
            return
        if tgt and ("en" if src == "endeb" else src) == lang:
            return
        yield ConfigError(
            f"key '{key}': space {space!r} of {lang} bios is not {lang}, "
            f"{lang}-<target>, (English) endeb or the encoder (bios.classifier.encoder)"
        )

    monolingual = classifier.get("monolingual", {})
    unknown = sorted(set(monolingual) - set(languages))
    if unknown:
        yield ConfigError(
            f"key 'bios.classifier.monolingual': languages {unknown} are not in "
            f"bios.languages {languages}"
        )
    for lang, spaces in monolingual.items():
        for space in spaces:
            yield from check_space(lang, space, f"bios.classifier.monolingual.{lang}")
    for src, tgt, src_space, tgt_space in (classifier.get("transfer") or {}).get("runs", []):
        key = "bios.classifier.transfer.runs"
        if not {src, tgt} <= set(languages) or src == tgt:
            yield ConfigError(
                f"key '{key}': {src}->{tgt} needs two different languages of "
                f"bios.languages {languages}"
            )
        yield from check_space(src, src_space, key)
        yield from check_space(tgt, tgt_space, key)


def _check_bios_encoder(config: dict, classifier: dict) -> Iterator[ConfigError]:
    """The classifier's encoder is a configured model, and a transfer run uses it on both
    sides or on neither."""
    encoder = classifier.get("encoder")
    if not encoder:
        return
    if encoder["model"] not in config["models"]:
        yield ConfigError(
            f"key 'bios.classifier.encoder.model': {encoder['model']!r} is not a key of "
            f"models: {sorted(config['models'])}"
        )
    name = encoder.get("name") or encoder["model"]
    for run in (classifier.get("transfer") or {}).get("runs", []):
        if (run[2] == name) != (run[3] == name):
            yield ConfigError(
                f"key 'bios.classifier.transfer.runs': {run} mixes the encoder {name!r} "
                "with a static space"
            )


def _check_zhao2020(config: dict) -> Iterator[ConfigError]:
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
        yield ConfigError(
            f"key 'zhao2020.languages': {unknown} have no monolingual text to train "
            f"vectors on; expected some of {known}"
        )
    grid = section.get("grid_languages", [])
    outside = [lang for lang in grid if lang not in section["languages"]]
    if outside:
        yield ConfigError(
            f"key 'zhao2020.grid_languages': {outside} are not among "
            f"zhao2020.languages {section['languages']}"
        )
    figure1 = section.get("figure1", {})
    spaces = [figure1.get("lang", "es"), *figure1.get("targets", ["en", "de"])]
    absent = [lang for lang in spaces if lang not in section["languages"]]
    if "figure1" in section and absent:
        yield ConfigError(
            f"key 'zhao2020.figure1': {absent} are not among zhao2020.languages "
            f"{section['languages']}"
        )
    worlds = section.get("grid_worlds", [])
    unknown_worlds = [world for world in worlds if world not in config["worlds"]]
    if unknown_worlds:
        yield ConfigError(
            f"key 'zhao2020.grid_worlds': {unknown_worlds} are not among the worlds "
            f"{config['worlds']}"
        )


def _settings_at(config: Mapping[str, Any], section: str) -> Any:
    """The value of the dotted key ``section`` in ``config``; None where it is absent."""
    value: Any = config
    for name in section.split("."):
        if not isinstance(value, Mapping) or name not in value:
            return None
        value = value[name]
    return value


def _settings_errors(cls: type, values: Mapping[str, Any], key: str) -> list[ConfigError]:
    """What the settings class ``cls`` finds wrong with ``values``, the settings of
    ``key``: each unknown key at its own line, else the first bad value."""
    unknown = unknown_keys(cls, values, cls.ignored_keys)
    if unknown:
        allowed = allowed_keys(cls, cls.ignored_keys)
        return [
            ConfigError(
                f"key '{key}.{name}': unknown key; expected among {allowed} ({cls.__name__})",
                key=f"{key}.{name}",
            )
            for name in unknown
        ]
    try:
        cls.from_mapping(values, where=f"key '{key}'")
    except (InputError, ValueError, TypeError) as error:
        message = str(error)
        if not message.startswith("key '"):
            message = f"key '{key}': {message}"
        return [ConfigError(message, key=key)]
    return []


def _check_settings(config: dict) -> Iterator[ConfigError]:
    """Every section read as settings (:data:`mgbias.settings.SECTIONS`), and each
    trained model's training settings, hold the keys and values their class accepts, so
    that a misspelt fine-tuning, RCSLS or fastText setting stops the check, not a job.
    A section the schema rejects is left to the schema's message."""
    sections = [(section, section, _settings_at(config, section)) for section in SETTINGS_SECTIONS]
    sections += [
        ("mlm_training", f"models.{model}.train", training_settings(config, model))
        for model in trained_models(config)
        if set(config["models"][model]["train"]) - {"world", "languages"}
    ]
    for section, key, values in sections:
        if isinstance(values, Mapping) and _validator_class()(schema_node(section)).is_valid(
            values
        ):
            yield from _settings_errors(section_class(section), values, key)


def validate_config(
    config: dict, schema: dict | str | Path | None = None, *, check_files: bool = False
) -> dict:
    """Validate ``config`` in place, fill in defaults, and return it.

    ``schema`` defaults to the shipped one (:func:`schema_path`). Pair datasets
    that name a ``benchmark`` get its URL, languages and checksums; ``worlds``
    defaults to ``[real]`` without a ``demo`` section; every location key (a URL or
    a local path: :mod:`mgbias.workflow.config_locations`) given as a local path becomes a
    ``file://`` URL. With ``check_files``, every local file it names must exist
    (relative paths: in the working directory), but those a rule of the workflow
    writes.

    Raises
    ------
    ConfigError
        naming every offending key and what was expected (``errors``: one
        :class:`ConfigError` each; the schema's first, in key order, then the
        cross-references, the section checks and the missing files).
    """
    if not isinstance(schema, dict):
        schema = load_schema(schema)
    if not isinstance(config, dict):
        raise ConfigError(f"configuration must be a mapping, got {type(config).__name__}")
    errors = sorted(
        _validator_class()(schema).iter_errors(config), key=lambda e: list(e.absolute_path)
    )
    problems = [
        ConfigError("invalid configuration: " + _describe(error), key=_located_key(error) or "")
        for error in errors
    ]
    localize(config, schema)
    for check in _CHECKS:
        problems += _collect(check, config, tolerant=bool(problems))
    if check_files:
        problems += [
            ConfigError(f"key '{key}': {problem}", key=key)
            for key, problem in missing_locations(config, schema)
        ]
    if problems:
        raise ConfigError.of(problems)
    return config


def _collect(check, config: dict, *, tolerant: bool) -> list[ConfigError]:
    """The errors ``check`` finds. Where the schema has found errors already, a check
    that trips over the value they name (a missing key, a wrong type) stops quietly:
    the schema's message says what is wrong."""
    found: list[ConfigError] = []
    try:
        found.extend(check(config))
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        if not tolerant:
            raise
    return found


def _default_worlds(config: dict) -> Iterator[ConfigError]:
    """``worlds`` defaults to ``[real]`` when nothing generates the demo; the demo's
    worlds must be named."""
    if "worlds" in config:
        return
    if "demo" in config:
        yield ConfigError(
            "key 'worlds': required with a 'demo' section: the demo worlds every stage "
            f"runs in, some of {demo_worlds(config)} (e.g. worlds: [planted, balanced])",
            key="demo",
        )
        config["worlds"] = demo_worlds(config)  # so that the other checks can run
        return
    config["worlds"] = [DEFAULT_WORLD]


#: The checks beyond the schema, in the order their errors are listed.
_CHECKS = (
    _default_worlds,
    _expand_benchmarks,
    _check_languages_key,
    _check_corpora,
    _check_corpora_needed,
    _check_models,
    _check_pair_datasets,
    _check_mbe,
    _check_precisions,
    _check_scoring_together,
    _check_demo,
    _check_kaneko2023,
    _check_mbe_table3,
    _check_mbe_figure2,
    _check_mbe_translations,
    _check_zhao2020,
    _check_basta2020,
    _check_bios,
    _check_settings,
)


def _scored_models(config: Mapping[str, Any], dataset: str) -> list[str]:
    """The models a pair dataset is meant for: its ``models``, else every model that
    scores pairs (as :func:`mgbias.workflow.pair_jobs` picks them)."""
    listed = config["pair_datasets"][dataset].get("models")
    models = config["models"]
    return [
        model
        for model in (listed or models)
        if not is_finetuned(models[model]) and (listed or models[model].get("pairs", True))
    ]


def _languages_in_use(config: Mapping[str, Any]) -> set[str]:
    """Languages some stage works in: the MBE and pair jobs, and the sections that name
    their own languages (static embeddings, bios, probes, fine-tuning, translations)."""
    used = {job["lang"] for job in evaluation_jobs(config)}
    used |= {job["lang"] for job in pair_jobs(config)}
    for section in ("zhao2020", "bios", "kaneko2023"):
        used |= set((config.get(section) or {}).get("languages", []))
    used |= {entry["lang"] for entry in (config.get("basta2020") or {}).get("domains", {}).values()}
    used |= set(config.get("mbe_translations") or {})
    return used


def _local_source_problem(source: str | None) -> str | None:
    """What is wrong with a model ``source`` that names a local directory, if anything.

    A path that exists must be a directory. One that does not exist is reported when it
    is clearly a path (absolute, ``./``, ``../``, ``~``, or two slashes and more); one
    slash or none (``org/name``, ``bert-base-cased``) is taken for a hub id, which cannot
    be checked offline.
    """
    if not source:
        return None
    path = Path(source).expanduser()
    if path.exists():
        return None if path.is_dir() else f"source {source!r} is a file, not a model directory"
    if source.startswith(("/", "./", "../", "~")) or source.count("/") >= 2:
        where = "" if path.is_absolute() else f" (relative to the working directory {Path.cwd()})"
        return (
            f"source {source!r}: no such directory{where}; expected a directory written by "
            "save_pretrained, or a hub id"
        )
    return None


def config_warnings(config: Mapping[str, Any]) -> list[ConfigWarning]:
    """What a validated configuration plans that is probably not what was meant.

    - a model meant for a pair dataset (listed in its ``models``, or every model when
      it lists none) that shares no language with it, so it is never scored on it;
    - a pair dataset that no model is scored on;
    - a model evaluated with MBE (``mbe: true``) in no language of any corpus;
    - a model ``source`` that is clearly a local path but no directory;
    - a configured language that no model, corpus or section works in.
    """
    warnings = []
    models = config["models"]
    for dataset in config.get("pair_datasets", {}):
        languages = pair_dataset_languages(config, dataset)
        scored = {job["model"] for job in pair_jobs(config) if job["dataset"] == dataset}
        for model in _scored_models(config, dataset):
            if model not in scored:
                warnings.append(
                    ConfigWarning(
                        f"models.{model}.languages",
                        f"model {model!r} is never scored on pair dataset {dataset!r}: its "
                        f"languages {models[model].get('languages')} and the dataset's "
                        f"{languages} have none in common",
                    )
                )
        if not scored and dataset != (config.get("kaneko2023") or {}).get("pair_dataset"):
            warnings.append(
                ConfigWarning(
                    f"pair_datasets.{dataset}",
                    f"pair dataset {dataset!r} ({', '.join(languages)}) is scored by no model; "
                    "no pair table is made of it",
                )
            )
    evaluated = {job["model"] for job in evaluation_jobs(config)}
    for model, entry in models.items():
        mined = bool(config["corpora"])  # without corpora, no model is meant for MBE
        if mined and entry.get("mbe", True) and not is_finetuned(entry) and model not in evaluated:
            scope = entry.get("corpora") or list(config["corpora"])
            warnings.append(
                ConfigWarning(
                    f"models.{model}.languages" if "languages" in entry else f"models.{model}",
                    f"model {model!r} meets no parallel corpus in its languages "
                    f"{model_languages(config, model)} (corpora {scope}); it gets no MBE "
                    "score (mbe: false says it scores pair datasets only)",
                )
            )
    for model, entry in models.items():
        problem = _local_source_problem(entry.get("source"))
        if problem:
            warnings.append(ConfigWarning(f"models.{model}.source", f"model {model!r}: {problem}"))
    used = _languages_in_use(config)
    for index, lang in enumerate(config["languages"]):
        if lang not in used:
            warnings.append(
                ConfigWarning(
                    f"languages.{index}",
                    f"language {lang!r} has no model: no model is scored in it (no corpus "
                    "or pair dataset of a model covers it)",
                )
            )
    return warnings


class _Sources:
    """The YAML files a configuration was read from, to locate its keys (the last file
    that gives a key wins, as when Snakemake merges several config files)."""

    def __init__(self, documents: Iterable[YAMLDocument]) -> None:
        self.documents = list(documents)

    def where(self, key: str | None) -> str:
        """``<file>:<line>`` of ``key``, else ``<file>`` (the last file), else ''."""
        if key:
            for document in reversed(self.documents):
                if document.line(key) is not None:
                    return document.where(key)
        return self.documents[-1].name if self.documents else ""

    def _line(self, key: str | None) -> int:
        """The line of ``key`` in the last file that gives it (0: none)."""
        for document in reversed(self.documents):
            line = document.line(key) if key else None
            if line is not None:
                return line
        return 0

    def error(self, error: ConfigError) -> ConfigError:
        """``error``, each of its errors prefixed with the place of its key, in the
        order of the lines."""
        located = [
            ConfigError(f"{self.where(e.key)}: {e}" if self.where(e.key) else str(e), key=e.key)
            for e in sorted(error.errors, key=lambda e: self._line(e.key))
        ]
        return ConfigError.of(located)

    def warnings(self, warnings: Iterable[ConfigWarning]) -> list[str]:
        located = []
        for warning in warnings:
            where = self.where(warning.key)
            located.append(f"{where}: {warning.message}" if where else warning.message)
        return located


def _read(path: str | Path) -> YAMLDocument:
    try:
        return read_yaml(path)
    except YAMLInputError as error:
        raise ConfigError(str(error)) from None


def check_config_file(
    path: str | Path,
    schema: str | Path | None = None,
    *,
    strict: bool = False,
    check_files: bool = True,
) -> tuple[dict, list[str]]:
    """Read, validate and check a configuration file: ``(config, warnings)``.

    Each warning (:func:`config_warnings`) starts with ``<file>:<line>:`` of the key to
    change. With ``strict``, warnings are errors. With ``check_files`` (the default;
    ``mgbias check-config``), a local file a location key names that does not exist is
    an error.

    Raises
    ------
    ConfigError
        ``<file>:<line>:<column>: <problem>`` for a YAML syntax error or a duplicate key;
        ``<file>:<line>: <message>`` for an invalid value (the line of its key), every
        one found (``errors``); with ``strict``, every warning.
    """
    document = _read(path)
    sources = _Sources([document])
    config = document.data if document.data is not None else {}
    try:
        validate_config(config, schema, check_files=check_files)
    except ConfigError as error:
        raise sources.error(error) from None
    warnings = sources.warnings(config_warnings(config))
    if strict and warnings:
        raise ConfigError(
            f"{len(warnings)} warning(s), errors with --strict:\n" + "\n".join(warnings)
        )
    return config, warnings


def load_config(path: str | Path, schema: str | Path | None = None) -> dict:
    """Read a YAML configuration file and validate it against ``schema``
    (default: the shipped one); errors name the file and the line of the key. Local
    files are not looked for: a caller reads those it needs (``score --config`` one
    dataset's file in one language)."""
    return check_config_file(path, schema, check_files=False)[0]


def _shown(path: str | Path) -> str:
    """``path`` relative to the working directory when it lies below it (Snakemake hands
    the config files over as absolute paths), else as given."""
    relative = os.path.relpath(path)
    return relative if not relative.startswith("..") else str(path)


def workflow_config(config: dict, paths: Iterable[str | Path]) -> list[str]:
    """Validate the configuration Snakemake loaded from ``paths`` (in place), and return
    its warnings, each with ``<file>:<line>:`` of the key to change.

    Snakemake reads ``--configfile`` with its own YAML loader, which keeps the last of
    two equal keys; each file is read again here so that a duplicate key is an error,
    and so that messages point at lines. A local file that a location key names and
    that does not exist is a warning here (a run of some targets may not need it; the
    jobs that read it stop on a missing input): ``mgbias check-config`` makes it an
    error.

    Raises
    ------
    ConfigError
        For a duplicate key or a syntax error (``<file>:<line>:<column>:``), or every
        invalid value (``<file>:<line>:`` of its key; ``errors``: one each).
    """
    sources = _Sources(_read(_shown(path)) for path in paths)
    try:
        validate_config(config)
    except ConfigError as error:
        raise sources.error(error) from None
    missing = [
        ConfigWarning(key, f"key '{key}': {problem}")
        for key, problem in missing_locations(config, load_schema())
    ]
    return sources.warnings([*missing, *config_warnings(config)])
