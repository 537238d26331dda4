# Downloads: any configured source by URL template, written atomically with a
# sha256 sidecar; archives are checked before they are accepted. A job's `checksums`
# param holds its own files' pinned sha256 only (core.pinned_checksums): pinning
# another file reruns no other download.
#
# A download of one file is a local rule: on a cluster it runs on the host that runs
# Snakemake, which can reach the network where compute nodes often cannot, and it
# waits for no allocation. The Common Crawl shards of the bios (download_bios_shard:
# hours of downloads and checks per shard) are jobs like the others.


rule download_corpus:
    input:
        source=lambda wc: local_source(corpus_url(wc)),
        code=script_code("download.py"),
    output:
        archive=out("raw_corpus"),
        checksum=out("raw_corpus_checksum"),
    log:
        "logs/download_corpus/{world}/{corpus}/{pair}.log",
    wildcard_constraints:
        corpus=alternatives(corpora.by_url(config)),
    retries: 1
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=corpus_url,
        checksums=lambda wc: pinned_checksums(config, corpus_url(wc)),
    script:
        "../scripts/download.py"


# A parallel corpus of one's own (corpora.<name>.files): its two plain-text files,
# read in place (local) or fetched, packed into the moses zip every later step reads.
rule download_corpus_files:
    input:
        sources=lambda wc: [
            path for url in corpus_file_urls(wc).values() for path in local_source(url)
        ],
        code=script_code("download_corpus_files.py"),
    output:
        archive=out("raw_corpus"),
        checksum=out("raw_corpus_checksum"),
    log:
        "logs/download_corpus_files/{world}/{corpus}/{pair}.log",
    wildcard_constraints:
        corpus=alternatives(corpora.by_files(config)),
    retries: 1
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        corpus="{corpus}",
        urls=corpus_file_urls,
        checksums=lambda wc: pinned_checksums(config, *corpus_file_urls(wc).values()),
    script:
        "../scripts/download_corpus_files.py"


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
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=monolingual_url,
        checksums=lambda wc: pinned_checksums(config, monolingual_url(wc)),
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
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: pair_url(config, wc.dataset, wc.lang),
        checksums=lambda wc: pinned_checksums(
            config, pair_url(config, wc.dataset, wc.lang)
        ),
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
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=controlled_url,
        checksums=lambda wc: pinned_checksums(config, controlled_url(wc)),
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
        domain=alternatives(basta2020.domains(config)),
        filename=r"[^/]+(?<!\.sha256)",
    retries: 1
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: basta2020_url(config, wc.world, wc.domain),
        checksums=lambda wc: pinned_checksums(
            config, basta2020_url(config, wc.world, wc.domain)
        ),
    script:
        "../scripts/download.py"


# Zhao et al. (2020), §3: a published resource of the paper's configuration
# (zhao2020.{vectors,dictionaries,mibs}.url); the demo trains and generates its own.
rule download_zhao2020:
    input:
        code=script_code("download.py"),
    output:
        archive=out("raw_zhao2020"),
        checksum=out("raw_zhao2020_checksum"),
    log:
        "logs/download_zhao2020/{source}/{filename}.log",
    wildcard_constraints:
        source="vectors|dictionaries|mibs",
        filename=r"[^/]+(?<!\.sha256)",
    retries: 1
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    resources:
        runtime=240,
    params:
        url=lambda wc: zhao2020.url(config, wc.source, wc.filename),
        checksums=lambda wc: pinned_checksums(
            config, zhao2020.url(config, wc.source, wc.filename)
        ),
    script:
        "../scripts/download.py"


# Zhao et al. (2020), §4: a language's title lexicon given by URL (bios.titles).
rule download_bios_titles:
    input:
        source=lambda wc: local_source(bios.titles_url(config, wc.lang)),
        code=script_code("download.py"),
    output:
        archive=out("raw_bios_titles"),
        checksum=out("raw_bios_titles_checksum"),
    log:
        "logs/download_bios_titles/{lang}.log",
    wildcard_constraints:
        lang="en|es|de|fr",
    retries: 1
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: bios.titles_url(config, wc.lang),
        checksums=lambda wc: pinned_checksums(config, bios.titles_url(config, wc.lang)),
    script:
        "../scripts/download.py"


# Zhao et al. (2020), §4: a Common Crawl snapshot's listing of WET files, then the
# WET files shard by shard as planned from it (rules/bios.smk). A shard's files are
# checksummed (.sha256 sidecars, sha256 in the manifest); a rerun keeps verified files.
rule download_bios_listing:
    input:
        source=lambda wc: local_source(bios.listing_url(config, wc.snapshot)),
        code=script_code("download.py"),
    output:
        archive=out("raw_bios_listing"),
        checksum=out("raw_bios_listing_checksum"),
    log:
        "logs/download_bios_listing/{snapshot}.log",
    retries: 1
    localrule: True
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: bios.listing_url(config, wc.snapshot),
        checksums=lambda wc: pinned_checksums(
            config, bios.listing_url(config, wc.snapshot)
        ),
    script:
        "../scripts/download.py"


rule download_bios_shard:
    input:
        listing=out("raw_bios_listing"),
        source=lambda wc: local_source(bios.listing_url(config, wc.snapshot)),
        plan=out("bios_plan"),
        code=script_code("download_bios_shard.py"),
    output:
        manifest=out("raw_bios_shard"),
        provenance=out("download_bios_shard_provenance"),
    log:
        "logs/download_bios_shard/{snapshot}/{shard}.log",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        prefix=BIOS.get("url"),
        snapshot="{snapshot}",
        shard=lambda wc: int(wc.shard),
        dest_root=lambda wc, input: bios.dest_root(input.listing, 3),
        max_files=BIOS["max_files"],
        files_per_shard=BIOS["wet_files_per_job"],
        seed=bios.seed(config),
        retries=BIOS["retries"],
    script:
        "../scripts/download_bios_shard.py"


# Every pair benchmark file of the configured datasets and languages (a target for
# `snakemake pair_downloads`: `--until download_pairs` cannot pass the files made from
# other downloads, e.g. the native-name pairs rewritten from the human translations).
rule pair_downloads:
    input:
        pairs.downloads(config),


# Every shard's download of the configured snapshots (a target for `snakemake
# bios_downloads`: the shards follow the checkpoint, which `--until` does not pass).
rule bios_downloads:
    input:
        plans=expand(out("bios_plan"), snapshot=bios.snapshots(config)),
        manifests=lambda wc: bios.manifests(config, bios_shards),
