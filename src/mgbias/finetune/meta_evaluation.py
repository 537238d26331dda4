"""Meta-evaluation of bias measures with bias-controlled models (Kaneko et al. 2023, Table 1).

Kaneko, Bollegala & Okazaki (2023, §2-3) fine-tune a model on corpora with a
known share r of male sentences and ask how well a bias measure's score
follows r: "we measure the agreement between the bias scores ... and the
corresponding rates of biases of those PLMs using Pearson's rank correlation
coefficient" (Table 1: "Pearson correlation between biased PLM order and each
bias scores"). Pearson's r is not a rank correlation, so the project writes
both: :func:`correlation_with_r` gives Pearson's and Spearman's
coefficient of the score with r, with two-sided p-values
(:func:`scipy.stats.pearsonr`, :func:`scipy.stats.spearmanr`). The unit is
the model: one point per value of r, the scores of repeats (seeds) at the
same r averaged first. On an evenly spaced grid, the correlation with the
order 0..10 of the models equals the correlation with r.

Scores enter in the direction that should rise with r: TBS as is (positive =
male), the pair measures oriented to "% of pairs preferring the male
sentence" (:mod:`mgbias.measures.orientation`, ``direction = "male"``); the
paper-literal "% stereotypical preferred" (``direction = "stereo"``) is
correlated too, for comparison.

The human-annotation column of Table 1 ("HA", an AUC from Kaneko & Bollegala's
annotator-based meta-evaluation) cannot be computed here; it is carried as
reported (:data:`REPORTED_TABLE1`, ``source = "reported"``), together with
the paper's own correlations for BERT and ALBERT on news and books.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from mgbias.measures.registry import table_order

__all__ = [
    "REPORTED_TABLE1",
    "RUN_COLUMNS",
    "SCORE_COLUMNS",
    "TABLE1_COLUMNS",
    "check_runs",
    "collect_scores",
    "correlation_with_r",
    "meta_evaluation",
    "reported_table1",
    "run_scores",
    "table1",
]

#: What identifies one bias-controlled model.
RUN_COLUMNS = ["language", "corpus", "model", "run", "r", "seed"]

#: Columns of the per-run score table (:func:`run_scores` plus :data:`RUN_COLUMNS`).
SCORE_COLUMNS = [*RUN_COLUMNS, "measure", "direction", "score", "n", "n_unorientable"]

#: Columns of :func:`meta_evaluation` and :func:`table1`.
TABLE1_COLUMNS = [
    "language",
    "corpus",
    "model",
    "measure",
    "direction",
    "n_r",
    "n_runs",
    "pearson",
    "pearson_p",
    "spearman",
    "spearman_p",
    "auc",
    "source",
]

GROUP = ["language", "corpus", "model", "measure", "direction"]

#: Table 1 of Kaneko, Bollegala & Okazaki (2023) as printed: Pearson correlations of each
#: measure with r for BERT (bert-base-uncased) and ALBERT (albert-base-v2) fine-tuned on
#: News Crawl 2021 ("news") and BookCorpus ("book"), and "HA", the AUC of the meta-evaluation
#: with human annotations of Kaneko & Bollegala (TBS has none).
REPORTED_TABLE1: dict[str, dict[str, dict[str, float | None]]] = {
    "bert-base-uncased": {
        "news": {"tbs": 0.14, "sss": 0.22, "cps": 0.30, "aul": 0.37, "aula": 0.42},
        "book": {"tbs": 0.09, "sss": 0.22, "cps": 0.27, "aul": 0.32, "aula": 0.34},
        "HA": {"tbs": None, "sss": 0.45, "cps": 0.57, "aul": 0.68, "aula": 0.71},
    },
    "albert-base-v2": {
        "news": {"tbs": 0.25, "sss": 0.31, "cps": 0.37, "aul": 0.55, "aula": 0.60},
        "book": {"tbs": 0.14, "sss": 0.22, "cps": 0.22, "aul": 0.36, "aula": 0.42},
        "HA": {"tbs": None, "sss": 0.53, "cps": 0.48, "aul": 0.56, "aula": 0.57},
    },
}


def check_runs(runs: Iterable[Mapping[str, Any]] | Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """The table of bias-controlled models: one row per run, checked.

    Parameters
    ----------
    runs : iterable of mappings, or mapping of run name to mapping
        Each with ``run`` (the model's name, e.g. its directory under
        ``models/``; the key when a mapping is given), ``model`` (the base
        PLM, Table 1's column), ``corpus``, ``language``, ``r`` (male rate in
        [0, 1], or None/NaN for the original model before fine-tuning) and
        ``seed`` (optional, default 0).

    Returns
    -------
    pandas.DataFrame
        :data:`RUN_COLUMNS`, in the given order.

    Raises
    ------
    ValueError
        On a missing key, a repeated run name or (run) key, or an r outside [0, 1].
    """
    if isinstance(runs, Mapping):
        records = [{"run": name, **dict(record)} for name, record in runs.items()]
    else:
        records = [dict(record) for record in runs]
    if not records:
        raise ValueError("no runs given")
    rows = []
    for index, record in enumerate(records):
        record.setdefault("seed", 0)
        missing = [key for key in RUN_COLUMNS if key not in record]
        if missing:
            raise ValueError(f"run {index} ({record.get('run')!r}) lacks {missing}")
        r = record["r"]
        r = math.nan if r is None else float(r)
        if not math.isnan(r) and not 0.0 <= r <= 1.0:
            raise ValueError(f"run {record['run']!r}: r = {r} is outside [0, 1]")
        rows.append({**{key: record[key] for key in RUN_COLUMNS}, "r": r})
    frame = pd.DataFrame(rows, columns=RUN_COLUMNS)
    frame["run"] = frame["run"].astype(str)
    repeated = sorted(set(frame["run"][frame["run"].duplicated()]))
    if repeated:
        raise ValueError(f"run name(s) listed twice: {repeated}")
    frame["seed"] = frame["seed"].astype(np.int64)
    return frame


def run_scores(
    pair_scores: pd.DataFrame | None = None,
    tbs: Mapping[str, Any] | None = None,
    mbe: Sequence[Mapping[str, Any]] | None = None,
) -> pd.DataFrame:
    """One run's scores in the long layout: measure, direction, score, n, n_unorientable.

    Parameters
    ----------
    pair_scores : pandas.DataFrame, optional
        :func:`mgbias.measures.orientation.oriented_pair_scores` of the run.
    tbs : mapping, optional
        :func:`mgbias.mlm.templates.tbs_summary` of the run (``tbs``, ``n_targets``).
    mbe : sequence of mappings, optional
        The run's MBE results (``scripts/mbe.py``'s JSON: ``score``, > 50 when male
        sentences are preferred) on the parallel corpora of its language: one ``mbe``
        row, direction ``male``, their mean score; ``n`` = how many.
    """
    frames = []
    if tbs is not None:
        frames.append(
            pd.DataFrame(
                {
                    "measure": ["tbs"],
                    "direction": ["male"],
                    "score": [float(tbs["tbs"])],
                    "n": [int(tbs["n_targets"])],
                    "n_unorientable": [0],
                }
            )
        )
    if pair_scores is not None:
        frames.append(pair_scores[["measure", "direction", "score", "n", "n_unorientable"]])
    if mbe:
        frames.append(
            pd.DataFrame(
                {
                    "measure": ["mbe"],
                    "direction": ["male"],
                    "score": [float(np.mean([float(result["score"]) for result in mbe]))],
                    "n": [len(mbe)],
                    "n_unorientable": [0],
                }
            )
        )
    if not frames:
        raise ValueError("run_scores: no pair scores, TBS summary or MBE result given")
    return pd.concat(frames, ignore_index=True)


def correlation_with_r(r: Sequence[float], scores: Sequence[float], *, label: str = "") -> dict:
    """Pearson and Spearman correlation of scores with the male rate r (Kaneko et al. 2023, §2).

    Scores of repeats at the same r (seeds) are averaged first; NaN scores are
    dropped with a warning.

    Parameters
    ----------
    r, scores : sequences of float, one per run
    label : str
        Names the group in warnings.

    Returns
    -------
    dict
        ``n_r`` (distinct values of r used), ``n_runs``, ``pearson``,
        ``pearson_p``, ``spearman``, ``spearman_p`` (two-sided p-values). All
        four are NaN, with a warning, if fewer than 3 distinct r remain (two
        points always correlate perfectly) or the averaged scores are constant.

    Examples
    --------
    >>> result = correlation_with_r([0.0, 0.5, 1.0, 1.0], [40.0, 50.0, 59.0, 61.0])
    >>> result["n_r"], round(result["pearson"], 6), result["spearman"]
    (3, 1.0, 1.0)
    """
    frame = pd.DataFrame(
        {"r": np.asarray(r, dtype=np.float64), "score": np.asarray(scores, dtype=np.float64)}
    )
    where = f" ({label})" if label else ""
    if frame["r"].isna().any():
        raise ValueError(f"correlation_with_r{where}: r holds NaN; drop the original models first")
    missing = frame["score"].isna()
    if missing.any():
        warnings.warn(
            f"correlation_with_r{where}: {int(missing.sum())} NaN score(s) dropped "
            f"(r = {sorted(frame.r[missing].unique().tolist())})",
            UserWarning,
            stacklevel=2,
        )
        frame = frame[~missing]
    means = frame.groupby("r", sort=True)["score"].mean()
    result = {
        "n_r": int(means.size),
        "n_runs": int(len(frame)),
        "pearson": math.nan,
        "pearson_p": math.nan,
        "spearman": math.nan,
        "spearman_p": math.nan,
    }
    if means.size < 3:
        warnings.warn(
            f"correlation_with_r{where}: {means.size} distinct value(s) of r; at least 3 are "
            "needed for a correlation (NaN written)",
            UserWarning,
            stacklevel=2,
        )
        return result
    if np.ptp(means.to_numpy()) == 0.0:
        warnings.warn(
            f"correlation_with_r{where}: the score is the same at every r; no correlation "
            "(NaN written)",
            UserWarning,
            stacklevel=2,
        )
        return result
    x, y = means.index.to_numpy(dtype=np.float64), means.to_numpy(dtype=np.float64)
    pearson = stats.pearsonr(x, y)
    spearman, spearman_p = spearman_test(x, y)
    result.update(
        pearson=float(pearson.statistic),
        pearson_p=float(pearson.pvalue),
        spearman=spearman,
        spearman_p=spearman_p,
    )
    return result


#: Up to this many points, Spearman's p-value is exact (all n! orderings).
EXACT_SPEARMAN_MAX_N = 8


def spearman_test(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Spearman's rho and its two-sided p-value.

    scipy's p-value comes from a t approximation that is anti-conservative for
    few points: on 2,000 simulated nulls with the demo's 5 values of r it
    rejected 8.9% at alpha = 0.05 (Pearson's exact p: 5.4%). Up to
    :data:`EXACT_SPEARMAN_MAX_N` points the p-value is therefore exact, over
    every ordering of y; beyond, scipy's.
    """
    rho = stats.spearmanr(x, y)
    if len(x) > EXACT_SPEARMAN_MAX_N:
        return float(rho.statistic), float(rho.pvalue)
    exact = stats.permutation_test(
        (y,),
        lambda values: stats.spearmanr(x, values).statistic,
        permutation_type="pairings",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    return float(rho.statistic), float(exact.pvalue)


def _measure_rank(column: pd.Series) -> pd.Series:
    if column.name != "measure":
        return column
    order = {name: index for index, name in enumerate(table_order())}
    return column.map(lambda name: order.get(name, len(order)))


def meta_evaluation(scores: pd.DataFrame) -> pd.DataFrame:
    """Correlation with r of every measure, per language, corpus and base model.

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per (run, measure, direction): at least ``language``,
        ``corpus``, ``model``, ``measure``, ``direction``, ``r``, ``score``
        (:data:`SCORE_COLUMNS`). Rows with r NaN (original models) are left out.

    Returns
    -------
    pandas.DataFrame
        :data:`TABLE1_COLUMNS`, one row per group, ``source = "computed"``,
        ``auc`` NaN; sorted by language, corpus, model, Table 1's measure
        order, direction.
    """
    missing = [column for column in [*GROUP, "r", "score"] if column not in scores.columns]
    if missing:
        raise ValueError(f"scores lack column(s) {missing}")
    fine_tuned = scores[scores["r"].notna()]
    if fine_tuned.empty:
        raise ValueError("no scores of bias-controlled models (every r is missing)")
    rows = []
    for key, block in fine_tuned.groupby(GROUP, sort=False):
        label = ", ".join(f"{name} {value}" for name, value in zip(GROUP, key, strict=True))
        rows.append(
            {
                **dict(zip(GROUP, key, strict=True)),
                **correlation_with_r(block["r"], block["score"], label=label),
            }
        )
    table = pd.DataFrame(rows)
    table["auc"] = math.nan
    table["source"] = "computed"
    return _sorted(table[TABLE1_COLUMNS])


def _sorted(table: pd.DataFrame) -> pd.DataFrame:
    return table.sort_values(
        ["source", "language", "corpus", "model", "measure", "direction"],
        key=_measure_rank,
        ignore_index=True,
    )


def reported_table1() -> pd.DataFrame:
    """:data:`REPORTED_TABLE1` in the layout of :data:`TABLE1_COLUMNS`, ``source = "reported"``.

    News and book values go to ``pearson``, HA values to ``auc`` (corpus
    ``"HA"``); TBS has no HA value and no row there. Language English,
    direction ``"male"`` (the paper's scores rise with r); p-values, Spearman,
    ``n_r`` (11 in the paper) are not reported and left empty.
    """
    rows = []
    for model, columns in REPORTED_TABLE1.items():
        for corpus, values in columns.items():
            for measure, value in values.items():
                if value is None:
                    continue
                is_auc = corpus == "HA"
                rows.append(
                    {
                        "language": "en",
                        "corpus": corpus,
                        "model": model,
                        "measure": measure,
                        "direction": "male",
                        "n_r": math.nan if is_auc else 11,
                        "n_runs": math.nan,
                        "pearson": math.nan if is_auc else value,
                        "pearson_p": math.nan,
                        "spearman": math.nan,
                        "spearman_p": math.nan,
                        "auc": value if is_auc else math.nan,
                        "source": "reported",
                    }
                )
    return _sorted(pd.DataFrame(rows, columns=TABLE1_COLUMNS))


def table1(scores: pd.DataFrame, *, include_reported: bool = True) -> pd.DataFrame:
    """Table 1 in long form: :func:`meta_evaluation` of ``scores``, then the reported values."""
    computed = meta_evaluation(scores)
    if not include_reported:
        return computed
    return pd.concat([computed, reported_table1()], ignore_index=True)


def _lists(wordlists: Mapping[str, Mapping[str, Any]], language: str, run: str):
    from mgbias.wordlists import load_gender_words

    if language not in wordlists:
        raise ValueError(
            f"run {run!r}: no word lists for language {language!r} to orient its pairs; "
            f"languages with lists: {sorted(wordlists)}"
        )
    entry = wordlists[language]
    missing = [key for key in ("female", "male") if key not in entry]
    if missing:
        raise ValueError(f"word lists of language {language!r} lack {missing}")
    return load_gender_words(entry["female"], entry["male"])


def collect_scores(
    runs: Any,
    *,
    per_pair: Sequence[str | Path] | None = None,
    probes: Sequence[str | Path] | None = None,
    wordlists: Mapping[str, Mapping[str, Any]] | None = None,
    tie_rule: str = "neutral",
    mbe: Mapping[str, Sequence[str | Path]] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every run's scores from its result files, in the layout :func:`meta_evaluation` reads.

    Parameters
    ----------
    runs
        The models (:func:`check_runs`), in the order of the file lists.
    per_pair : sequence of paths, optional
        Per run, its per-pair CSV (:func:`mgbias.pairs.scoring.per_pair_table`)
        on the pair benchmark of its language.
    probes : sequence of paths, optional
        Per run, its probe summary JSON (:func:`mgbias.finetune.probe.write_probe`).
    wordlists : mapping, optional
        ``{language: {"female": lists, "male": lists}}`` (names or paths for
        :func:`mgbias.wordlists.load_gender_words`) to orient the pairs;
        needed with ``per_pair``.
    tie_rule : str
        Of the pair measures.
    mbe : mapping, optional
        ``{run: [MBE result JSON, ...]}``: the run's MBE results on the parallel
        corpora of its language (:func:`run_scores`); a run without any gets no
        ``mbe`` row.

    Returns
    -------
    tuple[pandas.DataFrame, pandas.DataFrame]
        The scores (:data:`SCORE_COLUMNS`; TBS from the probes, SSS, CPS, AUL,
        AULA in the directions ``male`` and ``stereo`` from the per-pair
        tables) and the orientation counts: :data:`RUN_COLUMNS`, ``n_pairs``
        and one column per entry of
        :data:`mgbias.measures.orientation.ORIENTATIONS`.

    Notes
    -----
    The per-pair CSVs hold sentence scores to 6 significant digits
    (:func:`mgbias.files.tabular.write_csv`); two sentence scores equal to
    that precision tie here although the raw floats of
    :func:`mgbias.pairs.scoring.pair_measures` may differ. The orientation
    depends on the sentences only, so every model of a language is scored on
    the same oriented pairs.
    """
    from mgbias.files.atomic import read_json
    from mgbias.measures.orientation import ORIENTATIONS, orient_pairs, oriented_pair_scores

    frame = check_runs(runs)
    for name, paths in (("per_pair", per_pair), ("probes", probes)):
        if paths and len(paths) != len(frame):
            raise ValueError(f"{len(paths)} {name} files for {len(frame)} runs")
    if not per_pair and not probes:
        raise ValueError("collect_scores: neither per-pair tables nor probe summaries given")
    if per_pair and wordlists is None:
        raise ValueError("collect_scores: per-pair tables need word lists to orient the pairs")
    parts, counts = [], []
    for index, run in frame.iterrows():
        pair_scores = None
        if per_pair:
            table = pd.read_csv(per_pair[index], keep_default_na=False)
            for column in ("sent_more", "sent_less"):
                if column not in table.columns:
                    raise ValueError(f"{per_pair[index]}: no column {column!r}")
            female, male = _lists(wordlists, run["language"], run["run"])
            orientation = orient_pairs(table["sent_more"], table["sent_less"], male, female)
            pair_scores = oriented_pair_scores(table, orientation, tie_rule=tie_rule)
            tally = Counter(orientation)
            counts.append(
                {
                    **run.to_dict(),
                    "n_pairs": len(table),
                    **{name: tally.get(name, 0) for name in ORIENTATIONS},
                }
            )
        tbs = read_json(probes[index]) if probes else None
        results = [read_json(path) for path in (mbe or {}).get(run["run"], [])]
        block = run_scores(pair_scores, tbs, results)
        for column in RUN_COLUMNS:
            block[column] = run[column]
        parts.append(block)
    scores = pd.concat(parts, ignore_index=True)[SCORE_COLUMNS]
    orientation_counts = pd.DataFrame(counts, columns=[*RUN_COLUMNS, "n_pairs", *ORIENTATIONS])
    return scores, orientation_counts
