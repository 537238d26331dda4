# MBE step 1 (Kaneko et al. 2022, §3): English sentences with a female xor a
# male word, projected to the target side, downsampled to equal sizes.


rule mine_gendered:
    input:
        archive=moses_zip_input,
        checksum=lambda wc: moses_zip_input(wc) + ".sha256",
        wordlists=wordlist_files(),
        code=script_code("mine_gendered.py"),
    output:
        sentences=out("mined_sentences"),
        counts=out("mined_counts"),
        provenance=out("mine_gendered_provenance"),
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
        provenance=out("mine_counts_provenance"),
    log:
        "logs/mine_counts.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mine_counts.py"


# Kaneko et al. (2023, §2): D_f and D_m from a monolingual corpus (sentences
# with words of exactly one list), N each plus development sets; then D_r per
# male rate r.
rule mine_controlled:
    input:
        text=lambda wc: layout.path("raw_controlled", source=wc.source, lang=wc.lang),
        checksum=lambda wc: layout.path(
            "raw_controlled_checksum", source=wc.source, lang=wc.lang
        ),
        wordlists=lambda wc: wordlist_files(kaneko2023.wordlists(config, wc.lang)),
        code=script_code("mine_controlled.py"),
    output:
        female=out("controlled_female"),
        male=out("controlled_male"),
        dev_female=out("controlled_dev_female"),
        dev_male=out("controlled_dev_male"),
        counts=out("controlled_counts"),
        provenance=out("mine_controlled_provenance"),
    log:
        "logs/mine_controlled/{source}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        wordlists=lambda wc: canonical(KANEKO2023["wordlists"][wc.lang]),
        n=KANEKO2023["n_per_gender"],
        n_dev=KANEKO2023["n_dev"],
        seed=lambda wc: step_seed("mine_controlled", wc.source, wc.lang),
    script:
        "../scripts/mine_controlled.py"


rule mix_controlled:
    input:
        female=out("controlled_female"),
        male=out("controlled_male"),
        code=script_code("mix_controlled.py"),
    output:
        text=out("controlled_mixture"),
        summary=out("controlled_mixture_summary"),
        provenance=out("mix_controlled_provenance"),
    log:
        "logs/mix_controlled/{source}/{lang}/{rate}_s{repeat}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        r=lambda wc: int(wc.rate[1:]) / 100,
        repeat=lambda wc: int(wc.repeat),
        n=KANEKO2023["n_per_gender"],
        sampling=KANEKO2023["sampling"],
        rounding=KANEKO2023["rounding"],
        seed=lambda wc: step_seed("mix_controlled", wc.source, wc.lang),
    script:
        "../scripts/mix_controlled.py"


# Kaneko et al. (2022, §5.2, Tables 4-5): template pairs (Tmp) from the shipped
# templates, gender pairs and occupations; a pair dataset reads them through a
# file:// URL (`mbe_translations`).
rule template_pairs:
    input:
        code=script_code("template_pairs.py"),
    output:
        out("template_pairs"),
    log:
        "logs/template_pairs/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        lang="{lang}",
    script:
        "../scripts/template_pairs.py"


# Kaneko et al. (2022, §6, Table 6): the human translations with every transliterated
# English first name replaced by a native name of the same gender (seeded); a pair
# dataset reads them through a file:// URL (`mbe_translations.<lang>.names`).
rule native_name_pairs:
    input:
        ht=lambda wc: mbe.native_names_ht(config, wc.lang),
        code=script_code("native_name_pairs.py"),
    output:
        pairs=out("native_name_pairs"),
        provenance=out("native_name_pairs_provenance"),
    log:
        "logs/native_name_pairs/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        lang="{lang}",
        seed=lambda wc: step_seed("native_name_pairs", wc.lang),
    script:
        "../scripts/native_name_pairs.py"
