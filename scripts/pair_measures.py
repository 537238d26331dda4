"""Every configured pair measure of one (model, dataset, variant, language) from its caches,
with its length structure (length-matched score, length lean), and the per-pair table (one
row per pair, for error analysis)."""

from mgbias.files.tabular import write_csv
from mgbias.mlm.masked_cache import pairs_sha256, read_pair_cache
from mgbias.mlm.unmasked_cache import read_score_cache
from mgbias.pairs.data import cluster_column, cluster_labels, load_pairs, pair_sentences
from mgbias.pairs.scoring import per_pair_table
from mgbias.pairs.structure import pair_measures_with_length
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    wildcards = smk.wildcards
    perturb = wildcards.variant == "perturbed"
    frame = load_pairs(smk.input.data, lang=wildcards.lang, bias_type=smk.params.bias_type)
    expected = pairs_sha256(pair_sentences(frame, perturb=perturb))
    unmasked, stored = read_score_cache(smk.input.unmasked)
    masked, _ = read_pair_cache(smk.input.masked, expected_sha256=expected)
    cluster = cluster_column(frame, smk.params.cluster)
    table = pair_measures_with_length(
        unmasked,
        masked,
        smk.params.measures,
        seed=smk.params.seed,
        tie_rule=smk.params.tie_rule,
        alpha=smk.params.alpha,
        clusters=None if cluster is None else cluster_labels(frame, cluster, smk.input.data),
    )
    stamp = wildcard_fields(wildcards, "model", "dataset", "variant", "lang")
    for position, (name, value) in enumerate(stamp.items()):
        table.insert(position, name, value)
    table["model_id"] = stored["model_id"]
    write_csv(table, smk.output.measures)
    write_csv(per_pair_table(frame, unmasked, masked, perturb=perturb), smk.output.per_pair)
    log.info("seed %d (mgbias score --seed gives the same numbers)", smk.params.seed)
    log.info("%s", table.to_string(index=False))
