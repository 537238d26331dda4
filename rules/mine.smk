# MBE step 1 (Kaneko et al. 2022, §3): English sentences with a female xor a
# male word, projected to the target side, downsampled to equal sizes.


rule mine_gendered:
    input:
        archive=moses_zip,
        checksum=lambda wc: moses_zip(wc) + ".sha256",
        wordlists=wordlist_files(),
        code=script_code("mine_gendered.py"),
    output:
        sentences="data/mined/{world}/{corpus}/{lang}.tsv",
        counts="data/mined/{world}/{corpus}/{lang}.counts.json",
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


rule mining_table:
    input:
        counts=expand_jobs(
            "data/mined/{world}/{corpus}/{lang}.counts.json", mining_jobs(config)
        ),
        code=script_code("mining_table.py"),
    output:
        csv=report(
            "results/tables/mined_sentences.csv",
            caption="../report/mined_sentences.rst",
            category=MBE_PAPER,
            subcategory="Table 1",
        ),
        markdown="results/tables/mined_sentences.md",
    log:
        "logs/mining_table.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mining_table.py"
