"""Table 1 of Kaneko et al. (2023): correlation with r of every measure of the bias-controlled
models (:func:`mgbias.finetune.meta_evaluation.collect_scores`,
:func:`~mgbias.finetune.meta_evaluation.table1`).

Snakemake interface
-------------------
input.per_pair : list of paths
    Per run, the per-pair CSV of the pair measures (``pair_measures``' ``per_pair`` output) on
    the gender pairs of its language; same order as ``params.runs``. May be empty (TBS only).
input.probes : list of paths
    Per run, the summary JSON of ``scripts/kaneko2023_probe.py``; same order. May be empty.
params.runs : list of dicts
    ``{run, model, corpus, language, r, seed}`` per model: ``run`` = the model's name,
    ``model`` = the base PLM (Table 1's column), ``r`` = male rate in [0, 1] or None for the
    original model (written to the scores, left out of the correlations), ``seed`` optional.
input.mbe : list of paths
    Every MBE result JSON that ``params.mbe`` names (empty without ``kaneko2023.mbe``).
params.mbe : dict
    ``{run: [MBE result JSON, ...]}``: each run's MBE on the parallel corpora of its language
    (Table 1's ``mbe`` row, the mean of their scores).
params.wordlists : dict
    ``{language: {female: [lists], male: [lists]}}`` orienting each language's pairs (e.g.
    kaneko2023_en_female / kaneko2023_en_male).
params.tie_rule : str
    Of the pair measures (``neutral``, ``half``, ``exclude``).
params.alpha : float
    Level of the ‡ mark in the Markdown.
output.table : CSV, Table 1 in long form
    language, corpus, model, measure, direction, n_r, n_runs, pearson, pearson_p, spearman,
    spearman_p, auc, source (computed rows, then the paper's values as ``reported``).
output.markdown : the same in the paper's layout.
output.scores : CSV, one row per (run, measure, direction)
    language, corpus, model, run, r, seed, measure, direction, score, n, n_unorientable.
output.orientation : CSV, one row per run
    language, corpus, model, run, r, seed, n_pairs, male_more, male_less, no_gender_word,
    one_side, same_gender, mixed.
"""

from mgbias.finetune.meta_evaluation import collect_scores, table1
from mgbias.provenance import job_provenance
from mgbias.report.kaneko2023 import table1_markdown
from mgbias.report.tables import write_csv, write_table
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log, job_provenance(smk):
    scores, orientation = collect_scores(
        smk.params.runs,
        per_pair=list(smk.input.per_pair),
        probes=list(smk.input.probes),
        wordlists=smk.params.wordlists,
        tie_rule=smk.params.tie_rule,
        mbe=smk.params.mbe,
    )
    table = table1(scores)
    write_csv(scores, smk.output.scores)
    write_csv(orientation, smk.output.orientation)
    write_table(
        table,
        table1_markdown(table, alpha=smk.params.alpha),
        smk.output.table,
        smk.output.markdown,
    )
    log.info("%d scores of %d runs", len(scores), scores["run"].nunique())
    log.info("%s", table[table.source == "computed"].to_string(index=False))
