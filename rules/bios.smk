# Zhao et al. (2020), §4: multilingual BiosBias from Common Crawl. Per snapshot, a
# checkpoint plans the shards from the downloaded wet.paths.gz; per shard the WET
# files are downloaded (rules/download.smk) and each language's bios extracted; per
# language the shards are gathered and post-processed; Table 5 and the counts behind
# Figure 2 sum the datasets. Only with `bios:`.


checkpoint bios_plan:
    input:
        listing=out("raw_bios_listing"),
        code=script_code("bios_plan.py"),
    output:
        plan=out("bios_plan"),
    log:
        "logs/bios_plan/{snapshot}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        snapshot="{snapshot}",
        max_files=BIOS.get("max_files"),
        files_per_shard=BIOS.get("wet_files_per_job", 1),
        seed=bios_seed(),
    script:
        "../scripts/bios_plan.py"


rule bios_extract:
    input:
        manifest=out("raw_bios_shard"),
        names=bios_names(),
        titles=bios_titles,
        code=script_code("bios_extract_shard.py"),
    output:
        bios=out("bios_shard"),
    log:
        "logs/bios_extract/{lang}/{snapshot}/{shard}.log",
    wildcard_constraints:
        lang=alternatives(BIOS.get("languages", [])),
    conda:
        "../envs/mgbias.yaml"
    resources:
        mem_mb=2000,
    params:
        lang="{lang}",
        pipeline=bios_pipeline,
        french_conjunction_fix=BIOS.get("french_conjunction_fix", False),
        dest_root=lambda wc, input: bios_dest_root(input.manifest, 3),
    script:
        "../scripts/bios_extract_shard.py"


rule bios_dataset:
    input:
        plans=expand(out("bios_plan"), snapshot=BIOS.get("snapshots", [])),
        shards=bios_shard_outputs,
        titles=bios_titles,
        code=script_code("bios_dataset.py"),
    output:
        dataset=out("bios_dataset"),
    log:
        "logs/bios_dataset/{lang}.log",
    wildcard_constraints:
        lang=alternatives(BIOS.get("languages", [])),
    conda:
        "../envs/mgbias.yaml"
    params:
        lang="{lang}",
        french_conjunction_fix=BIOS.get("french_conjunction_fix", False),
        occupation_cap=BIOS.get("occupation_cap"),
        seed=step_seed("bios", "occupation_cap"),
    script:
        "../scripts/bios_dataset.py"


rule bios_table5:
    input:
        datasets=expand(out("bios_dataset"), lang=BIOS.get("languages", [])),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_table5"), caption="../report/bios_table5.rst", category="Bios"
        ),
        markdown=out("bios_table5_markdown"),
    log:
        "logs/bios_table5.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table5",
        languages=BIOS.get("languages", []),
    script:
        "../scripts/bios_tables.py"


rule bios_counts:
    input:
        datasets=expand(out("bios_dataset"), lang=BIOS.get("languages", [])),
        code=script_code("bios_tables.py"),
    output:
        table=report(
            out("bios_counts"), caption="../report/bios_counts.rst", category="Bios"
        ),
    log:
        "logs/bios_counts.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="counts",
        languages=BIOS.get("languages", []),
        figure2_min=BIOS.get("figure2_min", 200),
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
        min_instances=BIOS.get("figure2_min", 200),
    script:
        "../scripts/bios_figure2.py"
