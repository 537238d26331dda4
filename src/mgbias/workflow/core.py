"""Planning every stage shares: worlds, MBE, pair benchmarks, Kaneko et al. (2023)
and Basta et al. (2020), as plain functions of the validated config.

Re-exported by :mod:`mgbias.workflow`; nothing here touches data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlparse

from mgbias.languages import PIVOT
from mgbias.mlm.baseline import SEED_KEY, baseline_name
from mgbias.seeds import derive_seed
from mgbias.workflow import layout
from mgbias.workflow.schema import filled_entry, filled_section


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


def pinned_checksums(config: Mapping[str, Any], *urls: str) -> dict[str, str]:
    """The pinned sha256 of each of ``urls`` that ``checksums`` holds: a download job's param.

    A job's param holds its own files' checksums only: pinning another file (adding a
    pair benchmark pins its files) changes no other download's params, so it reruns no
    other download, and nothing that depends on one.
    """
    pinned = config.get("checksums") or {}
    return {url: pinned[url] for url in sorted(set(urls)) if url in pinned}


def model_is_trained(entry: Mapping[str, Any]) -> bool:
    """Whether a model entry of the config is trained (or fine-tuned) by the workflow."""
    return "train" in entry or "finetune" in entry


def model_dir(model: str) -> str:
    """Where the workflow keeps a model it trains (hub models are not copied)."""
    return layout.path("model", model=model)


def model_source(config: Mapping[str, Any], model: str) -> str:
    """What loads a model: its directory when the workflow trains it, else its ``source``."""
    entry = config["models"][model]
    return model_dir(model) if model_is_trained(entry) else entry["source"]


def canonical(value: Any) -> Any:
    """``value`` with dictionary keys sorted, for rule params.

    Snakemake compares params by their text, so the same settings written in
    another key order would otherwise rerun every job that takes them.
    """
    if isinstance(value, dict):
        return {key: canonical(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [canonical(item) for item in value]
    return value


#: The world of a configuration without ``worlds`` (real data: no demo generates it).
DEFAULT_WORLD = "real"


def configured_worlds(config: Mapping[str, Any]) -> list[str]:
    """``worlds``, which drive every stage; ``[real]`` when the configuration has none."""
    return list(config.get("worlds") or [DEFAULT_WORLD])


def demo_worlds(config: Mapping[str, Any]) -> list[str]:
    """The worlds the ``demo`` section describes (none without it): ``planted``,
    ``balanced`` and each further world entry (e.g. ``planted_probe``)."""
    demo = config.get("demo") or {}
    return [name for name, value in demo.items() if isinstance(value, Mapping)]


def known_worlds(config: Mapping[str, Any]) -> list[str]:
    """Every world a stage may name: ``worlds`` (which drive every stage), then the
    further worlds of the demo, which a model's ``train.world`` or
    ``basta2020.worlds`` may use alone."""
    return list(dict.fromkeys([*configured_worlds(config), *demo_worlds(config)]))


def training_languages(config: Mapping[str, Any], model: str) -> list[str]:
    """Languages whose monolingual text trains a workflow-trained model: its
    ``train.languages``, else English and every configured language."""
    return list(config["models"][model]["train"].get("languages") or [PIVOT, *config["languages"]])


def training_settings(config: Mapping[str, Any], model: str) -> dict[str, Any]:
    """``mlm_training`` with the model's own ``train`` keys (all but ``world`` and
    ``languages``) in their place; a model without any has exactly ``mlm_training``."""
    own = {
        key: value
        for key, value in config["models"][model]["train"].items()
        if key not in ("world", "languages")
    }
    return {**config["mlm_training"], **own}


def is_finetuned(entry: Mapping[str, Any]) -> bool:
    """Whether a model entry is a bias-controlled fine-tuning (:func:`kaneko2023_models`)."""
    return "finetune" in entry


def trained_models(config: Mapping[str, Any]) -> list[str]:
    """The models the workflow trains from scratch (``train``; rule ``train_mlm``), in
    configured order."""
    return [name for name, entry in config["models"].items() if "train" in entry]


def finetuned_models(config: Mapping[str, Any]) -> list[str]:
    """The models the workflow fine-tunes (``finetune``; rule ``finetune_mlm``), in
    configured order."""
    return [name for name, entry in config["models"].items() if is_finetuned(entry)]


#: The key of ``scoring`` that groups jobs rather than setting how a model is scored
#: (:func:`scored_together`): the scoring jobs' ``scoring`` parameter leaves it out, so
#: that regrouping reruns no job.
TOGETHER = "together"


def scoring_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """How the scoring jobs score (the ``scoring`` section but ``together``): their
    ``scoring`` parameter."""
    return {key: value for key, value in config["scoring"].items() if key != TOGETHER}


def scored_together(config: Mapping[str, Any]) -> list[str]:
    """The models of ``scoring.together``, in configured order: each sentence set and pair
    file that they are scored on is scored by one job for all of them (rules
    ``score_unmasked_together`` and ``score_pairs_together``), which imports torch and
    transformers once instead of once per model. The configuration check requires them
    to be scored on the same sentence sets and pair files (``mgbias.config``)."""
    return list(config["scoring"][TOGETHER])


def per_model_outputs(key: str, models: list[str]) -> list[str]:
    """The per-model output ``key`` (a layout key with a ``{model}`` wildcard) of each of
    ``models`` (names, or name patterns with wildcards of their own), in their order:
    the outputs of one job that handles several models, as templates with the key's
    other wildcards."""
    template = layout.template(key)
    if "{model}" not in template:
        raise ValueError(f"layout key {key!r} has no {{model}} wildcard: {template}")
    return [template.replace("{model}", model) for model in models]


def together_outputs(config: Mapping[str, Any], key: str) -> list[str]:
    """The per-model output ``key`` of every model of :func:`scored_together`
    (:func:`per_model_outputs`; none without ``scoring.together``)."""
    return per_model_outputs(key, scored_together(config))


def scoring_items(
    config: Mapping[str, Any], models: list[str]
) -> dict[str, dict[str, list[tuple[str, ...]]]]:
    """What the workflow scores each of ``models`` on: its ``mined`` sentence sets (world,
    corpus, lang; :func:`evaluation_jobs`) and its ``pairs`` files (dataset, variant,
    lang; :func:`pair_jobs`), each plan made once."""
    items: dict[str, dict[str, list[tuple[str, ...]]]] = {
        model: {"mined": [], "pairs": []} for model in models
    }
    for job in evaluation_jobs(config):
        if job["model"] in items:
            items[job["model"]]["mined"].append((job["world"], job["corpus"], job["lang"]))
    for job in pair_jobs(config):
        if job["model"] in items:
            items[job["model"]]["pairs"].append((job["dataset"], job["variant"], job["lang"]))
    return items


def model_input(config: Mapping[str, Any], model: str) -> list[str]:
    """A scoring job's model input: the model's directory when the workflow trains it,
    else nothing (a hub model is loaded by its ``source``); a structural baseline's is
    its model's."""
    entry = config["models"][model]
    if BASELINE_OF in entry:
        return model_input(config, entry[BASELINE_OF])
    return [model_dir(model)] if model_is_trained(entry) else []


#: Keys of a structural baseline's model entry (:func:`structural_baselines`): the model
#: it is a random copy of, and the seed of its weights.
BASELINE_OF = "structural_baseline_of"
BASELINE_SEED = SEED_KEY


def structural_baselines(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The structural baselines of the models with ``structural_baseline: true``, as
    model entries ``rules/common.smk`` adds to ``models`` (as it adds the
    bias-controlled models).

    Each is named ``<model>~random`` (:func:`mgbias.mlm.baseline.baseline_name`; no
    configured name contains ``~``) and loads its model's source, revision and
    languages; its scoring jobs build a randomly initialised copy of the model
    (:func:`mgbias.mlm.baseline.random_copy`) with the seed
    ``derive_seed(seed, "structural_baseline", <model>)``. It scores the pair datasets
    its model scores (:func:`pair_jobs`), and no MBE.
    """
    baselines = {}
    for model, entry in config["models"].items():
        if not _model_setting(config, model, "structural_baseline") or is_finetuned(entry):
            continue
        kept = {key: entry[key] for key in ("revision", "languages", "pairs") if key in entry}
        baselines[baseline_name(model)] = {
            **kept,
            "source": model_source(config, model),
            "allow_untrained_head": allows_untrained_head(config, model),
            "mbe": False,
            BASELINE_OF: model,
            BASELINE_SEED: derive_seed(config["seed"], "structural_baseline", model),
        }
    return baselines


def allows_untrained_head(config: Mapping[str, Any], model: str) -> bool:
    """Whether a model may be scored with randomly initialised MLM head weights.

    Its ``allow_untrained_head`` key (default false), passed by the scoring
    rules to :func:`mgbias.mlm.load.load_mlm`, which otherwise refuses a
    checkpoint that lacks head weights.
    """
    return bool(_model_setting(config, model, "allow_untrained_head"))


def model_entries(config: Mapping[str, Any], models: list[str]) -> list[dict[str, Any]]:
    """What a scoring or probing job needs to load each of ``models``: ``model`` (its name),
    ``model_id`` (its directory or source), ``revision`` and ``allow_untrained_head``;
    a structural baseline's also the seed of its weights (``structural_baseline_seed``)."""
    entries = []
    for model in models:
        entry = {
            "model": model,
            "model_id": model_source(config, model),
            "revision": config["models"][model].get("revision"),
            "allow_untrained_head": allows_untrained_head(config, model),
        }
        if BASELINE_SEED in config["models"][model]:
            entry[BASELINE_SEED] = config["models"][model][BASELINE_SEED]
        entries.append(entry)
    return entries


def model_languages(config: Mapping[str, Any], model: str) -> list[str]:
    """Languages a model is evaluated on (its own list, else all configured)."""
    return list(config["models"][model].get("languages") or config["languages"])


def corpus_languages(config: Mapping[str, Any], corpus: str) -> list[str]:
    """Target languages available in a corpus (its own list, else all)."""
    return list(config["corpora"][corpus].get("languages") or config["languages"])


def evaluation_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (model, world, corpus, lang) combination to score with MBE, in a fixed order.

    Models with ``mbe: false`` are skipped (they score pair benchmarks only); a
    model's ``worlds`` and ``corpora`` lists, if given, restrict its jobs.
    """
    jobs = []
    for model in config["models"]:
        entry = config["models"][model]
        if not _model_setting(config, model, "mbe"):
            continue
        model_langs = model_languages(config, model)
        for world in entry.get("worlds") or configured_worlds(config):
            for corpus in entry.get("corpora") or config["corpora"]:
                for lang in corpus_languages(config, corpus):
                    if lang in model_langs:
                        jobs.append(
                            {"model": model, "world": world, "corpus": corpus, "lang": lang}
                        )
    return jobs


def mbe_table_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The MBE jobs of the MBE table and figure: :func:`evaluation_jobs` of every model but
    the bias-controlled ones (Table 1 of Kaneko et al. 2023 reads theirs)."""
    return [
        job for job in evaluation_jobs(config) if not is_finetuned(config["models"][job["model"]])
    ]


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
    entry = filled_entry(config["pair_datasets"][dataset], "pair_datasets")
    return [ORIGINAL, PERTURBED] if entry["perturb"] else [ORIGINAL]


def pair_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (model, dataset, variant, lang) to score on a pair benchmark, in a fixed order.

    The bias-controlled models are left out: they score their own language's
    pairs for the meta-evaluation only (:func:`kaneko2023_runs`), and so are models
    with ``pairs: false`` unless a dataset lists them. A model that declares its
    ``languages`` scores only those languages of a dataset. A model's structural
    baseline (:func:`structural_baselines`), where configured, follows each of its jobs.
    """
    jobs = []
    for dataset, entry in (config.get("pair_datasets") or {}).items():
        listed = entry.get("models")
        for model in listed or list(config["models"]):
            if is_finetuned(config["models"][model]) or BASELINE_OF in config["models"][model]:
                continue
            if not listed and not _model_setting(config, model, "pairs"):
                continue
            declared = config["models"][model].get("languages")
            scored = [model, *(name for name in [baseline_name(model)] if name in config["models"])]
            for variant in pair_variants(config, dataset):
                for lang in pair_dataset_languages(config, dataset):
                    if declared and lang not in declared:
                        continue
                    jobs += [
                        {"model": name, "dataset": dataset, "variant": variant, "lang": lang}
                        for name in scored
                    ]
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


# --------------------------------------------------------------------------------------
# Bias-controlled fine-tuning (Kaneko, Bollegala and Okazaki 2023)
# --------------------------------------------------------------------------------------


def rate_tag(r: float) -> str:
    """The male rate r in file and model names: ``r025`` for 0.25 (hundredths, 3 digits)."""
    hundredths = round(float(r) * 100)
    if abs(hundredths - float(r) * 100) > 1e-9 or not 0 <= hundredths <= 100:
        raise ValueError(f"kaneko2023.ratios: {r!r} is not a multiple of 0.01 in [0, 1]")
    return f"r{hundredths:03d}"


def _model_setting(config: Mapping[str, Any], model: str, key: str) -> Any:
    """``models.<model>.<key>``, or the schema's default (:func:`filled_entry`)."""
    return filled_entry(config["models"][model], "models")[key]


def kaneko2023_grid(config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every fine-tuning of the ``kaneko2023`` section, in a fixed order.

    One per base model x source corpus x language x r x repeat; each a dict
    with ``model`` (its generated name, ``{base}-{source}-{lang}-{rate}-s{repeat}``),
    ``base``, ``source``, ``lang``, ``r``, ``rate`` (:func:`rate_tag`) and ``repeat``.
    A source's own ``languages`` narrow the section's.
    """
    if not config.get("kaneko2023"):
        return []
    section = filled_section(config, "kaneko2023")
    grid = []
    for base in section["base_models"]:  # known models: checked by validate_config
        for source, entry in section["sources"].items():
            for lang in section["languages"]:
                if entry.get("languages") and lang not in entry["languages"]:
                    continue
                for r in section["ratios"]:
                    for repeat in range(section["repeats"]):
                        rate = rate_tag(r)
                        grid.append(
                            {
                                "model": f"{base}-{source}-{lang}-{rate}-s{repeat}",
                                "base": base,
                                "source": source,
                                "lang": lang,
                                "r": float(r),
                                "rate": rate,
                                "repeat": repeat,
                            }
                        )
    return grid


def kaneko2023_models(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Model entries of the bias-controlled models, to add to ``config["models"]``.

    Each is trained by the workflow (``finetune``), evaluated in its own
    language only and left out of the pair tables: the meta-evaluation reads
    its pair measures (:func:`kaneko2023_runs`). MBE scores it only with
    ``kaneko2023.mbe``, in the worlds and corpora listed there.
    """
    mbe = (config.get("kaneko2023") or {}).get("mbe")
    scope = {key: mbe[key] for key in ("worlds", "corpora") if mbe and key in mbe}
    return {
        job["model"]: {
            "finetune": {key: job[key] for key in ("base", "source", "lang", "rate", "repeat")},
            "languages": [job["lang"]],
            "mbe": mbe is not None,
            **scope,
        }
        for job in kaneko2023_grid(config)
    }


def kaneko2023_mbe_jobs(config: Mapping[str, Any], run: Mapping[str, Any]) -> list[dict]:
    """The MBE jobs (:func:`evaluation_jobs`) a run of :func:`kaneko2023_runs` reads.

    Those of its scored model in its language, within ``kaneko2023.mbe``'s
    worlds and corpora; none without ``kaneko2023.mbe``. ``config["models"]``
    must hold the bias-controlled models (:func:`kaneko2023_models`).
    """
    mbe = (config.get("kaneko2023") or {}).get("mbe")
    if mbe is None:
        return []
    return [
        job
        for job in evaluation_jobs(config)
        if job["model"] == run["scored"]
        and job["lang"] == run["language"]
        and job["world"] in (mbe.get("worlds") or configured_worlds(config))
        and job["corpus"] in (mbe.get("corpora") or config["corpora"])
    ]


def kaneko2023_runs(config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The runs of the meta-evaluation: every fine-tuning, then each base model per language
    and source with ``r = None`` (the original model, kept out of the correlations).

    Each is ``{run, model, corpus, language, r, seed}`` as
    ``scripts/kaneko2023_table1.py`` reads them (``run`` = a unique name,
    ``model`` = the base, ``corpus`` = the source), plus ``scored``, the model
    whose outputs the run reads (the fine-tuned model, or the base for the
    original, named ``{base}-{source}-{lang}-original``).
    """
    runs = [
        {
            "run": job["model"],
            "scored": job["model"],
            "model": job["base"],
            "corpus": job["source"],
            "language": job["lang"],
            "r": job["r"],
            "seed": job["repeat"],
        }
        for job in kaneko2023_grid(config)
    ]
    originals = {(run["model"], run["corpus"], run["language"]) for run in runs}
    for base, corpus, lang in sorted(originals):
        runs.append(
            {
                "run": f"{base}-{corpus}-{lang}-original",
                "scored": base,
                "model": base,
                "corpus": corpus,
                "language": lang,
                "r": None,
                "seed": 0,
            }
        )
    return runs


def mbe_table3_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The (model, dataset, lang) jobs of Table 3 of Kaneko et al. (2022), in a fixed order.

    The models of ``mbe_table3.models``, then, with ``bias_controlled``, the
    bias-controlled models of ``kaneko2023`` in ``mbe_table3.lang`` (grid order);
    each on every dataset of ``mbe_table3.datasets``. None without the section.
    """
    if not config.get("mbe_table3"):
        return []
    section = filled_section(config, "mbe_table3")
    lang = section["lang"]
    models = list(section["models"])
    if section.get("bias_controlled"):
        models += [job["model"] for job in kaneko2023_grid(config) if job["lang"] == lang]
    models = list(dict.fromkeys(models))
    return [
        {"model": model, "dataset": dataset, "lang": lang}
        for dataset in section["datasets"]
        for model in models
    ]


def mbe_preservation_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The (world, corpus, lang) jobs of Figure 2 of Kaneko et al. (2022).

    Every mined sentence set (:func:`mining_jobs`) of a corpus in ``mbe_figure2.corpora``
    (default every corpus), in a language with translations of he/she
    (``mgbias/resources/pronoun_translations.yaml``). None without the section.
    """
    section = config.get("mbe_figure2")
    if section is None:
        return []
    from mgbias.kaneko2022.preservation import pronoun_translations

    corpora = section.get("corpora") or list(config["corpora"])
    known = pronoun_translations()
    return [job for job in mining_jobs(config) if job["corpus"] in corpora and job["lang"] in known]


#: ``mbe_translations`` keys and the method names of Tables 4-5 (Kaneko et al. 2022).
TRANSLATION_METHODS = {"ht": "HT", "mt": "MT", "tmp": "Tmp", "names": "HT_name"}


def mbe_translation_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The (lang, method, dataset, model) pair scorings of Tables 4-5, in a fixed order."""
    jobs = []
    for lang, entry in (config.get("mbe_translations") or {}).items():
        for key, method in TRANSLATION_METHODS.items():
            if key in entry:
                jobs += [
                    {"lang": lang, "method": method, "dataset": entry[key], "model": model}
                    for model in entry["models"]
                ]
    return jobs


def mbe_translated_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The MBE rows of Tables 4-5: (lang, model, dataset = the human translations, english)
    for every language whose ``mbe_translations`` entry names its ``english`` originals."""
    return [
        {"lang": lang, "model": model, "dataset": entry["ht"], "english": entry["english"]}
        for lang, entry in (config.get("mbe_translations") or {}).items()
        if "english" in entry
        for model in entry["models"]
    ]


def basta2020_worlds(config: Mapping[str, Any]) -> list[str]:
    """Worlds whose domains the contextual probes read (``basta2020.worlds``, else all)."""
    return list(config["basta2020"].get("worlds") or configured_worlds(config))


def basta2020_url(config: Mapping[str, Any], world: str, domain: str) -> str:
    """The download URL of a probe domain in a world (``{world}`` expanded)."""
    return config["basta2020"]["domains"][domain]["url"].format(world=world)


def basta2020_download(config: Mapping[str, Any], world: str, domain: str) -> str:
    """Where a probe domain's download goes: the URL's file name under its world and domain."""
    url = basta2020_url(config, world, domain)
    filename = urlparse(url).path.rstrip("/").rsplit("/", 1)[-1]
    if not filename:
        raise ValueError(f"basta2020.domains.{domain}.url names no file: {url!r}")
    return layout.path("raw_basta2020", world=world, domain=domain, filename=filename)


#: Languages whose probe jobs run Exp. 6-9 (grammatical gender on nouns and professions).
BASTA2020_GRAMMATICAL = ("es", "fr", "de")


def basta2020_grammatical_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """The probe jobs of :data:`BASTA2020_GRAMMATICAL` languages (Tables 6-7, Figs. 7-9)."""
    return [job for job in basta2020_jobs(config) if job["lang"] in BASTA2020_GRAMMATICAL]


def basta2020_jobs(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every (model, world, domain, lang) probe job, in config order (models outer).

    A model is probed only on domains of its ``basta2020.model_languages`` entry, else
    of its own ``languages`` list, else on every domain.
    """
    section = filled_section(config, "basta2020")
    jobs = []
    for model in section["models"]:
        if model not in config["models"]:
            raise ValueError(f"basta2020.models: {model!r} is not a configured model")
        allowed = section["model_languages"].get(model) or config["models"][model].get("languages")
        for world in basta2020_worlds(config):
            for domain, entry in section["domains"].items():
                if allowed and entry["lang"] not in allowed:
                    continue
                jobs.append(
                    {"model": model, "world": world, "domain": domain, "lang": entry["lang"]}
                )
    return jobs
