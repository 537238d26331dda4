"""Human translations with native first names (Kaneko et al. 2022, §6, Table 6: HT_name).

Inputs: ``ht`` (the human translations of one language: any pair dataset file).
Params: ``lang`` (an entry of ``mgbias/resources/native_names.yaml``), ``seed``.
Output: the same pairs, in order, as a CrowS-Pairs CSV in which every transliterated
English first name is replaced by a native name of the same gender
(:mod:`mgbias.kaneko2022.native_names`).
"""

from mgbias.kaneko2022.native_names import replace_names, shipped_name_table, write_named_pairs
from mgbias.pairs.data import load_pairs
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    lang = smk.params.lang
    table = shipped_name_table(lang)
    frame = load_pairs(smk.input.ht, lang=lang)
    pairs = list(zip(frame["sent_more"], frame["sent_less"], strict=True))
    rewritten, changed, tokens = replace_names(pairs, table, smk.params.seed)
    write_named_pairs(frame, rewritten, smk.output[0])
    log.info(
        "%s: %d of %d pairs hold transliterated names; %d names replaced",
        smk.input.ht,
        changed,
        len(pairs),
        tokens,
    )
