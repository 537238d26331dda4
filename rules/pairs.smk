# Pair benchmarks (CrowS-Pairs, StereoSet, multilingual CrowS-Pairs): AUL,
# AULA, CPS, SSS, S_JSD and binarized S_JSD from the two caches of
# rules/score.smk; Steinborn et al. 2022, Tables 2 and 3, and a measures x
# models table.


rule pair_measures:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        unmasked=rules.score_pairs.output.unmasked,
        masked=rules.score_pairs.output.masked,
        code=script_code("pair_measures.py"),
    output:
        measures=out("pairs_measures"),
        per_pair=out("pairs_per_pair"),
        provenance=out("pair_measures_provenance"),
    log:
        "logs/pair_measures/{model}/{dataset}/{variant}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        measures=config["pair_measures"],
        tie_rule=config["pair_tie_rule"],
        alpha=config["pair_alpha"],
        bias_type=lambda wc: config["pair_datasets"][wc.dataset]["bias_type"],
        cluster=lambda wc: config["pair_datasets"][wc.dataset]["cluster"],
        seed=lambda wc: step_seed(
            "pair_measures", wc.model, wc.dataset, wc.variant, wc.lang
        ),
    script:
        "../scripts/pair_measures.py"


rule pairs_scores:
    input:
        results=expand_jobs(out("pairs_measures"), pair_jobs(config)),
        code=script_code("pairs_table.py"),
    output:
        csv=report(
            out("pairs_scores"),
            caption="../report/pairs_scores.rst",
            category=SJSD_PAPER,
            subcategory="All pair measures",
        ),
        markdown=out("pairs_scores_markdown"),
        provenance=out("pairs_scores_provenance"),
    log:
        "logs/pairs_scores.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        table="scores",
        alpha=config["pair_alpha"],
    script:
        "../scripts/pairs_table.py"


use rule pairs_scores as pairs_by_model with:
    output:
        csv=report(
            out("pairs_by_model"),
            caption="../report/pairs_by_model.rst",
            category=SJSD_PAPER,
            subcategory="All pair measures",
        ),
        markdown=out("pairs_by_model_markdown"),
        provenance=out("pairs_by_model_provenance"),
    log:
        "logs/pairs_by_model.log",
    params:
        table="by_model",
        alpha=config["pair_alpha"],


rule pairs_steinborn_table2:
    input:
        table=out("pairs_scores"),
        code=script_code("steinborn_table.py"),
    output:
        csv=report(
            out("pairs_steinborn_table2"),
            caption="../report/pairs_steinborn_table2.rst",
            category=SJSD_PAPER,
            subcategory="Table 2",
        ),
        markdown=out("pairs_steinborn_table2_markdown"),
        provenance=out("pairs_steinborn_table2_provenance"),
    log:
        "logs/pairs_steinborn_table2.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        number=2,
        dataset=config["pair_tables"].get("steinborn_table2"),
    script:
        "../scripts/steinborn_table.py"


use rule pairs_steinborn_table2 as pairs_steinborn_table3 with:
    output:
        csv=report(
            out("pairs_steinborn_table3"),
            caption="../report/pairs_steinborn_table3.rst",
            category=SJSD_PAPER,
            subcategory="Table 3",
        ),
        markdown=out("pairs_steinborn_table3_markdown"),
        provenance=out("pairs_steinborn_table3_provenance"),
    log:
        "logs/pairs_steinborn_table3.log",
    params:
        number=3,
        dataset=config["pair_tables"].get("steinborn_table3"),
