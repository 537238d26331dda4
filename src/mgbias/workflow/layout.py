"""Where the workflow writes things: every path template, defined once.

The convention a newcomer can follow is that the first directories of a path
name the rule file that writes it:

============================================  =====================
path prefix                                   rule file
============================================  =====================
``data/demo/**``                              ``rules/demo.smk``
``data/raw/**``                               ``rules/download.smk``
``data/mined/bios/**``                        ``rules/bios.smk``
``data/mined/basta2020/**``                   ``rules/basta2020.smk``
``data/mined/**``                             ``rules/mine.smk``
``models/**``                                 ``rules/models.smk``
``results/<family>/**``                       ``rules/<family>.smk``
``results/tables/<family>_*``                 ``rules/<family>.smk``
``results/figures/<family>_*``                ``rules/<family>.smk``
============================================  =====================

and a table's or figure's file name is the name of the rule that writes it
(``results/tables/mbe_scores.csv`` by rule ``mbe_scores``). Logs follow the
rule: ``logs/<rule>/...``. Datasets a paper's rules mine from downloads (the
Common Crawl bios and their splits, the probe corpora) are under
``data/mined/<family>/``, beside the sentences of ``rules/mine.smk``: ``data/``
holds every dataset, which the DVC data stage owns (``dvc.yaml``), and
``results/`` only what is computed on them.

Rule outputs take their templates from :data:`OUTPUTS` (``layout.template``),
and input functions format the same templates (``layout.path``), so a path is
spelled in one place. ``docs/outputs.md`` is generated from this module
(``python -m mgbias.workflow.layout > docs/outputs.md``) and a test keeps it current;
``make clean-results`` removes the top folders of these paths
(``python -m mgbias.workflow.layout --clean-targets``, :func:`clean_targets`).

This module is imported by the rule files, so it imports nothing heavy; the
column lists of the tables are named as ``module:CONSTANT`` and resolved only
when the documentation is generated.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from mgbias.workflow.mirror_layout import BENCHMARK_FILES, MIRROR_NEWS_CRAWL, MIRROR_OPUS_ZIP

#: Root of the generated demo mirror (the stand-in for the remote servers).
#: The run's folder (the configuration's ``workdir``) in dvc.yaml, as a DVC variable of
#: params.yaml: every output path there starts with it (:mod:`mgbias.workflow.dvc_pipeline`).
WORKDIR_VARIABLE = "${workdir}"
DEMO_MIRROR = "data/demo/mirror"

#: The demo pair benchmarks, one file per layout and language, in one directory (inside
#: a mirror, the real servers' layouts: :mod:`mgbias.workflow.mirror_layout`).
DEMO_BENCHMARKS = f"{DEMO_MIRROR}/benchmarks"


@dataclass(frozen=True)
class Output:
    """One kind of file (or directory) the workflow writes.

    Attributes
    ----------
    key : str
        The name rules and input functions look the template up by.
    template : str
        The path, with Snakemake wildcards in braces.
    rule : str
        The rule that writes it.
    holds : str
        What it holds, in a sentence.
    columns : str
        Its columns or fields: prose, or ``module:CONSTANT`` naming a list of
        column names in the library.
    also : tuple of str
        Other rules writing the same kind of path (``models/{model}``: trained
        from scratch or fine-tuned), told apart by wildcard constraints.
    """

    key: str
    template: str
    rule: str
    holds: str
    columns: str = ""
    also: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule that writes this kind of path."""
        return (self.rule, *self.also)


_KANEKO2023 = [
    Output(
        "kaneko2023_probe_targets",
        "results/kaneko2023/probe/{model}/{lang}/targets.csv",
        "kaneko2023_probe",
        "TBS per target of one model (Kurita et al.'s template '[MASK] is a(n) [TARGET].')",
        "`target`, `neutral`, `text`, `n_target_tokens`, log-probabilities of the target "
        "and prior per gender word, `p_target_male`, `p_target_female`, `assoc_male`, "
        "`assoc_female`, `bias`",
        also=("kaneko2023_probe_grid",),
    ),
    Output(
        "kaneko2023_probe_summary",
        "results/kaneko2023/probe/{model}/{lang}/summary.json",
        "kaneko2023_probe",
        "TBS of one model, and P(male word), P(female word) over the neutral targets (Figure 2)",
        "JSON: tbs, n_targets, p_male, p_female, male_share, n_neutral, template, ...",
        also=("kaneko2023_probe_grid",),
    ),
    Output(
        "kaneko2023_probe_top",
        "results/kaneko2023/probe/{model}/{lang}/top.csv",
        "kaneko2023_probe",
        "the top-k fillers of Figure 3's masked sentence, classed by gender list",
        "`rank`, `token_id`, `token`, `word`, `prob`, `gender_class`",
        also=("kaneko2023_probe_grid",),
    ),
    Output(
        "kaneko2023_scores",
        "results/kaneko2023/scores.csv",
        "kaneko2023_table1",
        "every measure's score of every bias-controlled model (male-oriented and the "
        "paper-literal % stereotypical)",
        "`language`, `corpus`, `model`, `run`, `r`, `seed`, `measure`, `direction`, "
        "`score`, `n`, `n_unorientable`",
    ),
    Output(
        "kaneko2023_orientation",
        "results/kaneko2023/orientation.csv",
        "kaneko2023_table1",
        "per model, how many pairs could be oriented (male side found) and why not",
        "`language`, `corpus`, `model`, `run`, `r`, `seed`, `n_pairs`, `male_more`, "
        "`male_less`, `no_gender_word`, `one_side`, `same_gender`, `mixed`",
    ),
    Output(
        "kaneko2023_table1",
        "results/tables/kaneko2023_table1.csv",
        "kaneko2023_table1",
        "Kaneko et al. (2023), Table 1: Pearson and Spearman correlation of each measure "
        "with the male rate r, per language, corpus and base model; the paper's values as "
        "`reported`",
        "mgbias.finetune.meta_evaluation:TABLE1_COLUMNS",
    ),
    Output(
        "kaneko2023_table1_markdown",
        "results/tables/kaneko2023_table1.md",
        "kaneko2023_table1",
        "the same, laid out as the paper's Table 1",
        "Markdown",
    ),
    Output(
        "kaneko2023_mined",
        "results/tables/kaneko2023_mined.csv",
        "kaneko2023_mined",
        "D_f and D_m per source and language: sentences read, mined, with both genders, kept",
        "`source`, `lang`, then mgbias.finetune.gendered_text's counts",
    ),
    Output(
        "kaneko2023_mined_markdown",
        "results/tables/kaneko2023_mined.md",
        "kaneko2023_mined",
        "the same in Markdown",
        "Markdown",
    ),
    Output(
        "kaneko2023_figure2_table",
        "results/tables/kaneko2023_figure2.csv",
        "kaneko2023_figure2",
        "Figure 2's data: P(male word), P(female word) per r over the neutral targets",
        "`language`, `corpus`, `model`, `r`, `male_word`, `female_word`, `p_male`, "
        "`p_female`, `male_share`, `p_male_minus_r`, `n_targets`, `n_seeds`",
    ),
    Output(
        "kaneko2023_figure2",
        "results/figures/kaneko2023_figure2.png",
        "kaneko2023_figure2",
        "Kaneko et al. (2023), Figure 2: P(he) and P(she) per r",
        "PNG",
    ),
    Output(
        "kaneko2023_figure3_table",
        "results/tables/kaneko2023_figure3.csv",
        "kaneko2023_figure3",
        "Figure 3's data: the top predictions for a masked subject per r",
        "`language`, `corpus`, `model`, `run`, `r`, `seed`, `rank`, `token`, `word`, "
        "`prob`, `gender_class`",
    ),
    Output(
        "kaneko2023_figure3",
        "results/figures/kaneko2023_figure3.png",
        "kaneko2023_figure3",
        "Kaneko et al. (2023), Figure 3: top-5 predictions per r, coloured by gender list",
        "PNG",
    ),
]

_OUTPUTS = [
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
        also=("kaneko2023_score_unmasked",),
    ),
    Output(
        "score_pairs_unmasked",
        "results/score/pairs/{model}/{dataset}/{variant}/{lang}.unmasked.parquet",
        "score_pairs",
        "the unmasked pass over a pair benchmark (AUL, AULA)",
        "mgbias.mlm.unmasked_cache:COLUMNS",
        also=("kaneko2023_score_pairs",),
    ),
    Output(
        "score_pairs_masked",
        "results/score/pairs/{model}/{dataset}/{variant}/{lang}.masked.parquet",
        "score_pairs",
        "the masked passes over a pair benchmark (CPS, SSS, S_JSD)",
        "per pair and side (`a` = sent_more, `b` = sent_less): token ids, shared and "
        "modified positions with their log-probabilities, modified-token matrices, "
        "truncation flags; metadata: model id, revision, input sha256",
        also=("kaneko2023_score_pairs",),
    ),
    # rules/mbe.smk
    Output(
        "mbe_result",
        "results/mbe/{model}/{world}/{corpus}/{lang}.json",
        "mbe",
        "one MBE score (Kaneko et al. 2022, Eq. 2) with its significance test and the Shf baseline",
        "JSON: score, p_value, test, n_permutations, cluster and n_clusters (the test's "
        "units), b, c for McNemar, shf, counts",
    ),
    Output(
        "mbe_scores",
        "results/tables/mbe_scores.csv",
        "mbe_scores",
        "MBE per model, world, corpus and language: Kaneko et al. (2022), Table 2",
        "mgbias.report.tables:MBE_COLUMNS",
    ),
    Output(
        "mbe_scores_markdown",
        "results/tables/mbe_scores.md",
        "mbe_scores",
        "the same, laid out as the paper's Table 2 (‡ = significant)",
        "Markdown",
    ),
    Output(
        "mbe_figure",
        "results/figures/mbe_figure.png",
        "mbe_figure",
        "MBE per language and corpus, one panel per model and world",
        "PNG",
    ),
    Output(
        "mbe_preservation",
        "results/mbe/preservation/{world}/{corpus}/{lang}.json",
        "mbe_preservation",
        "gender preservation of one parallel corpus: mined male (female) sentences whose "
        "English side has he (she), and how many translations hold a translation of it",
        "JSON: `world`, `corpus`, `lang`, mgbias.kaneko2022.preservation:Preservation counts",
    ),
    Output(
        "mbe_figure2_table",
        "results/tables/mbe_figure2.csv",
        "mbe_figure2",
        "gender preservation per world, corpus, language and gender: Kaneko et al. (2022), "
        "Figure 2's data",
        "mgbias.kaneko2022.preservation:PRESERVATION_COLUMNS",
    ),
    Output(
        "mbe_figure2",
        "results/figures/mbe_figure2.png",
        "mbe_figure2",
        "gender preservation, bars for male and female sentences per language",
        "PNG",
    ),
    Output(
        "mbe_translated_result",
        "results/mbe/translated/{model}/{dataset}/{lang}.json",
        "mbe_translated",
        "MBE of one model over translated pairs, each sentence taking the gender of its "
        "English original (Kaneko et al. 2022, Tables 4-5, MBE row)",
        "JSON: `model`, `dataset`, `lang`, `english`, `mbe`, `mbe_p_value`, `n_male`, "
        "`n_female`, `n_excluded`, `weighting`, `model_id`",
    ),
    Output(
        "mbe_translations",
        "results/tables/mbe_translations.csv",
        "mbe_translations",
        "Eq. 3 (AULA) per language, model and method (HT, MT, Tmp) with Diff = method − HT: "
        "Kaneko et al. (2022), Tables 4 and 5",
        "mgbias.kaneko2022.translations:TRANSLATION_COLUMNS",
    ),
    Output(
        "mbe_translations_markdown",
        "results/tables/mbe_translations.md",
        "mbe_translations",
        "the same, one block per language as the paper's Tables 4 and 5 (‡ = significant)",
        "Markdown",
    ),
    Output(
        "mbe_pairs_result",
        "results/mbe/pairs/{model}/{dataset}/{lang}.json",
        "mbe_pairs",
        "Table 3 input, one model on one pair benchmark: the original score (Eq. 3, AULA) "
        "and MBE and Shf over its sentences classified by the English gender words",
        "JSON: mgbias.kaneko2022.meta:MODEL_COLUMNS",
    ),
    Output(
        "mbe_table3_models",
        "results/tables/mbe_table3_models.csv",
        "mbe_table3_models",
        "per model and pair benchmark: original score, MBE, Shf, sentence counts "
        "(Kaneko et al. 2022, the rows behind Table 3)",
        "mgbias.kaneko2022.meta:MODEL_COLUMNS",
    ),
    Output(
        "mbe_table3",
        "results/tables/mbe_table3.csv",
        "mbe_table3",
        "Shf and MBE against the original score across models: Spearman, Pearson, "
        "Direction, Diff, signed_diff (Kaneko et al. 2022, Table 3)",
        "mgbias.kaneko2022.meta:TABLE3_COLUMNS",
    ),
    Output(
        "mbe_table3_markdown",
        "results/tables/mbe_table3.md",
        "mbe_table3",
        "the same, laid out as the paper's Table 3 († = p < alpha), then the rows per model",
        "Markdown",
    ),
    # rules/pairs.smk
    Output(
        "pairs_measures",
        "results/pairs/measures/{model}/{dataset}/{variant}/{lang}.csv",
        "pair_measures",
        "one job's pair measures (AUL, AULA, CPS, SSS, S_JSD, binarized S_JSD), each with "
        "its length-matched score and length lean (mgbias.pairs.structure)",
        "mgbias.measures.registry:PAIR_SCORE_COLUMNS",
    ),
    Output(
        "pairs_per_pair",
        "results/pairs/per_pair/{model}/{dataset}/{variant}/{lang}.csv",
        "pair_measures",
        "one row per pair for error analysis: both sentences, each side's scores, the "
        "pair's S_JSD, shared/modified token counts and edge-case flags",
        "`pair_id`, `sent_more`, `sent_less`, `stereo_antistereo`, `bias_type`, `aul_more`, "
        "`aul_less`, `aula_more`, `aula_less`, `cps_more`, `cps_less`, `sss_more`, `sss_less`, "
        "`jsd_more`, `jsd_less`, `sjsd`, `n_shared`, `n_modified_more`, "
        "`n_modified_less`, then the edge flags of mgbias.measures.edges",
    ),
    Output(
        "pairs_scores",
        "results/tables/pairs_scores.csv",
        "pairs_scores",
        "every pair measure per model, dataset, variant and language, with SE and test",
        "mgbias.report.pair_tables:PAIR_COLUMNS",
    ),
    Output(
        "pairs_scores_markdown",
        "results/tables/pairs_scores.md",
        "pairs_scores",
        "the same, one block per dataset",
        "Markdown",
    ),
    Output(
        "pairs_by_model",
        "results/tables/pairs_by_model.csv",
        "pairs_by_model",
        "the pair measures as measures x models",
        "`dataset`, `variant`, `lang`, `measure`, then one score column per model",
    ),
    Output(
        "pairs_by_model_markdown",
        "results/tables/pairs_by_model.md",
        "pairs_by_model",
        "the same, with ± SE and ‡ marks",
        "Markdown",
    ),
    Output(
        "pairs_steinborn_table2",
        "results/tables/pairs_steinborn_table2.csv",
        "pairs_steinborn_table2",
        "S_JSD x 10^-3, CPS and binarized S_JSD ± SE per model and language: "
        "Steinborn et al. (2022), Table 2",
        "`model`, `lang`, then for `sjsd_x1e3`, `cps` and `bsjsd`: the score and its "
        "`_se`, `_p_value` and `_significant`",
    ),
    Output(
        "pairs_steinborn_table2_markdown",
        "results/tables/pairs_steinborn_table2.md",
        "pairs_steinborn_table2",
        "the same, laid out as the paper's Table 2",
        "Markdown",
    ),
    Output(
        "pairs_steinborn_table3",
        "results/tables/pairs_steinborn_table3.csv",
        "pairs_steinborn_table3",
        "S_JSD x 10^-3 and CPS ± SE, unperturbed and perturbed: Steinborn et al. (2022), Table 3",
        "`model`, `lang`, then for `unperturbed_` and `perturbed_` `sjsd_x1e3` and `cps`: "
        "the score and its `_se`, `_p_value` and `_significant`",
    ),
    Output(
        "pairs_steinborn_table3_markdown",
        "results/tables/pairs_steinborn_table3.md",
        "pairs_steinborn_table3",
        "the same, laid out as the paper's Table 3",
        "Markdown",
    ),
]

_OUTPUTS += _KANEKO2023

#: Zhao et al. (2020): static word vectors and inBias (``zhao2020:``).
_ZHAO2020 = [
    Output(
        "vectors",
        "models/vectors/{world}/{lang}.vec",
        "train_vectors",
        "skip-gram word vectors (fastText) of one world's monolingual text in one language",
        "fastText .vec: header `n d`, then a word and d floats per line, in fastText's "
        "frequency order",
    ),
    Output(
        "zhao2020_dictionaries",
        "data/demo/zhao2020/dictionaries",
        "demo_embedding_lists",
        "demo stand-ins for the MUSE bilingual dictionaries, split by concept",
        "directory: `{src}-{tgt}.0-5000.txt` (train) and `{src}-{tgt}.5000-6500.txt` (test), "
        "`source target` per line",
    ),
    Output(
        "zhao2020_mibs",
        "data/demo/zhao2020/mibs",
        "demo_embedding_lists",
        "demo stand-ins for the MIBs word lists: occupation (masculine, feminine) pairs, "
        "strong-gendered first, and gender seed pairs per language",
        "directory: `{lang}_male_def_occ`, `{lang}_female_def_occ`, `{lang}_gender_pairs.json`",
    ),
    Output(
        "raw_zhao2020",
        "data/raw/zhao2020/{source}/{filename}",
        "download_zhao2020",
        "a downloaded resource of the paper's configuration: published fastText vectors "
        "(`vectors`), a MUSE dictionary (`dictionaries`) or a MIBs word list (`mibs`)",
        "as served: `wiki.{lang}.vec`, `{src}-{tgt}.{0-5000,5000-6500}.txt`, "
        "`{lang}_{male,female}_def_occ`, `{lang}_gender_pairs.json`",
    ),
    Output(
        "raw_zhao2020_checksum",
        "data/raw/zhao2020/{source}/{filename}.sha256",
        "download_zhao2020",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    Output(
        "zhao2020_inbias",
        "results/zhao2020/inbias/{world}/{lang}.json",
        "zhao2020_inbias",
        "inBias (Zhao et al. 2020, Eq. 1) of one original space",
        "JSON: inbias, variant, n, n_listed, strong, weak, seeds",
    ),
    Output(
        "zhao2020_inbias_scores",
        "results/zhao2020/inbias/{world}/{lang}.csv",
        "zhao2020_inbias",
        "the per-occupation scores b_i behind one inBias",
        "`index`, `masculine`, `feminine`, `score`",
    ),
    Output(
        "zhao2020_inbias_original",
        "results/tables/zhao2020_inbias_original.csv",
        "zhao2020_inbias_original",
        "inBias of every original space per world and language (the diagonal of Zhao et "
        "al.'s Table 1, before alignment)",
        "`world`, `lang`, `variant`, `inbias`, `strong`, `weak`, `n`, `n_listed`",
    ),
    Output(
        "zhao2020_inbias_original_markdown",
        "results/tables/zhao2020_inbias_original.md",
        "zhao2020_inbias_original",
        "the same, languages by worlds",
        "Markdown",
    ),
    Output(
        "zhao2020_debiased",
        "models/vectors/debiased/{world}/{lang}.vec",
        "zhao2020_debias",
        "hard-debiased vectors (Bolukbasi et al. 2016) of one space: the paper's ENDEB",
        "fastText .vec, every word unit-length",
    ),
    Output(
        "zhao2020_debias_summary",
        "models/vectors/debiased/{world}/{lang}.json",
        "zhao2020_debias",
        "the gender direction, the definitional pairs used and skipped, the neutralised "
        "words and the equalised pairs of one hard debiasing",
        "JSON",
    ),
    Output(
        "zhao2020_aligned",
        "models/vectors/aligned/{world}/{src}-{tgt}.vec",
        "zhao2020_align",
        "the source space mapped into the target space by RCSLS (Joulin et al. 2018); "
        "`endeb` names the hard-debiased English space",
        "fastText .vec: the full source vocabulary, mapped and unit-length",
    ),
    Output(
        "zhao2020_align_matrix",
        "models/vectors/aligned/{world}/{src}-{tgt}.npy",
        "zhao2020_align",
        "the RCSLS map R of one alignment (`R @ x` maps a source vector)",
        "NumPy .npy, d x d float32",
    ),
    Output(
        "zhao2020_align_summary",
        "models/vectors/aligned/{world}/{src}-{tgt}.json",
        "zhao2020_align",
        "loss per step, learning rates, pair counts and settings of one alignment",
        "JSON",
    ),
    Output(
        "zhao2020_bli",
        "results/zhao2020/bli/{world}/{src}-{tgt}.json",
        "zhao2020_bli",
        "bilingual lexicon induction accuracy of one aligned space on the test dictionary",
        "JSON: per retrieval (`csls`, `nn`): accuracy (percent), n_correct, "
        "n_source_words, n_covered, k, maxload",
    ),
    Output(
        "zhao2020_inbias_space",
        "results/zhao2020/inbias_spaces/{world}/{src}-{tgt}.json",
        "zhao2020_inbias_space",
        "inBias of the source language's words in an aligned space (`{src}-{src}`: the "
        "debiased space itself), tested against the original space",
        "JSON: inbias, variant, n, n_listed, strong, weak, t_statistic, p_value, paired, seeds",
    ),
    Output(
        "zhao2020_inbias_space_scores",
        "results/zhao2020/inbias_spaces/{world}/{src}-{tgt}.csv",
        "zhao2020_inbias_space",
        "the per-occupation scores b_i behind one inBias of an aligned or debiased space",
        "`index`, `masculine`, `feminine`, `score`",
    ),
    Output(
        "zhao2020_grid",
        "results/tables/zhao2020_grid.csv",
        "zhao2020_grid",
        "inBias (with the t-test against the original space) and BLI of every original, "
        "aligned and debiased space: every cell of Zhao et al. (2020), Tables 1-4, 12 and "
        "13 in one tidy table, from which those tables are cut",
        "`world`, `src`, `tgt` (`src` = `tgt`: an original space or ENDEB itself), "
        "`inbias`, `strong`, `weak`, `n`, `p_value`, `significant`, `bli_csls`, `bli_nn`, "
        "`paper_used_published_alignment`",
    ),
]

_ZHAO2020_INBIAS_CELLS = (
    "`world`, `row`, `col` (the paper's labels), `src`, `tgt` (the spaces), `inbias`, "
    "`n`, `p_value`, `star` (p < 0.05), `paper_used_published_alignment`; NaN: no value"
)
_ZHAO2020_BLI_CELLS = (
    "`world`, `row`, `col`, `src`, `tgt`, `bli_csls` (%), `bli_nn` (%), "
    "`paper_used_published_alignment`; NaN: no value"
)
_ZHAO2020_SPLIT_CELLS = (
    "`world`, `row` (Strong-gendered, Weak-gendered), `col`, `src`, `tgt`, `inbias`"
)
for _table, _holds, _columns in (
    ("table1", "inBias before (diagonal) and after alignment, source "
     "language by target space, with the t-test's stars", _ZHAO2020_INBIAS_CELLS),
    ("table2", "BLI accuracy (CSLS, k = 10) of every alignment, source "
     "by target", _ZHAO2020_BLI_CELLS),
    ("table12", "English inBias of the strong- and weak-gendered pairs, "
     "in EN and EN aligned to each language", _ZHAO2020_SPLIT_CELLS),
    ("table3", "inBias with ENDEB: ENDEB and ENDEB->X (tested "
     "against original EN), X->ENDEB and original X", _ZHAO2020_INBIAS_CELLS),
    ("table4", "BLI accuracy of ENDEB->X and X->ENDEB",
     _ZHAO2020_BLI_CELLS),
    ("table13", "ENDEB inBias of the strong- and weak-gendered "
     "pairs, in ENDEB and ENDEB aligned to each language", _ZHAO2020_SPLIT_CELLS),
):  # fmt: skip
    _number = _table.removeprefix("table")
    _ZHAO2020 += [
        Output(
            f"zhao2020_{_table}",
            f"results/tables/zhao2020_{_table}.csv",
            f"zhao2020_{_table}",
            f"Zhao et al. (2020), Table {_number}: {_holds}; one row per cell",
            _columns,
        ),
        Output(
            f"zhao2020_{_table}_markdown",
            f"results/tables/zhao2020_{_table}.md",
            f"zhao2020_{_table}",
            f"the same, laid out as the paper's Table {_number}, per world",
            "Markdown",
        ),
    ]
_ZHAO2020 += [
    Output(
        "zhao2020_figure1",
        "results/figures/zhao2020_figure1.png",
        "zhao2020_figure1",
        "Zhao et al. (2020), Figure 1: projections of gendered word pairs (masculine, "
        "feminine) and of the seed averages on the gender direction (female minus male "
        "seeds: positive = feminine), in one language's space and aligned to others",
        "PNG, one row of panels per world",
    ),
    Output(
        "zhao2020_figure1_data",
        "results/tables/zhao2020_figure1.csv",
        "zhao2020_figure1",
        "the projections plotted in Figure 1",
        "`world`, `space`, `pair`, `word`, `gender` (M, F, Avg-M, Avg-F), `projection`",
    ),
]
_OUTPUTS += _ZHAO2020

#: Basta et al. (2020): contextual-embedding probes (``basta2020:``).
_BASTA2020 = [
    Output(
        "raw_basta2020",
        "data/raw/basta2020/{world}/{domain}/{filename}",
        "download_basta2020",
        "a downloaded corpus of one probe domain (OPUS moses zip, gzip or plain text)",
        "as served; the file name is the URL's",
    ),
    Output(
        "raw_basta2020_checksum",
        "data/raw/basta2020/{world}/{domain}/{filename}.sha256",
        "download_basta2020",
        "the sha256 of the download, in `sha256sum` format",
        "`<hex digest>  <file name>`",
    ),
    Output(
        "basta2020_corpus",
        "data/mined/basta2020/{world}/{domain}.txt",
        "basta2020_corpus",
        "the sentences of one probe domain (the configured member of the download), at "
        "most `max_lines`",
        "UTF-8 text, one sentence per line",
    ),
    Output(
        "basta2020_plan",
        "results/basta2020/vectors/{model}/{world}/{domain}.plan.json",
        "basta2020_vectors",
        "the probe plan: sentences, swapped twins of Exp. 1, target words and their roles",
        "JSON (mgbias.contextual.plan.ProbePlan.to_dict)",
    ),
    Output(
        "basta2020_vectors",
        "results/basta2020/vectors/{model}/{world}/{domain}.safetensors",
        "basta2020_vectors",
        "pooled hidden states of the plan's target words, every layer, with the model id, "
        "revision and input hash in the header (the vector cache)",
        "safetensors: `vectors` (targets x layers x hidden), `found`, target indices",
    ),
    Output(
        "basta2020_probes",
        "results/basta2020/probes/{model}/{world}/{domain}.csv",
        "basta2020_probes",
        "Exp. 1-5 of one encoder on one domain, every layer",
        "mgbias.contextual.run:COLUMNS",
    ),
    Output(
        "basta2020_summary",
        "results/basta2020/probes/{model}/{world}/{domain}.json",
        "basta2020_probes",
        "every result object per layer and Table 1's counts",
        "JSON: `layers` (pca, direct_bias, clustering, classification, knn; with nouns of "
        "grammatical gender (es, fr, de) also grammatical_gender: Exp. 6-9), `table1`, "
        "`lists`, `grammatical_gender_lists`",
    ),
    Output(
        "basta2020_results",
        "results/tables/basta2020_results.csv",
        "basta2020_results",
        "every probe result: the long table behind Tables 2-5 and Figures 2-5",
        "`model`, `world`, `domain`, `lang`, then mgbias.contextual.run:COLUMNS",
    ),
    Output(
        "basta2020_table1",
        "results/tables/basta2020_table1.csv",
        "basta2020_table1",
        "Basta et al. (2020), Table 1: per domain, lines, lines in direct bias, professions "
        "in KNN, female shares, biased words, swapped pairs",
        "`model`, `world`, `domain`, `lang`, `statistic`, `value`",
    ),
    Output(
        "basta2020_table1_markdown",
        "results/tables/basta2020_table1.md",
        "basta2020_table1",
        "the same, statistics by domains, one table per model and world",
        "Markdown",
    ),
    Output(
        "basta2020_tables2to5",
        "results/tables/basta2020_tables2to5.md",
        "basta2020_tables2to5",
        "Basta et al. (2020), Tables 2-5: one table per domain, rows direct bias, "
        "clustering, classification and KNN, columns the layers; mean (max-min) over runs",
        "Markdown",
    ),
    Output(
        "basta2020_pca_variance",
        "results/figures/basta2020_pca_variance.png",
        "basta2020_pca_variance",
        "Basta et al. (2020), Figures 2-5: variance explained by the 10 components of the "
        "swap PCA, per domain, in the last layer and the concatenation",
        "PNG",
    ),
    Output(
        "basta2020_clusters",
        "results/figures/basta2020_clusters.png",
        "basta2020_clusters",
        "Basta et al. (2020), Figure 6: the biased words of Exp. 3 in 2-D (PCA of one "
        "occurrence each) in the last layer, coloured by k-means cluster, marked by their "
        "original label, one panel per encoder, world and domain",
        "PNG",
    ),
    Output(
        "basta2020_layers",
        "results/figures/basta2020_layers.png",
        "basta2020_layers",
        "every measure per layer, one curve per domain (beyond the paper's two layers)",
        "PNG",
    ),
    Output(
        "basta2020_table6",
        "results/tables/basta2020_table6.csv",
        "basta2020_table6",
        "Basta et al. (2020), Table 6 (Exp. 7): direct bias of the feminine, masculine and all "
        "forms of Spanish professions on the semantic direction d_s and the grammatical d_g, "
        "every layer",
        "`model`, `world`, `domain`, `lang`, `layer`, `direction`, `forms`, `direct_bias`, "
        "`n_occurrences`",
    ),
    Output(
        "basta2020_table6_markdown",
        "results/tables/basta2020_table6.md",
        "basta2020_table6",
        "the same, forms by direction and layer (the last layer and the concatenation)",
        "Markdown",
    ),
    Output(
        "basta2020_table7",
        "results/tables/basta2020_table7.csv",
        "basta2020_table7",
        "Basta et al. (2020), Table 7 (Exp. 8-9): classification and clustering accuracy of "
        "the semantic and the grammar biased lists, with Exp. 6's LDA accuracy (held out by "
        "noun type) and <d_pca, d_g>, every layer",
        "`model`, `world`, `domain`, `lang`, `layer`, `list`, `experiment`, `mean`, `min`, "
        "`max`, `range`, `n_items`, `n_runs`",
    ),
    Output(
        "basta2020_table7_markdown",
        "results/tables/basta2020_table7.md",
        "basta2020_table7",
        "the same, lists by experiment, per layer (the last layer and the concatenation)",
        "Markdown",
    ),
    Output(
        "basta2020_figure1",
        "results/figures/basta2020_figure1.png",
        "basta2020_figure1",
        "Basta et al. (2020), Figure 1: occurrences of the most frequent professions in each "
        "domain's corpus",
        "PNG",
    ),
    Output(
        "basta2020_figure7",
        "results/figures/basta2020_figure7.png",
        "basta2020_figure7",
        "Basta et al. (2020), Figure 7: variance explained by the 10 components of the swap "
        "PCA in the Spanish domains",
        "PNG",
    ),
    Output(
        "basta2020_figure8",
        "results/figures/basta2020_figure8.png",
        "basta2020_figure8",
        "Basta et al. (2020), Figure 8: Spanish nouns on the semantic (x) and the grammatical "
        "(y) direction, coloured by grammatical gender, in the last layer",
        "PNG",
    ),
    Output(
        "basta2020_figure9",
        "results/figures/basta2020_figure9.png",
        "basta2020_figure9",
        "Basta et al. (2020), Figure 9: Spanish profession forms on the semantic (x) and the "
        "grammatical (y) direction, coloured by grammatical gender, in the last layer",
        "PNG",
    ),
]
_OUTPUTS += _BASTA2020

#: Zhao et al. (2020), §4: multilingual BiosBias from Common Crawl (``bios:``).
_BIOS = [
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
_OUTPUTS += _BIOS


#: Where each table's provenance record goes: one per rule writing under results/tables.
PROVENANCE_TABLES = "results/provenance/tables"


def _provenance_outputs(outputs: list[Output]) -> list[Output]:
    """The provenance record of every rule that writes a table (``results/tables/``)."""
    rules = dict.fromkeys(
        output.rule for output in outputs if output.template.startswith("results/tables/")
    )
    return [
        Output(
            f"{rule}_provenance",
            f"{PROVENANCE_TABLES}/{rule}.json",
            rule,
            f"the provenance of `{rule}`'s table (mgbias.provenance): mgbias version and git "
            "commit, the models' weights sha256, the pair data's sha256, every input's "
            "sha256, the settings, the outputs' sha256, start and end time",
            "JSON",
        )
        for rule in rules
    ]


_OUTPUTS += _provenance_outputs(_OUTPUTS)

#: The jobs that draw random numbers from a seed of their own (``params.seed``, or
#: ``params.seeds`` for a job of several seeded runs, derived from the configuration's
#: ``seed`` per job, :mod:`mgbias.seeds`; the fine-tunings' and the probes' seed sits in
#: their settings) and write files: each writes a record beside its first output that
#: holds the seed it used (``seed``). With it, ``mgbias score --seed`` or ``mgbias mbe
#: --seed`` gives a pair-measure or MBE job's numbers, standard errors included.
SEEDED_JOB_RULES = (
    "demo_world",
    "demo_pairs",
    "demo_mt_pairs",
    "demo_embedding_lists",
    "pair_measures",
    "mbe",
    "mbe_pairs",
    "mbe_translated",
    "mine_gendered",
    "mine_controlled",
    "mix_controlled",
    "native_name_pairs",
    "train_mlm",
    "finetune_mlm",
    "kaneko2023_finetune_grid",
    "bios_plan",
    "download_bios_shard",
    "bios_dataset",
    "bios_split",
    "bios_classifier",
    "bios_finetune",
    "train_vectors",
    "zhao2020_align",
    "basta2020_vectors",
    "basta2020_probes",
    "basta2020_clusters",
)
#: The suffix of a seeded job's record (the command line's sidecars have the same).
JOB_RECORD_SUFFIX = ".provenance.json"
#: The records of seeded rules without wildcards whose first output has some (the demo's
#: pair files, one per language, are written by one job): beside the rule's data.
_JOB_RECORD_AT = {"demo_pairs": f"data/demo/demo_pairs{JOB_RECORD_SUFFIX}"}


def _job_provenance_outputs(outputs: list[Output], rules: tuple[str, ...]) -> list[Output]:
    """The record of each job of ``rules``: ``<its first output>.provenance.json``, keyed
    ``<rule>_provenance``; rules sharing their first output (``models/{model}``: trained
    or fine-tuned) share one record kind, keyed ``<that output's key>_provenance``."""
    first: dict[str, Output] = {}
    for output in outputs:
        for rule in output.rules:
            first.setdefault(rule, output)
    sharing: dict[str, list[str]] = {}
    for rule in rules:
        sharing.setdefault(first[rule].key, []).append(rule)
    records = []
    for key, owners in sharing.items():
        rule = owners[0]
        records.append(
            Output(
                f"{rule if len(owners) == 1 else key}_provenance",
                _JOB_RECORD_AT.get(rule, first[rule].template + JOB_RECORD_SUFFIX),
                rule,
                f"the provenance of one `{'`/`'.join(owners)}` job (mgbias.provenance), as "
                "a table's record is, with the `seed` (or, for a job of several runs, the "
                "list of seeds) the job drew its random numbers from",
                "JSON",
                also=tuple(owners[1:]),
            )
        )
    return records


_JOB_RECORDS = _job_provenance_outputs(_OUTPUTS, SEEDED_JOB_RULES)
_OUTPUTS += _JOB_RECORDS
#: The record kind of each seeded rule's jobs.
JOB_RECORDS: dict[str, Output] = {rule: output for output in _JOB_RECORDS for rule in output.rules}
_OUTPUTS.append(
    Output(
        "provenance_summary",
        "results/provenance/summary.csv",
        "provenance_summary",
        "one row per table of the run: its rule, mgbias version and commit, the models "
        "with their weights sha256, the pair data's sha256, seed, device and the times "
        "(the report's Provenance page)",
        "mgbias.provenance:SUMMARY_COLUMNS",
    )
)

#: Every output, by key.
OUTPUTS: dict[str, Output] = {output.key: output for output in _OUTPUTS}


def provenance_record(table: str) -> str | None:
    """The provenance record of a concrete table path, or None if it is no table."""
    output = matching_output(table)
    if output is None or not output.template.startswith("results/tables/"):
        return None
    key = f"{output.rule}_provenance"
    return OUTPUTS[key].template if key in OUTPUTS else None


_RULE_FILE_OF_DATA = {"demo": "demo.smk", "raw": "download.smk", "mined": "mine.smk"}
#: The families whose own rule file mines a dataset under ``data/mined/<family>/``.
_RULE_FILE_OF_MINED = {"bios": "bios.smk", "basta2020": "basta2020.smk"}


def template(key: str) -> str:
    """The path template of ``key``, wildcards unformatted (for rule outputs)."""
    try:
        return OUTPUTS[key].template
    except KeyError:
        raise KeyError(
            f"no output {key!r} in mgbias.workflow.layout; known: {sorted(OUTPUTS)}"
        ) from None


def path(key: str, **wildcards: object) -> str:
    """The path of ``key`` with its wildcards filled in (for input functions).

    Every wildcard of the template must be given, and no other.
    """
    pattern = template(key)
    needed = set(wildcard_names(pattern))
    if set(wildcards) != needed:
        raise ValueError(
            f"layout.path({key!r}): expected wildcards {sorted(needed)}, got {sorted(wildcards)}"
        )
    return pattern.format(**wildcards)


def wildcard_names(pattern: str) -> list[str]:
    """The wildcard names of a template, in order, each once."""
    names = re.findall(r"{(\w+)(?:,[^}]*)?}", pattern)
    return list(dict.fromkeys(names))


def rule_file(pattern: str) -> str:
    """The rule file that, by the convention, writes paths starting like ``pattern``."""
    parts = PurePosixPath(pattern).parts
    if parts[:2] == ("data", "mined") and len(parts) > 3 and parts[2] in _RULE_FILE_OF_MINED:
        return _RULE_FILE_OF_MINED[parts[2]]
    if parts[0] == "data" and len(parts) > 1 and parts[1] in _RULE_FILE_OF_DATA:
        return _RULE_FILE_OF_DATA[parts[1]]
    if parts[0] == "models":
        return "models.smk"
    if parts[0] == "results" and len(parts) > 3 and parts[1:3] == ("provenance", "tables"):
        return parts[3].split("_", 1)[0].split(".", 1)[0] + ".smk"
    if parts[0] == "results" and len(parts) > 2:
        if parts[1] in ("tables", "figures"):
            return parts[2].split("_", 1)[0].split(".", 1)[0] + ".smk"
        return parts[1] + ".smk"
    raise ValueError(f"{pattern!r} follows no layout convention (see mgbias.workflow.layout)")


def matching_output(concrete: str) -> Output | None:
    """The output whose template matches the concrete path ``concrete``, if any.

    When several match (``{filename}`` and ``{filename}.sha256``), the most
    specific one wins: the template with the most literal characters.
    """
    matches = [
        (literal, output) for regex, literal, output in _matchers() if regex.fullmatch(concrete)
    ]
    return max(matches, key=lambda match: match[0], default=(0, None))[1]


@functools.cache
def _matchers() -> list[tuple[re.Pattern, int, Output]]:
    """Each output's template as a regex (a wildcard matches one path part) and its
    number of literal characters, in the order of the outputs; compiled once (the
    workflow asks for the record of every table it plans)."""
    return [
        (
            re.compile(re.sub(r"\\{\w+\\}", "[^/]+", re.escape(output.template))),
            len(re.sub(r"{\w+}", "", output.template)),
            output,
        )
        for output in _OUTPUTS
    ]


#: The fields of a provenance record and a sidecar (docs/outputs.md): name, where, what.
PROVENANCE_FIELDS = [
    (
        "`mgbias.version`",
        "both",
        "the mgbias version (installed metadata, else the source tree's `pyproject.toml`)",
    ),
    (
        "`mgbias.git`",
        "both",
        "`commit` and `dirty` (tracked files changed) of the source tree, or null "
        "outside a git checkout",
    ),
    (
        "`python`, `libraries`",
        "both",
        "the Python version; the versions of torch, transformers, numpy, pandas, "
        "scipy, ... that the process had imported (none is imported for the record)",
    ),
    (
        "`installed`",
        "both",
        "the installed versions of the same libraries (package metadata): for a table "
        "whose job imported no torch, the versions the model jobs ran with",
    ),
    (
        "`started`, `finished`",
        "both",
        "when the job or command started and ended, ISO 8601 in UTC (`2026-01-31T12:00:00Z`)",
    ),
    (
        "`output`",
        "sidecar",
        "the output's path and, for a file, its sha256",
    ),
    (
        "`command`, `subcommand`, `arguments`, `config`",
        "sidecar",
        "the command line, every option's value and the `--config` file",
    ),
    (
        "`model`",
        "sidecar",
        "`id`, `revision`, `dtype` (as `config.json` names it), `weights` (file name "
        "to sha256 of `model.safetensors`, `pytorch_model.bin` or their shards) and "
        "`tokenizer` (file name to sha256 of `tokenizer.json`, `vocab.txt`, "
        "`tokenizer_config.json`, ... as found; `tokenizer_path` when read from another "
        "directory); a hub id also `commit`, the cached snapshot (never downloaded for "
        "the record)",
    ),
    (
        "`data`",
        "sidecar (`score`)",
        "the dataset as given (`name`), the file read (`path`) and its `sha256`",
    ),
    (
        "`inputs`",
        "both",
        "per option (sidecar) or named rule input (record), each input file's sha256;"
        " the record leaves out the library code, which `mgbias.git` names",
    ),
    (
        "`bias_type`, `language`, `measures`, `seed`, `tie_rule`, `alpha`, "
        "`batch_size`, `device`, `precision`, `revision`",
        "sidecar",
        "the settings, where the command has them; `device` is the one used (`auto` "
        "resolved); `precision` the `--precision` given (`fp32` by default), without "
        "such an option the weights' stored `dtype`",
    ),
    (
        "`rule`, `wildcards`, `params`",
        "record",
        "the job",
    ),
    (
        "`seed`",
        "record",
        "the seed a seeded job used (also in `params`), derived from the configuration's "
        "`seed` per job: `mgbias score --seed` or `mgbias mbe --seed` with it gives the "
        "job's numbers, standard errors and p-values included",
    ),
    (
        "`settings`",
        "record",
        "the configuration's `seed`, `languages`, `pair_measures`, `pair_tie_rule`, "
        "`pair_alpha`, `scoring` (batch size, device, precision) and `mbe` sections",
    ),
    (
        "`config_sha256`, `config_files`",
        "record",
        "the sha256 of the whole configuration (canonical JSON); the configuration files "
        "of the run (`--configfile`) with their sha256",
    ),
    (
        "`models`",
        "record",
        "per configured model behind the table's inputs: its fingerprint, as `model` "
        "above (a workflow-trained model: `models/<name>`)",
    ),
    (
        "`data`",
        "record",
        "the sha256 of each downloaded pair benchmark and parallel corpus behind the "
        "table's inputs",
    ),
    (
        "`outputs`",
        "record",
        "the sha256 of each file the job wrote (the table and its Markdown copy)",
    ),
]


#: The end of docs/outputs.md: the provenance records' fields and the files' modes.
PROVENANCE_AND_MODES = """
## Provenance

Every table of the workflow has a record, `results/provenance/tables/<rule>.json`,
written by the table's own job (a declared output of its rule: a failed or killed job
leaves no record, a rerun rewrites it); so has every job that draws random numbers from
a seed of its own and writes files (the pair measures, MBE, mining, bios dataset and
split, vector training and alignment jobs: `<first output>.provenance.json`), with the
`seed` it used.
`results/provenance/summary.csv` gathers the tables' records, one row per table, and is
the Provenance page of `make report`. Every output of the `mgbias` command line (every
option of the output types of `mgbias.cli.options`) has a sidecar beside it,
`<output>.provenance.json` (for a directory output such as a fine-tuned model:
`<directory>/provenance.json`). Both are JSON with sorted keys (`mgbias.provenance`):

{fields}

The times are the only fields that differ between two runs of the same configuration;
they live only in these records, never in the tables, and no rule reads a record but
the summary, so they never make Snakemake rerun a job.

## File modes

Every file written through `mgbias.files.atomic` (every table, figure, cache, model and
record) gets the mode `open()` would give it: `0o666` less the umask, and every
directory `0o777` less the umask. Under umask `022` files are `0644` and directories
`0755`, readable by colleagues on a shared file system; under umask `077` they are
`0600` and `0700`.
"""


def _columns(spec: str) -> str:
    if re.fullmatch(r"[\w.]+:[A-Z_]+", spec):
        module, name = spec.split(":")
        return ", ".join(f"`{c}`" for c in getattr(importlib.import_module(module), name))
    return spec


def outputs_markdown() -> str:
    """docs/outputs.md: path, rule, rule file, what it holds and its columns."""
    lines = [
        "# Outputs",
        "",
        "Generated from `src/mgbias/workflow/layout.py`",
        "(`python -m mgbias.workflow.layout > docs/outputs.md`); a test keeps it current.",
        "The first directories of a path name the rule file that writes it, and a table's",
        "or figure's file name is the rule's name. Logs are under `logs/<rule>/`.",
        "",
        "| path | rule | rule file | holds | columns |",
        "|---|---|---|---|---|",
    ]
    records_listed = False
    for output in _OUTPUTS:
        if output.template.startswith(f"{PROVENANCE_TABLES}/"):
            if records_listed:
                continue
            records_listed = True  # one row for the records of every table rule
            output = Output(
                output.key,
                f"{PROVENANCE_TABLES}/{{rule}}.json",
                "{rule}",
                "the provenance record of a table, one per rule writing under "
                "`results/tables/` (mgbias.provenance; see the fields below)",
                "JSON",
            )
            cells = [
                f"`{output.template}`",
                "every table's rule",
                "the table's rule file",
                output.holds,
                output.columns,
            ]
            lines.append("| " + " | ".join(cells) + " |")
            continue
        cells = [
            f"`{output.template}`",
            ", ".join(f"`{rule}`" for rule in output.rules),
            f"`rules/{rule_file(output.template)}`",
            output.holds,
            _columns(output.columns).replace("|", "\\|"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    fields = ["| field | in | holds |", "|---|---|---|"]
    fields += [f"| {name} | {where} | {holds} |" for name, where, holds in PROVENANCE_FIELDS]
    return "\n".join(lines) + "\n" + PROVENANCE_AND_MODES.replace("{fields}", "\n".join(fields))


#: What ``make clean-results`` removes besides the layout's folders: the job logs.
CLEAN_EXTRA = ("logs",)


def top_folder(pattern: str) -> str:
    """The folder ``make clean-results`` removes to remove the files of ``pattern``.

    Its first two directories (``results/tables``, ``data/raw``), or only the
    first where the second is a wildcard (``models/{model}`` -> ``models``).
    ``data`` and ``results`` are never removed whole: they hold tracked files
    (``.gitkeep``) and, in ``data/``, one's own corpora.
    """
    parts = PurePosixPath(pattern).parts[:2]
    if "{" in parts[-1]:
        parts = parts[:-1]
    folder = "/".join(parts)
    if folder in ("data", "results"):
        raise ValueError(
            f"{pattern!r}: a wildcard right below {folder}/ (see mgbias.workflow.layout)"
        )
    return folder


def clean_targets() -> list[str]:
    """What ``make clean-results`` removes: every output's :func:`top_folder`, and logs.

    Sorted, each once, none inside another (``models`` covers ``models/vectors``).
    """
    folders = sorted({top_folder(output.template) for output in _OUTPUTS} | set(CLEAN_EXTRA))
    return [
        folder
        for folder in folders
        if not any(folder.startswith(other + "/") for other in folders if other != folder)
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m mgbias.workflow.layout``: docs/outputs.md, or ``--clean-targets``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mgbias.workflow.layout",
        description="Print docs/outputs.md, generated from the layout.",
    )
    parser.add_argument(
        "--clean-targets",
        action="store_true",
        help="print instead the folders make clean-results removes, one per line",
    )
    args = parser.parse_args(argv)
    if args.clean_targets:
        print("\n".join(clean_targets()))
    else:
        print(outputs_markdown(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
