# MBE score (Kaneko et al. 2022, Eq. 2), its significance test (label
# permutation by default, or the paper's McNemar reading; `mbe.test`) and the
# Shf baseline, from the score cache; Table 2 of the paper.


rule mbe:
    input:
        sentences=out("mined_sentences"),
        cache=out("score_mined"),
        code=script_code("mbe.py"),
    output:
        out("mbe_result"),
    log:
        "logs/mbe/{model}/{world}/{corpus}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        mbe=canonical(config["mbe"]),
        seed=lambda wc: step_seed("mbe", wc.model, wc.world, wc.corpus, wc.lang),
    script:
        "../scripts/mbe.py"


rule mbe_scores:
    input:
        results=expand_jobs(out("mbe_result"), mbe_table_jobs(config)),
        code=script_code("mbe_scores.py"),
    output:
        csv=report(
            out("mbe_scores"),
            caption="../report/mbe_scores.rst",
            category=MBE_PAPER,
            subcategory="Table 2",
        ),
        markdown=out("mbe_scores_markdown"),
    log:
        "logs/mbe_scores.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_scores.py"


rule mbe_figure:
    input:
        table=out("mbe_scores"),
        code=script_code("mbe_figure.py"),
    output:
        report(
            out("mbe_figure"),
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
