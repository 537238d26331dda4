"""Demo stand-ins for the MUSE dictionaries and the MIBs word lists, from the lexicon.

Inputs: none (the demo lexicon is code).
Outputs: ``dictionaries``: directory with ``{src}-{tgt}.0-5000.txt`` (training concepts)
and ``{src}-{tgt}.5000-6500.txt`` (test concepts) for every ordered language pair;
``mibs``: directory with ``{lang}_male_def_occ``, ``{lang}_female_def_occ`` and
``{lang}_gender_pairs.json`` per language (strong-gendered pairs first; their count is
:func:`mgbias.demo.embeddings.n_strong`).
Params: ``languages`` (English included), ``seed`` (the concept split),
``test_fraction`` (share of concepts in the test dictionaries, default 0.25).
"""

from mgbias.demo.embeddings import n_strong, write_dictionaries, write_mibs_lists
from mgbias.files.atomic import atomic_directory
from mgbias.provenance import job_provenance
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    languages = list(smk.params.languages)
    with atomic_directory(smk.output.dictionaries) as out:
        written = write_dictionaries(out, languages, smk.params.seed)
    log.info("%d dictionaries", len(written))
    with atomic_directory(smk.output.mibs) as out:
        written = write_mibs_lists(out, languages)
    log.info("%d MIBs files; the first %d pairs are strong-gendered", len(written), n_strong())
