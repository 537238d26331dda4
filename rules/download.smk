# Downloads: any configured source by URL template, written atomically with a
# sha256 sidecar; archives are checked before they are accepted.


rule download_corpus:
    input:
        source=lambda wc: local_source(corpus_url(wc)),
        code=script_code("download.py"),
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
        checksums=canonical(config["checksums"]),
    script:
        "../scripts/download.py"


rule download_monolingual:
    input:
        source=lambda wc: local_source(monolingual_url(wc)),
        code=script_code("download.py"),
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
        checksums=canonical(config["checksums"]),
    script:
        "../scripts/download.py"
