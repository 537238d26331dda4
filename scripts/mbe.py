"""MBE score, its significance test and the Shf baseline for one (model, corpus, language)."""

from mgbias.files.atomic import write_json
from mgbias.kaneko2022.sentences import read_gender_words, read_gendered_sentences
from mgbias.measures.mbe import mbe_of_sentences
from mgbias.measures.mbe_length import length_record, set_lengths
from mgbias.mlm.unmasked_cache import read_score_cache, sentences_sha256
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    genders, sentences = read_gendered_sentences(smk.input.sentences)
    scores, metadata = read_score_cache(smk.input.cache)
    if metadata.get("input_sha256") != sentences_sha256(sentences):
        raise ValueError(
            f"{smk.input.cache}: cache was built from other sentences than "
            f"{smk.input.sentences}; delete the cache and rerun"
        )
    options = {key: smk.params.mbe[key] for key in ("weighting", "chunk_size", "alpha", "test")}
    options["n_permutations"] = smk.params.mbe["permutations"]
    clusters = None
    if smk.params.mbe.get("cluster") == "gender_words":
        clusters = read_gender_words(smk.input.sentences)
        if clusters is None:
            raise ValueError(
                f"{smk.input.sentences}: no gender_words column, which mbe.cluster: "
                "gender_words needs; rerun the mine_gendered rule, or set mbe.cluster: null"
            )
    result, baseline, likelihood = mbe_of_sentences(
        scores.logprobs,
        scores.attention,
        scores.embeddings,
        genders,
        seed=smk.params.seed,
        clusters=clusters,
        **options,
    )
    record = {
        **wildcard_fields(smk.wildcards),
        **result.to_dict(),
        "shf": baseline.score,
        "shf_p_value": baseline.p_value,
        "cluster": smk.params.mbe.get("cluster"),
        "model_id": metadata.get("model_id"),
        "revision": metadata.get("revision"),
        **length_record(
            set_lengths([len(values) for values in scores.logprobs], likelihood, genders),
            result.score,
            options["alpha"],
        ),
    }
    write_json(smk.output[0], record)
    log.info("MBE %.2f (p=%.3g, %s preferred)", result.score, result.p_value, result.preferred)
