"""The structural baseline beside a model's pair measures, in words and in one table.

The baseline is the same measure on a randomly initialised copy of the model
(:func:`mgbias.mlm.baseline.random_copy`): what the measure gives on the benchmark
with no learned knowledge at all. A model's score means something only against it.
"""

from __future__ import annotations

import pandas as pd

from mgbias.measures.registry import by_name
from mgbias.mlm.baseline import BASELINE_MEANING

#: ``run`` of the rows of a combined summary: the model's, then its baseline's.
MODEL_RUN = "model"
BASELINE_RUN = "structural_baseline"
#: Whose preference a baseline row's verdict states (:func:`mgbias.api.mlm.pair_verdicts`).
BASELINE_SUBJECT = "the random copy"


def baseline_lines(
    summary: pd.DataFrame, baseline: pd.DataFrame, seed: int, *, by_bias_type: bool = False
) -> list[str]:
    """One line per row: the baseline's score and p-value beside the model's.

    ``"structural baseline (random copy, seed 0): SSS 46.29 (p = 0.0042; the model:
    61.2, p = 1.3e-05): what the measure gives with no learned knowledge"``.

    Parameters
    ----------
    summary, baseline : pandas.DataFrame
        The summaries of the model and of its random copy
        (:class:`mgbias.api.PairsReport`), the same rows in the same order.
    seed : int
        The seed of the random copy's weights.
    by_bias_type : bool
        Prefix each line with its bias type (``bias_type="all"``).
    """
    keys = ["bias_type", "measure"]
    if not summary[keys].reset_index(drop=True).equals(baseline[keys].reset_index(drop=True)):
        raise ValueError("the baseline's summary rows differ from the model's")
    lines = []
    for (_, own), (_, random) in zip(summary.iterrows(), baseline.iterrows(), strict=True):
        line = (
            f"structural baseline (random copy, seed {seed}): "
            f"{by_name(random.measure).short} {random.score:.4g} (p = {random.p_value:.2g}; "
            f"the model: {own.score:.4g}, p = {own.p_value:.2g}): {BASELINE_MEANING}"
        )
        lines.append(f"{own.bias_type}: {line}" if by_bias_type else line)
    return lines


def with_baseline_rows(summary: pd.DataFrame, baseline: pd.DataFrame) -> pd.DataFrame:
    """The model's summary, then the baseline's, with a first column ``run``:
    :data:`MODEL_RUN` or :data:`BASELINE_RUN` (``mgbias score --output``)."""
    return pd.concat(
        [summary.assign(run=MODEL_RUN), baseline.assign(run=BASELINE_RUN)], ignore_index=True
    )[["run", *summary.columns]]
