"""The outputs of Kaneko et al. (2023): the bias-controlled models' probes, scores and
tables (``rules/kaneko2023.smk``).
"""

from __future__ import annotations

from mgbias.workflow.layout.output import Output

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
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
        "mgbias.report.kaneko2023_figures:FIGURE2_COLUMNS",
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
