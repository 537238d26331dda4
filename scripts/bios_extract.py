"""Extract the bios of one language from WET files (Zhao et al. 2020 MLBs, issue 13).

Inputs: ``wet``: ``*.warc.wet.gz`` files; optional ``names``: full names, one per line
(for the ``blank`` NER fallback); optional ``titles``: a ``freq_titles``-style JSON.
Outputs: ``bios``: JSON lines, one bio per line with id, name, title, gender, raw (the
unscrubbed body), bio (scrubbed), uri and path (the WET file's name).
Params: ``lang`` (en, es, de, fr); ``pipeline``: spaCy package or ``blank``;
``french_conjunction_fix``; ``occupation_cap`` (None: off); ``seed``: seed of the cap.
"""

from mgbias.bios.pipeline import extract_dataset, read_names
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    records = extract_dataset(
        list(smk.input.wet),
        smk.params.lang,
        smk.output.bios,
        pipeline=smk.params.pipeline,
        names=read_names(getattr(smk.input, "names", None)),
        titles=getattr(smk.input, "titles", None),
        french_conjunction_fix=bool(getattr(smk.params, "french_conjunction_fix", False)),
        occupation_cap=getattr(smk.params, "occupation_cap", None),
        seed=int(smk.params.seed),
    )
    log.info("%s: %d bios from %d WET files", smk.output.bios, len(records), len(smk.input.wet))
