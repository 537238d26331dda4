"""Template pairs (Tmp) of one language (Kaneko et al. 2022, §5.2, Tables 4 and 5).

Params: ``lang`` (an entry of ``mgbias/resources/kaneko2022_templates.yaml``). Output:
a CrowS-Pairs CSV, the male sentence as ``sent_more``.
"""

from mgbias.runlog import job_log
from mgbias.template_pairs import shipped_templates, template_pairs, write_template_pairs

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    lang = smk.params.lang
    shipped = shipped_templates()
    if lang not in shipped:
        raise ValueError(
            f"no template pairs for {lang!r} in kaneko2022_templates.yaml; "
            f"languages with templates: {sorted(shipped)}"
        )
    pairs = template_pairs(shipped[lang], lang)
    write_template_pairs(pairs, smk.output[0])
    log.info("%d template pairs for %s", len(pairs), lang)
