"""The outputs of the steps several papers share: the demo world (``rules/demo.smk``),
the downloads (``rules/download.smk``), the mined sentences and pair sets
(``rules/mine.smk``), the models (``rules/models.smk``) and the scoring caches
(``rules/score.smk``).
"""

from __future__ import annotations

from mgbias.workflow.layout.output import DEMO_BENCHMARKS, DEMO_MIRROR, Output
from mgbias.workflow.mirror_layout import BENCHMARK_FILES, MIRROR_NEWS_CRAWL, MIRROR_OPUS_ZIP

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
    # rules/demo.smk
    Output(
        "demo_world",
        f"{DEMO_MIRROR}/{{world}}/world.json",
        "demo_world",
        "the demo world's specification (seed, sizes, planted association) and file list",
        "JSON",
    ),
    Output(
        "demo_opus_zip",
        f"{DEMO_MIRROR}/{{world}}/{MIRROR_OPUS_ZIP}",
        "demo_world",
        "a generated parallel corpus in the OPUS moses layout",
        "zip of `{corpus}.{pair}.{lang}` files, one sentence per line, aligned by line",
    ),
    Output(
        "demo_news_crawl",
        f"{DEMO_MIRROR}/{{world}}/{MIRROR_NEWS_CRAWL}",
        "demo_world",
        "generated monolingual text in the WMT news-crawl layout",
        "gzip text, one sentence per line",
    ),
    Output(
        "demo_crows_pairs",
        f"{DEMO_BENCHMARKS}/{BENCHMARK_FILES['crows_pairs']}",
        "demo_pairs",
        "demo gender pairs in the CrowS-Pairs layout",
        "mgbias.datasets.crowspairs:REQUIRED_COLUMNS",
    ),
    Output(
        "demo_stereoset",
        f"{DEMO_BENCHMARKS}/{BENCHMARK_FILES['stereoset']}",
        "demo_pairs",
        "demo gender pairs in the StereoSet (intrasentence) layout",
        "StereoSet JSON: data.intrasentence[].sentences[] with gold_label",
    ),
    Output(
        "demo_multilingual_crows_pairs",
        f"{DEMO_BENCHMARKS}/{BENCHMARK_FILES['multilingual_crows_pairs']}",
        "demo_pairs",
        "demo gender pairs in the multilingual CrowS-Pairs layout (Steinborn et al. 2022)",
        "mgbias.datasets.crowspairs:REQUIRED_COLUMNS",
    ),
    Output(
        "demo_mt_pairs",
        "data/demo/mt/crows_pairs_{lang}.csv",
        "demo_mt_pairs",
        "the demo's stand-in for machine-translated pairs: the demo CrowS-Pairs with each "
        "pair's female sentence rendered masculine (the pair's male sentence) with probability "
        "demo.mt_flip",
        "CrowS-Pairs CSV",
    ),
    # rules/download.smk
    Output(
        "raw_corpus",
        "data/raw/{world}/{corpus}/{pair}.txt.zip",
        "download_corpus",
        "a downloaded OPUS moses zip (English and one language), checked before it is kept; "
        "for a corpus of one's own `files`, the two text files packed in that layout",
        "as on the server; members `<corpus>.<pair>.<lang>`",
        also=("download_corpus_files",),
    ),
    Output(
        "raw_corpus_checksum",
        "data/raw/{world}/{corpus}/{pair}.txt.zip.sha256",
        "download_corpus",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
        also=("download_corpus_files",),
    ),
    Output(
        "raw_monolingual",
        "data/raw/{world}/monolingual/{lang}.txt.gz",
        "download_monolingual",
        "downloaded monolingual text (news-crawl layout)",
        "gzip text, one sentence per line",
    ),
    Output(
        "raw_monolingual_checksum",
        "data/raw/{world}/monolingual/{lang}.txt.gz.sha256",
        "download_monolingual",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    Output(
        "raw_pairs",
        "data/raw/pairs/{dataset}/{lang}/{filename}",
        "download_pairs",
        "a downloaded pair benchmark file, under the URL's own file name",
        "as on the server (CrowS-Pairs CSV, StereoSet JSON, multilingual CrowS-Pairs CSV)",
    ),
    Output(
        "raw_pairs_checksum",
        "data/raw/pairs/{dataset}/{lang}/{filename}.sha256",
        "download_pairs",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    Output(
        "raw_controlled",
        "data/raw/controlled/{source}/{lang}.txt",
        "download_controlled",
        "a downloaded monolingual corpus for bias-controlled fine-tuning (News Crawl, BookCorpus)",
        "plain or gzip text (told by its first bytes), one sentence per line",
    ),
    Output(
        "raw_controlled_checksum",
        "data/raw/controlled/{source}/{lang}.txt.sha256",
        "download_controlled",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    # rules/mine.smk
    Output(
        "mined_sentences",
        "data/mined/{world}/{corpus}/{lang}.tsv",
        "mine_gendered",
        "the gendered target-language sentences of one corpus (Kaneko et al. 2022, §3), "
        "downsampled to equal female and male counts",
        "header `gender<TAB>sentence<TAB>gender_words`, female rows first; gender is "
        "`female` or `male`; gender_words the English word-list entries that made the "
        "sentence gendered, joined by `|`",
    ),
    Output(
        "mined_counts",
        "data/mined/{world}/{corpus}/{lang}.counts.json",
        "mine_gendered",
        "how many sentences were read, mined per gender, dropped and kept",
        "mgbias.report.tables:MINING_COLUMNS",
    ),
    Output(
        "mine_counts",
        "results/tables/mine_counts.csv",
        "mine_counts",
        "sentences mined per world, corpus and language: Kaneko et al. (2022), Table 1",
        "mgbias.report.tables:MINING_COLUMNS",
    ),
    Output(
        "mine_counts_markdown",
        "results/tables/mine_counts.md",
        "mine_counts",
        "the same, laid out as the paper's Table 1",
        "Markdown",
    ),
    Output(
        "template_pairs",
        "data/mined/templates/{lang}.csv",
        "template_pairs",
        "template sentence pairs (Tmp) of Kaneko et al. (2022), §5.2: templates x gender "
        "pairs x occupations, the male sentence as sent_more",
        "CrowS-Pairs CSV: (index), `sent_more`, `sent_less`, `stereo_antistereo`, `bias_type`, "
        "`target` (the occupation), `gender_pair` (the gender words, `he/she`; what the pairs "
        "are clustered by)",
    ),
    Output(
        "native_name_pairs",
        "data/mined/native_names/{lang}.csv",
        "native_name_pairs",
        "the human translations of Kaneko et al. (2022), §6, with every transliterated "
        "English first name replaced by a native name of the same gender (Table 6, HT_name)",
        "CrowS-Pairs CSV: (index), `sent_more`, `sent_less`, `stereo_antistereo`, `bias_type`, "
        "and `target` where the human translations have one",
    ),
    Output(
        "controlled_female",
        "data/mined/controlled/{source}/{lang}/female.txt",
        "mine_controlled",
        "D_f of Kaneko et al. (2023, §2): N sentences with female-list words and no male-list word",
        "one sentence per line",
    ),
    Output(
        "controlled_male",
        "data/mined/controlled/{source}/{lang}/male.txt",
        "mine_controlled",
        "D_m: N sentences with male-list words and no female-list word",
        "one sentence per line",
    ),
    Output(
        "controlled_dev_female",
        "data/mined/controlled/{source}/{lang}/dev_female.txt",
        "mine_controlled",
        "female development sentences (evaluation loss only), disjoint from D_f",
        "one sentence per line",
    ),
    Output(
        "controlled_dev_male",
        "data/mined/controlled/{source}/{lang}/dev_male.txt",
        "mine_controlled",
        "male development sentences, disjoint from D_m",
        "one sentence per line",
    ),
    Output(
        "controlled_counts",
        "data/mined/controlled/{source}/{lang}/counts.json",
        "mine_controlled",
        "sentences read, mined per gender, with both genders, kept",
        "mgbias.finetune.gendered_text:COUNT_COLUMNS",
    ),
    Output(
        "controlled_mixture",
        "data/mined/controlled/{source}/{lang}/{rate}_s{repeat}.txt",
        "mix_controlled",
        "D_r: round(N·r) male and N − round(N·r) female sentences (`r025` = 0.25), shuffled",
        "one sentence per line",
    ),
    Output(
        "controlled_mixture_summary",
        "data/mined/controlled/{source}/{lang}/{rate}_s{repeat}.json",
        "mix_controlled",
        "what D_r holds: r, n, n_male, n_female, seed, repeat, sampling, rounding",
        "JSON",
    ),
    # rules/models.smk
    Output(
        "model",
        "models/{model}",
        "train_mlm",
        "a workflow-trained MLM in Hugging Face format (hub models are not copied): "
        "the demo MLMs (`train_mlm`) and the bias-controlled fine-tunings of Kaneko et al. "
        "(2023) (`finetune_mlm`, which checkpoints to `models/{model}.checkpoints/` and "
        "resumes from there; with `kaneko2023.finetune_per_grid`, "
        "`kaneko2023_finetune_grid`: a grid's models in one job)",
        "directory: config.json, model.safetensors, tokenizer files, training.json",
        also=("finetune_mlm", "kaneko2023_finetune_grid"),
    ),
    # rules/score.smk
    Output(
        "score_mined",
        "results/score/mined/{model}/{world}/{corpus}/{lang}.parquet",
        "score_unmasked",
        "the unmasked pass of a model over a mined sentence set: per-token "
        "log-probabilities, received attention and sentence embeddings, with the "
        "model id, revision and input hash",
        "mgbias.mlm.unmasked_cache:COLUMNS",
        also=("kaneko2023_score_unmasked", "score_unmasked_together"),
    ),
    Output(
        "score_pairs_unmasked",
        "results/score/pairs/{model}/{dataset}/{variant}/{lang}.unmasked.parquet",
        "score_pairs",
        "the unmasked pass over a pair benchmark (AUL, AULA)",
        "mgbias.mlm.unmasked_cache:COLUMNS",
        also=("kaneko2023_score_pairs", "score_pairs_together"),
    ),
    Output(
        "score_pairs_masked",
        "results/score/pairs/{model}/{dataset}/{variant}/{lang}.masked.parquet",
        "score_pairs",
        "the masked passes over a pair benchmark (CPS, SSS, S_JSD)",
        "per pair and side (`a` = sent_more, `b` = sent_less): token ids, shared and "
        "modified positions with their log-probabilities, modified-token matrices, "
        "truncation flags; metadata: model id, revision, input sha256",
        also=("kaneko2023_score_pairs", "score_pairs_together"),
    ),
]
