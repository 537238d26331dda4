"""Plain functions the Snakemake rules use to plan jobs from the config.

Kept outside the rule files so they are unit-tested like the rest of the
library; nothing here touches data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlparse

from mgbias import layout
from mgbias.languages import PIVOT


def local_file_of_url(url: str) -> str | None:
    """The local path a ``file://`` URL points to, or ``None`` for remote URLs.

    ``file://relative/path`` (two slashes) is read relative to the working
    directory, which lets the demo mirror live inside the workflow; the
    standard ``file:///absolute/path`` is absolute.
    """
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    return unquote(parsed.netloc + parsed.path)


def model_is_trained(entry: Mapping[str, Any]) -> bool:
    """Whether a model entry of the config is trained by the workflow."""
    return "train" in entry


def allows_untrained_head(config: Mapping[str, Any], model: str) -> bool:
    """Whether a model may be scored with randomly initialised MLM head weights.

    Its ``allow_untrained_head`` key (default false), passed by the scoring
    rules to :func:`mgbias.mlm.load.load_mlm`, which otherwise refuses a
    checkpoint that lacks head weights.
    """
    return bool(config["models"][model].get("allow_untrained_head", False))


def model_languages(config: Mapping[str, Any], model: str) -> list[str]:
    """Languages a model is evaluated on (its own list, else all configured)."""
    return list(config["models"][model].get("languages") or config["languages"])


def corpus_languages(config: Mapping[str, Any], corpus: str) -> list[str]:
    """Target languages available in a corpus (its own list, else all)."""
    return list(config["corpora"][corpus].get("languages") or config["languages"])


def evaluation_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (model, world, corpus, lang) combination to score with MBE, in a fixed order.

    Models with ``mbe: false`` are skipped (they score pair benchmarks only).
    """
    jobs = []
    for model in config["models"]:
        if not config["models"][model].get("mbe", True):
            continue
        model_langs = model_languages(config, model)
        for world in config["worlds"]:
            for corpus in config["corpora"]:
                for lang in corpus_languages(config, corpus):
                    if lang in model_langs:
                        jobs.append(
                            {"model": model, "world": world, "corpus": corpus, "lang": lang}
                        )
    return jobs


def mining_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (world, corpus, lang) sentence set some model is evaluated on."""
    seen: dict[tuple[str, str, str], None] = {}
    for job in evaluation_jobs(config):
        seen[(job["world"], job["corpus"], job["lang"])] = None
    return [{"world": w, "corpus": c, "lang": lang} for (w, c, lang) in seen]


def expand_jobs(pattern: str, jobs: list[dict[str, str]]) -> list[str]:
    """Format ``pattern`` once per job dictionary."""
    return [pattern.format(**job) for job in jobs]


ORIGINAL = "original"
PERTURBED = "perturbed"


def pair_dataset_languages(config: Mapping[str, Any], dataset: str) -> list[str]:
    """Languages of a pair dataset: its own list, else English and every configured one."""
    entry = config["pair_datasets"][dataset]
    if entry.get("languages"):
        return list(entry["languages"])
    return [PIVOT, *(lang for lang in config["languages"] if lang != PIVOT)]


def pair_variants(config: Mapping[str, Any], dataset: str) -> list[str]:
    """``original``, plus ``perturbed`` (final character removed) when the dataset asks."""
    entry = config["pair_datasets"][dataset]
    return [ORIGINAL, PERTURBED] if entry.get("perturb", False) else [ORIGINAL]


def pair_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (model, dataset, variant, lang) to score on a pair benchmark, in a fixed order."""
    jobs = []
    for dataset, entry in config.get("pair_datasets", {}).items():
        for model in entry.get("models") or list(config["models"]):
            for variant in pair_variants(config, dataset):
                for lang in pair_dataset_languages(config, dataset):
                    jobs.append(
                        {"model": model, "dataset": dataset, "variant": variant, "lang": lang}
                    )
    return jobs


def pair_url(config: Mapping[str, Any], dataset: str, lang: str) -> str:
    """The configured URL of one language's file of a pair dataset."""
    return config["pair_datasets"][dataset]["url"].format(lang=lang)


def pair_file(config: Mapping[str, Any], dataset: str, lang: str) -> str:
    """Where the workflow keeps the downloaded file (the URL's own file name)."""
    url = pair_url(config, dataset, lang)
    name = unquote(urlparse(url).path).rsplit("/", 1)[-1]
    if not name:
        raise ValueError(f"pair_datasets.{dataset}.url: {url!r} names no file")
    return layout.path("raw_pairs", dataset=dataset, lang=lang, filename=name)
