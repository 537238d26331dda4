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
from mgbias.perturb import perturb_final_character

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


def pair_sentences(frame: pd.DataFrame, *, perturb: bool = False) -> list[tuple[str, str]]:
    """``(sent_more, sent_less)`` of every row of a pair table.

    With ``perturb`` both sentences lose their final character
    (:func:`~mgbias.perturb.perturb_final_character`; Steinborn et al.
    2022, Table 3).
    """
    pairs = list(zip(frame["sent_more"], frame["sent_less"], strict=True))
    if perturb:
        pairs = [(perturb_final_character(a), perturb_final_character(b)) for a, b in pairs]
    return pairs


def score_pair_passes(
    model,
    tokenizer,
    pairs: Sequence[tuple[str, str]],
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
):
    """The two model passes every pair measure is computed from.

    Returns ``(unmasked, masked)``: a
    :class:`~mgbias.mlm.scores.SentenceScores` over the sentences
    ``sent_more_0, sent_less_0, sent_more_1, ...`` (AUL, AULA) and a
    :class:`~mgbias.mlm.masked_cache.PairScores` with side ``a`` =
    ``sent_more`` (CPS, SSS, S_JSD). Both are written to caches by the
    workflow; :func:`pair_measures` needs nothing else.
    """
    from mgbias.mlm.engine import score_unmasked
    from mgbias.mlm.masked import score_pairs

    sentences = [sentence for pair in pairs for sentence in pair]
    unmasked = score_unmasked(
        model,
        tokenizer,
        sentences,
        batch_size=batch_size,
        max_length=max_length,
        progress=progress,
    )
    masked = score_pairs(
        model, tokenizer, pairs, batch_size=batch_size, max_length=max_length, progress=progress
    )
    return unmasked, masked


def pair_measures(unmasked, masked, measures: Sequence[str], *, seed: int = 0) -> pd.DataFrame:
    """Every requested pair measure from the cached passes, no model involved.

    Parameters
    ----------
    unmasked : SentenceScores or None
        The unmasked pass over ``sent_more_0, sent_less_0, ...``; needed for
        ``aul`` and ``aula``.
    masked : PairScores or None
        The masked pass with side ``a`` = ``sent_more``; needed for ``cps``,
        ``sss``, ``sjsd`` and ``bsjsd``.
    measures : sequence of str
        Names from :data:`PAIR_MEASURES`.
    seed : int
        Seed of the bootstrap standard errors.

    Returns
    -------
    pandas.DataFrame
        Columns ``measure``, ``score``, ``se``, ``n``, one row per measure in
        the order asked. Percent of pairs in which ``sent_more`` is preferred
        (AUL, AULA: Kaneko & Bollegala 2022, §2; CPS: Nangia et al. 2020, §3;
        SSS: Kaneko et al. 2022, App. A; ``bsjsd``: Steinborn et al. 2022,
        Table 2), the raw mean for ``sjsd`` (Steinborn et al. 2022, Eq. 2).
    """
    unknown = [measure for measure in measures if measure not in PAIR_MEASURES]
    if unknown:
        raise ValueError(f"unknown measure(s) {unknown}; expected some of {PAIR_MEASURES}")
    if UNMASKED & set(measures):
        if unmasked is None:
            raise ValueError(f"{sorted(UNMASKED & set(measures))} need the unmasked pass")
        if len(unmasked.logprobs) % 2:
            raise ValueError(
                f"the unmasked pass holds {len(unmasked.logprobs)} sentences; expected "
                "sent_more and sent_less of every pair, interleaved"
            )
        per_sentence = {
            "aul": aul(unmasked.logprobs),
            "aula": aula(unmasked.logprobs, unmasked.attention),
        }
    if MASKED & set(measures):
        if masked is None:
            raise ValueError(f"{sorted(MASKED & set(measures))} need the masked pass")
        more, less = masked.a, masked.b
    rows = []
    for measure in measures:
        if measure in UNMASKED:
            values = per_sentence[measure]
            result = compare_pairs(values[0::2], values[1::2], seed=seed)
        elif measure == "cps":
            result = cps(
                cps_sentence_scores(more.shared_logprobs),
                cps_sentence_scores(less.shared_logprobs),
                seed=seed,
            )
        elif measure == "sss":
            result = sss(
                sss_sentence_scores(more.modified_logprobs),
                sss_sentence_scores(less.modified_logprobs),
                seed=seed,
            )
        elif measure == "sjsd":
            result = sjsd(sjsd_pair_scores(more.shared_logprobs, less.shared_logprobs), seed=seed)
        else:  # bsjsd
            result = binarized_sjsd(more.shared_logprobs, less.shared_logprobs, seed=seed)
        rows.append((measure, result.score, result.se, result.n))
    frame = pd.DataFrame(rows, columns=["measure", "score", "se", "n"])
    return frame.astype({"score": np.float64, "se": np.float64, "n": np.int64})


def score_pair_dataset(
    model,
    tokenizer,
    pairs: Sequence[tuple[str, str]],
    measures: Sequence[str],
    *,
    seed: int = 0,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """A table with the columns ``measure``, ``score``, ``se``, ``n``, one row per measure.

    ``pairs`` are ``(sent_more, sent_less)``. Runs :func:`score_pair_passes`
    (both passes, whatever the measures: the workflow caches both, and the
    numbers must not depend on which measures were asked together), then
    :func:`pair_measures`. Standard errors are seeded bootstrap estimates
    over pairs.
    """
    unmasked, masked = score_pair_passes(
        model, tokenizer, pairs, batch_size=batch_size, max_length=max_length, progress=progress
    )
    return pair_measures(unmasked, masked, measures, seed=seed)


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
