# Configuration checks and the helpers every rule file uses.
import os
import re
import sys
from mgbias.code_inputs import import_closure
from mgbias.config import ConfigError, workflow_config
from mgbias.corpora.opus import opus_pair
from mgbias import layout
from mgbias.demo.world import MONOLINGUAL_YEAR, OPUS_CORPORA
from mgbias.languages import PIVOT
from mgbias.provenance import CONFIGFILES_KEY
from mgbias.seeds import derive_seed
from mgbias.workflow import (
    allows_untrained_head,
    basta2020_download,
    basta2020_grammatical_jobs,
    basta2020_jobs,
    basta2020_url,
    expand_jobs,
    is_finetuned,
    kaneko2023_finetune_settings,
    kaneko2023_grid,
    kaneko2023_mbe_jobs,
    kaneko2023_models,
    kaneko2023_runs,
    known_worlds,
    local_file_of_url,
    mbe_preservation_jobs,
    mbe_translated_jobs,
    mbe_translation_jobs,
    mbe_table3_jobs,
    mbe_table_jobs,
    mining_jobs,
    model_is_trained,
    pair_dataset_languages,
    pair_file,
    pair_jobs,
    pair_url,
    training_languages,
    training_settings,
)

# Against the schema shipped in the package; each config file is read again with the
# project's YAML loader, so that a duplicate key is an error and messages name lines
# (one line on stderr and exit status 1, no traceback). Warnings are printed once.
try:
    CONFIG_WARNINGS = workflow_config(
        config, workflow.overwrite_configfiles or workflow.configfiles
    )
except ConfigError as error:
    sys.exit(f"mgbias: {error}")
if workflow.is_main_process:
    for warning in CONFIG_WARNINGS:
        print(f"mgbias: warning: {warning}", file=sys.stderr)
# the bias-controlled models (Kaneko et al. 2023) are models like the others
config["models"].update(kaneko2023_models(config))

LANGUAGES = config["languages"]
WORLDS = config["worlds"]  # [real] unless given (mgbias.config)
CORPORA = list(config["corpora"])
# corpora given as a moses zip (url) or as two plain-text files of one's own (files)
URL_CORPORA = [c for c in CORPORA if "url" in config["corpora"][c]]
FILE_CORPORA = [c for c in CORPORA if "files" in config["corpora"][c]]
MODELS = list(config["models"])
MBE_PAPER = "Kaneko et al. 2022 (MBE)"
SJSD_PAPER = "Steinborn et al. 2022 (S_JSD)"
PAIR_DATASETS = list(config["pair_datasets"])
out = layout.template  # a rule's output path: the one template of mgbias.layout
# the configuration files of the run, for the tables' provenance records (in the config,
# not a param: a run copied or pulled under another path reruns nothing)
config[CONFIGFILES_KEY] = [
    os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    for path in workflow.configfiles
]


def alternatives(names, none="no-such-name"):
    """A wildcard constraint matching exactly one of ``names``."""
    return "|".join(re.escape(name) for name in names) or none


TRAINED_MODELS = [m for m in MODELS if "train" in config["models"][m]]
FINETUNED_MODELS = [m for m in MODELS if is_finetuned(config["models"][m])]
KANEKO2023 = config.get("kaneko2023", {})
KANEKO2023_PAPER = "Kaneko et al. 2023 (bias-controlled PLMs)"
ZHAO2020 = config.get("zhao2020", {})
ZHAO2020_PAPER = "Zhao et al. 2020 (multilingual embeddings)"
BASTA2020 = config.get("basta2020", {})
BASTA2020_PAPER = "Basta et al. 2020 (contextual embeddings)"
BASTA2020_JOBS = basta2020_jobs(config) if BASTA2020 else []
BASTA2020_ES_JOBS = basta2020_grammatical_jobs(config) if BASTA2020 else []
BIOS = config.get("bios", {})


wildcard_constraints:
    world=alternatives(known_worlds(config)),
    corpus="|".join(CORPORA),
    model="|".join(MODELS),
    lang="[a-z]{2}",
    variant="original|perturbed",
    dataset="|".join(PAIR_DATASETS) or "no-pair-dataset",
    source=alternatives(KANEKO2023.get("sources", {})),
    rate="r[0-9]{3}",
    repeat="[0-9]+",
    src="[a-z]{2}(?:deb)?",
    tgt="[a-z]{2}(?:deb)?",
    snapshot=r"CC-MAIN-\d{4}-\d{2}",
    shard=r"\d{5}",


def corpus_code(corpus, lang):
    """The corpus's own spelling of an ISO language code (e.g. zh -> zh_cn)."""
    return config["corpora"][corpus].get("codes", {}).get(lang, lang)


def corpus_pair(corpus, lang):
    """OPUS pair name of English and ``lang`` in ``corpus`` (e.g. de-en)."""
    return opus_pair(PIVOT, corpus_code(corpus, lang))


def corpus_url(wildcards):
    template = config["corpora"][wildcards.corpus]["url"]
    tgt = next(c for c in wildcards.pair.split("-") if c != PIVOT)
    return template.format(
        world=wildcards.world, pair=wildcards.pair, src=PIVOT, tgt=tgt
    )


def corpus_file_urls(wildcards):
    """The two plain-text files of a ``files`` corpus, by language (English first)."""
    template = config["corpora"][wildcards.corpus]["files"]
    tgt = next(c for c in wildcards.pair.split("-") if c != PIVOT)
    fields = dict(world=wildcards.world, pair=wildcards.pair, src=PIVOT, tgt=tgt)
    return {lang: template.format(lang=lang, **fields) for lang in (PIVOT, tgt)}


def monolingual_url(wildcards):
    return config["monolingual"]["url"].format(
        world=wildcards.world, lang=wildcards.lang
    )


def model_dir(model):
    """Where the workflow keeps a trained model (hub models are not copied)."""
    return layout.path("model", model=model)


def model_source(model):
    entry = config["models"][model]
    return model_dir(model) if model_is_trained(entry) else entry["source"]


def step_seed(*keys):
    return derive_seed(config["seed"], *keys)


def demo_world_files(world):
    """Every file the demo generator writes for ``world`` (OPUS zips, news-crawl text)."""
    corpora = [
        layout.path(
            "demo_opus_zip",
            world=world,
            opus_dir=OPUS_CORPORA[c][0],
            release=OPUS_CORPORA[c][1],
            pair=corpus_pair(c, lang),
        )
        for c in CORPORA
        if c in OPUS_CORPORA  # the demo writes the OPUS corpora it knows, no others
        for lang in LANGUAGES
    ]
    text = [
        layout.path("demo_news_crawl", world=world, lang=lang, year=MONOLINGUAL_YEAR)
        for lang in [PIVOT, *LANGUAGES]
    ]
    return corpora + text


def demo_world_settings(world):
    """What determines ``world``'s bytes besides its seed: the corpus sizes and its own
    entry of the ``demo`` section, so that changing another world or a knob of rules
    downstream of the worlds (``mt_flip``, ``n_pairs``) regenerates nothing."""
    demo = config.get("demo", {})
    sizes = {key: demo[key] for key in ("n_parallel", "n_monolingual") if key in demo}
    return {**sizes, world: demo[world]}


def demo_pair_files():
    """Every file the demo writes for the pair benchmarks (English and each language)."""
    languages = [PIVOT, *(lang for lang in LANGUAGES if lang != PIVOT)]
    return [
        layout.path(f"demo_{dataset}", lang=lang)
        for lang in languages
        for dataset in layout.BENCHMARK_FILES
    ]


def pair_targets():
    """The pair tables this configuration produces: none when no model is scored on a
    pair dataset (e.g. every model's languages miss every dataset's), and a paper table
    only when some model is scored on its dataset."""
    scored = {job["dataset"] for job in pair_jobs(config)}
    if not scored:
        return []
    tables = ["pairs_scores", "pairs_by_model"]
    tables += [
        f"pairs_{table}"
        for table, dataset in sorted(config["pair_tables"].items())
        if dataset in scored
    ]
    return [layout.path(table) for table in tables]


def local_source(url):
    """A local (file://) source is an input, so a rule may produce it."""
    path = local_file_of_url(url)
    return [path] if path else []


def moses_zip(wc):
    """The downloaded moses zip holding English and ``wc.lang`` in ``wc.corpus``."""
    pair = corpus_pair(wc.corpus, wc.lang)
    return layout.path("raw_corpus", world=wc.world, corpus=wc.corpus, pair=pair)


def trained_model_input(wc):
    """The model directory when the workflow trains the model, else nothing."""
    entry = config["models"][wc.model]
    return [model_dir(wc.model)] if model_is_trained(entry) else []


def provenance_records(targets):
    """The provenance records of the tables among ``targets`` (mgbias.layout)."""
    records = (layout.provenance_record(str(path)) for path in targets)
    return sorted({record for record in records if record is not None})


def sources(*modules):
    """Files shipped in the package (e.g. word lists), as inputs relative to the
    working directory; ``modules`` are relative to src/mgbias."""
    return [
        os.path.relpath(os.path.join(workflow.basedir, "src", "mgbias", module))
        for module in modules
    ]


def script_code(script, only_for=None):
    """The library files a rule's script runs, as inputs: its import closure.

    Snakemake reruns a job when its inputs change, so a change to one
    measure's module reruns that measure's jobs (and what depends on them)
    and nothing else. The list is derived from the script's imports
    (mgbias.code_inputs), so it cannot drift from the code. The inputs are
    relative to the working directory, so a copy or a clone of a completed
    run elsewhere (DVC) records the same inputs and has nothing to redo.

    ``only_for`` maps a module (relative to src/mgbias) to a predicate of the
    wildcards: the module is an input only of the jobs where the script runs
    it (perturb.py: the perturbed variant only).
    """
    closure = [
        os.path.relpath(path)
        for path in import_closure(
            os.path.join(workflow.basedir, "scripts", script),
            os.path.join(workflow.basedir, "src"),
        )
    ]
    if not only_for:
        return closure
    conditional = {
        os.path.relpath(os.path.join(workflow.basedir, "src", "mgbias", module)): test
        for module, test in only_for.items()
    }
    missing = [module for module in conditional if module not in closure]
    if missing:
        raise ValueError(
            f"{script} does not import {missing}; only_for names its modules"
        )
    return lambda wc: [
        path for path in closure if path not in conditional or conditional[path](wc)
    ]


def wordlist_files(lists=None):
    """The word-list files (shipped names or paths) of ``lists`` ({female, male};
    default the mining's ``wordlists``), as inputs."""
    lists = lists or config["wordlists"]
    files = []
    for name in lists["female"] + lists["male"]:
        shipped = f"wordlists/data/{name}.txt"
        is_file = os.path.splitext(name)[1] != "" or os.sep in name
        files += [name] if is_file else sources(shipped)
    return files


def canonical(value):
    """``value`` with dictionary keys sorted, for rule params.

    Snakemake compares params by their text, so the same settings written in
    another key order would otherwise rerun every job that takes them.
    """
    if isinstance(value, dict):
        return {key: canonical(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [canonical(item) for item in value]
    return value


# Bias-controlled fine-tuning (Kaneko et al. 2023): rules/mine.smk mines D_f,
# D_m and D_r, rules/models.smk fine-tunes, rules/kaneko2023.smk probes and
# meta-evaluates.
def controlled_url(wc):
    return KANEKO2023["sources"][wc.source]["url"].format(lang=wc.lang)


def finetuning(wc):
    """The ``finetune`` entry of a bias-controlled model (base, source, lang, rate, repeat)."""
    return config["models"][wc.model]["finetune"]


def finetune_settings(wc):
    """``kaneko2023.finetune`` for one fine-tuning (seed + repeat)."""
    return canonical(kaneko2023_finetune_settings(config, finetuning(wc)["repeat"]))


def controlled_text(key, job):
    return layout.path(key, source=job["source"], lang=job["lang"])


def finetune_inputs(wc):
    """D_r, the development sets, and the base model's directory when the workflow trains it."""
    job = finetuning(wc)
    inputs = {
        "text": layout.path(
            "controlled_mixture",
            source=job["source"],
            lang=job["lang"],
            rate=job["rate"],
            repeat=job["repeat"],
        ),
        "dev": [
            controlled_text("controlled_dev_female", job),
            controlled_text("controlled_dev_male", job),
        ],
    }
    if model_is_trained(config["models"][job["base"]]):
        inputs["base"] = model_dir(job["base"])
    return inputs


def kaneko2023_wordlist_files(wc):
    return wordlist_files(KANEKO2023["wordlists"][wc.lang])


def kaneko2023_inputs(key):
    """The files ``key`` (a per-run output) of every run of the meta-evaluation, in run order."""

    def files(wc):
        paths = []
        for run in kaneko2023_runs(config):
            if key == "pairs_per_pair":
                paths.append(
                    layout.path(
                        key,
                        model=run["scored"],
                        dataset=KANEKO2023["pair_dataset"],
                        variant="original",
                        lang=run["language"],
                    )
                )
            else:
                paths.append(
                    layout.path(key, model=run["scored"], lang=run["language"])
                )
        return paths

    return files


def kaneko2023_mbe_results():
    """Per run of the meta-evaluation, the MBE results it reads (none without kaneko2023.mbe)."""
    return {
        run["run"]: [
            layout.path("mbe_result", **job) for job in kaneko2023_mbe_jobs(config, run)
        ]
        for run in kaneko2023_runs(config)
    }


def zhao2020_inbias_settings():
    """inBias settings; n_strong defaults to the count of the demo's strong-gendered pairs."""
    from mgbias.demo.embeddings import n_strong

    return {"n_strong": n_strong(), **ZHAO2020.get("inbias", {})}


#: The English space after hard debiasing (the paper's ENDEB).
ZHAO2020_DEBIASED = "endeb"


def zhao2020_grid_worlds():
    """The worlds whose spaces are aligned (``zhao2020: grid_worlds``; default: all)."""
    return ZHAO2020.get("grid_worlds", config["worlds"])


def zhao2020_alignments():
    """The (source, target) spaces aligned: Zhao et al.'s grid.

    Every ordered pair of the languages (``grid_languages``, default ``languages``; X->EN
    included, which the paper took from the published wiki.xx.align.vec), and with
    ``debias`` (default on when English is among them) ENDEB->X and X->ENDEB for every
    other language X.
    """
    languages = ZHAO2020.get("grid_languages", ZHAO2020.get("languages", []))
    pairs = [(src, tgt) for src in languages for tgt in languages if src != tgt]
    if zhao2020_debiases():
        others = [lang for lang in languages if lang != "en"]
        pairs += [(ZHAO2020_DEBIASED, lang) for lang in others]
        pairs += [(lang, ZHAO2020_DEBIASED) for lang in others]
    return pairs


def zhao2020_debiases():
    """Whether the English space is hard-debiased (ENDEB)."""
    languages = ZHAO2020.get("grid_languages", ZHAO2020.get("languages", []))
    return bool(ZHAO2020.get("debias", True)) and "en" in languages


def zhao2020_downloads(source):
    """Whether ``source`` (vectors, dictionaries, mibs) is downloaded (``zhao2020.<source>.url``)
    rather than trained on the world's text or generated from the demo lexicon."""
    return bool(ZHAO2020.get(source, {}).get("url"))


def zhao2020_url(source, filename):
    """The URL of one downloaded resource: ``zhao2020.<source>.url`` with ``{filename}``."""
    return ZHAO2020[source]["url"].format(filename=filename)


def zhao2020_vectors(world, lang):
    """A language's original .vec: the published wiki.{lang}.vec when ``zhao2020.vectors.url``
    is set (the same file in every world), else the vectors trained on the world's text.
    """
    if zhao2020_downloads("vectors"):
        return layout.path(
            "raw_zhao2020", source="vectors", filename=f"wiki.{lang}.vec"
        )
    return layout.path("vectors", world=world, lang=lang)


def zhao2020_space(world, space):
    """The .vec file of a space: a language's original vectors, or ENDEB."""
    if space == ZHAO2020_DEBIASED:
        return layout.path("zhao2020_debiased", world=world, lang="en")
    return zhao2020_vectors(world, space)


def zhao2020_dictionary_input(src, tgt, split):
    """``{dico_<split>: file}`` (a downloaded MUSE dictionary) or ``{dictionaries: dir}``
    (the demo's; the script reads ``params.dico_<split>`` in it)."""
    name = zhao2020_dictionary(src, tgt, split)
    if zhao2020_downloads("dictionaries"):
        return {
            f"dico_{split}": layout.path(
                "raw_zhao2020", source="dictionaries", filename=name
            )
        }
    return {"dictionaries": layout.path("zhao2020_dictionaries")}


def zhao2020_mibs_input(lang):
    """The MIBs lists of a language: the three downloaded files, or the demo's directory."""
    if not zhao2020_downloads("mibs"):
        return {"mibs": layout.path("zhao2020_mibs")}
    from mgbias.embeddings.mibs import occupation_file_names, seed_file_name

    male, female = occupation_file_names(lang)
    files = {
        "male_occupations": male,
        "female_occupations": female,
        "seeds": seed_file_name(lang),
    }
    return {
        key: layout.path("raw_zhao2020", source="mibs", filename=name)
        for key, name in files.items()
    }


def zhao2020_space_lang(space):
    """The language whose words a space holds (ENDEB: en)."""
    return "en" if space == ZHAO2020_DEBIASED else space


def zhao2020_dictionary(src, tgt, split):
    """The MUSE dictionary file name between two spaces' languages (``train``/``test``)."""
    name = {"train": "0-5000", "test": "5000-6500"}[split]
    return f"{zhao2020_space_lang(src)}-{zhao2020_space_lang(tgt)}.{name}.txt"


def zhao2020_inbias_spaces():
    """(src, tgt) of every inBias of an aligned space; (endeb, endeb): ENDEB itself."""
    spaces = list(zhao2020_alignments())
    if zhao2020_debiases():
        spaces.append((ZHAO2020_DEBIASED, ZHAO2020_DEBIASED))
    return spaces


def zhao2020_inbias_space_input(wc):
    """An aligned space, or ENDEB itself ({src}-{tgt} = endeb-endeb), with its language's
    original space (vocabulary filter) and original scores (the t-test's reference)."""
    lang = zhao2020_space_lang(wc.src)
    if wc.src == wc.tgt:
        vec = zhao2020_space(wc.world, wc.src)
    else:
        vec = layout.path("zhao2020_aligned", world=wc.world, src=wc.src, tgt=wc.tgt)
    return {
        "vec": vec,
        "original": zhao2020_vectors(wc.world, lang),
        "reference": layout.path("zhao2020_inbias_scores", world=wc.world, lang=lang),
        **zhao2020_mibs_input(lang),
    }


def zhao2020_targets():
    """The inBias table of the original spaces and, when configured, the alignment grid
    with Tables 1, 2 and 12 (with ENDEB: 3, 4 and 13) and Figure 1."""
    if not ZHAO2020:
        return []
    targets = [layout.path("zhao2020_inbias_original")]
    if zhao2020_alignments():
        targets.append(layout.path("zhao2020_grid"))
        targets += [layout.path(f"zhao2020_{name}") for name in ZHAO2020_TABLES]
        if zhao2020_debiases():
            targets += [
                layout.path(f"zhao2020_{name}") for name in ZHAO2020_ENDEB_TABLES
            ]
    if zhao2020_figure1_panels():
        targets.append(layout.path("zhao2020_figure1"))
    return targets


#: Tables of Zhao et al. cut from the grid, without and with ENDEB.
ZHAO2020_TABLES = ["table1", "table2", "table12"]
ZHAO2020_ENDEB_TABLES = ["table3", "table4", "table13"]


def zhao2020_grid_keys(kind):
    """[world, src, tgt] of every BLI (``bli``) or inBias (``inbias``) of the grid."""
    pairs = zhao2020_alignments() if kind == "bli" else zhao2020_inbias_spaces()
    return [[world, src, tgt] for world in zhao2020_grid_worlds() for src, tgt in pairs]


def zhao2020_original_keys():
    """[world, lang] of every original space in the grid (its diagonal)."""
    languages = ZHAO2020.get("grid_languages", ZHAO2020.get("languages", []))
    return [[world, lang] for world in zhao2020_grid_worlds() for lang in languages]


def zhao2020_figure1():
    """Figure 1's settings with their defaults: lang es, targets en and de, 6 pairs."""
    settings = {"lang": "es", "targets": ["en", "de"], "pairs": [], "n_pairs": 6}
    return {**settings, **ZHAO2020.get("figure1", {})}


def zhao2020_figure1_panels():
    """[world, space] of Figure 1's panels (``es``, ``es-en``, ``es-de``) per grid world;
    none unless the language and its targets are among zhao2020.languages."""
    figure = zhao2020_figure1()
    lang, targets = figure["lang"], figure["targets"]
    if not ZHAO2020 or any(x not in ZHAO2020["languages"] for x in [lang, *targets]):
        return []
    spaces = [lang, *[f"{lang}-{target}" for target in targets]]
    return [[world, space] for world in zhao2020_grid_worlds() for space in spaces]


def zhao2020_figure1_spaces(wildcards):
    """The .vec file of every Figure 1 panel."""
    paths = []
    for world, space in zhao2020_figure1_panels():
        src, _, tgt = space.partition("-")
        if tgt:
            paths.append(layout.path("zhao2020_aligned", world=world, src=src, tgt=tgt))
        else:
            paths.append(zhao2020_vectors(world, src))
    return paths


def mbe_table3_targets():
    """Table 3 of Kaneko et al. (2022) and its rows per model, when configured."""
    if not mbe_table3_jobs(config):
        return []
    return [layout.path("mbe_table3"), layout.path("mbe_table3_models")]


def mbe_figure2_targets():
    """Figure 2 of Kaneko et al. (2022) and its table, when configured."""
    if not mbe_preservation_jobs(config):
        return []
    return [layout.path("mbe_figure2"), layout.path("mbe_figure2_table")]


def mbe_translation_measures():
    """The pair measures of every Tables 4-5 job (original variant), in job order."""
    return [
        layout.path(
            "pairs_measures",
            model=job["model"],
            dataset=job["dataset"],
            variant="original",
            lang=job["lang"],
        )
        for job in mbe_translation_jobs(config)
    ]


def mbe_translated_english(wc):
    """The English pair dataset whose translations ``wc.dataset`` holds in ``wc.lang``."""
    for job in mbe_translated_jobs(config):
        if job["lang"] == wc.lang and job["dataset"] == wc.dataset:
            return job["english"]
    raise ValueError(
        f"mbe_translations: no entry for {wc.lang!r} names {wc.dataset!r} as `ht` with its "
        "`english` originals"
    )


def native_names_ht(wc):
    """The human translations (``mbe_translations.<lang>.ht``) whose names Table 6 replaces."""
    entry = (config.get("mbe_translations") or {}).get(wc.lang)
    if not entry:
        raise ValueError(
            f"native_name_pairs: mbe_translations has no entry for {wc.lang!r}, so there "
            "are no human translations to rewrite"
        )
    return pair_file(config, entry["ht"], wc.lang)


def mbe_translated_inputs(wc):
    """The translations, their English originals and the unmasked pass over the former."""
    return {
        "data": pair_file(config, wc.dataset, wc.lang),
        "english": pair_file(config, mbe_translated_english(wc), PIVOT),
        "unmasked": layout.path(
            "score_pairs_unmasked",
            model=wc.model,
            dataset=wc.dataset,
            variant="original",
            lang=wc.lang,
        ),
    }


def mbe_translated_results():
    """The MBE rows of Tables 4-5, in :func:`mbe_translated_jobs` order."""
    return [
        layout.path(
            "mbe_translated_result",
            model=job["model"],
            dataset=job["dataset"],
            lang=job["lang"],
        )
        for job in mbe_translated_jobs(config)
    ]


def mbe_translations_targets():
    """Tables 4 and 5 of Kaneko et al. (2022), when configured."""
    if not mbe_translation_jobs(config):
        return []
    return [layout.path("mbe_translations")]


def mbe_table3_wordlists():
    """The word lists classifying Table 3's sentences (default the mining's)."""
    return (config.get("mbe_table3") or {}).get("wordlists") or config["wordlists"]


def mbe_pairs_inputs(wc):
    """Table 3 inputs of one job: the pair file, its unmasked pass and pair measures."""
    keys = {
        "model": wc.model,
        "dataset": wc.dataset,
        "variant": "original",
        "lang": wc.lang,
    }
    return {
        "data": pair_file(config, wc.dataset, wc.lang),
        "unmasked": layout.path("score_pairs_unmasked", **keys),
        "measures": layout.path("pairs_measures", **keys),
        "per_pair": layout.path("pairs_per_pair", **keys),
    }


def kaneko2023_targets():
    """Table 1, the mined-counts table and Figures 2 and 3, when configured."""
    if not KANEKO2023:
        return []
    keys = [
        "kaneko2023_table1",
        "kaneko2023_mined",
        "kaneko2023_figure2",
        "kaneko2023_figure3",
    ]
    return [layout.path(key) for key in keys]


def basta2020_settings(wc, kind):
    """Settings of a probe job: ``basta2020.vectors`` or ``.probes``, the word lists
    (``lists``), the language's spaCy pipeline (``spacy``) and the job's seed."""
    lang = BASTA2020["domains"][wc.domain]["lang"]
    settings = {
        **BASTA2020.get(kind, {}),
        "lists": BASTA2020.get("lists", "shipped"),
        "seed": step_seed("basta2020", kind, wc.model, wc.world, wc.domain),
    }
    spacy = BASTA2020.get("spacy", {}).get(lang)
    if kind == "vectors" and spacy:
        settings["spacy"] = spacy
    if kind == "vectors" and BASTA2020.get("static"):
        sizes = ("n_biased", "n_extended", "top_n")
        settings.update({key: BASTA2020["static"][key] for key in sizes})
    return settings


def basta2020_static_input(wc):
    """A probe job's static vectors (``basta2020.static``): the static-embedding layer's
    vectors of the domain's language in the job's world, or the file configured for the
    language; none without the key."""
    if not BASTA2020.get("static"):
        return {}
    lang = BASTA2020["domains"][wc.domain]["lang"]
    vectors = BASTA2020["static"]["vectors"]
    if vectors == "zhao2020":
        return {"static": zhao2020_vectors(wc.world, lang)}
    return {"static": vectors[lang]}


def basta2020_lists(wc):
    """The shipped list files a probe job's language reads (mgbias.contextual.lists):
    editing one reruns that language's probe jobs."""
    from mgbias.contextual.lists import list_files

    package = os.path.join(workflow.basedir, "src", "mgbias")
    lang = BASTA2020["domains"][wc.domain]["lang"]
    return [os.path.relpath(path) for path in list_files(lang, package)]


def basta2020_targets():
    """The probe tables and figures, when configured (Tables 6-7 and Figures 7-9 with a
    Spanish, French or German domain)."""
    if not BASTA2020:
        return []
    keys = ["basta2020_results", "basta2020_table1", "basta2020_tables2to5"]
    keys += ["basta2020_pca_variance", "basta2020_layers", "basta2020_clusters"]
    keys += ["basta2020_figure1"]
    if BASTA2020_ES_JOBS:
        keys += ["basta2020_table6", "basta2020_table7"]
        keys += ["basta2020_figure7", "basta2020_figure8", "basta2020_figure9"]
    return [layout.path(key) for key in keys]


# Zhao et al. (2020), §4: multilingual BiosBias from Common Crawl (rules/bios.smk;
# downloads in rules/download.smk, the demo crawl in rules/demo.smk).
def bios_listing_url(snapshot):
    """The URL of a snapshot's ``wet.paths.gz`` under the configured crawl root."""
    from mgbias.bios.ccfetch import url_for
    from mgbias.bios.ccpaths import listing_path

    return url_for(BIOS["url"], listing_path(snapshot))


def bios_demo_outputs():
    """The demo crawl's listings and WET files (none without ``bios:``)."""
    from mgbias.bios.demo import segment_of, wet_paths

    if not BIOS:
        return {"listings": [], "wet": []}
    snapshots = BIOS["snapshots"]
    n_files = BIOS.get("demo_files", 2)
    listings = [layout.path("demo_bios_listing", snapshot=s) for s in snapshots]
    wet = [
        layout.path(
            "demo_bios_wet",
            snapshot=s,
            segment=segment_of(s),
            filename=os.path.basename(p),
        )
        for s in snapshots
        for p in wet_paths(s, n_files)
    ]
    return {"listings": listings, "wet": wet}


def bios_dest_root(path, up):
    """Where the WET files go (``data/raw/bios``): ``up`` directories above ``path``
    (the listing ``.../crawl-data/{snapshot}/wet.paths.gz`` or a shard's manifest)."""
    for _ in range(up):
        path = os.path.dirname(path)
    return path


def bios_seed():
    """The seed of the WET file selection (``max_files``)."""
    return step_seed("bios", "wet_files")


def bios_shards(snapshot):
    """The shard indices of ``snapshot`` (5 digits), from its plan (checkpoint)."""
    import json

    plan = checkpoints.bios_plan.get(snapshot=snapshot).output.plan
    with open(plan, encoding="utf-8") as handle:
        n_shards = json.load(handle)["shards"]
    return [f"{index:05d}" for index in range(n_shards)]


def bios_shard_outputs(wc):
    """Every shard's bios of ``wc.lang``, every snapshot (after the plans)."""
    return [
        layout.path("bios_shard", lang=wc.lang, snapshot=snapshot, shard=shard)
        for snapshot in BIOS["snapshots"]
        for shard in bios_shards(snapshot)
    ]


def bios_manifests(wc):
    """Every shard's download manifest, every snapshot (after the plans)."""
    return [
        layout.path("raw_bios_shard", snapshot=snapshot, shard=shard)
        for snapshot in BIOS.get("snapshots", [])
        for shard in bios_shards(snapshot)
    ]


def bios_names():
    """The name list of the ``blank`` NER fallback: the demo's, a file, or none."""
    names = BIOS.get("names")
    if names == "demo":
        return [layout.path("demo_bios_names")]
    return [names] if names else []


def bios_titles_url(lang):
    """``bios.titles.<lang>`` when it is a URL (downloaded by download_bios_titles)."""
    titles = BIOS.get("titles", {}).get(lang)
    return titles if titles and re.match(r"^(https?|file)://", titles) else None


def bios_titles(wc):
    """The configured title lexicon of ``wc.lang``: its download when a URL, else the
    local file (none: the shipped demo lexicon)."""
    if bios_titles_url(wc.lang):
        return [layout.path("raw_bios_titles", lang=wc.lang)]
    titles = BIOS.get("titles", {}).get(wc.lang)
    return [titles] if titles else []


def bios_pipeline(wc):
    """The spaCy pipeline of ``wc.lang`` (``bios.spacy``; default the library's)."""
    from mgbias.bios.ner import DEFAULT_PIPELINES

    return BIOS.get("spacy", {}).get(wc.lang, DEFAULT_PIPELINES[wc.lang])


def bios_classifier_section():
    """``bios: classifier:`` (settings and the experiment grid; empty: no classifier)."""
    return BIOS.get("classifier") or {}


def bios_classifier_settings():
    """The classifier's settings, the authors' defaults completed (checked keys)."""
    from dataclasses import asdict

    from mgbias.bios.experiment import ClassifierSettings

    return asdict(ClassifierSettings.from_config(bios_classifier_section()))


def bios_classifier_variants():
    """(text, sampling) of the runs: ``variants`` (``{text}-{sampling}``), else
    ``texts`` (default: scrubbed) x ``samplings`` (default: original)."""
    section = bios_classifier_section()
    if "variants" in section:
        return [tuple(variant.split("-")) for variant in section["variants"]]
    return [
        (text, sampling)
        for text in section.get("texts", ["scrubbed"])
        for sampling in section.get("samplings", ["original"])
    ]


def bios_classifier_experiments():
    """(world, lang, space, text, sampling) of every configured monolingual run:
    ``worlds`` (default: every world) x ``monolingual`` (language -> spaces) x the
    variants (:func:`bios_classifier_variants`)."""
    section = bios_classifier_section()
    monolingual = section.get("monolingual", {})
    unknown = sorted(set(monolingual) - set(BIOS.get("languages", [])))
    if unknown:
        raise ValueError(
            f"bios.classifier.monolingual: languages {unknown} are not in bios.languages"
        )
    return [
        (world, lang, space, text, sampling)
        for world in section.get("worlds", config["worlds"])
        for lang, spaces in monolingual.items()
        for space in spaces
        for text, sampling in bios_classifier_variants()
    ]


def bios_encoder():
    """``bios.classifier.encoder`` (EncoderSettings; None without one): the frozen
    encoder whose space name (``name``, default the model's) runs Tables 10 and 11."""
    from mgbias.bios.encoder import EncoderSettings

    # checked against models: by mgbias.config
    return EncoderSettings.from_config(bios_classifier_section().get("encoder"))


def bios_is_encoder(space):
    """Whether ``space`` names the classifier's encoder."""
    encoder = bios_encoder()
    return encoder is not None and space == encoder.name


def bios_encoder_params(wc=None, space=None):
    """The encoder's settings, source (hub id or directory) and revision for a run of
    ``space`` (``wc.space`` or ``wc.src_space``), else None (a static space); for a
    monolingual run with ``labels: transfer``, the ``occupations`` it keeps (the
    transfer labels of its language)."""
    space = space or getattr(wc, "space", None) or getattr(wc, "src_space", None)
    if not bios_is_encoder(space):
        return None
    from dataclasses import asdict

    encoder = bios_encoder()
    params = {
        **asdict(encoder),
        "source": model_source(encoder.model),
        "revision": config["models"][encoder.model].get("revision"),
    }
    lang = getattr(wc, "lang", None)
    if lang and encoder.labels == "transfer":
        from mgbias.bios.experiment import transfer_labels

        transfer = bios_transfer_settings()
        params["occupations"] = transfer_labels(
            lang, lang, transfer["labels"], transfer["labels_by_language"]
        )
    return canonical(params)


def bios_space_input(world, lang, space, key="bios.classifier"):
    """``{"vectors": .vec}`` of a static space, or the encoder's model directory when
    the workflow trains it (``{"encoder": dir}``; a hub model: nothing, it loads from
    the Hugging Face cache)."""
    if bios_is_encoder(space):
        model = bios_encoder().model
        return (
            {"encoder": model_dir(model)}
            if model_is_trained(config["models"][model])
            else {}
        )
    return {"vectors": bios_vectors(world, lang, space, key)}


def bios_vectors(world, lang, space, key="bios.classifier"):
    """The .vec file of a classifier's space for ``lang`` bios: the language's own
    vectors (``{lang}``), ENDEB (``endeb``, English only), or the language aligned to
    another space (``{lang}-{tgt}``, e.g. ``es-en``, ``de-endeb``; ``endeb-{tgt}``)."""
    if space == lang or (space == ZHAO2020_DEBIASED and lang == "en"):
        return zhao2020_space(world, space)
    src, _, tgt = space.partition("-")
    if not tgt or zhao2020_space_lang(src) != lang:
        raise ValueError(
            f"{key}: space {space!r} of {lang} bios is not {lang}, {lang}-<target>, "
            "(English) endeb or the encoder (bios.classifier.encoder)"
        )
    return layout.path("zhao2020_aligned", world=world, src=src, tgt=tgt)


def bios_classifier_input(wc):
    """The dataset, split and space of a monolingual run (:func:`bios_space_input`)."""
    return {
        "dataset": layout.path("bios_dataset", lang=wc.lang),
        "split": layout.path("bios_split", lang=wc.lang),
        **bios_space_input(
            wc.world, wc.lang, wc.space, f"bios.classifier.monolingual.{wc.lang}"
        ),
    }


def bios_transfer_section():
    """``bios: classifier: transfer:`` (empty: no transfer runs)."""
    return bios_classifier_section().get("transfer") or {}


def bios_transfer_experiments():
    """(world, src, tgt, src_space, tgt_space, text, sampling) of every transfer run."""
    section = bios_transfer_section()
    languages = set(BIOS.get("languages", []))
    variants = section.get("variants", ["scrubbed-original"])
    out = []
    for src, tgt, src_space, tgt_space in section.get("runs", []):
        if not {src, tgt} <= languages or src == tgt:
            raise ValueError(
                f"bios.classifier.transfer.runs: {src}->{tgt} needs two different "
                "languages of bios.languages"
            )
        bios_space_input("-", src, src_space, "bios.classifier.transfer.runs")
        bios_space_input("-", tgt, tgt_space, "bios.classifier.transfer.runs")
        for world in bios_classifier_section().get("worlds", config["worlds"]):
            for variant in variants:
                text, sampling = variant.split("-")
                out.append((world, src, tgt, src_space, tgt_space, text, sampling))
    return out


def bios_transfer_input(wc):
    """Both languages' datasets, splits and spaces of a transfer run (the encoder: its
    model directory once, when the workflow trains it)."""
    source = bios_space_input(wc.world, wc.src, wc.src_space)
    target = bios_space_input(wc.world, wc.tgt, wc.tgt_space)
    return {
        "source": layout.path("bios_dataset", lang=wc.src),
        "target": layout.path("bios_dataset", lang=wc.tgt),
        "source_split": layout.path("bios_split", lang=wc.src),
        "target_split": layout.path("bios_split", lang=wc.tgt),
        **{f"source_{key}": path for key, path in source.items() if key == "vectors"},
        **{f"target_{key}": path for key, path in target.items() if key == "vectors"},
        **{key: path for key, path in source.items() if key == "encoder"},
    }


def bios_transfer_settings():
    """Share, full targets and labels of the transfer runs (the authors' defaults; the
    labels of a language in ``labels_by_language`` replace ``labels`` for its runs)."""
    from mgbias.bios.experiment import TRANSFER_LABELS

    section = bios_transfer_section()
    return {
        "share": section.get("share", 0.2),
        "full": list(section.get("full", ["de"])),
        "labels": list(section.get("labels", TRANSFER_LABELS)),
        "labels_by_language": {
            lang: list(labels)
            for lang, labels in section.get("labels_by_language", {}).items()
        },
    }


def bios_transfer_seeds(wc):
    """One seed per run (``bios.classifier.runs``) of a world and language pair."""
    runs = int(bios_classifier_section().get("runs", 1))
    return [
        step_seed("bios_transfer", wc.world, wc.src, wc.tgt, run) for run in range(runs)
    ]


def bios_transfer_outputs(encoder=False):
    """The metrics JSON of every configured transfer run on static spaces, or with
    ``encoder``, on the encoder (Table 11)."""
    keys = ("world", "src", "tgt", "src_space", "tgt_space", "text", "sampling")
    return [
        layout.path("bios_finetune", **dict(zip(keys, run)))
        for run in bios_transfer_experiments()
        if bios_is_encoder(run[3]) == encoder
    ]


def bios_classifier_seeds(wc):
    """One seed per run (``bios.classifier.runs``, default 1), shared by every space,
    text and sampling of a world and language, so that their runs are paired."""
    runs = int(bios_classifier_section().get("runs", 1))
    return [step_seed("bios_classifier", wc.world, wc.lang, run) for run in range(runs)]


def bios_classifier_outputs(encoder=False):
    """The metrics JSON of every configured monolingual run on a static space, or with
    ``encoder``, on the encoder (Table 10)."""
    return [
        layout.path("bios_classifier", world=w, lang=l, space=s, text=t, sampling=m)
        for w, l, s, t, m in bios_classifier_experiments()
        if bios_is_encoder(s) == encoder
    ]


def bios_targets():
    """Table 5, Figure 2 and its counts, the classifier tables on static spaces when
    configured and the vectors are (``zhao2020:``; without it these tables are named on
    stderr as not planned, and can still be asked for as targets), and the encoder's
    Tables 10 and 11 when configured."""
    if not BIOS:
        return []
    keys = ["bios_table5", "bios_table5_markdown", "bios_counts", "bios_figure2"]
    tables = []
    if bios_classifier_outputs():
        tables += ["bios_monolingual", "bios_monolingual_markdown"]
    if bios_transfer_outputs():
        tables += ["bios_transfer", "bios_transfer_markdown"]
    if tables and not ZHAO2020:
        print(
            "bios.classifier: no zhao2020: section (the word vectors), so the default "
            "target leaves out bios_monolingual and bios_transfer",
            file=sys.stderr,
        )
    elif tables:
        keys += tables
    if bios_classifier_outputs(encoder=True):
        keys += ["bios_table10", "bios_table10_markdown"]
    if bios_transfer_outputs(encoder=True):
        keys += ["bios_table11", "bios_table11_markdown"]
    return [layout.path(key) for key in keys]
