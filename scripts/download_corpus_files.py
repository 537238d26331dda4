"""Pack a parallel corpus of one's own (two aligned text files) into a moses zip."""

import tempfile
from pathlib import Path

from mgbias.corpora.download import fetch
from mgbias.corpora.parallel_files import write_moses_zip
from mgbias.workflow.core import local_file_of_url
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    archive = Path(smk.output.archive)
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=archive.parent) as tmp:
        files = {}
        for lang, url in smk.params.urls.items():
            files[lang] = local_file_of_url(url)
            expected = smk.params.checksums.get(url)
            if files[lang] is None or expected:  # remote, or pinned: fetched and checked
                name = url.rstrip("/").rsplit("/", 1)[-1]
                files[lang] = Path(tmp, lang, name)
                fetch(url, files[lang], expected_sha256=expected)
        digest = write_moses_zip(archive, smk.params.corpus, files)
    for lang, url in smk.params.urls.items():
        log.info("%s (%s): %s", url, lang, files[lang])
    log.info("-> %s sha256=%s", archive, digest)
