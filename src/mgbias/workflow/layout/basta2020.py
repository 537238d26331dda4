"""The outputs of Basta et al. (2020): contextual-embedding probes
(``rules/basta2020.smk``).
"""

from __future__ import annotations

from mgbias.workflow.layout.output import Output

#: The outputs, in the order docs/outputs.md lists them.
OUTPUTS = [
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
