"""Every pair measure of one model on one pair dataset, from one pass of each kind.

The model runs once unmasked over all sentences (AUL, AULA) and once over the
batched masked copies (CPS, SSS, S_JSD); every measure is then computed from
those arrays. Scores are in the papers' units: percent of pairs in which the
stereotypical sentence (``sent_more``) is preferred for AUL, AULA, CPS, SSS
and binarized S_JSD (``bsjsd``); the raw mean for ``sjsd`` (negative = the
stereotypical sentence preferred, Steinborn et al. 2022, Eq. 2).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mgbias.measures.aul import aul
from mgbias.measures.aula import aula
from mgbias.measures.cps import cps, cps_sentence_scores
from mgbias.measures.pairs import compare_pairs
from mgbias.measures.sjsd import binarized_sjsd, sjsd, sjsd_pair_scores
from mgbias.measures.sss import sss, sss_sentence_scores

PAIR_MEASURES = ("aul", "aula", "cps", "sss", "sjsd", "bsjsd")
UNMASKED = {"aul", "aula"}
MASKED = {"cps", "sss", "sjsd", "bsjsd"}


def parse_measures(text: str) -> list[str]:
    """``"aul,cps"`` -> ``["aul", "cps"]``; an unknown name is an error naming the known ones."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in PAIR_MEASURES]
    if unknown or not names:
        raise ValueError(
            f"unknown measure(s) {unknown or text!r}; expected a comma-separated list of "
            f"{', '.join(PAIR_MEASURES)}"
        )
    return list(dict.fromkeys(names))


def score_pair_dataset(
    model,
    tokenizer,
    pairs: Sequence[tuple[str, str]],
    measures: Sequence[str],
    *,
    seed: int = 0,
    batch_size: int = 64,
    progress: bool = True,
) -> pd.DataFrame:
    """A table with the columns ``measure``, ``score``, ``se``, ``n``, one row per measure.

    ``pairs`` are ``(sent_more, sent_less)``. Standard errors are seeded
    bootstrap estimates over pairs.
    """
    from mgbias.mlm.engine import score_unmasked
    from mgbias.mlm.masked import score_pairs

    rows = []
    if UNMASKED & set(measures):
        sentences = [sentence for pair in pairs for sentence in pair]
        scores = score_unmasked(
            model, tokenizer, sentences, batch_size=batch_size, progress=progress
        )
        per_sentence = {
            "aul": aul(scores.logprobs),
            "aula": aula(scores.logprobs, scores.attention),
        }
    if MASKED & set(measures):
        masked = score_pairs(model, tokenizer, pairs, batch_size=batch_size, progress=progress)
        more, less = masked.a, masked.b
    for measure in measures:
        if measure in UNMASKED:
            values = per_sentence[measure]
            result = compare_pairs(values[0::2], values[1::2], seed=seed)
            rows.append((measure, result.score, result.se, result.n))
        elif measure == "cps":
            result = cps(
                cps_sentence_scores(more.shared_logprobs),
                cps_sentence_scores(less.shared_logprobs),
                seed=seed,
            )
            rows.append((measure, result.score, result.se, result.n))
        elif measure == "sss":
            result = sss(
                sss_sentence_scores(more.modified_logprobs),
                sss_sentence_scores(less.modified_logprobs),
                seed=seed,
            )
            rows.append((measure, result.score, result.se, result.n))
        elif measure == "sjsd":
            result = sjsd(sjsd_pair_scores(more.shared_logprobs, less.shared_logprobs), seed=seed)
            rows.append((measure, result.score, result.se, result.n))
        elif measure == "bsjsd":
            result = binarized_sjsd(more.shared_logprobs, less.shared_logprobs, seed=seed)
            rows.append((measure, result.score, result.se, result.n))
    frame = pd.DataFrame(rows, columns=["measure", "score", "se", "n"])
    return frame.astype({"score": np.float64, "se": np.float64, "n": np.int64})


def load_pairs(path: str, *, lang: str | None = None, bias_type: str = "gender") -> pd.DataFrame:
    """Read a pair benchmark by its format: StereoSet JSON, CrowS-Pairs CSV
    (``sent_more``), or multilingual CrowS-Pairs CSV (``A_x`` / ``B_x``, the
    language from ``lang`` or the file name); keep one bias type."""
    from pathlib import Path

    from mgbias.datasets import (
        filter_bias_type,
        load_crowspairs,
        load_multilingual_crowspairs,
        load_stereoset,
    )

    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(
            f"{path}: no such pair dataset file (expected a CrowS-Pairs or multilingual "
            "CrowS-Pairs CSV, or a StereoSet JSON)"
        )
    if source.suffix == ".json":
        frame = load_stereoset(source)
    else:
        with open(source, encoding="utf-8") as handle:
            header = handle.readline()
        if "sent_more" in header:
            frame = load_crowspairs(source)
        else:
            frame = load_multilingual_crowspairs(source, language=lang)
    return filter_bias_type(frame, bias_type)
