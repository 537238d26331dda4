"""MBE of one model over translated pairs (Kaneko et al. 2022, Tables 4-5, MBE row).

Inputs: ``data`` (the translated pairs), ``english`` (their English originals, in the
same order), ``unmasked`` (the pair rules' unmasked pass over the translations). Params:
``mbe`` (weighting, test, permutations, ...), ``wordlists`` (English lists),
``bias_type``, ``english_lang``, ``english_dataset``, ``seed``. Output: one JSON record.
Each translated sentence takes the gender of its English original (Step 1 with the pairs
as the parallel corpus); the model does not run again.
"""

import numpy as np

from mgbias.files.atomic import write_json
from mgbias.kaneko2022.meta import mbe_of_pair_sentences
from mgbias.kaneko2022.translations import aligned_genders
from mgbias.mlm.unmasked_cache import read_score_cache, sentences_sha256
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.provenance import job_provenance
from mgbias.wordlists import load_gender_words
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    wildcards = smk.wildcards
    bias_type = smk.params.bias_type
    translated = pair_sentences(
        load_pairs(smk.input.data, lang=wildcards.lang, bias_type=bias_type)
    )
    english = pair_sentences(
        load_pairs(smk.input.english, lang=smk.params.english_lang, bias_type=bias_type)
    )
    scores, metadata = read_score_cache(smk.input.unmasked)
    flat = [sentence for pair in translated for sentence in pair]
    if metadata.get("input_sha256") != sentences_sha256(flat):
        raise ValueError(
            f"{smk.input.unmasked}: cache was built from other sentences than "
            f"{smk.input.data} ({len(flat)} sentences); delete the cache and rerun"
        )
    female, male = load_gender_words(smk.params.wordlists["female"], smk.params.wordlists["male"])
    what = f"{smk.input.english} and {smk.input.data}"
    genders = np.array(aligned_genders(english, translated, female, male, what=what), dtype=object)
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
    record = {
        **wildcard_fields(wildcards, "model", "dataset", "lang"),
        "english": smk.params.english_dataset,
        **{key: result[key] for key in ("mbe", "mbe_p_value", "n_male", "n_female")},
        "n_excluded": result["n_excluded"],
        "weighting": result["weighting"],
        "model_id": metadata.get("model_id"),
    }
    write_json(smk.output[0], record)
    log.info(
        "MBE %.2f (p=%.3g) over %d male and %d female translated sentences",
        record["mbe"],
        record["mbe_p_value"],
        record["n_male"],
        record["n_female"],
    )
