# Downloads: any configured source by URL template, written atomically with a
# sha256 sidecar; archives are checked before they are accepted.


rule download_corpus:
    input:
        source=lambda wc: local_source(corpus_url(wc)),
        code=script_code("download.py"),
    output:
        archive=out("raw_corpus"),
        checksum=out("raw_corpus_checksum"),
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
        archive=out("raw_monolingual"),
        checksum=out("raw_monolingual_checksum"),
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


rule download_pairs:
    input:
        source=lambda wc: local_source(pair_url(config, wc.dataset, wc.lang)),
        code=script_code("download.py"),
    output:
        archive=out("raw_pairs"),
        checksum=out("raw_pairs_checksum"),
    log:
        "logs/download_pairs/{dataset}/{lang}/{filename}.log",
    wildcard_constraints:
        filename=r"[^/]+(?<!\.sha256)",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: pair_url(config, wc.dataset, wc.lang),
        checksums=canonical(config["checksums"]),
    script:
        "../scripts/download.py"


rule download_controlled:
    input:
        source=lambda wc: local_source(controlled_url(wc)),
        code=script_code("download.py"),
    output:
        archive=out("raw_controlled"),
        checksum=out("raw_controlled_checksum"),
    log:
        "logs/download_controlled/{source}/{lang}.log",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        url=controlled_url,
        checksums=canonical(config["checksums"]),
    script:
        "../scripts/download.py"


# Basta et al. (2020): the corpus of one probe domain (rules/basta2020.smk).
rule download_basta2020:
    input:
        source=lambda wc: local_source(basta2020_url(config, wc.world, wc.domain)),
        code=script_code("download.py"),
    output:
        archive=out("raw_basta2020"),
        checksum=out("raw_basta2020_checksum"),
    log:
        "logs/download_basta2020/{world}/{domain}/{filename}.log",
    wildcard_constraints:
        domain=alternatives(BASTA2020.get("domains", {})),
        filename=r"[^/]+(?<!\.sha256)",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: basta2020_url(config, wc.world, wc.domain),
        checksums=canonical(config["checksums"]),
    script:
        "../scripts/download.py"
