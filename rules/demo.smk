# The demo world: a seeded generator writes a local mirror laid out like the
# real sources (OPUS moses zips, WMT news-crawl text). Only with `demo:`.


rule demo_world:
    output:
        world=f"{DEMO_MIRROR}/{{world}}/world.json",
        corpora=[
            f"{DEMO_MIRROR}/{{world}}/{OPUS_CORPORA[corpus][0]}/{OPUS_CORPORA[corpus][1]}"
            f"/moses/{corpus_pair(corpus, lang)}.txt.zip"
            for corpus in CORPORA
            for lang in LANGUAGES
        ],
        monolingual=[
            f"{DEMO_MIRROR}/{{world}}/news-crawl/{lang}/news.2021.{lang}.shuffled.deduped.gz"
            for lang in [PIVOT, *LANGUAGES]
        ],
    log:
        "logs/demo_world/{world}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        demo=config.get("demo", {}),
        languages=LANGUAGES,
        corpora=CORPORA,
        seed=lambda wc: step_seed("demo_world", wc.world),
        mirror=DEMO_MIRROR,
    script:
        "../scripts/demo_world.py"
