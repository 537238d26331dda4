"""Template pairs (Tmp) of one language (Kaneko et al. 2022, §5.2, Tables 4 and 5).

Params: ``lang``: an entry of ``mgbias/resources/kaneko2022_templates.yaml`` (the
paper's templates), else a demo language, rendered by the demo grammar
(:mod:`mgbias.demo.templates`). Output: a CrowS-Pairs CSV, the male sentence as
``sent_more``, with each pair's occupation (``target``) and gender words
(``gender_pair``), to cluster the pairs by.
"""

from mgbias.demo.lexicon import LANGUAGES
from mgbias.demo.templates import demo_template_labels, demo_template_pairs
from mgbias.kaneko2022.template_pairs import (
    shipped_templates,
    template_labels,
    template_pairs,
    write_template_pairs,
)
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    lang = smk.params.lang
    shipped = shipped_templates()
    if lang in shipped:
        pairs = template_pairs(shipped[lang], lang)
        labels = template_labels(shipped[lang], lang)
    elif lang in LANGUAGES:
        pairs = demo_template_pairs(lang)
        labels = demo_template_labels(lang)
    else:
        raise ValueError(
            f"no template pairs for {lang!r}: not in kaneko2022_templates.yaml "
            f"({sorted(shipped)}) and not a demo language ({list(LANGUAGES)})"
        )
    write_template_pairs(pairs, smk.output[0], labels)
    log.info("%d template pairs for %s", len(pairs), lang)
