"""Plain functions the Snakemake rules use to plan jobs from the config.

Kept outside the rule files so that they are unit-tested like the rest of the library;
nothing here touches data. :mod:`mgbias.workflow.core` holds the planning every stage
shares (worlds, models, MBE, pair benchmarks, the job lists of Kaneko et al. 2023 and
Basta et al. 2020); the corpora and the demo world have their modules
(:mod:`~mgbias.workflow.corpora`, :mod:`~mgbias.workflow.demo`), and so has a family's own
planning (:mod:`~mgbias.workflow.pairs`, :mod:`~mgbias.workflow.zhao2020`,
:mod:`~mgbias.workflow.bios`, :mod:`~mgbias.workflow.mbe`,
:mod:`~mgbias.workflow.kaneko2023`, :mod:`~mgbias.workflow.basta2020`), imported by
``rules/common.smk``; the rules pass their wildcards as strings, through a lambda or an
adapter of ``rules/common.smk``. The machinery the rules share lives here too: the output paths
(:mod:`~mgbias.workflow.layout`), the code inputs (:mod:`~mgbias.workflow.code_inputs`),
the jobs' logs (:mod:`~mgbias.workflow.runlog`), the config's locations
(:mod:`~mgbias.workflow.config_locations`), the DVC stages
(:mod:`~mgbias.workflow.dvc_pipeline`), sharing (:mod:`~mgbias.workflow.share`) and
SLURM (:mod:`~mgbias.workflow.slurm`). The modules sit at different layers
(``[tool.importlinter]`` in pyproject.toml), so this ``__init__`` imports none of them.
"""
