# Demo MLMs: a WordPiece tokenizer and a small BERT trained from scratch on a
# world's monolingual text (seeded, CPU-friendly). Hub models are not copied.


rule train_mlm:
    input:
        text=lambda wc: [
            layout.path(
                "raw_monolingual",
                world=config["models"][wc.model]["train"]["world"],
                lang=lang,
            )
            for lang in [PIVOT, *LANGUAGES]
        ],
        code=script_code("train_mlm.py"),
    output:
        directory(out("model")),
    log:
        "logs/train_mlm/{model}.log",
    benchmark:
        "logs/benchmarks/train_mlm/{model}.tsv"
    conda:
        "../envs/mgbias.yaml"
    threads: config["mlm_training"]["threads"]
    resources:
        gpu=1,
        mem_mb=4000,
        runtime=120,
    params:
        training=canonical(config["mlm_training"]),
        seed=lambda wc: step_seed("train_mlm", wc.model),
    script:
        "../scripts/train_mlm.py"
