"""D_f and D_m per source and language (Kaneko et al. 2023, §2): sentences read, mined per
gender, with both genders (dropped), kept.

input.counts : the counts JSON of every mine_controlled job (with its wildcards)
output.csv, output.markdown
"""

from mgbias.files.atomic import read_json
from mgbias.finetune.gendered_text import counts_frame
from mgbias.provenance import job_provenance
from mgbias.report.tables import markdown, write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    frame = counts_frame([read_json(path) for path in smk.input.counts], ["source", "lang"])
    text = "\n".join(
        [
            "# Gendered sentences for bias-controlled fine-tuning (Kaneko et al. 2023, §2)",
            "",
            "D_f and D_m: sentences with words of exactly one gender list, downsampled to N",
            "each; development sentences are held out of both.",
            "",
            markdown(frame, floatfmt=".0f"),
            "",
        ]
    )
    write_table(frame, text, smk.output.csv, smk.output.markdown)
    log.info("%s", frame.to_string(index=False))
