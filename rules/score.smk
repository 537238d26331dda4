# The scoring engine: the passes of a model over a sentence set, cached under
# results/score/; every measure (AUL, AULA, MBE, CPS, SSS, S_JSD) is computed
# from the caches.


# the models scored one per job: the fine-tuned ones are scored by grid, and those of
# `scoring.together` all in one job (rules below)
TOGETHER = scored_together(config)
ONE_PER_JOB = [
    model
    for model in MODELS
    if model not in finetuned_models(config) and model not in TOGETHER
]
# the model directories of `scoring.together` that the workflow trains
TOGETHER_DIRS = [path for model in TOGETHER for path in model_input(config, model)]


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
        model=alternatives(ONE_PER_JOB),
    conda:
        "../envs/mgbias.yaml"
    threads: config["scoring"]["threads"]
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=60,
    params:
        models=lambda wc: model_entries(config, [wc.model]),
        scoring=canonical(scoring_settings(config)),
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


# the models of `scoring.together` in one job per sentence set
# (mgbias.workflow.core.scored_together); params other than `models` are score_unmasked's
use rule score_unmasked as score_unmasked_together with:
    input:
        sentences=out("mined_sentences"),
        models=TOGETHER_DIRS,
        code=script_code("score_unmasked.py"),
    output:
        cache=together_outputs(config, "score_mined"),
    log:
        "logs/score_unmasked_together/{world}/{corpus}/{lang}.log",
    benchmark:
        "logs/benchmarks/score_unmasked_together/{world}/{corpus}/{lang}.tsv"
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=120,
    params:
        models=model_entries(config, TOGETHER),


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
        model=alternatives(ONE_PER_JOB),
    conda:
        "../envs/mgbias.yaml"
    threads: config["scoring"]["threads"]
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=60,
    params:
        models=lambda wc: model_entries(config, [wc.model]),
        scoring=canonical(scoring_settings(config)),
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


# the models of `scoring.together` in one job per pair file; params other than `models`
# are score_pairs's
use rule score_pairs as score_pairs_together with:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        models=TOGETHER_DIRS,
        code=script_code(
            "score_pairs.py",
            only_for={"pairs/perturb.py": lambda wc: wc.variant == "perturbed"},
        ),
    output:
        unmasked=together_outputs(config, "score_pairs_unmasked"),
        masked=together_outputs(config, "score_pairs_masked"),
    log:
        "logs/score_pairs_together/{dataset}/{variant}/{lang}.log",
    benchmark:
        "logs/benchmarks/score_pairs_together/{dataset}/{variant}/{lang}.tsv"
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=120,
    params:
        models=model_entries(config, TOGETHER),
