# Demo MLMs: a WordPiece tokenizer and a small BERT trained from scratch on a
# world's monolingual text (seeded, CPU-friendly); the bias-controlled
# fine-tunings of Kaneko et al. (2023). Hub models are not copied.


rule train_mlm:
    input:
        text=lambda wc: [
            layout.path(
                "raw_monolingual",
                world=config["models"][wc.model]["train"]["world"],
                lang=lang,
            )
            for lang in training_languages(config, wc.model)
        ],
        code=script_code("train_mlm.py"),
    output:
        model=directory(out("model")),
        provenance=out("model_provenance"),
    log:
        "logs/train_mlm/{model}.log",
    benchmark:
        "logs/benchmarks/train_mlm/{model}.tsv"
    wildcard_constraints:
        model=alternatives(trained_models(config)),
    conda:
        "../envs/mgbias.yaml"
    threads: config["mlm_training"]["threads"]
    resources:
        gpu=1,
        mem_mb=4000,
        runtime=120,
    params:
        training=lambda wc: canonical(training_settings(config, wc.model)),
        seed=lambda wc: step_seed("train_mlm", wc.model),
    script:
        "../scripts/train_mlm.py"


# Fine-tune a model on D_r with the masked-LM objective; checkpoints every
# `kaneko2023.finetune.checkpoint_every` steps in models/{model}.checkpoints,
# from which a killed or preempted job resumes.
rule finetune_mlm:
    input:
        unpack(lambda wc: kaneko2023.finetune_inputs(config, wc.model)),
        code=script_code("finetune_mlm.py"),
    output:
        model=directory(out("model")),
        provenance=out("model_provenance"),
    log:
        "logs/finetune_mlm/{model}.log",
    benchmark:
        "logs/benchmarks/finetune_mlm/{model}.tsv"
    wildcard_constraints:
        model=alternatives(kaneko2023.per_model_finetunings(config)),
    conda:
        "../envs/mgbias.yaml"
    threads: KANEKO2023["threads"]
    resources:
        gpu=1,
        mem_mb=16000,
        runtime=240,
    params:
        finetune=lambda wc: kaneko2023.finetune_settings(config, wc.model),
        model=lambda wc: model_source(finetuning(wc)["base"]),
        revision=lambda wc: config["models"][finetuning(wc)["base"]].get("revision"),
        device=config["scoring"]["device"],
        allow_untrained_head=lambda wc: allows_untrained_head(
            config, finetuning(wc)["base"]
        ),
    script:
        "../scripts/finetune_mlm.py"


# With `kaneko2023.finetune_per_grid`: every fine-tuning of one grid (base model,
# source, language) in one job, one model after the other, each with its own record;
# params are finetune_mlm's, per model where they differ (`finetune`, `models`)
use rule finetune_mlm as kaneko2023_finetune_grid with:
    input:
        unpack(
            lambda wc: kaneko2023.grid_finetune_inputs(
                config, wc.base, wc.source, wc.lang
            )
        ),
        code=script_code("finetune_mlm.py"),
    output:
        model=[directory(path) for path in kaneko2023.grid_outputs(config, "model")],
        provenance=kaneko2023.grid_outputs(config, "model_provenance"),
    log:
        "logs/kaneko2023_finetune_grid/{base}/{source}/{lang}.log",
    benchmark:
        "logs/benchmarks/kaneko2023_finetune_grid/{base}/{source}/{lang}.tsv"
    wildcard_constraints:
        base=alternatives(kaneko2023.grid_finetune_bases(config)),
    resources:
        gpu=1,
        mem_mb=16000,
        runtime=480,
    params:
        finetune=lambda wc: kaneko2023.grid_finetune_settings(
            config, wc.base, wc.source, wc.lang
        ),
        models=lambda wc: kaneko2023.grid_models(config, wc.base, wc.source, wc.lang),
        model=lambda wc: model_source(wc.base),
        revision=lambda wc: config["models"][wc.base].get("revision"),
        device=config["scoring"]["device"],
        allow_untrained_head=lambda wc: allows_untrained_head(config, wc.base),


# Zhao et al. (2020): skip-gram vectors of a world's monolingual text (rules/zhao2020.smk).
rule train_vectors:
    input:
        text=out("raw_monolingual"),
        code=script_code("train_vectors.py"),
    output:
        vec=out("vectors"),
        provenance=out("train_vectors_provenance"),
    log:
        "logs/train_vectors/{world}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    threads: 1  # one fastText thread: the same vectors, byte for byte, on every run
    params:
        fasttext=canonical(zhao2020.training(config)),
        # fastText's seed is a C int
        seed=lambda wc: step_seed("train_vectors", wc.world, wc.lang) % 2**31,
    script:
        "../scripts/train_vectors.py"


# Zhao et al. (2020): hard debiasing of the English space (ENDEB; rules/zhao2020.smk).
rule zhao2020_debias:
    input:
        vec=lambda wc: zhao2020_vectors(wc.world, wc.lang),
        code=script_code("zhao2020_debias.py"),
    output:
        vec=out("zhao2020_debiased"),
        summary=out("zhao2020_debias_summary"),
    log:
        "logs/zhao2020_debias/{world}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/zhao2020_debias.py"


# Zhao et al. (2020): RCSLS alignment of one space into another (endeb: ENDEB).
rule zhao2020_align:
    input:
        unpack(lambda wc: zhao2020_dictionary_input(wc.src, wc.tgt, "train")),
        src=lambda wc: zhao2020_space(wc.world, wc.src),
        tgt=lambda wc: zhao2020_space(wc.world, wc.tgt),
        code=script_code("zhao2020_align.py"),
    output:
        vec=out("zhao2020_aligned"),
        matrix=out("zhao2020_align_matrix"),
        summary=out("zhao2020_align_summary"),
        provenance=out("zhao2020_align_provenance"),
    log:
        "logs/zhao2020_align/{world}/{src}-{tgt}.log",
    conda:
        "../envs/mgbias.yaml"
    threads: ZHAO2020["threads"]
    resources:
        gpu=1,
        mem_mb=16000,
        runtime=60,
    params:
        rcsls=canonical(ZHAO2020["rcsls"]),
        dico_train=lambda wc: zhao2020.dictionary(wc.src, wc.tgt, "train"),
        seed=lambda wc: step_seed("zhao2020_align", wc.world, wc.src, wc.tgt) % 2**31,
    script:
        "../scripts/zhao2020_align.py"
