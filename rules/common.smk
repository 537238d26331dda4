# Configuration checks and the helpers every rule file uses.
import os
import re
import sys
from mgbias.code_inputs import ImportCache, import_closure
from mgbias.config import ConfigError, workflow_config
from mgbias.corpora.opus import opus_pair
from mgbias import layout
from mgbias.demo.world import MONOLINGUAL_YEAR, OPUS_CORPORA
from mgbias.languages import PIVOT
from mgbias.provenance import CONFIGFILES_KEY
from mgbias.seeds import derive_seed
from mgbias.workflow import basta2020, bios, kaneko2023, mbe, zhao2020
from mgbias.workflow import (
    allows_untrained_head,
    basta2020_download,
    basta2020_url,
    canonical,
    expand_jobs,
    is_finetuned,
    kaneko2023_grid,
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
    model_dir,
    model_is_trained,
    model_source as configured_model_source,
    pair_dataset_languages,
    pair_file,
    pair_jobs,
    pair_url,
    training_languages,
    training_settings,
)
from mgbias.gc_tuning import collect_less

# Planning keeps ~280,000 objects alive to the end: fewer garbage collections while it
# runs, none at the exit of a dry run (mgbias.gc_tuning).
collect_less(lambda: workflow.dryrun)

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
# kaneko2023: its keys, the schema's defaults filled in (also without the section)
KANEKO2023 = kaneko2023.section(config)
KANEKO2023_PAPER = "Kaneko et al. 2023 (bias-controlled PLMs)"
# zhao2020: its keys, the schema's defaults filled in (also without the section)
ZHAO2020 = zhao2020.section(config)
ZHAO2020_PAPER = "Zhao et al. 2020 (multilingual embeddings)"
# basta2020: its keys, the schema's defaults filled in (also without the section)
BASTA2020 = basta2020.section(config)
BASTA2020_PAPER = "Basta et al. 2020 (contextual embeddings)"
BASTA2020_JOBS = basta2020.jobs(config)
BASTA2020_ES_JOBS = basta2020.grammatical_jobs(config)
# bios: its keys, the schema's defaults filled in (also without the section)
BIOS = bios.section(config)


wildcard_constraints:
    world=alternatives(known_worlds(config)),
    corpus="|".join(CORPORA),
    model="|".join(MODELS),
    lang="[a-z]{2}",
    variant="original|perturbed",
    dataset="|".join(PAIR_DATASETS) or "no-pair-dataset",
    source=alternatives(kaneko2023.sources(config)),
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


def model_source(model):
    """What loads ``model``: its directory when the workflow trains it, else its source."""
    return configured_model_source(config, model)


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


# the imports of each library file, by its bytes: a plan parses the files changed since
# the last one only (mgbias.code_inputs.ImportCache)
CODE_IMPORTS = ImportCache(os.path.join(".snakemake", "mgbias", "imports.json"))


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
            CODE_IMPORTS,
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


# Bias-controlled fine-tuning (Kaneko et al. 2023): rules/mine.smk mines D_f,
# D_m and D_r, rules/models.smk fine-tunes, rules/kaneko2023.smk probes and
# meta-evaluates; planned by mgbias.workflow.kaneko2023, the adapters take the rules'
# wildcards.
def controlled_url(wc):
    return kaneko2023.controlled_url(config, wc.source, wc.lang)


def finetuning(wc):
    return kaneko2023.finetuning(config, wc.model)


def finetune_settings(wc):
    return kaneko2023.finetune_settings(config, wc.model)


def finetune_inputs(wc):
    return kaneko2023.finetune_inputs(config, wc.model)


def kaneko2023_wordlist_files(wc):
    return wordlist_files(kaneko2023.wordlists(config, wc.lang))


def kaneko2023_inputs(key):
    """An input function: the files ``key`` of every run of the meta-evaluation."""
    return lambda wc: kaneko2023.run_inputs(config, key)


def kaneko2023_mbe_results():
    return kaneko2023.mbe_results(config)


def kaneko2023_targets():
    return kaneko2023.targets(config)


# Zhao et al. (2020), static embeddings: planned by mgbias.workflow.zhao2020; the
# adapters take the rules' wildcards.
def zhao2020_inbias_settings():
    return zhao2020.inbias_settings(config)


def zhao2020_grid_worlds():
    return zhao2020.grid_worlds(config)


def zhao2020_url(source, filename):
    return zhao2020.url(config, source, filename)


def zhao2020_vectors(world, lang):
    return zhao2020.vectors(config, world, lang)


def zhao2020_space(world, space):
    return zhao2020.space(config, world, space)


def zhao2020_dictionary_input(src, tgt, split):
    return zhao2020.dictionary_input(config, src, tgt, split)


def zhao2020_mibs_input(lang):
    return zhao2020.mibs_input(config, lang)


zhao2020_space_lang = zhao2020.space_lang
zhao2020_dictionary = zhao2020.dictionary


def zhao2020_inbias_space_input(wc):
    return zhao2020.inbias_space_input(config, wc.world, wc.src, wc.tgt)


def zhao2020_targets():
    return zhao2020.targets(config)


def zhao2020_grid_keys(kind):
    return zhao2020.grid_keys(config, kind)


def zhao2020_original_keys():
    return zhao2020.original_keys(config)


def zhao2020_figure1():
    return zhao2020.figure1(config)


def zhao2020_figure1_panels():
    return zhao2020.figure1_panels(config)


def zhao2020_figure1_spaces(wildcards):
    return zhao2020.figure1_spaces(config)


# Kaneko et al. (2022), Table 3, Figure 2 and Tables 4-6: planned by
# mgbias.workflow.mbe; the adapters take the rules' wildcards.
def mbe_table3_targets():
    return mbe.table3_targets(config)


def mbe_figure2_targets():
    return mbe.figure2_targets(config)


def mbe_translation_measures():
    return mbe.translation_measures(config)


def mbe_translated_english(wc):
    return mbe.translated_english(config, wc.lang, wc.dataset)


def native_names_ht(wc):
    return mbe.native_names_ht(config, wc.lang)


def mbe_translated_inputs(wc):
    return mbe.translated_inputs(config, wc.model, wc.dataset, wc.lang)


def mbe_translated_results():
    return mbe.translated_results(config)


def mbe_translations_targets():
    return mbe.translations_targets(config)


def mbe_table3_wordlists():
    return mbe.table3_wordlists(config)


def mbe_pairs_inputs(wc):
    return mbe.pairs_inputs(config, wc.model, wc.dataset, wc.lang)


# Basta et al. (2020), contextual-embedding probes: planned by
# mgbias.workflow.basta2020; the adapters take the rules' wildcards.
def basta2020_settings(wc, kind):
    return basta2020.settings(config, kind, wc.model, wc.world, wc.domain)


def basta2020_static_input(wc):
    return basta2020.static_input(config, wc.world, wc.domain)


def basta2020_lists(wc):
    """The shipped list files a probe job's language reads (relative to the working
    directory): editing one reruns that language's probe jobs."""
    package = os.path.join(workflow.basedir, "src", "mgbias")
    return [
        os.path.relpath(path) for path in basta2020.lists(config, wc.domain, package)
    ]


def basta2020_targets():
    return basta2020.targets(config)


# Zhao et al. (2020), §4: multilingual BiosBias from Common Crawl (rules/bios.smk;
# downloads in rules/download.smk, the demo crawl in rules/demo.smk): planned by
# mgbias.workflow.bios; the adapters take the rules' wildcards.
def bios_listing_url(snapshot):
    return bios.listing_url(config, snapshot)


def bios_demo_outputs():
    return bios.demo_outputs(config)


bios_dest_root = bios.dest_root


def bios_seed():
    return bios.seed(config)


def bios_shards(snapshot):
    """The shard indices of ``snapshot`` (5 digits), from its plan (checkpoint)."""
    import json

    plan = checkpoints.bios_plan.get(snapshot=snapshot).output.plan
    with open(plan, encoding="utf-8") as handle:
        n_shards = json.load(handle)["shards"]
    return [f"{index:05d}" for index in range(n_shards)]


def bios_shard_outputs(wc):
    return bios.shard_outputs(config, wc.lang, bios_shards)


def bios_manifests(wc):
    return bios.manifests(config, bios_shards)


def bios_names():
    return bios.names(config)


def bios_titles_url(lang):
    return bios.titles_url(config, lang)


def bios_titles(wc):
    return bios.titles(config, wc.lang)


def bios_pipeline(wc):
    return bios.pipeline(config, wc.lang)


def bios_classifier_settings():
    return bios.classifier_settings(config)


def bios_encoder_params(wc):
    """A run's encoder settings (None on a static space): ``wc.space`` of a monolingual
    run with its ``wc.lang``, or ``wc.src_space`` of a transfer run."""
    space = getattr(wc, "space", None) or getattr(wc, "src_space", None)
    return bios.encoder_params(config, space, getattr(wc, "lang", None))


def bios_classifier_input(wc):
    return bios.classifier_input(config, wc.world, wc.lang, wc.space)


def bios_transfer_input(wc):
    return bios.transfer_input(
        config, wc.world, wc.src, wc.tgt, wc.src_space, wc.tgt_space
    )


def bios_transfer_settings():
    return bios.transfer_settings(config)


def bios_transfer_seeds(wc):
    return bios.transfer_seeds(config, wc.world, wc.src, wc.tgt)


def bios_transfer_outputs(encoder=False):
    return bios.transfer_outputs(config, encoder)


def bios_classifier_seeds(wc):
    return bios.classifier_seeds(config, wc.world, wc.lang)


def bios_classifier_outputs(encoder=False):
    return bios.classifier_outputs(config, encoder)


def bios_targets():
    """:func:`mgbias.workflow.bios.targets`; the static-space tables of a configuration
    without ``zhao2020:`` (the word vectors) are named on stderr as not planned."""
    if bios.left_out(config):
        print(
            "bios.classifier: no zhao2020: section (the word vectors), so the default "
            "target leaves out bios_monolingual and bios_transfer",
            file=sys.stderr,
        )
    return bios.targets(config)
