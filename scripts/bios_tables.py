"""Tables of the bios (Zhao et al. 2020): Table 5 (``part=table5``), the instances per
occupation and gender behind Figure 2 (``part=counts``), or the monolingual classifier
runs, Tables 6 and 14 (``part=monolingual``), or the transfer runs, Tables 7-9 and
15-18 (``part=transfer``), or the runs on the frozen encoder, Table 10 (``part=table10``)
and Table 11 (``part=table11``).

Shared by the rules ``bios_table5``, ``bios_counts``, ``bios_monolingual``,
``bios_transfer``, ``bios_table10`` and ``bios_table11`` (rules/bios.smk).

Inputs: ``datasets``: one JSON lines dataset per language, in ``params.languages`` order
(table5, counts); ``results``: the classifier runs' metrics JSON (monolingual,
transfer).
Outputs: ``table`` (CSV), and ``markdown`` with every part but ``counts``.
"""

import json

from mgbias.bios.experiment import metric_standard_errors
from mgbias.bios.pipeline import read_records
from mgbias.bios.tables import (
    COUNT_COLUMNS,
    ENCODER_COLUMNS,
    ENCODER_TRANSFER_COLUMNS,
    MONOLINGUAL_COLUMNS,
    TABLE5_COLUMNS,
    TRANSFER_COLUMNS,
    counts,
    encoder_markdown,
    encoder_rows,
    encoder_transfer_markdown,
    encoder_transfer_rows,
    monolingual_markdown,
    monolingual_rows,
    table5,
    table5_markdown,
    transfer_markdown,
    transfer_rows,
    write_csv,
)
from mgbias.files.atomic import write_text
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)


def run_result(path: str) -> dict:
    """The experiment keys, the number of runs, the mean metrics of a run's JSON and
    their standard errors over the runs."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    errors = metric_standard_errors([run["metrics"] for run in data["runs"]])
    return {**data["experiment"], "runs": len(data["runs"]), **data["metrics"], **errors}


with job_log(smk.log[0]) as log, job_provenance(smk):
    if smk.params.part == "monolingual":
        rows = monolingual_rows([run_result(path) for path in smk.input.results])
        write_csv(smk.output.table, rows, MONOLINGUAL_COLUMNS)
        write_text(smk.output.markdown, monolingual_markdown(rows))
    elif smk.params.part == "table10":
        rows = encoder_rows([run_result(path) for path in smk.input.results])
        write_csv(smk.output.table, rows, ENCODER_COLUMNS)
        write_text(smk.output.markdown, encoder_markdown(rows))
    elif smk.params.part == "table11":
        rows = encoder_transfer_rows([run_result(path) for path in smk.input.results])
        write_csv(smk.output.table, rows, ENCODER_TRANSFER_COLUMNS)
        write_text(smk.output.markdown, encoder_transfer_markdown(rows))
    elif smk.params.part == "transfer":
        rows = transfer_rows([run_result(path) for path in smk.input.results])
        write_csv(smk.output.table, rows, TRANSFER_COLUMNS)
        write_text(smk.output.markdown, transfer_markdown(rows))
    else:
        datasets = {
            lang: read_records(path)
            for lang, path in zip(smk.params.languages, smk.input.datasets, strict=True)
        }
        if smk.params.part == "table5":
            rows = table5(datasets)
            write_csv(smk.output.table, rows, TABLE5_COLUMNS)
            write_text(smk.output.markdown, table5_markdown(rows))
        else:
            rows = counts(datasets, int(smk.params.figure2_min))
            write_csv(smk.output.table, rows, COUNT_COLUMNS)
    log.info("%s: %d rows", smk.output.table, len(rows))
