# Zhao et al. (2020): inBias of static word vectors (Eq. 1), per world and language,
# BLI (CSLS, k = 10) of every alignment and inBias of every aligned and debiased space,
# Tables 1-4, 12 and 13 and Figure 1.
# Vectors are trained, hard-debiased (ENDEB) and aligned (RCSLS) in rules/models.smk,
# the demo's dictionaries and MIBs-style lists written in rules/demo.smk.
# Only with `zhao2020:`. Planned by mgbias.workflow.zhao2020.


rule zhao2020_inbias:
    input:
        unpack(lambda wc: zhao2020.mibs_input(config, wc.lang)),
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
        inbias=canonical(zhao2020.inbias_settings(config)),
        lang="{lang}",
    script:
        "../scripts/inbias.py"


rule zhao2020_inbias_original:
    input:
        results=[
            layout.path("zhao2020_inbias", world=world, lang=lang)
            for world in config["worlds"]
            for lang in zhao2020.languages(config)
        ],
        code=script_code("zhao2020_inbias_original.py"),
    output:
        table=report(
            out("zhao2020_inbias_original"),
            caption="../report/zhao2020_inbias_original.rst",
            category=ZHAO2020_PAPER,
            subcategory="inBias",
        ),
        markdown=out("zhao2020_inbias_original_markdown"),
        provenance=out("zhao2020_inbias_original_provenance"),
    log:
        "logs/zhao2020_inbias_original.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        worlds=config["worlds"],
        languages=zhao2020.languages(config),
    script:
        "../scripts/zhao2020_inbias_original.py"


rule zhao2020_bli:
    input:
        unpack(lambda wc: zhao2020_dictionary_input(wc.src, wc.tgt, "test")),
        src=out("zhao2020_aligned"),
        tgt=lambda wc: zhao2020_space(wc.world, wc.tgt),
        code=script_code("zhao2020_bli.py"),
    output:
        json=out("zhao2020_bli"),
    log:
        "logs/zhao2020_bli/{world}/{src}-{tgt}.log",
    conda:
        "../envs/mgbias.yaml"
    threads: ZHAO2020["threads"]
    params:
        bli=canonical(ZHAO2020["bli"]),
        dico_test=lambda wc: zhao2020.dictionary(wc.src, wc.tgt, "test"),
    script:
        "../scripts/zhao2020_bli.py"


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
        inbias=canonical(zhao2020.inbias_settings(config)),
        lang=lambda wc: zhao2020.space_lang(wc.src),
    script:
        "../scripts/inbias.py"


rule zhao2020_grid:
    input:
        original=[
            layout.path("zhao2020_inbias", world=w, lang=lang)
            for w, lang in zhao2020.original_keys(config)
        ],
        inbias=[
            layout.path("zhao2020_inbias_space", world=w, src=s, tgt=t)
            for w, s, t in zhao2020.grid_keys(config, "inbias")
        ],
        bli=[
            layout.path("zhao2020_bli", world=w, src=s, tgt=t)
            for w, s, t in zhao2020.grid_keys(config, "bli")
        ],
        code=script_code("zhao2020_grid.py"),
    output:
        table=report(
            out("zhao2020_grid"),
            caption="../report/zhao2020_grid.rst",
            category=ZHAO2020_PAPER,
            subcategory="Tables 1-4, 12, 13: every cell",
        ),
        provenance=out("zhao2020_grid_provenance"),
    log:
        "logs/zhao2020_grid.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        original_keys=zhao2020.original_keys(config),
        inbias_keys=zhao2020.grid_keys(config, "inbias"),
        bli_keys=zhao2020.grid_keys(config, "bli"),
    script:
        "../scripts/zhao2020_grid.py"


# Tables 1-4, 12 and 13 in the paper's shapes, each cut from the grid
# (mgbias.report.zhao2020_tables); 3, 4 and 13 only with ENDEB.
rule zhao2020_table1:
    input:
        grid=out("zhao2020_grid"),
        code=script_code("zhao2020_tables.py"),
    output:
        table=report(
            out("zhao2020_table1"),
            caption="../report/zhao2020_table1.rst",
            category=ZHAO2020_PAPER,
            subcategory="Table 1: inBias and alignment",
        ),
        markdown=out("zhao2020_table1_markdown"),
        provenance=out("zhao2020_table1_provenance"),
    log:
        "logs/zhao2020_table1.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        table="table1",
    script:
        "../scripts/zhao2020_tables.py"


use rule zhao2020_table1 as zhao2020_table2 with:
    output:
        table=report(
            out("zhao2020_table2"),
            caption="../report/zhao2020_table2.rst",
            category=ZHAO2020_PAPER,
            subcategory="Table 2: BLI",
        ),
        markdown=out("zhao2020_table2_markdown"),
        provenance=out("zhao2020_table2_provenance"),
    log:
        "logs/zhao2020_table2.log",
    params:
        table="table2",


use rule zhao2020_table1 as zhao2020_table3 with:
    output:
        table=report(
            out("zhao2020_table3"),
            caption="../report/zhao2020_table3.rst",
            category=ZHAO2020_PAPER,
            subcategory="Table 3: inBias with ENDEB",
        ),
        markdown=out("zhao2020_table3_markdown"),
        provenance=out("zhao2020_table3_provenance"),
    log:
        "logs/zhao2020_table3.log",
    params:
        table="table3",


use rule zhao2020_table1 as zhao2020_table4 with:
    output:
        table=report(
            out("zhao2020_table4"),
            caption="../report/zhao2020_table4.rst",
            category=ZHAO2020_PAPER,
            subcategory="Table 4: BLI with ENDEB",
        ),
        markdown=out("zhao2020_table4_markdown"),
        provenance=out("zhao2020_table4_provenance"),
    log:
        "logs/zhao2020_table4.log",
    params:
        table="table4",


use rule zhao2020_table1 as zhao2020_table12 with:
    output:
        table=report(
            out("zhao2020_table12"),
            caption="../report/zhao2020_table12.rst",
            category=ZHAO2020_PAPER,
            subcategory="Table 12: EN inBias by category",
        ),
        markdown=out("zhao2020_table12_markdown"),
        provenance=out("zhao2020_table12_provenance"),
    log:
        "logs/zhao2020_table12.log",
    params:
        table="table12",


use rule zhao2020_table1 as zhao2020_table13 with:
    output:
        table=report(
            out("zhao2020_table13"),
            caption="../report/zhao2020_table13.rst",
            category=ZHAO2020_PAPER,
            subcategory="Table 13: ENDEB inBias by category",
        ),
        markdown=out("zhao2020_table13_markdown"),
        provenance=out("zhao2020_table13_provenance"),
    log:
        "logs/zhao2020_table13.log",
    params:
        table="table13",


# Figure 1: gendered pairs of one language (es) on its gender direction, in its own
# space and aligned to the targets (en, de), per grid world.
rule zhao2020_figure1:
    input:
        unpack(lambda wc: zhao2020.mibs_input(config, zhao2020.figure1(config)["lang"])),
        spaces=lambda wc: zhao2020.figure1_spaces(config),
        scores=[
            layout.path(
                "zhao2020_inbias_scores",
                world=w,
                lang=zhao2020.figure1(config)["lang"],
            )
            for w in zhao2020.grid_worlds(config)
        ],
        code=script_code("zhao2020_figure1.py"),
    output:
        figure=report(
            out("zhao2020_figure1"),
            caption="../report/zhao2020_figure1.rst",
            category=ZHAO2020_PAPER,
            subcategory="Figure 1: gender-direction projections",
        ),
        data=out("zhao2020_figure1_data"),
        provenance=out("zhao2020_figure1_provenance"),
    log:
        "logs/zhao2020_figure1.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        lang=zhao2020.figure1(config)["lang"],
        worlds=zhao2020.grid_worlds(config),
        panels=zhao2020.figure1_panels(config),
        pairs=zhao2020.figure1(config)["pairs"],
        n_pairs=zhao2020.figure1(config)["n_pairs"],
    script:
        "../scripts/zhao2020_figure1.py"
