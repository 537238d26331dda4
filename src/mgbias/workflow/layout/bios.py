"""The outputs of Zhao et al. (2020), §4: multilingual BiosBias from Common Crawl
(``rules/bios.smk``).
"""

from __future__ import annotations

from mgbias.workflow.layout.output import DEMO_MIRROR, Output

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
    Output(
        "demo_bios_listing",
        f"{DEMO_MIRROR}/commoncrawl/crawl-data/{{snapshot}}/wet.paths.gz",
        "demo_bios",
        "the demo crawl's listing of one snapshot's WET files, in Common Crawl's layout",
        "gzip text, one crawl path per line",
    ),
    Output(
        "demo_bios_wet",
        f"{DEMO_MIRROR}/commoncrawl/crawl-data/{{snapshot}}/segments/{{segment}}/wet/{{filename}}",
        "demo_bios",
        "a demo WET file: planted bios and distractors in en, es, de and fr",
        "WARC/1.0 (gzip per record): warcinfo, then conversion records",
    ),
    Output(
        "demo_bios_planted",
        "data/demo/bios/planted.json",
        "demo_bios",
        "the planted bios of the demo crawl (what extraction must find) and every name on "
        "its pages",
        "JSON: `planted` (snapshot, lang, name, title, gender), `names`",
    ),
    Output(
        "demo_bios_names",
        "data/demo/bios/names.txt",
        "demo_bios",
        "the full names of the demo crawl: the patterns of the `blank` NER fallback",
        "UTF-8 text, one name per line",
    ),
    Output(
        "raw_bios_titles",
        "data/raw/bios/titles/{lang}.json",
        "download_bios_titles",
        "a language's title lexicon as downloaded (`bios.titles.<lang>` a URL: the "
        "authors' `freq_titles*.json`)",
        "JSON object: surface form -> normalised English title",
    ),
    Output(
        "raw_bios_titles_checksum",
        "data/raw/bios/titles/{lang}.json.sha256",
        "download_bios_titles",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    Output(
        "raw_bios_listing",
        "data/raw/bios/crawl-data/{snapshot}/wet.paths.gz",
        "download_bios_listing",
        "a snapshot's listing of WET files as downloaded (`wet.paths.gz`)",
        "gzip text, one crawl path per line",
    ),
    Output(
        "raw_bios_listing_checksum",
        "data/raw/bios/crawl-data/{snapshot}/wet.paths.gz.sha256",
        "download_bios_listing",
        "the sha256 of the listing, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    Output(
        "raw_bios_shard",
        "data/raw/bios/shards/{snapshot}/{shard}.json",
        "download_bios_shard",
        "the manifest of one downloaded shard; its WET files are under "
        "`data/raw/bios/crawl-data/` at their crawl paths, each with a `.sha256` sidecar",
        "JSON: `shard`, `snapshot`, `files` (`path`, `sha256`)",
    ),
    Output(
        "bios_plan",
        "data/mined/bios/plan/{snapshot}.json",
        "bios_plan",
        "the shards of one snapshot: files listed and selected (seeded `max_files`), "
        "`wet_files_per_job` files per shard",
        "JSON: `snapshot`, `listed`, `selected`, `files_per_shard`, `shards`",
    ),
    Output(
        "bios_shard",
        "data/mined/bios/shards/{lang}/{snapshot}/{shard}.jsonl",
        "bios_extract",
        "the bios of one language in one shard, before post-processing (rules and NER only)",
        "JSON lines: raw, name, raw_title, title, gender, start_pos, uri, path",
    ),
    Output(
        "bios_dataset",
        "data/mined/bios/datasets/{lang}.jsonl",
        "bios_dataset",
        "the bios dataset of one language: every shard's bios, post-processed (excluded "
        "titles, deduplication, scrubbing)",
        "mgbias.bios.pipeline:FIELDS",
    ),
    Output(
        "bios_table5",
        "results/tables/bios_table5.csv",
        "bios_table5",
        "Zhao et al. (2020), Table 5: occupations and instances per language, with the "
        "female and male instances",
        "mgbias.bios.tables:TABLE5_COLUMNS",
    ),
    Output(
        "bios_table5_markdown",
        "results/tables/bios_table5.md",
        "bios_table5",
        "the same, as Markdown",
        "Markdown",
    ),
    Output(
        "bios_counts",
        "results/tables/bios_counts.csv",
        "bios_counts",
        "instances per language, occupation and gender (the data of Figure 2; `figure2`: "
        "the occupation has at least `bios.figure2_min` instances, default 200)",
        "mgbias.bios.tables:COUNT_COLUMNS",
    ),
    Output(
        "bios_figure2",
        "results/figures/bios_figure2.png",
        "bios_figure2",
        "Zhao et al. (2020), Figure 2: female and male instances per occupation (those "
        "with at least `bios.figure2_min`), one panel per language",
        "PNG",
    ),
    Output(
        "bios_split",
        "data/mined/bios/splits/{lang}.json",
        "bios_split",
        "the seeded 60/20/20 train/dev/test split of one language's bios, stratified by "
        "title, as bio ids",
        "JSON: `train`, `dev`, `test` (lists of ids)",
    ),
    Output(
        "bios_classifier",
        "results/bios/classifier/{world}/{lang}/{space}/{text}-{sampling}.json",
        "bios_classifier",
        "one occupation classifier experiment (BiGRU with attention on the frozen vectors "
        "of `{space}`, or the frozen encoder's hidden states when `{space}` names "
        "`bios.classifier.encoder`; `{text}`: scrubbed or raw bios; `{sampling}`: original or "
        "gender-balanced train and dev): Avg, Female, Male accuracy and |Diff| on the test "
        "split, in points, averaged over `bios.classifier.runs` seeds",
        "JSON: `metrics` (avg, female, male, diff), `runs` (per seed: metrics, training, "
        "dropped occupations, sizes), `experiment`, `settings`",
    ),
    Output(
        "bios_classifier_tpr",
        "results/bios/classifier/{world}/{lang}/{space}/{text}-{sampling}.tpr.csv",
        "bios_classifier",
        "the per-occupation true positive rates by gender behind |Diff| (each seed)",
        "mgbias.bios.experiment:TPR_COLUMNS",
    ),
    Output(
        "bios_finetune",
        "results/bios/transfer/{world}/{src}/{tgt}/{src_space}/{tgt_space}/{text}-{sampling}.json",
        "bios_finetune",
        "one transfer experiment: trained on `{src}` bios with the `{src_space}` vectors, "
        "fine-tuned on a seeded share of the `{tgt}` training split with the `{tgt_space}` "
        "vectors (every weight but the embedding carried over), tested on the `{tgt}` "
        "test split, the shared occupations only; Avg, Female, Male, |Diff| in points, "
        "averaged over `bios.classifier.runs` seeds",
        "JSON: `metrics` (avg, female, male, diff), `runs`, `experiment`, `settings`",
    ),
    Output(
        "bios_finetune_tpr",
        "results/bios/transfer/{world}/{src}/{tgt}/{src_space}/{tgt_space}/{text}-{sampling}.tpr.csv",
        "bios_finetune",
        "the per-occupation true positive rates by gender behind |Diff| (each seed)",
        "mgbias.bios.experiment:TPR_COLUMNS",
    ),
    Output(
        "bios_transfer",
        "results/tables/bios_transfer.csv",
        "bios_transfer",
        "Zhao et al. (2020), Tables 7-9 and 15-18: the transfer runs, per source and "
        "target language and (source, target) space; `table`: the paper's table",
        "mgbias.bios.tables:TRANSFER_COLUMNS",
    ),
    Output(
        "bios_transfer_markdown",
        "results/tables/bios_transfer.md",
        "bios_transfer",
        "the same, as Markdown, one table per world and direction",
        "Markdown",
    ),
    Output(
        "bios_monolingual",
        "results/tables/bios_monolingual.csv",
        "bios_monolingual",
        "Zhao et al. (2020), Tables 6 and 14 (scrubbed, original sampling) and the "
        "configured raw and gender-balanced variants: the monolingual classifier per "
        "language and embedding space; `arrow`: |Diff| vs the language's own space",
        "mgbias.bios.tables:MONOLINGUAL_COLUMNS",
    ),
    Output(
        "bios_monolingual_markdown",
        "results/tables/bios_monolingual.md",
        "bios_monolingual",
        "the same, as Markdown, one table per world and language",
        "Markdown",
    ),
    Output(
        "bios_table10",
        "results/tables/bios_table10.csv",
        "bios_table10",
        "Zhao et al. (2020), Table 10 (scrubbed, original sampling) and the configured "
        "variants: the monolingual classifier on a frozen multilingual encoder's hidden "
        "states (`bios.classifier.encoder`; the paper's M-BERT), per language",
        "mgbias.bios.tables:ENCODER_COLUMNS",
    ),
    Output(
        "bios_table10_markdown",
        "results/tables/bios_table10.md",
        "bios_table10",
        "the same, as Markdown: rows EN, ES, DE, FR x Avg., Female, Male, |Diff|, one "
        "table per world, encoder and variant",
        "Markdown",
    ),
    Output(
        "bios_table11",
        "results/tables/bios_table11.csv",
        "bios_table11",
        "Zhao et al. (2020), Table 11: transfer on the frozen encoder (trained on the "
        "source language, fine-tuned on a share of the target's training split, tested "
        "on the target), per direction",
        "mgbias.bios.tables:ENCODER_TRANSFER_COLUMNS",
    ),
    Output(
        "bios_table11_markdown",
        "results/tables/bios_table11.md",
        "bios_table11",
        "the same, as Markdown: rows EN→ES, EN→DE, EN→FR x Avg., Female, Male, |Diff|, "
        "one table per world, encoder and variant",
        "Markdown",
    ),
]
