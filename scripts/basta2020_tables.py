"""Basta et al. (2020): the long probe table, Tables 1-7 and Figures 1-5 and 7-9
(one part per rule).

Shared by the rules ``basta2020_results``, ``basta2020_table1``,
``basta2020_tables2to5``, ``basta2020_pca_variance``, ``basta2020_layers``,
``basta2020_figure1``, ``basta2020_table6``, ``basta2020_table7``,
``basta2020_figure7``, ``basta2020_figure8`` and ``basta2020_figure9``
(rules/basta2020.smk).

Snakemake interface
-------------------
params.part : str
    ``long_table``: input.tables (scripts/basta2020_probes.py's CSV per job, in the order of
    params.jobs) -> output.results, every probe row with the job's columns in front;
    ``table1``: input.summaries (the JSON per job) -> output.table, output.markdown;
    ``tables2to5``: input.results -> output.markdown, one table per domain;
    ``pca_variance`` / ``layers``: input.results -> output.figure (PNG);
    ``table6`` / ``table7``: input.results -> output.table (CSV), output.markdown (grammatical
    gender: es, fr, de);
    ``figure7``: input.results -> output.figure (the swap PCA of the grammatical-gender
    jobs);
    ``figure1``: input.summaries -> output.figure (profession counts per domain);
    ``figure8`` / ``figure9``: input.summaries (grammatical-gender jobs) -> output.figure
    (nouns / professions on d_s and d_g).
params.jobs : list of dicts ``model``, ``world``, ``domain``, ``lang`` (results, table1,
    figure1, figure8, figure9)
log : the job's log
"""

import pandas as pd

from mgbias.files.atomic import read_json, write_text
from mgbias.files.tabular import write_csv
from mgbias.provenance import job_provenance
from mgbias.report.basta2020 import (
    layer_figure,
    long_table,
    pca_figure,
    table1,
    table1_markdown,
    tables2to5_markdown,
)
from mgbias.report.basta2020_grammatical_gender import (
    direction_figure,
    grammatical_gender_pca_figure,
    profession_figure,
    table6,
    table6_markdown,
    table7,
    table7_markdown,
)
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    part = smk.params.part
    if part == "long_table":
        frame = long_table(smk.params.jobs, [pd.read_csv(p) for p in smk.input.tables])
        write_csv(frame, smk.output.results)
        log.info("%d probe rows from %d jobs", len(frame), len(smk.params.jobs))
    elif part == "table1":
        counts = table1(smk.params.jobs, [read_json(p) for p in smk.input.summaries])
        write_csv(counts, smk.output.table)
        write_text(smk.output.markdown, table1_markdown(counts))
    elif part in {"figure1", "figure8", "figure9"}:
        summaries = [read_json(p) for p in smk.input.summaries]
        if part == "figure1":
            profession_figure(smk.params.jobs, summaries, smk.output.figure)
        else:
            kind = "nouns" if part == "figure8" else "professions"
            direction_figure(smk.params.jobs, summaries, smk.output.figure, kind)
    else:
        frame = pd.read_csv(smk.input.results, dtype={"layer": str})
        if part == "tables2to5":
            write_text(smk.output.markdown, tables2to5_markdown(frame))
        elif part == "pca_variance":
            pca_figure(frame, smk.output.figure)
        elif part == "layers":
            layer_figure(frame, smk.output.figure)
        elif part in {"table6", "table7"}:
            table = table6(frame) if part == "table6" else table7(frame)
            write_csv(table, smk.output.table)
            markdown = table6_markdown(table) if part == "table6" else table7_markdown(table)
            write_text(smk.output.markdown, markdown)
        elif part == "figure7":
            grammatical_gender_pca_figure(frame, smk.output.figure)
        else:
            raise ValueError(f"unknown part {part!r}")
