"""The outputs of Zhao et al. (2020): static word vectors and inBias
(``rules/zhao2020.smk``).
"""

from __future__ import annotations

from mgbias.workflow.layout.output import Output

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
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
        "JSON: inbias, se, variant, n, n_listed, strong, weak, seeds",
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
        "n_source_words, n_covered, k, maxload, ci_low and ci_high (its 95% interval)",
    ),
    Output(
        "zhao2020_inbias_space",
        "results/zhao2020/inbias_spaces/{world}/{src}-{tgt}.json",
        "zhao2020_inbias_space",
        "inBias of the source language's words in an aligned space (`{src}-{src}`: the "
        "debiased space itself), tested against the original space",
        "JSON: inbias, se, variant, n, n_listed, strong, weak, t_statistic, p_value, paired, seeds",
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
        "mgbias.report.zhao2020:GRID_COLUMNS",
    ),
]

_ZHAO2020_INBIAS_CELLS = "mgbias.report.zhao2020_tables:INBIAS_COLUMNS"
_ZHAO2020_BLI_CELLS = "mgbias.report.zhao2020_tables:BLI_COLUMNS"
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
    OUTPUTS += [
        Output(
            f"zhao2020_{_table}",
            f"results/tables/zhao2020_{_table}.csv",
            f"zhao2020_{_table}",
            f"Zhao et al. (2020), Table {_number}: {_holds}; one row per cell, NaN where "
            "it has no value",
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
OUTPUTS += [
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
