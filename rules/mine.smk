# MBE step 1 (Kaneko et al. 2022, §3): English sentences with a female xor a
# male word, projected to the target side, downsampled to equal sizes.


rule mine_gendered:
    input:
        archive=moses_zip,
        checksum=lambda wc: moses_zip(wc) + ".sha256",
        wordlists=wordlist_files(),
        code=script_code("mine_gendered.py"),
    output:
        sentences=out("mined_sentences"),
        counts=out("mined_counts"),
    log:
        "logs/mine_gendered/{world}/{corpus}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        corpus="{corpus}",
        pivot=PIVOT,
        code=lambda wc: corpus_code(wc.corpus, wc.lang),
        wordlists=canonical(config["wordlists"]),
        seed=lambda wc: step_seed("mine", wc.world, wc.corpus, wc.lang),
    script:
        "../scripts/mine_gendered.py"


rule mine_counts:
    input:
        counts=expand_jobs(out("mined_counts"), mining_jobs(config)),
        code=script_code("mine_counts.py"),
    output:
        csv=report(
            out("mine_counts"),
            caption="../report/mine_counts.rst",
            category=MBE_PAPER,
            subcategory="Table 1",
        ),
        markdown=out("mine_counts_markdown"),
    log:
        "logs/mine_counts.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mine_counts.py"
