# The scoring engine: the passes of a model over a sentence set, cached under
# results/score/; every measure (AUL, AULA, MBE, CPS, SSS, S_JSD) is computed
# from the caches.


# the models scored one per job: the fine-tuned ones are scored by grid (rules below)
NOT_FINETUNED = [model for model in MODELS if model not in finetuned_models(config)]


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
    wildcard_constraints:
        model=alternatives(NOT_FINETUNED),
    conda:
        "../envs/mgbias.yaml"
    threads: config["scoring"]["threads"]
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=60,
    params:
        models=lambda wc: model_entries(config, [wc.model]),
        scoring=canonical(config["scoring"]),
    script:
        "../scripts/score_unmasked.py"


# the fine-tuned models of one grid of Kaneko et al. (2023) (base model, source,
# language) in one job (mgbias.workflow.kaneko2023.grid_outputs); params other than
# `models` are score_unmasked's
use rule score_unmasked as kaneko2023_score_unmasked with:
    input:
        sentences=out("mined_sentences"),
        models=lambda wc: kaneko2023.grid_model_dirs(
            config, wc.base, wc.source, wc.lang
        ),
        code=script_code("score_unmasked.py"),
    output:
        cache=kaneko2023.grid_outputs(config, "score_mined"),
    log:
        "logs/kaneko2023_score_unmasked/{base}/{source}/{world}/{corpus}/{lang}.log",
    benchmark:
        "logs/benchmarks/kaneko2023_score_unmasked/{base}/{source}/{world}/{corpus}/{lang}.tsv"
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=120,
    params:
        models=lambda wc: model_entries(
            config, kaneko2023.grid_models(config, wc.base, wc.source, wc.lang)
        ),


# Pair benchmarks (CrowS-Pairs, StereoSet, multilingual CrowS-Pairs): each
# model runs once unmasked (AUL, AULA) and once masked (CPS, SSS, S_JSD) over
# each dataset's pairs.
rule score_pairs:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        model=trained_model_input,
        code=script_code(
            "score_pairs.py",
            only_for={"pairs/perturb.py": lambda wc: wc.variant == "perturbed"},
        ),
    output:
        unmasked=out("score_pairs_unmasked"),
        masked=out("score_pairs_masked"),
    log:
        "logs/score_pairs/{model}/{dataset}/{variant}/{lang}.log",
    benchmark:
        "logs/benchmarks/score_pairs/{model}/{dataset}/{variant}/{lang}.tsv"
    wildcard_constraints:
        model=alternatives(NOT_FINETUNED),
    conda:
        "../envs/mgbias.yaml"
    threads: config["scoring"]["threads"]
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=60,
    params:
        models=lambda wc: model_entries(config, [wc.model]),
        scoring=canonical(config["scoring"]),
        bias_type=lambda wc: config["pair_datasets"][wc.dataset]["bias_type"],
    script:
        "../scripts/score_pairs.py"


# the fine-tuned models of one grid of Kaneko et al. (2023) (base model, source,
# language) in one job: the job of a demo-sized model is mostly the import of torch and
# transformers (mgbias.workflow.kaneko2023.grid_outputs); params other than `models` are
# score_pairs's
use rule score_pairs as kaneko2023_score_pairs with:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        models=lambda wc: kaneko2023.grid_model_dirs(
            config, wc.base, wc.source, wc.lang
        ),
        code=script_code(
            "score_pairs.py",
            only_for={"pairs/perturb.py": lambda wc: wc.variant == "perturbed"},
        ),
    output:
        unmasked=kaneko2023.grid_outputs(config, "score_pairs_unmasked"),
        masked=kaneko2023.grid_outputs(config, "score_pairs_masked"),
    log:
        "logs/kaneko2023_score_pairs/{base}/{source}/{dataset}/{variant}/{lang}.log",
    benchmark:
        "logs/benchmarks/kaneko2023_score_pairs/{base}/{source}/{dataset}/{variant}/{lang}.tsv"
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=120,
    params:
        models=lambda wc: model_entries(
            config, kaneko2023.grid_models(config, wc.base, wc.source, wc.lang)
        ),
