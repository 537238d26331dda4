"""The sentences of one probe domain (Basta et al. 2020) from its download.

Snakemake interface
-------------------
input.download : the downloaded file (zip, tgz, gzip or plain text)
params.member : str or None
    The archive member holding the sentences (e.g. ``TED2013.en-es.en`` of an OPUS moses
    zip); None for gzip or plain text.
params.max_lines : int
    Keep the first non-empty lines up to this count (0: all).
params.format : str
    ``lines`` (one sentence per line) or ``pubmed`` (PubMed XML: abstracts' sentences).
params.lang : str
    The domain's language (the sentencizer's punctuation rules).
output.corpus : UTF-8 text, one sentence per line
log : the job's log
"""

from mgbias.contextual.corpus import read_domain_lines
from mgbias.corpora.checksums import verify_sidecar
from mgbias.files.atomic import write_text
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    verify_sidecar(smk.input.download)
    lines = read_domain_lines(
        smk.input.download,
        member=smk.params.member,
        max_lines=smk.params.max_lines,
        format=smk.params.format,
        lang=smk.params.lang,
    )
    write_text(smk.output.corpus, "\n".join(lines) + "\n")
    log.info("%d lines of %s", len(lines), smk.input.download)
