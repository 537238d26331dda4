# mgbias: gender bias in masked language models across languages.
#
#   snakemake                                   # the embedded demo (config/config.yaml)
#   snakemake --configfile config/paper.yaml    # Kaneko et al. (2022), Tables 1-2;
#                                               # Steinborn et al. (2022), Tables 2-3;
#                                               # Kaneko et al. (2023), Table 1, Figs 2-3;
#                                               # Basta et al. (2020), Tables 1-5, Figs 2-5
#                                               # Zhao et al. (2020), Table 5 (bios)
#
# This file is a table of contents: configuration, rule files, targets.
#
# Where things go: the first directories of a path name the rule file that
# writes it, and a table's or figure's file name is the name of its rule.
#
#   data/demo/**                              rules/demo.smk
#   data/raw/**                               rules/download.smk
#   data/mined/bios/**                        rules/bios.smk
#   data/mined/basta2020/**                   rules/basta2020.smk
#   data/mined/**                             rules/mine.smk
#   models/**                                 rules/models.smk
#   results/<family>/**                       rules/<family>.smk
#   results/{tables,figures}/<family>_*       rules/<family>.smk
#   results/provenance/tables/<family>_*      rules/<family>.smk (each table's record)
#   results/provenance/summary.csv            rules/provenance.smk
#   logs/<rule>/**                            the rule's log
#
# Every path template is defined once, in src/mgbias/workflow/layout.py; docs/outputs.md
# lists them with what they hold.
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
include: "rules/kaneko2023.smk"
include: "rules/zhao2020.smk"
include: "rules/basta2020.smk"
include: "rules/bios.smk"
include: "rules/provenance.smk"


rule all:
    default_target: True
    input:
        mbe.targets(config),
        pairs.targets(config),
        kaneko2023.targets(config),
        zhao2020.targets(config),
        basta2020.targets(config),
        bios_targets(),
        out("provenance_summary"),
