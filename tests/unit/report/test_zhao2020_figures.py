"""Figure 1 of Zhao et al. (2020) drawn from a hand-made projection table."""

from __future__ import annotations

import pandas as pd
import pytest

from mgbias.report.zhao2020_figures import figure1


def _frame() -> pd.DataFrame:
    rows = []
    for world in ("planted", "balanced"):
        for space in ("es", "es-en", "es-de"):
            rows += [
                (world, space, "médico/médica", "médico", "M", -0.1),
                (world, space, "médico/médica", "médica", "F", 0.2),
                (world, space, "", "", "Avg-M", -0.4),
                (world, space, "", "", "Avg-F", 0.4),
            ]
    return pd.DataFrame(rows, columns=["world", "space", "pair", "word", "gender", "projection"])


def test_figure1_writes_the_same_png_bytes_every_time(tmp_path):
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    figure1(_frame(), first)
    figure1(_frame(), second)
    assert first.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert first.read_bytes() == second.read_bytes()


def test_an_empty_table_is_rejected(tmp_path):
    with pytest.raises(ValueError, match="empty"):
        figure1(_frame().iloc[:0], tmp_path / "x.png")
