# The demo world: a seeded generator writes a local mirror laid out like the
# real sources (OPUS moses zips, WMT news-crawl text, the pair benchmarks).
# Only with `demo:`.

# demo: its keys, the schema's defaults filled in (also without the section)
DEMO = demo.section(config)


rule demo_world:
    input:
        code=script_code("demo_world.py"),
    output:
        world=out("demo_world"),
        files=demo.world_files(config, "{world}"),
        provenance=out("demo_world_provenance"),
    log:
        "logs/demo_world/{world}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        demo=lambda wc: canonical(demo.world_settings(config, wc.world)),
        languages=sorted(LANGUAGES),
        corpora=sorted(CORPORA),
        seed=lambda wc: step_seed("demo_world", wc.world),
        world_dir=lambda wc, output: os.path.dirname(output.world),
    script:
        "../scripts/demo_world.py"


rule demo_pairs:
    input:
        code=script_code("demo_pairs.py"),
    output:
        files=demo.pair_files(config),
        provenance=out("demo_pairs_provenance"),
    log:
        "logs/demo_pairs.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        out_dir=lambda wc, output: os.path.dirname(output[0]),
        languages=[lang for lang in LANGUAGES if lang != PIVOT],
        n_pairs=DEMO["n_pairs"],
        english_pair_marking=DEMO["english_pair_marking"],
        seed=step_seed("demo_pairs"),
    script:
        "../scripts/demo_pairs.py"


# Zhao et al. (2020): dictionaries and MIBs-style lists from the demo lexicon.
rule demo_embedding_lists:
    input:
        code=script_code("demo_embedding_lists.py"),
    output:
        dictionaries=directory(out("zhao2020_dictionaries")),
        mibs=directory(out("zhao2020_mibs")),
        provenance=out("demo_embedding_lists_provenance"),
    log:
        "logs/demo_embedding_lists.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        languages=zhao2020.languages(config),
        seed=step_seed("demo_embedding_lists"),
    script:
        "../scripts/demo_embedding_lists.py"


# Kaneko et al. (2022), Tables 4-5: a gender-biased "machine translation" of the
# demo CrowS-Pairs (a pair's female sentence rendered masculine at rate demo.mt_flip).
rule demo_mt_pairs:
    input:
        pairs=lambda wc: layout.path("demo_crows_pairs", lang=wc.lang),
        code=script_code("demo_mt_pairs.py"),
    output:
        pairs=out("demo_mt_pairs"),
        provenance=out("demo_mt_pairs_provenance"),
    log:
        "logs/demo_mt_pairs/{lang}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        lang="{lang}",
        flip=DEMO["mt_flip"],
        seed=step_seed("demo_mt_pairs"),
    script:
        "../scripts/demo_mt_pairs.py"


# Zhao et al. (2020), §4: the demo's Common Crawl (WET files with planted bios in en,
# es, de, fr, and each snapshot's wet.paths.gz); `bios.url` points at it.
rule demo_bios:
    input:
        code=script_code("demo_bios.py"),
    output:
        planted=out("demo_bios_planted"),
        names=out("demo_bios_names"),
        listings=bios.demo_outputs(config)["listings"],
        wet=bios.demo_outputs(config)["wet"],
    log:
        "logs/demo_bios.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        root=lambda wc, output: bios.dest_root(output.listings[0], 3),
        snapshots=bios.snapshots(config),
        n_files=BIOS["demo_files"],
        scale=BIOS["demo_scale"],
        ambiguous=BIOS["demo_ambiguous"],
        languages=["en", "es", "de", "fr"],
    script:
        "../scripts/demo_bios.py"
