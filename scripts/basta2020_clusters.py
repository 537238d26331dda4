"""Basta et al. (2020), Figure 6: the biased words of Exp. 3 in 2-D, per probe job.

Snakemake interface
-------------------
input.plans, input.vectors : lists of paths
    scripts/basta2020_vectors.py's plan and vector cache per job, in params.jobs order.
params.jobs : list of dicts ``model``, ``world``, ``domain``, ``lang``
params.lists : ``shipped`` or ``demo`` (as basta2020.lists)
params.seeds : the probe seed of each job (run 0 of Exp. 3 is drawn)
output.figure : PNG
log : the job's log
"""

import numpy as np

from mgbias.contextual.cache import read_word_vectors
from mgbias.contextual.clustering import cluster_projection
from mgbias.contextual.lists import load_probe_lists
from mgbias.contextual.plan import ProbePlan
from mgbias.contextual.run import stand_in_lists
from mgbias.demo.probes import demo_probe_lists
from mgbias.files.atomic import read_json
from mgbias.provenance import job_provenance
from mgbias.report.basta2020 import cluster_figure
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    panels = []
    for job, plan_path, vectors_path, seed in zip(
        smk.params.jobs, smk.input.plans, smk.input.vectors, smk.params.seeds, strict=True
    ):
        lang = job["lang"]
        lists = demo_probe_lists(lang) if smk.params.lists == "demo" else load_probe_lists(lang)
        labels = stand_in_lists(
            {w.lower(): b for w, b in lists.professions.items() if b != 0}
        ).labels()
        plan = ProbePlan.from_dict(read_json(plan_path))
        vectors = read_word_vectors(vectors_path)
        rows = np.array(
            [k for k in plan.occurrences if vectors.found[k] and plan.words[k] in labels],
            dtype=np.int64,
        )
        last = [name for name in vectors.layer_names if name != "concat"][-1]
        points = cluster_projection(
            vectors.layer(last)[rows], [plan.words[k] for k in rows], labels, seed=seed
        )
        title = f"{job['domain']}: {job['model']}, {job['world']}, layer {last}"
        panels.append((title, points))
        log.info("%s: %d words, accuracy %.3f", title, len(points["words"]), points["accuracy"])
    cluster_figure(panels, smk.output.figure)
