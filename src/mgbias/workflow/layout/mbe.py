"""The outputs of Kaneko et al. (2022), MBE and its studies (``rules/mbe.smk``)."""

from __future__ import annotations

from mgbias.workflow.layout.output import Output

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
    # rules/mbe.smk
    Output(
        "mbe_result",
        "results/mbe/{model}/{world}/{corpus}/{lang}.json",
        "mbe",
        "one MBE score (Kaneko et al. 2022, Eq. 2) with its significance test and the Shf baseline",
        "JSON: score, p_value, test, n_permutations, cluster and n_clusters (the test's "
        "units), b, c for McNemar, shf, counts, and the sets' lengths (length_male, "
        "length_female, length_p_value, length_rho, length_rho_p_value, length_lean)",
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
        "the same, laid out as the paper's Table 2 (‡ = significant; § = the sets' "
        "lengths may decide)",
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
]
