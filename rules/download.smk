# Downloads: any configured source by URL template, written atomically with a
# sha256 sidecar; archives are checked before they are accepted.


def _mirror_input(url):
    """A local (file://) source is an input, so a rule may produce it."""
    path = local_file_of_url(url)
    return [path] if path else []


rule download_corpus:
    input:
        lambda wc: _mirror_input(corpus_url(wc)),
    output:
        archive="data/raw/{world}/{corpus}/{pair}.txt.zip",
        checksum="data/raw/{world}/{corpus}/{pair}.txt.zip.sha256",
    log:
        "logs/download_corpus/{world}/{corpus}/{pair}.log",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        url=corpus_url,
        checksums=config["checksums"],
    script:
        "../scripts/download.py"


rule download_monolingual:
    input:
        lambda wc: _mirror_input(monolingual_url(wc)),
    output:
        archive="data/raw/{world}/monolingual/{lang}.txt.gz",
        checksum="data/raw/{world}/monolingual/{lang}.txt.gz.sha256",
    log:
        "logs/download_monolingual/{world}/{lang}.log",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        url=monolingual_url,
        checksums=config["checksums"],
    script:
        "../scripts/download.py"
