"""Fetch one configured source atomically and record its sha256.

Shared by the rules ``download_corpus``, ``download_monolingual``, ``download_pairs``,
``download_controlled``, ``download_basta2020``, ``download_zhao2020``,
``download_bios_titles`` and ``download_bios_listing`` (rules/download.smk).
"""

from mgbias.corpora.download import fetch
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    url = smk.params.url
    digest = fetch(url, smk.output.archive, expected_sha256=smk.params.checksums.get(url))
    log.info("%s -> %s sha256=%s", url, smk.output.archive, digest)
