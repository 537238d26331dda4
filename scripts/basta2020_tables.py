"""Basta et al. (2020): the long probe table, Table 1, Tables 2-5 and Figures 2-5
(one part per rule).

Snakemake interface
-------------------
params.part : str
    ``long_table``: input.tables (scripts/contextual_probes.py's CSV per job, in the order of
    params.jobs) -> output.results, every probe row with the job's columns in front;
    ``table1``: input.summaries (the JSON per job) -> output.table, output.markdown;
    ``tables2to5``: input.results -> output.markdown, one table per domain;
    ``pca_variance`` / ``layers``: input.results -> output.figure (PNG).
params.jobs : list of dicts ``model``, ``world``, ``domain``, ``lang`` (results, table1)
log : the job's log
"""

import pandas as pd

from mgbias.atomic import read_json, write_text
from mgbias.report.basta2020 import (
    layer_figure,
    long_table,
    pca_figure,
    table1,
    table1_markdown,
    tables2to5_markdown,
)
from mgbias.report.tables import write_csv
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    part = smk.params.part
    if part == "long_table":
        frame = long_table(smk.params.jobs, [pd.read_csv(p) for p in smk.input.tables])
        write_csv(frame, smk.output.results)
        log.info("%d probe rows from %d jobs", len(frame), len(smk.params.jobs))
    elif part == "table1":
        counts = table1(smk.params.jobs, [read_json(p) for p in smk.input.summaries])
        write_csv(counts, smk.output.table)
        write_text(smk.output.markdown, table1_markdown(counts))
    else:
        frame = pd.read_csv(smk.input.results, dtype={"layer": str})
        if part == "tables2to5":
            write_text(smk.output.markdown, tables2to5_markdown(frame))
        elif part == "pca_variance":
            pca_figure(frame, smk.output.figure)
        elif part == "layers":
            layer_figure(frame, smk.output.figure)
        else:
            raise ValueError(f"unknown part {part!r}")
