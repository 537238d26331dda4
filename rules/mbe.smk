# MBE score (Kaneko et al. 2022, Eq. 2), its significance test (label
# permutation by default, or the paper's McNemar reading; `mbe.test`) and the
# Shf baseline, from the score cache; Table 2 of the paper.


rule mbe:
    input:
        sentences="data/mined/{world}/{corpus}/{lang}.tsv",
        cache="results/scores/{model}/{world}/{corpus}/{lang}.parquet",
        code=script_code("mbe.py"),
    output:
        "results/mbe/{model}/{world}/{corpus}/{lang}.json",
    log:
        "logs/mbe/{model}/{world}/{corpus}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        mbe=canonical(config["mbe"]),
        seed=lambda wc: step_seed("mbe", wc.model, wc.world, wc.corpus, wc.lang),
    script:
        "../scripts/mbe.py"


rule mbe_table:
    input:
        results=expand_jobs(
            "results/mbe/{model}/{world}/{corpus}/{lang}.json", evaluation_jobs(config)
        ),
        code=script_code("mbe_table.py"),
    output:
        csv=report(
            "results/tables/mbe_scores.csv",
            caption="../report/mbe_scores.rst",
            category=MBE_PAPER,
            subcategory="Table 2",
        ),
        markdown="results/tables/mbe_scores.md",
    log:
        "logs/mbe_table.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_table.py"


rule mbe_figure:
    input:
        table="results/tables/mbe_scores.csv",
        code=script_code("mbe_figure.py"),
    output:
        report(
            "results/figures/mbe_scores.png",
            caption="../report/mbe_figure.rst",
            category=MBE_PAPER,
            subcategory="Table 2",
        ),
    log:
        "logs/mbe_figure.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_figure.py"
