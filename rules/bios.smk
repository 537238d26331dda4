# Zhao et al. (2020), §4: multilingual BiosBias from Common Crawl. Per snapshot, a
# checkpoint plans the shards from the downloaded wet.paths.gz; per shard the WET
# files are downloaded (rules/download.smk) and each language's bios extracted; per
# language the shards are gathered and post-processed; Table 5 and the counts behind
# Figure 2 sum the datasets. Only with `bios:`. Planned by mgbias.workflow.bios.


checkpoint bios_plan:
    input:
        listing=out("raw_bios_listing"),
        code=script_code("bios_plan.py"),
    output:
        plan=out("bios_plan"),
        provenance=out("bios_plan_provenance"),
    log:
        "logs/bios_plan/{snapshot}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        snapshot="{snapshot}",
        max_files=BIOS["max_files"],
        files_per_shard=BIOS["wet_files_per_job"],
        seed=bios.seed(config),
    script:
        "../scripts/bios_plan.py"


rule bios_extract:
    input:
        manifest=out("raw_bios_shard"),
        names=bios.names(config),
        titles=bios_titles_input,
        code=script_code("bios_extract.py"),
    output:
        bios=out("bios_shard"),
    log:
        "logs/bios_extract/{lang}/{snapshot}/{shard}.log",
    wildcard_constraints:
        lang=alternatives(bios.languages(config)),
    conda:
        "../envs/mgbias.yaml"
    resources:
        mem_mb=2000,
    params:
        lang="{lang}",
        pipeline=lambda wc: bios.pipeline(config, wc.lang),
        french_conjunction_fix=BIOS["french_conjunction_fix"],
        dest_root=lambda wc, input: bios.dest_root(input.manifest, 3),
    script:
        "../scripts/bios_extract.py"


rule bios_dataset:
    input:
        plans=expand(out("bios_plan"), snapshot=bios.snapshots(config)),
        shards=lambda wc: bios.shard_outputs(config, wc.lang, bios_shards),
        titles=bios_titles_input,
        code=script_code("bios_dataset.py"),
    output:
        dataset=out("bios_dataset"),
        provenance=out("bios_dataset_provenance"),
    log:
        "logs/bios_dataset/{lang}.log",
    wildcard_constraints:
        lang=alternatives(bios.languages(config)),
    conda:
        "../envs/mgbias.yaml"
    params:
        lang="{lang}",
        french_conjunction_fix=BIOS["french_conjunction_fix"],
        occupation_cap=BIOS["occupation_cap"],
        seed=step_seed("bios", "occupation_cap"),
    script:
        "../scripts/bios_dataset.py"


rule bios_table5:
    input:
        datasets=expand(out("bios_dataset"), lang=bios.languages(config)),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_table5"), caption="../report/bios_table5.rst", category="Bios"
        ),
        markdown=out("bios_table5_markdown"),
        provenance=out("bios_table5_provenance"),
    log:
        "logs/bios_table5.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table5",
        languages=bios.languages(config),
    script:
        "../scripts/bios_tables.py"


rule bios_counts:
    input:
        datasets=expand(out("bios_dataset"), lang=bios.languages(config)),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_counts"), caption="../report/bios_counts.rst", category="Bios"
        ),
        provenance=out("bios_counts_provenance"),
    log:
        "logs/bios_counts.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="counts",
        languages=bios.languages(config),
        figure2_min=BIOS["figure2_min"],
    script:
        "../scripts/bios_tables.py"


rule bios_figure2:
    input:
        counts=out("bios_counts"),
        code=script_code("bios_figure2.py"),
    output:
        report(
            out("bios_figure2"), caption="../report/bios_figure2.rst", category="Bios"
        ),
    log:
        "logs/bios_figure2.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        min_instances=BIOS["figure2_min"],
    script:
        "../scripts/bios_figure2.py"


# Zhao et al. (2020), §5: the occupation classifier. Each language's bios are split
# 60/20/20 by title (seeded); each run trains the BiGRU with attention on the frozen
# vectors of one space (the language's own, ENDEB, or aligned to another language),
# or on a frozen encoder's hidden states (the space named by `encoder:`, Tables 10 and
# 11), on the scrubbed or raw bios, with the original or gender-balanced train and dev;
# the monolingual table (Tables 6 and 14 and the variants) gathers the static runs,
# Table 10 the encoder's. On a GPU when present (gpu=1 for a cluster). Only with
# `bios: classifier:`.


rule bios_split:
    input:
        dataset=out("bios_dataset"),
        code=script_code("bios_split.py"),
    output:
        split=out("bios_split"),
        provenance=out("bios_split_provenance"),
    log:
        "logs/bios_split/{lang}.log",
    wildcard_constraints:
        lang=alternatives(bios.languages(config)),
    conda:
        "../envs/mgbias.yaml"
    params:
        seed=lambda wc: step_seed("bios", "split", wc.lang),
    script:
        "../scripts/bios_split.py"


# Every language's dataset and the splits the classifier reads, all under
# data/mined/bios/ (a target for `snakemake bios_datasets`, the DVC data stage: the
# shards follow the checkpoint, which `--until` does not pass).
rule bios_datasets:
    input:
        bios.datasets(config),


rule bios_classifier:
    input:
        unpack(lambda wc: bios.classifier_input(config, wc.world, wc.lang, wc.space)),
        code=script_code("bios_classifier.py"),
    output:
        metrics=out("bios_classifier"),
        tpr=out("bios_classifier_tpr"),
        provenance=out("bios_classifier_provenance"),
    log:
        "logs/bios_classifier/{world}/{lang}/{space}/{text}-{sampling}.log",
    wildcard_constraints:
        lang=alternatives(bios.languages(config)),
        text="scrubbed|raw",
        sampling="original|balanced",
    conda:
        "../envs/mgbias.yaml"
    threads: 1
    resources:
        gpu=1,
        mem_mb=4000,
    params:
        settings=canonical(bios.classifier_settings(config)),
        encoder=lambda wc: bios.encoder_params(config, wc.space, wc.lang),
        seeds=lambda wc: bios.classifier_seeds(config, wc.world, wc.lang),
        world="{world}",
        lang="{lang}",
        space="{space}",
        text="{text}",
        sampling="{sampling}",
    script:
        "../scripts/bios_classifier.py"


rule bios_monolingual:
    input:
        results=bios.classifier_outputs(config),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_monolingual"),
            caption="../report/bios_monolingual.rst",
            category=ZHAO2020_PAPER,
            subcategory="Tables 6 and 14: the occupation classifier",
        ),
        markdown=out("bios_monolingual_markdown"),
        provenance=out("bios_monolingual_provenance"),
    log:
        "logs/bios_monolingual.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="monolingual",
    script:
        "../scripts/bios_tables.py"


# Transfer (Tables 7-9, 15-18): train on the source language with the source space,
# fine-tune on a seeded share of the target's training split with the target space,
# test on the target's test split (the shared occupations only).
rule bios_finetune:
    input:
        unpack(bios_transfer_input),
        code=script_code("bios_finetune.py"),
    output:
        metrics=out("bios_finetune"),
        tpr=out("bios_finetune_tpr"),
        provenance=out("bios_finetune_provenance"),
    log:
        "logs/bios_finetune/{world}/{src}/{tgt}/{src_space}/{tgt_space}/{text}-{sampling}.log",
    wildcard_constraints:
        src=alternatives(bios.languages(config)),
        tgt=alternatives(bios.languages(config)),
        text="scrubbed|raw",
        sampling="original|balanced",
    conda:
        "../envs/mgbias.yaml"
    threads: 1
    resources:
        gpu=1,
        mem_mb=4000,
    params:
        settings=canonical(bios.classifier_settings(config)),
        encoder=lambda wc: bios.encoder_params(config, wc.src_space),
        transfer=canonical(bios.transfer_settings(config)),
        seeds=lambda wc: bios.transfer_seeds(config, wc.world, wc.src, wc.tgt),
        world="{world}",
        src="{src}",
        tgt="{tgt}",
        src_space="{src_space}",
        tgt_space="{tgt_space}",
        text="{text}",
        sampling="{sampling}",
    script:
        "../scripts/bios_finetune.py"


rule bios_transfer:
    input:
        results=bios.transfer_outputs(config),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_transfer"),
            caption="../report/bios_transfer.rst",
            category=ZHAO2020_PAPER,
            subcategory="Tables 7-9 and 15-18: transfer of the occupation classifier",
        ),
        markdown=out("bios_transfer_markdown"),
        provenance=out("bios_transfer_provenance"),
    log:
        "logs/bios_transfer.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="transfer",
    script:
        "../scripts/bios_tables.py"


# Tables 10 and 11 (§5): the runs on the frozen multilingual encoder (the paper's
# M-BERT), monolingual per language and transferred from English.
rule bios_table10:
    input:
        results=bios.classifier_outputs(config, encoder=True),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_table10"),
            caption="../report/bios_table10.rst",
            category=ZHAO2020_PAPER,
            subcategory="Tables 10 and 11: the classifier on a frozen multilingual encoder",
        ),
        markdown=out("bios_table10_markdown"),
        provenance=out("bios_table10_provenance"),
    log:
        "logs/bios_table10.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table10",
    script:
        "../scripts/bios_tables.py"


rule bios_table11:
    input:
        results=bios.transfer_outputs(config, encoder=True),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_table11"),
            caption="../report/bios_table11.rst",
            category=ZHAO2020_PAPER,
            subcategory="Tables 10 and 11: the classifier on a frozen multilingual encoder",
        ),
        markdown=out("bios_table11_markdown"),
        provenance=out("bios_table11_provenance"),
    log:
        "logs/bios_table11.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table11",
    script:
        "../scripts/bios_tables.py"
