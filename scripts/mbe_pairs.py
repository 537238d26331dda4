"""Table 3 input for one (model, pair dataset, language) (Kaneko et al. 2022).

Inputs: ``data`` (the pair benchmark), ``unmasked`` (the pair rules' unmasked pass over
it, original variant), ``measures`` (its pair measures; ``aula`` is Eq. 3, the original
score), ``per_pair`` (its per-pair table, for the male-oriented Eq. 3). Params: ``mbe``
(weighting, test, permutations, ...), ``wordlists`` (female and male English lists),
``bias_type``, ``tie_rule``, ``seed``. Output: one JSON record with the columns
of :data:`mgbias.kaneko2022.meta.MODEL_COLUMNS`. The model does not run: MBE and Shf come
from the unmasked pass, whose sentences are checked against the benchmark's.
"""

import pandas as pd

from mgbias.files.atomic import write_json
from mgbias.kaneko2022.meta import classify_pair_sentences, mbe_of_pair_sentences, oriented_original
from mgbias.mlm.unmasked_cache import read_score_cache, sentences_sha256
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.provenance import job_provenance
from mgbias.wordlists import load_gender_words
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    wildcards = smk.wildcards
    frame = load_pairs(smk.input.data, lang=wildcards.lang, bias_type=smk.params.bias_type)
    pairs = pair_sentences(frame)
    scores, metadata = read_score_cache(smk.input.unmasked)
    flat = [sentence for pair in pairs for sentence in pair]
    if metadata.get("input_sha256") != sentences_sha256(flat):
        raise ValueError(
            f"{smk.input.unmasked}: cache was built from other sentences than "
            f"{smk.input.data} ({len(flat)} sentences); delete the cache and rerun"
        )
    measures = pd.read_csv(smk.input.measures).set_index("measure")
    if "aula" not in measures.index:
        raise ValueError(
            f"{smk.input.measures}: no 'aula' row (Eq. 3 with AULA); add aula to pair_measures"
        )
    female, male = load_gender_words(smk.params.wordlists["female"], smk.params.wordlists["male"])
    genders = classify_pair_sentences(pairs, female, male)
    options = dict(smk.params.mbe)
    result = mbe_of_pair_sentences(
        scores,
        genders,
        seed=smk.params.seed,
        weighting=options["weighting"],
        chunk_size=options["chunk_size"],
        alpha=options["alpha"],
        test=options["test"],
        n_permutations=options["permutations"],
    )
    per_pair = pd.read_csv(smk.input.per_pair, keep_default_na=False)
    original_male, n_oriented = oriented_original(
        per_pair, female, male, tie_rule=smk.params.tie_rule
    )
    record = {
        **wildcard_fields(wildcards, "model", "dataset", "lang"),
        "original": float(measures.loc["aula", "score"]),
        "original_male": original_male,
        "n_oriented": n_oriented,
        **result,
        "model_id": metadata.get("model_id"),
    }
    write_json(smk.output[0], record)
    log.info(
        "original %.2f, MBE %.2f (p=%.3g), Shf %.2f; %d male, %d female, %d excluded",
        record["original"],
        record["mbe"],
        record["mbe_p_value"],
        record["shf"],
        record["n_male"],
        record["n_female"],
        record["n_excluded"],
    )
