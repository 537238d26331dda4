"""Table 3 of Kaneko et al. (2022): does MBE agree with human-annotated benchmarks?

Per model and pair dataset (CrowS-Pairs gender rows, StereoSet intrasentence gender):

- the *original* score is Eq. 3 with AULA on the pairs (the pair measure ``aula``);
- every sentence of the dataset (``sent_more`` and ``sent_less`` alike) is classified by
  the English gender words (:func:`mgbias.wordlists.gender_words.gender_of`); sentences with both or
  neither gender are dropped;
- MBE (Eq. 2) and the Shf baseline are computed over the classified sentences from the
  unmasked pass over the pairs, which already holds every sentence's AULA inputs and
  embedding (row ``2i`` is ``sent_more`` of pair ``i``, row ``2i + 1`` its
  ``sent_less``): the model does not run again.

Across models (the paper's 11 English MLMs), each method (Shf, MBE) is compared with
the original score by Spearman and Pearson correlation (with p-values; † at p < 0.05),
*Direction* (the share of models whose score and the original lie on the same side of
50; the paper reads the original's > 50, stereotypical preferred, as the male
direction) and *Diff* (the mean absolute difference; the paper's values are all
positive). The signed mean difference is given beside it.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from mgbias.files.tabular import markdown
from mgbias.measures.aula import aula
from mgbias.measures.mbe import mbe_score, shuffled_baseline
from mgbias.measures.orientation import orient_pairs, oriented_pair_scores
from mgbias.mlm.scores import SentenceScores
from mgbias.wordlists.gender_words import gender_of
from mgbias.wordlists.genders import FEMALE, MALE

#: The methods compared with the original score, in the paper's column order.
METHODS = ("shf", "mbe")
#: What the methods are compared with: ``eq3`` = Eq. 3 with AULA, % of pairs preferring
#: the stereotypical sentence (the paper); ``male`` = % of oriented pairs preferring the
#: male sentence (MBE's own direction; :func:`oriented_original`).
ORIGINALS = {"eq3": "original", "male": "original_male"}
#: The agreement metrics, in the paper's row order.
METRICS = ("spearman", "pearson", "direction", "diff")

MODEL_COLUMNS = [
    "model",
    "dataset",
    "lang",
    "original",
    "original_male",
    "n_oriented",
    "mbe",
    "mbe_p_value",
    "shf",
    "shf_p_value",
    "n_male",
    "n_female",
    "n_excluded",
    "weighting",
    "model_id",
]
TABLE3_COLUMNS = [
    "dataset",
    "lang",
    "metric",
    "method",
    "value",
    "p_value",
    "significant",
    "n_models",
    "original",
]


def classify_pair_sentences(
    pairs: Sequence[tuple[str, str]], female: frozenset[str], male: frozenset[str]
) -> np.ndarray:
    """Gender of every sentence of a pair benchmark, in the unmasked pass's order.

    Returns an object array of length ``2 * len(pairs)``: entry ``2i`` classifies
    ``sent_more`` of pair ``i``, entry ``2i + 1`` its ``sent_less``; each is ``"female"``,
    ``"male"``, ``"both"`` or ``None`` (:func:`mgbias.wordlists.gender_words.gender_of`).
    """
    sentences = [sentence for pair in pairs for sentence in pair]
    return np.array([gender_of(sentence, female, male) for sentence in sentences], dtype=object)


def mbe_of_pair_sentences(
    scores: SentenceScores,
    genders: np.ndarray,
    *,
    seed: int,
    weighting: str = "cosine",
    chunk_size: int = 2048,
    alpha: float = 0.05,
    test: str = "permutation",
    n_permutations: int = 999,
) -> dict[str, Any]:
    """MBE (Eq. 2) and the Shf baseline over the gendered sentences of a pair benchmark.

    ``scores`` is the unmasked pass over the benchmark's sentences and ``genders`` their
    classes (:func:`classify_pair_sentences`), aligned row by row.

    Raises
    ------
    ValueError
        If the two do not have the same length, or a gender has no sentence.
    """
    if len(genders) != len(scores.logprobs):
        raise ValueError(
            f"{len(genders)} classified sentences for {len(scores.logprobs)} scored ones: "
            "the unmasked pass must cover sent_more and sent_less of every pair"
        )
    male = np.array([gender == MALE for gender in genders], dtype=bool)
    female = np.array([gender == FEMALE for gender in genders], dtype=bool)
    if not male.any() or not female.any():
        raise ValueError(
            f"{int(male.sum())} male and {int(female.sum())} female sentences: MBE needs both"
        )
    likelihood = aula(scores.logprobs, scores.attention)
    args = (
        likelihood[male],
        likelihood[female],
        scores.embeddings[male],
        scores.embeddings[female],
    )
    options = {
        "weighting": weighting,
        "chunk_size": chunk_size,
        "alpha": alpha,
        "test": test,
        "n_permutations": n_permutations,
    }
    result = mbe_score(*args, seed=seed, **options)
    baseline = shuffled_baseline(*args, seed=seed, **options)
    return {
        "mbe": result.score,
        "mbe_p_value": result.p_value,
        "shf": baseline.score,
        "shf_p_value": baseline.p_value,
        "n_male": int(male.sum()),
        "n_female": int(female.sum()),
        "n_excluded": int(len(genders) - male.sum() - female.sum()),
        "weighting": weighting,
    }


def oriented_original(
    per_pair: pd.DataFrame,
    female: frozenset[str],
    male: frozenset[str],
    *,
    tie_rule: str = "neutral",
) -> tuple[float, int]:
    """Eq. 3 with AULA oriented male: % of the pairs whose modified words hold a male
    word on one side and a female word on the other in which the male sentence wins.

    The paper's original score (Eq. 3) counts the stereotypical sentence's wins; on a
    benchmark whose stereotypes concern women and men alike it need not follow a
    model's male preference, which is what MBE measures (Kaneko et al. 2022, footnote
    3, equate the two). Returns the score and the number of oriented pairs.
    """
    sides = orient_pairs(per_pair["sent_more"], per_pair["sent_less"], male, female)
    scores = oriented_pair_scores(per_pair, sides, measures=["aula"], tie_rule=tie_rule)
    row = scores[scores.direction == "male"].iloc[0]
    return float(row["score"]), int(row["n"])


def direction(original: Sequence[float], method: Sequence[float]) -> float:
    """Share of models whose two scores lie on the same side of 50 (Table 3, *Direction*).

    A score of exactly 50 lies on neither side and never agrees.
    """
    x = np.asarray(original, dtype=float) - 50.0
    y = np.asarray(method, dtype=float) - 50.0
    return float(np.mean(x * y > 0))


def diff(original: Sequence[float], method: Sequence[float]) -> float:
    """Mean absolute difference of the two scores (Table 3, *Diff*)."""
    return float(np.mean(np.abs(np.asarray(method, float) - np.asarray(original, float))))


def agreement(
    original: Sequence[float], method: Sequence[float], *, label: str = ""
) -> dict[str, dict[str, float]]:
    """Spearman, Pearson (with p-values), Direction, Diff and the signed mean difference.

    With fewer than 3 models, or a constant score, the correlations are NaN with a
    warning naming ``label``; Direction and Diff need one model.
    """
    x = np.asarray(original, dtype=float)
    y = np.asarray(method, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) == 0:
        raise ValueError(f"{label}: need two equally long, non-empty score lists")
    nan = {"value": float("nan"), "p_value": float("nan")}
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        warnings.warn(
            f"{label}: {len(x)} models (or a constant score): correlations are NaN; "
            "Table 3 needs at least 3 models with different scores",
            stacklevel=2,
        )
        spearman, pearson = dict(nan), dict(nan)
    else:
        rho = stats.spearmanr(x, y)
        r = stats.pearsonr(x, y)
        spearman = {"value": float(rho.statistic), "p_value": float(rho.pvalue)}
        pearson = {"value": float(r.statistic), "p_value": float(r.pvalue)}
    return {
        "spearman": spearman,
        "pearson": pearson,
        "direction": {"value": direction(x, y), "p_value": float("nan")},
        "diff": {"value": diff(x, y), "p_value": float("nan")},
        "signed_diff": {"value": float(np.mean(y - x)), "p_value": float("nan")},
    }


def model_table(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per (model, dataset, language): the original score, MBE and Shf."""
    frame = pd.DataFrame(list(records))
    missing = [column for column in MODEL_COLUMNS if column not in frame.columns]
    if missing:
        raise ValueError(f"Table 3 records lack {missing}; expected {MODEL_COLUMNS}")
    return frame[MODEL_COLUMNS].sort_values(["dataset", "lang", "model"], ignore_index=True)


def table3(models: pd.DataFrame, *, alpha: float = 0.05, original: str = "eq3") -> pd.DataFrame:
    """Table 3: per dataset (and language), each metric of each method against the original.

    Rows in the paper's order: Spearman, Pearson, Direction, Diff, then the signed mean
    difference; ``significant`` marks correlations with p < ``alpha`` (the paper's †).
    ``original`` picks the reference (:data:`ORIGINALS`): ``eq3``, the paper's, or
    ``male``, the male-oriented Eq. 3.
    """
    if original not in ORIGINALS:
        raise ValueError(f"original must be one of {sorted(ORIGINALS)}, got {original!r}")
    rows = []
    for (dataset, lang), block in models.groupby(["dataset", "lang"], sort=False):
        for method in METHODS:
            label = f"Table 3, {dataset} ({lang}), {method}"
            metrics = agreement(block[ORIGINALS[original]], block[method], label=label)
            for metric, result in metrics.items():
                p_value = result["p_value"]
                rows.append(
                    {
                        "dataset": dataset,
                        "lang": lang,
                        "metric": metric,
                        "method": method,
                        "value": result["value"],
                        "p_value": p_value,
                        "significant": bool(p_value < alpha) if p_value == p_value else False,
                        "n_models": len(block),
                        "original": original,
                    }
                )
    return pd.DataFrame(rows, columns=TABLE3_COLUMNS)


def table3_markdown(table: pd.DataFrame, models: pd.DataFrame) -> str:
    """The paper's layout: per dataset, metrics as rows, Shf and MBE as columns (†)."""
    parts = [
        "# MBE against human-annotated benchmarks (Kaneko et al. 2022, Table 3)",
        "",
        "Original = Eq. 3 with AULA on the pairs: `eq3` (the paper) = % of pairs preferring "
        "the stereotypical sentence, read as the male direction; `male` = % of oriented "
        "pairs preferring the male sentence. Shf and MBE over the dataset's sentences classified "
        "by the English gender words. Spearman and Pearson across models († = p < alpha), "
        "Direction = share of models on the same side of 50 as the original, Diff = mean "
        "|method − original|, signed_diff = mean (method − original).",
    ]
    for (dataset, lang), block in table.groupby(["dataset", "lang"], sort=False):
        cells = block.assign(
            cell=[
                f"{value:.2f}{' †' if significant else ''}"
                for value, significant in zip(block.value, block.significant, strict=True)
            ]
        )
        pivot = cells.pivot(index="metric", columns="method", values="cell")
        pivot = pivot.reindex([*METRICS, "signed_diff"])[list(METHODS)].reset_index()
        n_models = int(block.n_models.iloc[0])
        title = f"## {dataset} ({lang}), {n_models} models, original: {block.original.iloc[0]}"
        parts += ["", title, "", markdown(pivot)]
    parts += ["", "## Per model", "", markdown(models, floatfmt=".4g"), ""]
    return "\n".join(parts)
