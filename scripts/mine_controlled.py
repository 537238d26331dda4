"""D_f and D_m (Kaneko et al. 2023, §2): gendered sentences of one monolingual corpus.

input:  text (plain or gzip, one sentence per line, with a .sha256 sidecar)
output: female, male (N each), dev_female, dev_male (n_dev each), counts (JSON)
params: wordlists ({female: [...], male: [...]}), n (int or null), n_dev, seed
"""

from pathlib import Path

from mgbias.corpora.checksums import verify_sidecar
from mgbias.files.atomic import write_json
from mgbias.finetune.gendered_text import mine_gendered_text
from mgbias.provenance import job_provenance
from mgbias.wordlists import load_gender_words
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    verify_sidecar(smk.input.text)
    female_words, male_words = load_gender_words(
        smk.params.wordlists["female"], smk.params.wordlists["male"]
    )
    counts = mine_gendered_text(
        Path(smk.input.text),
        female_words,
        male_words,
        out_female=Path(smk.output.female),
        out_male=Path(smk.output.male),
        out_dev_female=Path(smk.output.dev_female),
        out_dev_male=Path(smk.output.dev_male),
        n=smk.params.n,
        n_dev=smk.params.n_dev,
        seed=smk.params.seed,
    )
    write_json(smk.output.counts, {**wildcard_fields(smk.wildcards), **counts.to_dict()})
    log.info("%s: %s", smk.input.text, counts)
