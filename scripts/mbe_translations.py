"""Tables 4 and 5 of Kaneko et al. (2022): Eq. 3 per language, model and method, with Diff.

Inputs: ``measures`` (the pair measures CSV of every job, in the order of ``params.jobs``),
``mbe`` (the JSON of ``scripts/mbe_translated.py`` per ``params.mbe_jobs``). Params:
``jobs`` (``lang``, ``method``, ``dataset``, ``model`` per input), ``mbe_jobs``, ``alpha``.
Outputs: ``csv`` (:data:`mgbias.kaneko2022.translations.TRANSLATION_COLUMNS`) and its Markdown
copy.
"""

import pandas as pd

from mgbias.files.atomic import read_json
from mgbias.kaneko2022.translations import translations_markdown, translations_table
from mgbias.provenance import job_provenance
from mgbias.report.tables import write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]), job_provenance(smk):
    records = []
    for job, path in zip(smk.params.jobs, smk.input.measures, strict=True):
        measures = pd.read_csv(path).set_index("measure")
        if "aula" not in measures.index:
            raise ValueError(f"{path}: no 'aula' row (Eq. 3 with AULA); add aula to pair_measures")
        row = measures.loc["aula"]
        records.append(
            {
                **job,
                "score": float(row["score"]),
                "p_value": float(row["p_value"]),
                "significant": bool(row["significant"]),
                "n": int(row["n"]),
                "n_ties": int(row["n_ties"]),
            }
        )
    for job, path in zip(smk.params.mbe_jobs, smk.input.mbe, strict=True):
        result = read_json(path)
        records.append(
            {
                "lang": job["lang"],
                "model": job["model"],
                "method": "MBE",
                "dataset": job["dataset"],
                "score": float(result["mbe"]),
                "p_value": float(result["mbe_p_value"]),
                "significant": bool(result["mbe_p_value"] < smk.params.alpha),
                "n": int(result["n_male"]) + int(result["n_female"]),
            }
        )
    table = translations_table(records)
    write_table(table, translations_markdown(table), smk.output.csv, smk.output.markdown)
