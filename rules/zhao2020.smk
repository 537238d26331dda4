# Zhao et al. (2020): inBias of static word vectors (Eq. 1), per world and language,
# BLI (CSLS, k = 10) of every alignment and inBias of every aligned and debiased space.
# Vectors are trained, hard-debiased (ENDEB) and aligned (RCSLS) in rules/models.smk,
# the demo's dictionaries and MIBs-style lists written in rules/demo.smk.
# Only with `zhao2020:`.


rule zhao2020_inbias:
    input:
        unpack(lambda wc: zhao2020_mibs_input(wc.lang)),
        vec=lambda wc: zhao2020_vectors(wc.world, wc.lang),
        code=script_code("inbias.py"),
    output:
        json=out("zhao2020_inbias"),
        scores=out("zhao2020_inbias_scores"),
    log:
        "logs/zhao2020_inbias/{world}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        inbias=canonical(zhao2020_inbias_settings()),
        lang="{lang}",
    script:
        "../scripts/inbias.py"


rule zhao2020_inbias_original:
    input:
        results=[
            layout.path("zhao2020_inbias", world=world, lang=lang)
            for world in config["worlds"]
            for lang in ZHAO2020.get("languages", [])
        ],
        code=script_code("zhao2020_inbias_table.py"),
    output:
        table=report(
            out("zhao2020_inbias_original"),
            caption="../report/zhao2020_inbias_original.rst",
            category=ZHAO2020_PAPER,
            subcategory="inBias",
        ),
        markdown=out("zhao2020_inbias_original_markdown"),
    log:
        "logs/zhao2020_inbias_original.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        worlds=config["worlds"],
        languages=ZHAO2020.get("languages", []),
    script:
        "../scripts/zhao2020_inbias_table.py"


rule zhao2020_bli:
    input:
        unpack(lambda wc: zhao2020_dictionary_input(wc.src, wc.tgt, "test")),
        src=out("zhao2020_aligned"),
        tgt=lambda wc: zhao2020_space(wc.world, wc.tgt),
        code=script_code("bli.py"),
    output:
        json=out("zhao2020_bli"),
    log:
        "logs/zhao2020_bli/{world}/{src}-{tgt}.log",
    conda:
        "../envs/mgbias.yaml"
    threads: ZHAO2020.get("threads", 1)
    params:
        bli=canonical(ZHAO2020.get("bli", {})),
        dico_test=lambda wc: zhao2020_dictionary(wc.src, wc.tgt, "test"),
    script:
        "../scripts/bli.py"


rule zhao2020_inbias_space:
    input:
        unpack(zhao2020_inbias_space_input),
        code=script_code("inbias.py"),
    output:
        json=out("zhao2020_inbias_space"),
        scores=out("zhao2020_inbias_space_scores"),
    log:
        "logs/zhao2020_inbias_space/{world}/{src}-{tgt}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        inbias=canonical(zhao2020_inbias_settings()),
        lang=lambda wc: zhao2020_space_lang(wc.src),
    script:
        "../scripts/inbias.py"


rule zhao2020_grid:
    input:
        inbias=[
            layout.path("zhao2020_inbias_space", world=w, src=s, tgt=t)
            for w, s, t in zhao2020_grid_keys("inbias")
        ],
        bli=[
            layout.path("zhao2020_bli", world=w, src=s, tgt=t)
            for w, s, t in zhao2020_grid_keys("bli")
        ],
        code=script_code("zhao2020_grid_table.py"),
    output:
        table=report(
            out("zhao2020_grid"),
            caption="../report/zhao2020_grid.rst",
            category=ZHAO2020_PAPER,
            subcategory="Tables 1-4: inBias and BLI of the aligned spaces",
        ),
        markdown=out("zhao2020_grid_markdown"),
    log:
        "logs/zhao2020_grid.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        inbias_keys=zhao2020_grid_keys("inbias"),
        bli_keys=zhao2020_grid_keys("bli"),
    script:
        "../scripts/zhao2020_grid_table.py"
