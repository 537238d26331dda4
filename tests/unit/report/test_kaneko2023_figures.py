"""Figures 2 and 3 of Kaneko et al. (2023): tidy tables by hand, deterministic PNGs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from mgbias.report.kaneko2023_figures import (
    FIGURE2_COLUMNS,
    FIGURE3_COLUMNS,
    figure2,
    figure2_frame,
    figure3,
    figure3_frame,
)

RUNS = [
    {"run": "orig", "model": "bert", "corpus": "news", "language": "en", "r": None},
    {"run": "r0-s0", "model": "bert", "corpus": "news", "language": "en", "r": 0.0, "seed": 0},
    {"run": "r0-s1", "model": "bert", "corpus": "news", "language": "en", "r": 0.0, "seed": 1},
    {"run": "r5", "model": "bert", "corpus": "news", "language": "en", "r": 0.5},
    {"run": "r10", "model": "bert", "corpus": "news", "language": "en", "r": 1.0},
    {"run": "de5", "model": "bert", "corpus": "news", "language": "de", "r": 0.5},
]


def _summary(p_male: float, p_female: float, words=("he", "she")) -> dict:
    return {
        "p_male": p_male,
        "p_female": p_female,
        "male_word": words[0],
        "female_word": words[1],
        "n_neutral": 21,
    }


SUMMARIES = [
    _summary(0.48, 0.28),
    _summary(0.10, 0.80),
    _summary(0.20, 0.60),  # seed 1 at r = 0: averages (0.15, 0.70)
    _summary(0.45, 0.45),
    _summary(0.90, 0.05),
    _summary(0.40, 0.50, ("er", "sie")),
]


def test_figure2_frame_by_hand():
    frame = figure2_frame(RUNS, SUMMARIES)
    assert list(frame.columns) == FIGURE2_COLUMNS
    en = frame[frame.language == "en"].reset_index(drop=True)
    assert math.isnan(en.loc[0, "r"])  # the original model first
    assert en.loc[0, ["p_male", "p_female", "n_seeds"]].tolist() == [0.48, 0.28, 1]
    r0 = en.loc[1]
    assert (r0.r, r0.n_seeds) == (0.0, 2)
    assert r0.p_male == pytest.approx(0.15) and r0.p_female == pytest.approx(0.70)
    # two seeds: the standard error of their mean is half their distance, by hand
    assert r0.p_male_se == pytest.approx(0.05) and r0.p_female_se == pytest.approx(0.10)
    assert math.isnan(en.loc[0, "p_male_se"])  # one run: none
    assert r0.male_share == pytest.approx(0.15 / 0.85)
    assert r0.p_male_minus_r == pytest.approx(0.15)
    assert en.loc[3, "p_male_minus_r"] == pytest.approx(-0.10)
    de = frame[frame.language == "de"].iloc[0]
    assert (de.male_word, de.female_word, de.n_targets) == ("er", "sie", 21)
    with pytest.raises(ValueError, match="5 summaries for 6 runs"):
        figure2_frame(RUNS, SUMMARIES[:5])
    with pytest.raises(ValueError, match=r"summary of run 'orig' lacks \['n_neutral'\]"):
        figure2_frame(RUNS[:1], [{k: v for k, v in SUMMARIES[0].items() if k != "n_neutral"}])


def _top(words, probs, classes) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "rank": np.arange(1, len(words) + 1),
            "token_id": np.arange(len(words)),
            "token": words,
            "word": words,
            "prob": probs,
            "gender_class": classes,
        }
    )


TOPS = [
    _top(["he", "she", "it"], [0.4, 0.35, 0.1], ["male", "female", "neither"]),
    _top(["she", "he", "it"], [0.8, 0.1, 0.05], ["female", "male", "neither"]),
    _top(["she", "he", "it"], [0.7, 0.2, 0.05], ["female", "male", "neither"]),
    _top(["he", "she", "it"], [0.5, 0.4, 0.05], ["male", "female", "neither"]),
    _top(["he", "it", "she"], [0.9, 0.04, 0.03], ["male", "neither", "female"]),
    _top(["er", "sie", "es"], [0.5, 0.4, 0.05], ["male", "female", "neither"]),
]


def test_figure3_frame_attaches_the_run_columns():
    frame = figure3_frame(RUNS, TOPS)
    assert list(frame.columns) == FIGURE3_COLUMNS and len(frame) == 18
    de = frame[frame.language == "de"]
    assert de["word"].tolist() == ["er", "sie", "es"] and (de["r"] == 0.5).all()
    en = frame[frame.language == "en"]
    assert en["run"].iloc[0] == "orig" and math.isnan(en["r"].iloc[0])
    assert en[en.run == "r10"]["prob"].tolist() == [0.9, 0.04, 0.03]
    with pytest.raises(ValueError, match="2 top-prediction tables for 6 runs"):
        figure3_frame(RUNS, TOPS[:2])


def test_figures_are_written_and_identical_for_the_same_table(tmp_path):
    fig2 = figure2_frame(RUNS, SUMMARIES)
    fig3 = figure3_frame(RUNS, TOPS)
    for writer, frame in ((figure2, fig2), (figure3, fig3)):
        first, second = tmp_path / f"{writer.__name__}-a.png", tmp_path / f"{writer.__name__}-b.png"
        writer(frame, first)
        writer(frame, second)
        data = first.read_bytes()
        assert data.startswith(b"\x89PNG") and data == second.read_bytes()
        assert not list(tmp_path.glob("*.partial*"))
    with pytest.raises(ValueError, match="empty table"):
        figure2(fig2.iloc[0:0], tmp_path / "empty.png")
