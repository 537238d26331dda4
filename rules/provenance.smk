# Provenance: every table's rule also writes a record of the code, models, data
# and settings behind it (results/provenance/tables/<rule>.json,
# mgbias.provenance). This rule gathers the records of the run's tables into
# the report's Provenance page.


rule provenance_summary:
    input:
        records=lambda wc: provenance_records(rules.all.input),
        code=script_code("provenance_summary.py"),
    output:
        table=report(
            out("provenance_summary"),
            caption="../report/provenance_summary.rst",
            category="Provenance",
        ),
    log:
        "logs/provenance_summary.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/provenance_summary.py"
