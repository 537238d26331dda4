# The demo world: a seeded generator writes a local mirror laid out like the
# real sources (OPUS moses zips, WMT news-crawl text). Only with `demo:`.


rule demo_world:
    input:
        code=script_code("demo_world.py"),
    output:
        world=f"{DEMO_MIRROR}/{{world}}/world.json",
        files=demo_world_files("{world}"),
    log:
        "logs/demo_world/{world}.log",
    conda:
        "../envs/mgbias.yaml"
    params:
        demo=canonical(config.get("demo", {})),
        languages=sorted(LANGUAGES),
        corpora=sorted(CORPORA),
        seed=lambda wc: step_seed("demo_world", wc.world),
        world_dir=lambda wc, output: os.path.dirname(output.world),
    script:
        "../scripts/demo_world.py"
