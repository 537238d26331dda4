"""Experiments 1-9 of Basta et al. (2020) on cached word vectors, every layer (``mgbias
probe`` gives the same numbers).

Snakemake interface
-------------------
input.plan : the probe plan and its static lists (scripts/basta2020_vectors.py)
input.vectors : the word-vector cache
params.lang : str
params.probes : dict
    ``basta2020.probes`` with the job's ``seed``
    (:class:`~mgbias.contextual.run.ProbeSettings`; Exp. 6-9 run where the plan holds
    gendered nouns); ``lists``: ``demo`` for the demo lexicon's occupations with their
    planted bias.
output.table : CSV: layer, experiment, measure, mean, min, max, range, n_items, n_runs
output.summary : JSON: every result object per layer, Table 1's counts
log : the job's log
"""

from mgbias.contextual.cache import read_word_vectors
from mgbias.contextual.lists import load_probe_lists
from mgbias.contextual.plan import ProbePlan
from mgbias.contextual.run import ProbeSettings
from mgbias.contextual.steps import StaticLists, probe_plan
from mgbias.demo.probes import demo_probe_lists
from mgbias.files.atomic import read_json, write_json
from mgbias.files.tabular import write_csv
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0] if smk.log else None) as log, job_provenance(smk) as used:
    options = smk.params.probes
    used["seed"] = options["seed"]
    lang = smk.params.lang
    lists = demo_probe_lists(lang) if options.get("lists") == "demo" else load_probe_lists(lang)
    planned = read_json(smk.input.plan)
    static = planned.get("static_lists")
    results = probe_plan(
        read_word_vectors(smk.input.vectors),
        ProbePlan.from_dict(planned),
        lists,
        ProbeSettings.from_mapping(options),
        static=StaticLists.from_dict(static) if static else None,
    )
    write_csv(results.frame(), smk.output.table)
    write_json(smk.output.summary, results.summary)
    log.info("probes: %s", results.table1)
