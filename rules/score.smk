# The scoring engine: one pass of a model over a sentence set, cached; every
# measure (AUL, AULA, MBE, ...) is computed from the cache.


rule score_unmasked:
    input:
        sentences="data/mined/{world}/{corpus}/{lang}.tsv",
        model=trained_model_input,
        code=script_code("score_unmasked.py"),
    output:
        cache="results/scores/{model}/{world}/{corpus}/{lang}.parquet",
    log:
        "logs/score_unmasked/{model}/{world}/{corpus}/{lang}.log",
    benchmark:
        "logs/benchmarks/score_unmasked/{model}/{world}/{corpus}/{lang}.tsv"
    conda:
        "../envs/mgbias.yaml"
    threads: config["scoring"]["threads"]
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=60,
    params:
        model_id=lambda wc: model_source(wc.model),
        revision=lambda wc: config["models"][wc.model].get("revision"),
        allow_untrained_head=lambda wc: allows_untrained_head(config, wc.model),
        scoring=canonical(config["scoring"]),
    script:
        "../scripts/score_unmasked.py"
