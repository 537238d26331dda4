# Configuration checks and the helpers every rule file uses. The planning is in
# mgbias.workflow (plain functions of the config); a rule file adapts what only it uses,
# and the adapters here are those of several rule files.
import functools
import itertools
import os
import re
import sys
from mgbias.workflow.code_inputs import (
    ImportCache,
    code_digest,
    import_closure,
    shared_cache_path,
)
from mgbias.config import ConfigError, load_schema, workflow_config
from mgbias.workflow.config_locations import from_workdir, relocate
from mgbias.workflow import layout
from mgbias.languages import PIVOT
from mgbias.provenance import CONFIGFILES_KEY
from mgbias.seeds import derive_seed
from mgbias.workflow import basta2020, bios, corpora, demo, kaneko2023, mbe, pairs
from mgbias.workflow import zhao2020
from mgbias.workflow.core import (
    allows_untrained_head,
    basta2020_download,
    basta2020_url,
    canonical,
    expand_jobs,
    finetuned_models,
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
    model_entries,
    model_input,
    model_source as configured_model_source,
    pair_file,
    pair_jobs,
    pair_url,
    pinned_checksums,
    scored_together,
    scoring_settings,
    structural_baselines,
    together_outputs,
    trained_models,
    training_languages,
    training_settings,
)
from mgbias.workflow.gc_tuning import collect_less
from mgbias.workflow.reevaluation import one_pending_reevaluation

# Planning keeps ~280,000 objects alive to the end: fewer garbage collections while it
# runs, none at the exit of a dry run (mgbias.workflow.gc_tuning).
collect_less(lambda: workflow.dryrun)

# The scheduler's loop runs again once a second, not once a second per job that has
# ended (mgbias.workflow.reevaluation).
one_pending_reevaluation()

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
# and so are the structural baselines (random copies) of the models that ask for one
config["models"].update(structural_baselines(config))

LANGUAGES = config["languages"]
WORLDS = config["worlds"]  # [real] unless given (mgbias.config)
CORPORA = list(config["corpora"])
MODELS = list(config["models"])
MBE_PAPER = "Kaneko et al. 2022 (MBE)"
SJSD_PAPER = "Steinborn et al. 2022 (S_JSD)"
PAIR_DATASETS = list(config["pair_datasets"])
out = (
    layout.template
)  # a rule's output path: the one template of mgbias.workflow.layout
# the configuration files of the run, for the tables' provenance records (in the config,
# not a param: a run copied or pulled under another path reruns nothing)
config[CONFIGFILES_KEY] = [
    os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    for path in workflow.configfiles
]

# Everything a run writes lives under its configuration's workdir (Snakemake changes into
# it; `--directory` wins), and the paths the configuration gives keep naming the files
# they name from where Snakemake started (mgbias.workflow.config_locations.relocate).
if workflow.overwrite_workdir is None:
    relocate(config, load_schema(), config["workdir"])
    config[CONFIGFILES_KEY] = [
        from_workdir(path, config["workdir"]) for path in config[CONFIGFILES_KEY]
    ]


workdir: config["workdir"]


def alternatives(names, none="no-such-name"):
    """A wildcard constraint matching exactly one of ``names``."""
    return "|".join(re.escape(name) for name in names) or none


# kaneko2023: its keys, the schema's defaults filled in (also without the section)
KANEKO2023 = kaneko2023.section(config)
KANEKO2023_PAPER = "Kaneko et al. 2023 (bias-controlled PLMs)"
# zhao2020: its keys, the schema's defaults filled in (also without the section)
ZHAO2020 = zhao2020.section(config)
ZHAO2020_PAPER = "Zhao et al. 2020 (multilingual embeddings)"
# bios: its keys, the schema's defaults filled in (also without the section)
BIOS = bios.section(config)
BASTA2020_PAPER = "Basta et al. 2020 (contextual embeddings)"


wildcard_constraints:
    world=alternatives(known_worlds(config)),
    corpus="|".join(CORPORA),
    model="|".join(MODELS),
    lang="[a-z]{2}",
    variant="original|perturbed",
    dataset="|".join(PAIR_DATASETS) or "no-pair-dataset",
    source=alternatives(kaneko2023.sources(config)),
    base=alternatives(kaneko2023.base_models(config)),
    rate="r[0-9]{3}",
    repeat="[0-9]+",
    src="[a-z]{2}(?:deb)?",
    tgt="[a-z]{2}(?:deb)?",
    snapshot=r"CC-MAIN-\d{4}-\d{2}",
    shard=r"\d{5}",


def model_source(model):
    """What loads ``model``: its directory when the workflow trains it, else its source."""
    return configured_model_source(config, model)


def step_seed(*keys):
    return derive_seed(config["seed"], *keys)


def local_source(url):
    """A local (file://) source is an input, so a rule may produce it."""
    path = local_file_of_url(url)
    return [path] if path else []


def corpus_code(corpus, lang):
    """The corpus's own spelling of an ISO language code (e.g. zh -> zh_cn)."""
    return corpora.code(config, corpus, lang)


def moses_zip_input(wc):
    """The downloaded moses zip holding English and ``wc.lang`` in ``wc.corpus``."""
    return corpora.moses_zip(config, wc.world, wc.corpus, wc.lang)


def trained_model_input(wc):
    """The model directory when the workflow trains the model, else nothing."""
    return model_input(config, wc.model)


# the mgbias source directory, relative to the working directory: shipped files (word
# lists, probe lists) are inputs by these paths
PACKAGE = os.path.relpath(os.path.join(workflow.basedir, "src", "mgbias"))


# the imports and the meaning of each library file, by its bytes: a plan parses the files
# changed since the last one only, in any run folder (mgbias.workflow.code_inputs.ImportCache, in
# the cache root that every checkout shares)
CODE_IMPORTS = ImportCache(shared_cache_path())
# each script's code digest (mgbias.workflow.code_inputs.code_digest): its jobs' code input
CODE_DIGESTS = os.path.join(".snakemake", "mgbias", "code")
# the files whose change in meaning this plan has said
CODE_CHANGES_SAID = set()


@functools.cache
def _code_digest(script, leave_out=()):
    path, changed = code_digest(
        os.path.join(workflow.basedir, "scripts", script),
        os.path.join(workflow.basedir, "src"),
        CODE_DIGESTS,
        CODE_IMPORTS,
        leave_out=[
            os.path.join(workflow.basedir, "src", "mgbias", m) for m in leave_out
        ],
    )
    for name in sorted(set(changed) - CODE_CHANGES_SAID):
        CODE_CHANGES_SAID.add(name)
        print(
            f"mgbias: {name} changed in what it does: the jobs whose scripts run it rerun "
            "(snakemake -n --reason names their code digests)",
            file=sys.stderr,
        )
    return os.path.relpath(path)


def script_code(script, only_for=None):
    """The code input of a rule's jobs: a digest of what its script and the library
    files it runs (its import closure) do (mgbias.workflow.code_inputs.code_digest).

    Snakemake reruns a job when the digest changes: when its script or one of the
    modules it imports changes in meaning, not for a comment, a docstring or a
    formatting edit. The closure is derived from the script's imports, so it cannot
    drift from the code. The digest is relative to the working directory, and a new one
    dates from 1970, so a copy or a clone of a completed run elsewhere (DVC) has nothing
    to redo.

    ``only_for`` maps a module (relative to src/mgbias) to a predicate of the
    wildcards: the module is part of the digest only of the jobs where the script
    runs it (pairs/perturb.py: the perturbed variant only).
    """
    if not only_for:
        return _code_digest(script)
    closure = import_closure(
        os.path.join(workflow.basedir, "scripts", script),
        os.path.join(workflow.basedir, "src"),
        CODE_IMPORTS,
    )
    wanted = {
        os.path.realpath(os.path.join(workflow.basedir, "src", "mgbias", module))
        for module in only_for
    }
    missing = sorted(wanted - {str(path) for path in closure})
    if missing:
        raise ValueError(
            f"{script} does not import {missing}; only_for names its modules"
        )
    # every variant written now, while the plan reads the digests' folder for the first
    # time: Snakemake caches its listing, and a digest written later would be missing
    variants = {
        left_out: _code_digest(script, left_out)
        for size in range(len(only_for) + 1)
        for left_out in itertools.combinations(sorted(only_for), size)
    }
    return lambda wc: variants[
        tuple(sorted(m for m, applies in only_for.items() if not applies(wc)))
    ]


def wordlist_files(lists=None):
    """The word-list files (shipped names or paths) of ``lists`` ({female, male};
    default the mining's ``wordlists``), as inputs."""
    shipped = os.path.join(PACKAGE, "wordlists", "data")
    return corpora.wordlist_files(config, shipped, lists)


# Downloads (rules/download.smk): the URL of a job's source, a param and (when local) an
# input (mgbias.workflow.corpora, mgbias.workflow.kaneko2023)
def corpus_url(wc):
    return corpora.url(config, wc.world, wc.corpus, wc.pair)


def corpus_file_urls(wc):
    """The two plain-text files of a ``files`` corpus, by language (English first)."""
    return corpora.file_urls(config, wc.world, wc.corpus, wc.pair)


def monolingual_url(wc):
    return corpora.monolingual_url(config, wc.world, wc.lang)


def controlled_url(wc):
    return kaneko2023.controlled_url(config, wc.source, wc.lang)


# Kaneko et al. (2023): the fine-tunings (rules/models.smk) and the meta-evaluation
# (rules/kaneko2023.smk), planned by mgbias.workflow.kaneko2023
def finetuning(wc):
    return kaneko2023.finetuning(config, wc.model)


def kaneko2023_inputs(key):
    """An input function: the files ``key`` of every run of the meta-evaluation."""
    return lambda wc: kaneko2023.run_inputs(config, key)


# Zhao et al. (2020): the vectors, spaces and dictionaries of rules/models.smk and
# rules/zhao2020.smk (mgbias.workflow.zhao2020).
def zhao2020_vectors(world, lang):
    return zhao2020.vectors(config, world, lang)


def zhao2020_space(world, space):
    return zhao2020.space(config, world, space)


def zhao2020_dictionary_input(src, tgt, split):
    return zhao2020.dictionary_input(config, src, tgt, split)


def zhao2020_inbias_space_input(wc):
    return zhao2020.inbias_space_input(config, wc.world, wc.src, wc.tgt)


# Basta et al. (2020): the probe jobs' lists (rules/basta2020.smk)
def basta2020_lists_input(wc):
    """The shipped list files a probe job's language reads: editing one reruns that
    language's probe jobs (mgbias.workflow.basta2020)."""
    return basta2020.lists(config, wc.domain, PACKAGE)


# Zhao et al. (2020), §4: the crawl and the classifier of rules/download.smk,
# rules/demo.smk and rules/bios.smk (mgbias.workflow.bios).
def bios_shards(snapshot):
    """The shard indices of ``snapshot`` (5 digits), from its plan (checkpoint)."""
    import json

    plan = checkpoints.bios_plan.get(snapshot=snapshot).output.plan
    with open(plan, encoding="utf-8") as handle:
        n_shards = json.load(handle)["shards"]
    return [f"{index:05d}" for index in range(n_shards)]


def bios_titles_input(wc):
    return bios.titles(config, wc.lang)


def bios_transfer_input(wc):
    return bios.transfer_input(
        config, wc.world, wc.src, wc.tgt, wc.src_space, wc.tgt_space
    )


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


def provenance_records(targets):
    """The provenance records of the tables among ``targets`` (mgbias.workflow.layout)."""
    records = (layout.provenance_record(str(path)) for path in targets)
    return sorted({record for record in records if record is not None})
