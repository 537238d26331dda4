# The scoring engine: the passes of a model over a sentence set, cached under
# results/score/; every measure (AUL, AULA, MBE, CPS, SSS, S_JSD) is computed
# from the caches.


rule score_unmasked:
    input:
        sentences=out("mined_sentences"),
        model=trained_model_input,
        code=script_code("score_unmasked.py"),
    output:
        cache=out("score_mined"),
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


# Pair benchmarks (CrowS-Pairs, StereoSet, multilingual CrowS-Pairs): each
# model runs once unmasked (AUL, AULA) and once masked (CPS, SSS, S_JSD) over
# each dataset's pairs.
rule score_pairs:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        model=trained_model_input,
        code=script_code(
            "score_pairs.py",
            only_for={"perturb.py": lambda wc: wc.variant == "perturbed"},
        ),
    output:
        unmasked=out("score_pairs_unmasked"),
        masked=out("score_pairs_masked"),
    log:
        "logs/score_pairs/{model}/{dataset}/{variant}/{lang}.log",
    benchmark:
        "logs/benchmarks/score_pairs/{model}/{dataset}/{variant}/{lang}.tsv"
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
        bias_type=lambda wc: config["pair_datasets"][wc.dataset]["bias_type"],
    script:
        "../scripts/score_pairs.py"
