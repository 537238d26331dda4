"""Hard debiasing (Bolukbasi et al. 2016) of one space: Zhao et al. (2020)'s ENDEB.

Inputs: ``vec``: the vectors (.vec or .bin); optional ``definitional``,
``gender_specific``, ``equalize``: JSON word lists in debiaswe's format (absent: the
shipped debiaswe lists).
Outputs: ``vec``: every word, debiased and unit-length (.vec); ``summary``: JSON with the
gender direction, the definitional pairs used and skipped, the number of neutralised words
and the equalised pairs.
Params: none.
"""

from mgbias.embeddings.steps import debias_file
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    inputs = dict(smk.input.items())
    result = debias_file(
        smk.input.vec,
        smk.output.vec,
        definitional=inputs.get("definitional"),
        gender_specific=inputs.get("gender_specific"),
        equalize=inputs.get("equalize"),
        summary=smk.output.summary,
    )
    log.info(
        "%d words neutralised, %d pairs equalised, %d definitional pairs skipped",
        result.n_neutralized,
        len(result.equalized),
        len(result.definitional_skipped),
    )
