# MBE score (Kaneko et al. 2022, Eq. 2), its McNemar test and the Shf
# baseline, from the score cache; Table 2 of the paper.


rule mbe:
    input:
        sentences="data/mined/{world}/{corpus}/{lang}.tsv",
        cache="results/scores/{model}/{world}/{corpus}/{lang}.parquet",
    output:
        "results/mbe/{model}/{world}/{corpus}/{lang}.json",
    log:
        "logs/mbe/{model}/{world}/{corpus}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        mbe=config["mbe"],
        seed=lambda wc: step_seed("mbe", wc.model, wc.world, wc.corpus, wc.lang),
    script:
        "../scripts/mbe.py"


rule mbe_table:
    input:
        expand_jobs(
            "results/mbe/{model}/{world}/{corpus}/{lang}.json", evaluation_jobs(config)
        ),
    output:
        csv="results/tables/mbe_scores.csv",
        markdown="results/tables/mbe_scores.md",
    log:
        "logs/mbe_table.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_table.py"
