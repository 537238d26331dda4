# Pair benchmarks (CrowS-Pairs, StereoSet, multilingual CrowS-Pairs): each
# model runs once unmasked and once masked over each dataset's pairs; AUL,
# AULA, CPS, SSS, S_JSD and binarized S_JSD come from those caches.
# Steinborn et al. 2022, Tables 2 and 3, and a measures x models table.


rule demo_pairs:
    input:
        code=script_code("demo_pairs.py"),
    output:
        demo_pair_files(),
    log:
        "logs/demo_pairs.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        out_dir=lambda wc, output: os.path.dirname(output[0]),
        languages=[lang for lang in LANGUAGES if lang != PIVOT],
        n_pairs=config.get("demo", {}).get("n_pairs", 0),
        seed=step_seed("demo_pairs"),
    script:
        "../scripts/demo_pairs.py"


rule download_pairs:
    input:
        source=lambda wc: local_source(pair_url(config, wc.dataset, wc.lang)),
        code=script_code("download.py"),
    output:
        archive="data/raw/pairs/{dataset}/{lang}/{filename}",
        checksum="data/raw/pairs/{dataset}/{lang}/{filename}.sha256",
    log:
        "logs/download_pairs/{dataset}/{lang}/{filename}.log",
    wildcard_constraints:
        filename=r"[^/]+(?<!\.sha256)",
    retries: 1
    conda:
        "../envs/mgbias.yaml"
    params:
        url=lambda wc: pair_url(config, wc.dataset, wc.lang),
        checksums=canonical(config["checksums"]),
    script:
        "../scripts/download.py"


rule score_pairs:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        model=trained_model_input,
        code=script_code(
            "score_pairs.py",
            only_for={"perturb.py": lambda wc: wc.variant == "perturbed"},
        ),
    output:
        unmasked=f"{PAIR_SCORES}/{{model}}/{{dataset}}/{{variant}}/{{lang}}.unmasked.parquet",
        masked=f"{PAIR_SCORES}/{{model}}/{{dataset}}/{{variant}}/{{lang}}.masked.parquet",
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


rule pair_measures:
    input:
        data=lambda wc: pair_file(config, wc.dataset, wc.lang),
        unmasked=rules.score_pairs.output.unmasked,
        masked=rules.score_pairs.output.masked,
        code=script_code("pair_measures.py"),
    output:
        measures="results/pairs/measures/{model}/{dataset}/{variant}/{lang}.csv",
        per_pair="results/pairs/per_pair/{model}/{dataset}/{variant}/{lang}.csv",
    log:
        "logs/pair_measures/{model}/{dataset}/{variant}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        measures=config["pair_measures"],
        tie_rule=config["pair_tie_rule"],
        alpha=config["pair_alpha"],
        bias_type=lambda wc: config["pair_datasets"][wc.dataset]["bias_type"],
        seed=lambda wc: step_seed(
            "pair_measures", wc.model, wc.dataset, wc.variant, wc.lang
        ),
    script:
        "../scripts/pair_measures.py"


rule pair_tables:
    input:
        results=expand_jobs(
            "results/pairs/measures/{model}/{dataset}/{variant}/{lang}.csv",
            pair_jobs(config),
        ),
        code=script_code("pair_tables.py"),
    output:
        csv=report(
            "results/tables/pair_scores.csv",
            caption="../report/pair_scores.rst",
            category=SJSD_PAPER,
            subcategory="All pair measures",
        ),
        markdown="results/tables/pair_scores.md",
        by_model=report(
            "results/tables/pair_measures_by_model.csv",
            caption="../report/pair_measures_by_model.rst",
            category=SJSD_PAPER,
            subcategory="All pair measures",
        ),
        by_model_markdown="results/tables/pair_measures_by_model.md",
    log:
        "logs/pair_tables.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/pair_tables.py"


rule steinborn_table2:
    input:
        table="results/tables/pair_scores.csv",
        code=script_code("steinborn_table.py"),
    output:
        csv=report(
            "results/tables/steinborn_table2.csv",
            caption="../report/steinborn_table2.rst",
            category=SJSD_PAPER,
            subcategory="Table 2",
        ),
        markdown="results/tables/steinborn_table2.md",
    log:
        "logs/steinborn_table2.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        number=2,
        dataset=config["pair_tables"].get("steinborn_table2"),
    script:
        "../scripts/steinborn_table.py"


use rule steinborn_table2 as steinborn_table3 with:
    output:
        csv=report(
            "results/tables/steinborn_table3.csv",
            caption="../report/steinborn_table3.rst",
            category=SJSD_PAPER,
            subcategory="Table 3",
        ),
        markdown="results/tables/steinborn_table3.md",
    log:
        "logs/steinborn_table3.log",
    params:
        number=3,
        dataset=config["pair_tables"].get("steinborn_table3"),
