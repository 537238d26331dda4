"""Figure 1 of Zhao et al. (2020): the seed gender direction and projections, by hand in 2-D."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mgbias.embeddings.projection import (
    FIGURE1_COLUMNS,
    figure1_projections,
    gender_direction,
    most_biased_pairs,
    projections,
)
from mgbias.embeddings.vectors import Vectors


def test_direction_is_the_mean_female_minus_male_of_unit_seeds():
    # male seeds along x (lengths 1 and 2), female along y (lengths 1 and 3):
    # unit seeds (1, 0) and (0, 1), so gd = mean((0,1)-(1,0), (0,1)-(1,0)) = (-1, 1)
    male = np.array([[1.0, 0.0], [2.0, 0.0]])
    female = np.array([[0.0, 1.0], [0.0, 3.0]])
    np.testing.assert_allclose(gender_direction(male, female), [-1.0, 1.0])
    # two different pairs: ((1,0) -> (0,1)) and ((0,1) -> (-1,0)): mean of (-1,1), (-1,-1)
    np.testing.assert_allclose(gender_direction([[1, 0], [0, 1]], [[0, 1], [-1, 0]]), [-1.0, 0.0])


def test_projection_is_positive_on_the_feminine_side():
    direction = gender_direction([[1.0, 0.0]], [[0.0, 1.0]])  # (-1, 1)
    words = np.array([[0.0, 2.0], [5.0, 0.0], [1.0, 1.0], [3.0, 4.0]])
    # unit rows: (0,1) -> 1; (1,0) -> -1; (1,1)/sqrt2 -> 0; (0.6,0.8) -> 0.2
    np.testing.assert_allclose(projections(words, direction), [1.0, -1.0, 0.0, 0.2], atol=1e-12)


def test_unequal_seed_counts_are_rejected():
    with pytest.raises(ValueError, match="as many male as female seeds"):
        gender_direction([[1.0, 0.0]], [[0.0, 1.0], [0.0, 2.0]])


def test_figure1_rows_per_space_pair_and_seed_average():
    words = ["he", "she", "man", "woman", "doctor", "doctora"]
    matrix = np.array([[1, 0], [0, 1], [2, 0], [0, 2], [3, 1], [1, 3]], dtype=float)
    own = Vectors(words, matrix)
    # a second space where the gender axis is rotated by 90 degrees: same projections
    rotated = Vectors(words, matrix @ np.array([[0.0, 1.0], [-1.0, 0.0]]))
    frame = figure1_projections(
        {"es": own, "es-en": rotated}, [("doctor", "doctora")], [("he", "she"), ("man", "woman")]
    )
    assert list(frame.columns) == FIGURE1_COLUMNS
    assert frame[["space", "gender"]].values.tolist() == [
        ["es", "M"], ["es", "F"], ["es", "Avg-M"], ["es", "Avg-F"],
        ["es-en", "M"], ["es-en", "F"], ["es-en", "Avg-M"], ["es-en", "Avg-F"],
    ]  # fmt: skip
    es = frame[frame.space == "es"].set_index("gender")["projection"]
    # gd = (-1, 1); doctor (3,1)/sqrt10 -> -2/sqrt10, doctora -> +2/sqrt10
    assert es["M"] == pytest.approx(-2 / np.sqrt(10)) and es["F"] == pytest.approx(2 / np.sqrt(10))
    assert es["Avg-M"] == pytest.approx(-1.0) and es["Avg-F"] == pytest.approx(1.0)
    np.testing.assert_allclose(frame.projection[:4], frame.projection[4:], atol=1e-6)
    assert frame.pair[0] == "doctor/doctora" and frame.word[1] == "doctora"
    with pytest.raises(KeyError, match="nurse"):
        figure1_projections({"es": own}, [("nurse", "doctora")], [("he", "she")])


def test_most_biased_pairs_skip_single_form_pairs_and_break_ties_by_list_order():
    scores = pd.DataFrame(
        {
            "index": [0, 1, 2, 3, 4],
            "masculine": ["rey", "piloto", "médico", "abogado", "sastre"],
            "feminine": ["reina", "piloto", "médica", "abogada", "costurera"],
            "score": [0.1, 0.9, 0.3, 0.1, 0.2],
        }
    )
    assert most_biased_pairs(scores, 3) == [("médico", "médica"), ("sastre", "costurera"),
                                            ("rey", "reina")]  # fmt: skip
    assert len(most_biased_pairs(scores, 10)) == 4
