"""Gender preservation of one parallel corpus and language (Kaneko et al. 2022, Figure 2).

Inputs: ``archive`` (the Moses zip mined by ``mine_gendered``). Params: ``corpus``,
``pivot``, ``code`` (the corpus's language code), ``wordlists`` (the mining's English
lists). Output: JSON with ``world``, ``corpus``, ``lang`` and the counts of
:class:`mgbias.kaneko2022.preservation.Preservation` (before downsampling).
"""

from mgbias.corpora.checksums import verify_sidecar
from mgbias.corpora.opus import iter_moses_zip
from mgbias.files.atomic import write_json
from mgbias.kaneko2022.preservation import gender_preservation, pronoun_patterns
from mgbias.wordlists import load_gender_words
from mgbias.wordlists.genders import FEMALE, MALE
from mgbias.workflow.runlog import job_log, wildcard_fields

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    archive = smk.input.archive
    verify_sidecar(archive)
    female, male = load_gender_words(smk.params.wordlists[FEMALE], smk.params.wordlists[MALE])
    patterns = pronoun_patterns(smk.wildcards.lang)
    pairs = iter_moses_zip(archive, smk.params.corpus, smk.params.pivot, smk.params.code)
    counts = gender_preservation(pairs, female, male, patterns)
    write_json(smk.output[0], {**wildcard_fields(smk.wildcards), **counts.to_dict()})
    log.info("%s: %s", archive, counts)
