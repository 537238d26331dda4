"""Gather one language's shards and post-process them into the bios dataset (Zhao et al.
2020 MLBs): excluded titles, deduplication, scrubbing, the optional occupation cap.

Inputs: ``shards``: JSON lines of :func:`mgbias.bios.pipeline.write_bios`; optional
``titles``.
Outputs: ``dataset``: JSON lines (mgbias.bios.pipeline.FIELDS).
Params: ``lang``; ``french_conjunction_fix``; ``occupation_cap`` (None: off); ``seed``.
"""

from mgbias.bios.pipeline import read_bios, to_records, write_records
from mgbias.bios.rules import load_title_lexicon, rules_for
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    titles = smk.input.titles[0] if smk.input.titles else None
    rules = rules_for(
        smk.params.lang,
        None if titles is None else load_title_lexicon(titles),
        french_conjunction_fix=bool(smk.params.french_conjunction_fix),
    )
    bios = [bio for path in smk.input.shards for bio in read_bios(path)]
    records = to_records(
        bios, rules, occupation_cap=smk.params.occupation_cap, seed=int(smk.params.seed)
    )
    write_records(smk.output.dataset, records)
    log.info("%s: %d bios of %d candidates", smk.params.lang, len(records), len(bios))
