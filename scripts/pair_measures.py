"""Every configured pair measure of one (model, dataset, variant, language) from its caches."""

from mgbias.mlm.cache import read_score_cache
from mgbias.mlm.masked_cache import read_pair_cache
from mgbias.pair_scoring import pair_measures
from mgbias.report.tables import write_csv
from mgbias.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    unmasked, stored = read_score_cache(smk.input.unmasked)
    masked, _ = read_pair_cache(smk.input.masked)
    table = pair_measures(unmasked, masked, smk.params.measures, seed=smk.params.seed)
    wildcards = smk.wildcards
    table.insert(0, "lang", wildcards.lang)
    table.insert(0, "variant", wildcards.variant)
    table.insert(0, "dataset", wildcards.dataset)
    table.insert(0, "model", wildcards.model)
    table["model_id"] = stored["model_id"]
    write_csv(table, smk.output[0])
    log.info("seed %d (mgbias score --seed gives the same numbers)", smk.params.seed)
    log.info("%s", table.to_string(index=False))
