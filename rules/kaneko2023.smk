# Kaneko, Bollegala and Okazaki (2023): the bias-controlled models (D_r in
# rules/mine.smk, fine-tuning in rules/models.smk) are probed with templates
# (TBS, P(he)/P(she), top predictions) and scored on the gender pairs of their
# language (rules/pairs.smk); a measure's quality is its correlation with the
# male rate r (Table 1, Figures 2 and 3). Only with `kaneko2023:`.


# the base models; the fine-tuned models in kaneko2023_probe_grid
rule kaneko2023_probe:
    input:
        model=trained_model_input,
        code=script_code("kaneko2023_probe.py"),
    output:
        targets=out("kaneko2023_probe_targets"),
        summary=out("kaneko2023_probe_summary"),
        top=out("kaneko2023_probe_top"),
    log:
        "logs/kaneko2023_probe/{model}/{lang}.log",
    wildcard_constraints:
        model=alternatives(kaneko2023.base_models(config)),
    conda:
        "../envs/mgbias.yaml"
    threads: config["scoring"]["threads"]
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=30,
    params:
        models=lambda wc: model_entries(config, [wc.model]),
        scoring=canonical(scoring_settings(config)),
        lang="{lang}",
        targets=KANEKO2023["targets"],
        templates=None,
        sentence=lambda wc: KANEKO2023["sentences"].get(wc.lang),
        female=lambda wc: KANEKO2023["wordlists"][wc.lang]["female"],
        male=lambda wc: KANEKO2023["wordlists"][wc.lang]["male"],
        k=KANEKO2023["top_k"],
    script:
        "../scripts/kaneko2023_probe.py"


# every fine-tuned model of one grid (base model, source, language) in one job: the
# job of a demo-sized model is mostly the import of torch and transformers; params
# other than `models` are kaneko2023_probe's
use rule kaneko2023_probe as kaneko2023_probe_grid with:
    input:
        models=lambda wc: kaneko2023.grid_model_dirs(
            config, wc.base, wc.source, wc.lang
        ),
        code=script_code("kaneko2023_probe.py"),
    output:
        targets=kaneko2023.grid_outputs(config, "kaneko2023_probe_targets"),
        summary=kaneko2023.grid_outputs(config, "kaneko2023_probe_summary"),
        top=kaneko2023.grid_outputs(config, "kaneko2023_probe_top"),
    log:
        "logs/kaneko2023_probe_grid/{base}/{source}/{lang}.log",
    resources:
        gpu=1,
        mem_mb=8000,
        runtime=120,
    params:
        models=lambda wc: model_entries(
            config, kaneko2023.grid_models(config, wc.base, wc.source, wc.lang)
        ),


rule kaneko2023_table1:
    input:
        per_pair=kaneko2023_inputs("pairs_per_pair"),
        probes=kaneko2023_inputs("kaneko2023_probe_summary"),
        mbe=lambda wc: [
            path for paths in kaneko2023.mbe_results(config).values() for path in paths
        ],
        wordlists=lambda wc: [
            path
            for lang in KANEKO2023["languages"]
            for path in wordlist_files(
                KANEKO2023["orientation"].get(lang, KANEKO2023["wordlists"][lang])
            )
        ],
        code=script_code("kaneko2023_table1.py"),
    output:
        table=report(
            out("kaneko2023_table1"),
            caption="../report/kaneko2023_table1.rst",
            category=KANEKO2023_PAPER,
            subcategory="Table 1",
        ),
        markdown=out("kaneko2023_table1_markdown"),
        scores=out("kaneko2023_scores"),
        orientation=out("kaneko2023_orientation"),
        provenance=out("kaneko2023_table1_provenance"),
    log:
        "logs/kaneko2023_table1.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        runs=kaneko2023_runs(config),
        mbe=kaneko2023.mbe_results(config),
        wordlists=canonical(kaneko2023.orienting_wordlists(config)),
        tie_rule=config["pair_tie_rule"],
        alpha=config["pair_alpha"],
    script:
        "../scripts/kaneko2023_table1.py"


rule kaneko2023_mined:
    input:
        counts=[
            layout.path("controlled_counts", source=s, lang=lang)
            for s, lang in dict.fromkeys(
                (job["source"], job["lang"]) for job in kaneko2023_grid(config)
            )
        ],
        code=script_code("kaneko2023_mined.py"),
    output:
        csv=report(
            out("kaneko2023_mined"),
            caption="../report/kaneko2023_mined.rst",
            category=KANEKO2023_PAPER,
            subcategory="Training data",
        ),
        markdown=out("kaneko2023_mined_markdown"),
        provenance=out("kaneko2023_mined_provenance"),
    log:
        "logs/kaneko2023_mined.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/kaneko2023_mined.py"


rule kaneko2023_figure2:
    input:
        probes=kaneko2023_inputs("kaneko2023_probe_summary"),
        tops=kaneko2023_inputs("kaneko2023_probe_top"),
        code=script_code("kaneko2023_figures.py"),
    output:
        table=out("kaneko2023_figure2_table"),
        figure=report(
            out("kaneko2023_figure2"),
            caption="../report/kaneko2023_figure2.rst",
            category=KANEKO2023_PAPER,
            subcategory="Figure 2",
        ),
        provenance=out("kaneko2023_figure2_provenance"),
    log:
        "logs/kaneko2023_figure2.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        runs=kaneko2023_runs(config),
        figure=2,
    script:
        "../scripts/kaneko2023_figures.py"


use rule kaneko2023_figure2 as kaneko2023_figure3 with:
    output:
        table=out("kaneko2023_figure3_table"),
        figure=report(
            out("kaneko2023_figure3"),
            caption="../report/kaneko2023_figure3.rst",
            category=KANEKO2023_PAPER,
            subcategory="Figure 3",
        ),
        provenance=out("kaneko2023_figure3_provenance"),
    log:
        "logs/kaneko2023_figure3.log",
    params:
        runs=kaneko2023_runs(config),
        figure=3,
