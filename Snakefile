# mgbias: gender bias in masked language models across languages.
#
#   snakemake                                   # the embedded demo (config/config.yaml)
#   snakemake --configfile config/paper.yaml    # Kaneko et al. (2022), Tables 1-2;
#                                               # Steinborn et al. (2022), Tables 2-3
#
# This file is a table of contents: configuration, rule files, targets.
from snakemake.utils import min_version

min_version("9.0")


if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/demo.smk"
include: "rules/download.smk"
include: "rules/mine.smk"
include: "rules/models.smk"
include: "rules/score.smk"
include: "rules/mbe.smk"
include: "rules/pairs.smk"


rule all:
    default_target: True
    input:
        "results/tables/mined_sentences.csv",
        "results/tables/mbe_scores.csv",
        "results/figures/mbe_scores.png",
        pair_targets(),
