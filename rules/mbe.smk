# MBE score (Kaneko et al. 2022, Eq. 2), its significance test (label
# permutation by default, or the paper's McNemar reading; `mbe.test`) and the
# Shf baseline, from the score cache; Table 2 of the paper.


rule mbe:
    input:
        sentences=out("mined_sentences"),
        cache=out("score_mined"),
        code=script_code("mbe.py"),
    output:
        result=out("mbe_result"),
        provenance=out("mbe_provenance"),
    log:
        "logs/mbe/{model}/{world}/{corpus}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        mbe=canonical(config["mbe"]),
        seed=lambda wc: step_seed("mbe", wc.model, wc.world, wc.corpus, wc.lang),
    script:
        "../scripts/mbe.py"


rule mbe_scores:
    input:
        results=expand_jobs(out("mbe_result"), mbe_table_jobs(config)),
        code=script_code("mbe_scores.py"),
    output:
        csv=report(
            out("mbe_scores"),
            caption="../report/mbe_scores.rst",
            category=MBE_PAPER,
            subcategory="Table 2",
        ),
        markdown=out("mbe_scores_markdown"),
        provenance=out("mbe_scores_provenance"),
    log:
        "logs/mbe_scores.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_scores.py"


rule mbe_figure:
    input:
        table=out("mbe_scores"),
        code=script_code("mbe_figure.py"),
    output:
        report(
            out("mbe_figure"),
            caption="../report/mbe_figure.rst",
            category=MBE_PAPER,
            subcategory="Table 2",
        ),
    log:
        "logs/mbe_figure.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_figure.py"


# Table 3 (Kaneko et al. 2022): MBE and Shf on the sentences of human-annotated
# pair benchmarks, classified by the English gender words, against Eq. 3 with
# AULA, across models. Reads the pair rules' caches; no model runs again.
# Only with `mbe_table3:`.
rule mbe_pairs:
    input:
        unpack(lambda wc: mbe.pairs_inputs(config, wc.model, wc.dataset, wc.lang)),
        wordlists=wordlist_files(mbe.table3_wordlists(config)),
        code=script_code("mbe_pairs.py"),
    output:
        result=out("mbe_pairs_result"),
        provenance=out("mbe_pairs_provenance"),
    log:
        "logs/mbe_pairs/{model}/{dataset}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        mbe=canonical(config["mbe"]),
        wordlists=canonical(mbe.table3_wordlists(config)),
        bias_type=lambda wc: config["pair_datasets"][wc.dataset]["bias_type"],
        tie_rule=config["pair_tie_rule"],
        seed=lambda wc: step_seed("mbe_pairs", wc.model, wc.dataset, wc.lang),
    script:
        "../scripts/mbe_pairs.py"


rule mbe_table3_models:
    input:
        results=expand_jobs(out("mbe_pairs_result"), mbe_table3_jobs(config)),
        code=script_code("mbe_table3_models.py"),
    output:
        report(
            out("mbe_table3_models"),
            caption="../report/mbe_table3_models.rst",
            category=MBE_PAPER,
            subcategory="Table 3",
        ),
        provenance=out("mbe_table3_models_provenance"),
    log:
        "logs/mbe_table3_models.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_table3_models.py"


rule mbe_table3:
    input:
        models=out("mbe_table3_models"),
        code=script_code("mbe_table3.py"),
    output:
        csv=report(
            out("mbe_table3"),
            caption="../report/mbe_table3.rst",
            category=MBE_PAPER,
            subcategory="Table 3",
        ),
        markdown=out("mbe_table3_markdown"),
        provenance=out("mbe_table3_provenance"),
    log:
        "logs/mbe_table3.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        alpha=config["mbe"]["alpha"],
        original=mbe.table3_section(config)["original"],
    script:
        "../scripts/mbe_table3.py"


# Figure 2 (Kaneko et al. 2022): gender preservation in the parallel corpora,
# from the same archives as rules/mine.smk, before downsampling. Only with
# `mbe_figure2:`.
rule mbe_preservation:
    input:
        archive=moses_zip_input,
        checksum=lambda wc: moses_zip_input(wc) + ".sha256",
        wordlists=wordlist_files(),
        code=script_code("mbe_preservation.py"),
    output:
        out("mbe_preservation"),
    log:
        "logs/mbe_preservation/{world}/{corpus}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        corpus="{corpus}",
        pivot=PIVOT,
        code=lambda wc: corpus_code(wc.corpus, wc.lang),
        wordlists=canonical(config["wordlists"]),
    script:
        "../scripts/mbe_preservation.py"


rule mbe_figure2:
    input:
        results=expand_jobs(out("mbe_preservation"), mbe_preservation_jobs(config)),
        code=script_code("mbe_figure2.py"),
    output:
        table=out("mbe_figure2_table"),
        figure=report(
            out("mbe_figure2"),
            caption="../report/mbe_figure2.rst",
            category=MBE_PAPER,
            subcategory="Figure 2",
        ),
        provenance=out("mbe_figure2_provenance"),
    log:
        "logs/mbe_figure2.log",
    conda:
        "../envs/mgbias.yaml"
    script:
        "../scripts/mbe_figure2.py"


# Tables 4-5 (Kaneko et al. 2022): Eq. 3 with AULA on human (HT), machine (MT)
# and template (Tmp) translations, from the pair rules' measures. Only with
# `mbe_translations:`.
rule mbe_translated:
    input:
        unpack(lambda wc: mbe.translated_inputs(config, wc.model, wc.dataset, wc.lang)),
        wordlists=wordlist_files(),
        code=script_code("mbe_translated.py"),
    output:
        result=out("mbe_translated_result"),
        provenance=out("mbe_translated_provenance"),
    log:
        "logs/mbe_translated/{model}/{dataset}/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        mbe=canonical(config["mbe"]),
        wordlists=canonical(config["wordlists"]),
        bias_type=lambda wc: config["pair_datasets"][wc.dataset]["bias_type"],
        english_dataset=lambda wc: mbe.translated_english(config, wc.lang, wc.dataset),
        english_lang=PIVOT,
        seed=lambda wc: step_seed("mbe_translated", wc.model, wc.dataset, wc.lang),
    script:
        "../scripts/mbe_translated.py"


rule mbe_translations:
    input:
        measures=mbe.translation_measures(config),
        mbe=mbe.translated_results(config),
        code=script_code("mbe_translations.py"),
    output:
        csv=report(
            out("mbe_translations"),
            caption="../report/mbe_translations.rst",
            category=MBE_PAPER,
            subcategory="Tables 4-5",
        ),
        markdown=out("mbe_translations_markdown"),
        provenance=out("mbe_translations_provenance"),
    log:
        "logs/mbe_translations.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        jobs=mbe_translation_jobs(config),
        mbe_jobs=mbe_translated_jobs(config),
        alpha=config["mbe"]["alpha"],
    script:
        "../scripts/mbe_translations.py"
