"""inBias (Zhao et al. 2020, Eq. 1) of one space, with per-occupation scores.

Shared by the rules ``zhao2020_inbias`` and ``zhao2020_inbias_space``
(rules/zhao2020.smk).

Inputs: ``vec``: the space scored (original, aligned or debiased; .vec);
``male_occupations``, ``female_occupations``, ``seeds``: MIBs-style lists
(``{lang}_male_def_occ``, ``{lang}_female_def_occ``, ``{lang}_gender_pairs.json``), or
``mibs``: a directory holding them, read for ``params.lang``;
optional ``original``: the language's original space, whose vocabulary filters the pairs
(absent: the scored space's own); optional ``reference``: per-occupation CSV of the space
to test against (the original space; the ENDEB rows use original EN), for the t-test.
Outputs: ``json``: inbias, se (its standard error), variant, n (pairs scored), n_listed,
strong, weak, t_statistic, p_value, paired, seeds; ``scores``: CSV with one row per pair
(index, masculine, feminine, score = b_i).
Params: ``inbias``: ``variant`` (``averaged``: Eq. 1 as printed; ``pairwise``: the
authors' code), ``authors_split`` (read the lists as the authors' notebook), ``n_strong``
(137: strong-gendered English pairs come first), ``paired`` (ttest_rel instead of the
authors' ttest_ind).
"""

from pathlib import Path

from mgbias.embeddings.mibs import occupation_file_names, seed_file_name
from mgbias.embeddings.steps import inbias_files
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    inputs = dict(smk.input.items())
    if "mibs" in inputs:
        lang = smk.params.lang
        male, female = (Path(inputs["mibs"]) / name for name in occupation_file_names(lang))
        seeds = Path(inputs["mibs"]) / seed_file_name(lang)
    else:
        male, female, seeds = (
            inputs[key] for key in ("male_occupations", "female_occupations", "seeds")
        )
    settings = smk.params.inbias
    report = inbias_files(
        smk.input.vec,
        male,
        female,
        seeds,
        original=inputs.get("original"),
        variant=settings["variant"],
        authors_split=settings["authors_split"],
        n_strong=settings["n_strong"],
        reference_scores=inputs.get("reference"),
        paired=settings["paired"],
        output=smk.output.json,
        scores=smk.output.scores,
    )
    log.info("inBias %.4f on %d pairs (p=%s)", report.result.value, report.result.n, report.p_value)
