# Basta et al. (2020): contextual-embedding probes (gender direction, direct bias,
# clustering, classification, nearest neighbours) of every configured encoder on
# every domain, every layer. Downloads in rules/download.smk. Only with `basta2020:`.
# Planned by mgbias.workflow.basta2020.

# basta2020: its keys, the schema's defaults filled in (also without the section)
BASTA2020 = basta2020.section(config)
BASTA2020_JOBS = basta2020.jobs(config)
BASTA2020_ES_JOBS = basta2020.grammatical_jobs(config)


rule basta2020_corpus:
    input:
        download=lambda wc: basta2020_download(config, wc.world, wc.domain),
        code=script_code("basta2020_corpus.py"),
    output:
        corpus=out("basta2020_corpus"),
    log:
        "logs/basta2020_corpus/{world}/{domain}.log",
    wildcard_constraints:
        domain=alternatives(basta2020.domains(config)),
    conda:
        "../envs/mgbias.yaml"
    params:
        member=lambda wc: BASTA2020["domains"][wc.domain].get("member"),
        format=lambda wc: BASTA2020["domains"][wc.domain]["format"],
        lang=lambda wc: BASTA2020["domains"][wc.domain]["lang"],
        max_lines=BASTA2020["max_lines"],
    script:
        "../scripts/basta2020_corpus.py"


# One encoder pass per (model, world, domain): the probe plan and the vector cache.
rule basta2020_vectors:
    input:
        unpack(lambda wc: basta2020.static_input(config, wc.world, wc.domain)),
        corpus=out("basta2020_corpus"),
        model=trained_model_input,
        lists=basta2020_lists_input,
        code=script_code("basta2020_vectors.py"),
    output:
        plan=out("basta2020_plan"),
        vectors=out("basta2020_vectors"),
        provenance=out("basta2020_vectors_provenance"),
    log:
        "logs/basta2020_vectors/{model}/{world}/{domain}.log",
    benchmark:
        "logs/benchmarks/basta2020_vectors/{model}/{world}/{domain}.tsv"
    wildcard_constraints:
        domain=alternatives(basta2020.domains(config)),
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
        lang=lambda wc: BASTA2020["domains"][wc.domain]["lang"],
        probes=lambda wc: canonical(
            basta2020.settings(config, "vectors", wc.model, wc.world, wc.domain)
        ),
    script:
        "../scripts/basta2020_vectors.py"


rule basta2020_probes:
    input:
        plan=out("basta2020_plan"),
        vectors=out("basta2020_vectors"),
        lists=basta2020_lists_input,
        code=script_code("basta2020_probes.py"),
    output:
        table=out("basta2020_probes"),
        summary=out("basta2020_summary"),
        provenance=out("basta2020_probes_provenance"),
    log:
        "logs/basta2020_probes/{model}/{world}/{domain}.log",
    wildcard_constraints:
        domain=alternatives(basta2020.domains(config)),
    conda:
        "../envs/mgbias.yaml"
    params:
        lang=lambda wc: BASTA2020["domains"][wc.domain]["lang"],
        probes=lambda wc: canonical(
            basta2020.settings(config, "probes", wc.model, wc.world, wc.domain)
        ),
    script:
        "../scripts/basta2020_probes.py"


rule basta2020_results:
    input:
        tables=expand_jobs(layout.template("basta2020_probes"), BASTA2020_JOBS),
        code=script_code("basta2020_tables.py"),
    output:
        results=out("basta2020_results"),
        provenance=out("basta2020_results_provenance"),
    log:
        "logs/basta2020_results.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="long_table",
        jobs=BASTA2020_JOBS,
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_table1:
    input:
        summaries=expand_jobs(layout.template("basta2020_summary"), BASTA2020_JOBS),
        code=script_code("basta2020_tables.py"),
    output:
        table=report(
            out("basta2020_table1"),
            caption="../report/basta2020_table1.rst",
            category=BASTA2020_PAPER,
            subcategory="Table 1",
        ),
        markdown=out("basta2020_table1_markdown"),
        provenance=out("basta2020_table1_provenance"),
    log:
        "logs/basta2020_table1.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table1",
        jobs=BASTA2020_JOBS,
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_tables2to5:
    input:
        results=out("basta2020_results"),
        code=script_code("basta2020_tables.py"),
    output:
        markdown=report(
            out("basta2020_tables2to5"),
            caption="../report/basta2020_tables2to5.rst",
            category=BASTA2020_PAPER,
            subcategory="Tables 2-5",
        ),
        provenance=out("basta2020_tables2to5_provenance"),
    log:
        "logs/basta2020_tables2to5.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="tables2to5",
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_pca_variance:
    input:
        results=out("basta2020_results"),
        code=script_code("basta2020_tables.py"),
    output:
        figure=report(
            out("basta2020_pca_variance"),
            caption="../report/basta2020_pca_variance.rst",
            category=BASTA2020_PAPER,
            subcategory="Figures 2-5",
        ),
    log:
        "logs/basta2020_pca_variance.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="pca_variance",
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_layers:
    input:
        results=out("basta2020_results"),
        code=script_code("basta2020_tables.py"),
    output:
        figure=report(
            out("basta2020_layers"),
            caption="../report/basta2020_layers.rst",
            category=BASTA2020_PAPER,
            subcategory="Every layer",
        ),
    log:
        "logs/basta2020_layers.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="layers",
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_clusters:
    input:
        plans=expand_jobs(layout.template("basta2020_plan"), BASTA2020_JOBS),
        vectors=expand_jobs(layout.template("basta2020_vectors"), BASTA2020_JOBS),
        code=script_code("basta2020_clusters.py"),
    output:
        figure=report(
            out("basta2020_clusters"),
            caption="../report/basta2020_clusters.rst",
            category=BASTA2020_PAPER,
            subcategory="Figure 6",
        ),
        provenance=out("basta2020_clusters_provenance"),
    log:
        "logs/basta2020_clusters.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        jobs=BASTA2020_JOBS,
        lists=BASTA2020["lists"],
        seeds=[
            step_seed("basta2020", "probes", j["model"], j["world"], j["domain"])
            for j in BASTA2020_JOBS
        ],
    script:
        "../scripts/basta2020_clusters.py"


rule basta2020_figure1:
    input:
        summaries=expand_jobs(layout.template("basta2020_summary"), BASTA2020_JOBS),
        code=script_code("basta2020_tables.py"),
    output:
        figure=report(
            out("basta2020_figure1"),
            caption="../report/basta2020_figure1.rst",
            category=BASTA2020_PAPER,
            subcategory="Figure 1",
        ),
    log:
        "logs/basta2020_figure1.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="figure1",
        jobs=BASTA2020_JOBS,
    script:
        "../scripts/basta2020_tables.py"


# Spanish (§5.3.2): Exp. 6-9 run in the probe jobs of Spanish domains.
rule basta2020_table6:
    input:
        results=out("basta2020_results"),
        code=script_code("basta2020_tables.py"),
    output:
        table=report(
            out("basta2020_table6"),
            caption="../report/basta2020_table6.rst",
            category=BASTA2020_PAPER,
            subcategory="Table 6",
        ),
        markdown=out("basta2020_table6_markdown"),
        provenance=out("basta2020_table6_provenance"),
    log:
        "logs/basta2020_table6.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table6",
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_table7:
    input:
        results=out("basta2020_results"),
        code=script_code("basta2020_tables.py"),
    output:
        table=report(
            out("basta2020_table7"),
            caption="../report/basta2020_table7.rst",
            category=BASTA2020_PAPER,
            subcategory="Table 7",
        ),
        markdown=out("basta2020_table7_markdown"),
        provenance=out("basta2020_table7_provenance"),
    log:
        "logs/basta2020_table7.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="table7",
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_figure7:
    input:
        results=out("basta2020_results"),
        code=script_code("basta2020_tables.py"),
    output:
        figure=report(
            out("basta2020_figure7"),
            caption="../report/basta2020_figure7.rst",
            category=BASTA2020_PAPER,
            subcategory="Figure 7",
        ),
    log:
        "logs/basta2020_figure7.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="figure7",
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_figure8:
    input:
        summaries=expand_jobs(layout.template("basta2020_summary"), BASTA2020_ES_JOBS),
        code=script_code("basta2020_tables.py"),
    output:
        figure=report(
            out("basta2020_figure8"),
            caption="../report/basta2020_figure8.rst",
            category=BASTA2020_PAPER,
            subcategory="Figures 8-9",
        ),
    log:
        "logs/basta2020_figure8.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="figure8",
        jobs=BASTA2020_ES_JOBS,
    script:
        "../scripts/basta2020_tables.py"


rule basta2020_figure9:
    input:
        summaries=expand_jobs(layout.template("basta2020_summary"), BASTA2020_ES_JOBS),
        code=script_code("basta2020_tables.py"),
    output:
        figure=report(
            out("basta2020_figure9"),
            caption="../report/basta2020_figure9.rst",
            category=BASTA2020_PAPER,
            subcategory="Figures 8-9",
        ),
    log:
        "logs/basta2020_figure9.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        part="figure9",
        jobs=BASTA2020_ES_JOBS,
    script:
        "../scripts/basta2020_tables.py"
