"""Projections on the seed-pair gender direction (Zhao et al. 2020, Figure 1).

The authors' notebook (``intrinsic/inBias.ipynb``, ``plot_titles_gd``) takes the gender
direction of a language as the mean difference of its gender seed pairs,

    gd = (1/|P|) Σ_j (v(f_j) − v(m_j)),

female minus male (the paper's prose says male minus female), with unit-length word
vectors, and plots each word at ``v(word) · gd``: **positive = the feminine side**.
"Avg-M" and "Avg-F" are the mean projections of the male and of the female seeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from mgbias.embeddings.vectors import Vectors, unit_rows
from mgbias.errors import MissingWordsError

__all__ = [
    "FIGURE1_COLUMNS",
    "PAPER_FIGURE1_PAIRS_ES",
    "figure1_projections",
    "gender_direction",
    "most_biased_pairs",
    "projections",
]

#: The six Spanish pairs of the paper's Figure 1 (English glosses beau/belle,
#: dudes/gals, governor/governess, dude/chick, tailor/seamstress,
#: stewards/stewardesses), as the ES MIBs lists spell them.
PAPER_FIGURE1_PAIRS_ES = (
    ("novio", "belle"),
    ("tipos", "chavas"),
    ("gobernador", "institutriz"),
    ("tipo", "pollito"),
    ("sastre", "costurera"),
    ("sobrecargos", "azafatas"),
)

#: Columns of :func:`figure1_projections`.
FIGURE1_COLUMNS = ["space", "pair", "word", "gender", "projection"]


def gender_direction(male_seeds: np.ndarray, female_seeds: np.ndarray) -> np.ndarray:
    """``gd = mean_j (f_j − m_j)`` over unit-length seed vectors (female − male).

    Parameters
    ----------
    male_seeds, female_seeds
        ``(P, d)`` vectors of the seed pairs ``(m_j, f_j)``, row ``j`` one pair.

    Returns
    -------
    numpy.ndarray
        ``(d,)`` float64, not normalised (as the authors' code).
    """
    male = unit_rows(np.atleast_2d(np.asarray(male_seeds, dtype=np.float64)))
    female = unit_rows(np.atleast_2d(np.asarray(female_seeds, dtype=np.float64)))
    if male.shape != female.shape or male.shape[0] == 0:
        raise ValueError(
            f"need as many male as female seeds (at least one), got {male.shape} and {female.shape}"
        )
    return (female - male).mean(axis=0)


def projections(vectors: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """``v · gd`` of each row of ``vectors`` after scaling it to unit length."""
    rows = unit_rows(np.atleast_2d(np.asarray(vectors, dtype=np.float64)))
    return rows @ np.asarray(direction, dtype=np.float64)


def most_biased_pairs(scores: pd.DataFrame, n: int) -> list[tuple[str, str]]:
    """The ``n`` gendered pairs (masculine and feminine forms differ) with the highest
    per-occupation inBias score ``b_i`` (ties: list order), from ``scores`` with columns
    ``index``, ``masculine``, ``feminine``, ``score`` (``scripts/inbias.py``)."""
    gendered = scores[scores["masculine"] != scores["feminine"]]
    ranked = gendered.sort_values(["score", "index"], ascending=[False, True], kind="stable")
    return list(ranked[["masculine", "feminine"]].head(n).itertuples(index=False, name=None))


def figure1_projections(
    spaces: Mapping[str, Vectors],
    pairs: Sequence[tuple[str, str]],
    seeds: Sequence[tuple[str, str]],
) -> pd.DataFrame:
    """Projections of ``pairs`` and of the seed averages on each space's gender direction.

    Parameters
    ----------
    spaces
        ``{name: vectors}``, e.g. ``es``, ``es-en``, ``es-de``: one language's words in its
        own space and mapped into others.
    pairs
        ``(masculine, feminine)`` word pairs to plot; each must be in every space.
    seeds
        ``(male, female)`` seed pairs of the language, defining the direction.

    Returns
    -------
    pandas.DataFrame
        :data:`FIGURE1_COLUMNS`: per space, the masculine (``M``) and feminine (``F``)
        form of each pair, then ``Avg-M`` and ``Avg-F``, the mean projections of the
        male and female seeds (``pair`` and ``word`` empty).
    """
    rows = []
    for name, vectors in spaces.items():
        missing = [w for pair in (*pairs, *seeds) for w in pair if w not in vectors]
        if missing:
            raise MissingWordsError(f"{name}: words {missing[:5]} are not in the vocabulary")
        male = vectors.rows(m for m, _ in seeds)
        female = vectors.rows(f for _, f in seeds)
        direction = gender_direction(male, female)
        for (masculine, feminine), (x_m, x_f) in zip(
            pairs,
            zip(
                projections(vectors.rows(m for m, _ in pairs), direction),
                projections(vectors.rows(f for _, f in pairs), direction),
                strict=True,
            ),
            strict=True,
        ):
            label = f"{masculine}/{feminine}"
            rows.append((name, label, masculine, "M", float(x_m)))
            rows.append((name, label, feminine, "F", float(x_f)))
        rows.append((name, "", "", "Avg-M", float(projections(male, direction).mean())))
        rows.append((name, "", "", "Avg-F", float(projections(female, direction).mean())))
    return pd.DataFrame(rows, columns=FIGURE1_COLUMNS)
