"""The outputs of the pair measures and Steinborn et al. (2022)'s tables (``rules/pairs.smk``)."""

from __future__ import annotations

from mgbias.workflow.layout.output import Output

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
    # rules/pairs.smk
    Output(
        "pairs_measures",
        "results/pairs/measures/{model}/{dataset}/{variant}/{lang}.csv",
        "pair_measures",
        "one job's pair measures (AUL, AULA, CPS, SSS, S_JSD, binarized S_JSD), each with "
        "its length-matched score and length lean (mgbias.pairs.structure)",
        "mgbias.measures.measure:PAIR_SCORE_COLUMNS",
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
