"""MBE step 1: gendered target-language sentences from one parallel corpus."""

import tempfile
from pathlib import Path

from mgbias.corpora.checksums import verify_sidecar
from mgbias.corpora.opus import iter_moses_zip
from mgbias.files.atomic import write_json
from mgbias.kaneko2022.mining import mine_gendered_sentences
from mgbias.kaneko2022.sentences import write_gendered_sentences
from mgbias.provenance import job_provenance
from mgbias.wordlists import load_gender_words
from mgbias.wordlists.genders import FEMALE, MALE
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    archive = smk.input.archive
    verify_sidecar(archive)
    female_words, male_words = load_gender_words(
        smk.params.wordlists[FEMALE], smk.params.wordlists[MALE]
    )
    pairs = iter_moses_zip(archive, smk.params.corpus, smk.params.pivot, smk.params.code)
    out = Path(smk.output.sentences)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        female_path, male_path = Path(tmp, "female.txt"), Path(tmp, "male.txt")
        female_words_path, male_words_path = Path(tmp, "female.words"), Path(tmp, "male.words")
        counts = mine_gendered_sentences(
            pairs,
            female_words,
            male_words,
            female_path,
            male_path,
            seed=smk.params.seed,
            words_female=female_words_path,
            words_male=male_words_path,
        )
        with (
            open(female_path, encoding="utf-8") as female,
            open(male_path, encoding="utf-8") as male,
            open(female_words_path, encoding="utf-8") as female_matched,
            open(male_words_path, encoding="utf-8") as male_matched,
        ):
            n_female, n_male = write_gendered_sentences(
                out, female, male, female_words=female_matched, male_words=male_matched
            )
    summary = {**wildcard_fields(smk.wildcards), **counts.to_dict()}
    write_json(smk.output.counts, summary)
    log.info("%s: %s; kept %d female and %d male sentences", archive, counts, n_female, n_male)
