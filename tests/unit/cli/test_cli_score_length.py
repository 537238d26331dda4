"""`mgbias score` says when a measure's length, not the model, decides, and when ties do.

The fixed BERT of tests/fixtures/tiny_models.py predicts the same at every position
(p(he) = .3, p(she) = .2, p(is) = p(a) = .1, p(doctor) = .05), so by hand:

- SSS sums log P over the modified tokens: "he he" (2 log .3 = -2.41) loses to "she"
  (log .2 = -1.61), and "he" (-1.20) beats "she she" (-3.22). The side with fewer
  modified tokens wins each of the 8 unequal pairs below, whichever side it is: SSS is
  6 of 10 = 60 (sign test p = 0.75), the lean 8 of 8 (binomial p = 2/256 = 0.0078); on
  the 2 length-matched pairs "he" beats "she": 100 (p = 0.5).
- CPS compares the shared tokens, which score the same on both sides: every pair ties.
"""

from __future__ import annotations

import pandas as pd
import pytest

import mgbias
from mgbias.api.mlm import PAIRS_SUMMARY_COLUMNS
from mgbias.cli.main import main

TAILS = ["is a doctor", "is doctor", "is a", "a doctor"]


@pytest.fixture()
def length_csv(tmp_path):
    """8 pairs of unequal modified-token counts (the shorter side alternates), 2 matched."""
    more = [f"he he {tail}" for tail in TAILS] + [f"he {tail}" for tail in TAILS]
    less = [f"she {tail}" for tail in TAILS] + [f"she she {tail}" for tail in TAILS]
    more += ["he is a doctor", "he is doctor"]
    less += ["she is a doctor", "she is doctor"]
    path = tmp_path / "length.csv"
    pd.DataFrame(
        {
            "sent_more": more,
            "sent_less": less,
            "stereo_antistereo": ["stereo"] * len(more),
            "bias_type": ["gender"] * len(more),
        }
    ).to_csv(path, index=False)
    return path


def test_score_names_the_length_artifact_and_the_ties(fixed_bert_dir, length_csv, tmp_path, capsys):
    out = tmp_path / "scores.csv"
    args = ["score", "--model", str(fixed_bert_dir), "--data", str(length_csv)]
    assert main([*args, "--measures", "sss,cps", "--output", str(out), "--device", "cpu"]) == 0
    printed = capsys.readouterr().out
    header = printed.splitlines()[0]
    for column in ("matched_score", "matched_p_value", "n_unequal", "length_share"):
        assert column in header
    table = pd.read_csv(out)
    assert list(table.columns) == list(PAIRS_SUMMARY_COLUMNS)
    table = table.set_index("measure")
    sss = table.loc["sss"]
    assert (sss.score, sss.matched_score, sss.matched_n) == (60.0, 100.0, 2)
    assert (sss.n_unequal, sss.length_share) == (8, 100.0)
    assert sss.length_p_value == pytest.approx(2 / 256)
    expected = (
        "SSS 60 (p = 0.75, 10 pairs): in 8 pairs of unequal length the shorter sentence won "
        "100.0% (p = 0.0078): the measure's length artifact, not the model, may decide; on "
        "the 2 length-matched pairs SSS is 100 (p = 0.5): no significant preference at "
        "alpha = 0.05"
    )
    assert sss.verdict == expected and expected in printed
    cps = "CPS: 10 of 10 pairs tied: the measure could not decide for this model and data"
    assert table.loc["cps", "verdict"] == cps and cps in printed
    assert "prefers" not in printed


def test_a_lean_not_significant_at_alpha_keeps_the_plain_verdict(fixed_bert_dir, length_csv):
    # a stricter alpha than the lean's p-value (0.0078): the plain verdict
    report = mgbias.score_pairs(
        fixed_bert_dir, length_csv, measures="sss", alpha=0.005, device="cpu", progress=False
    )
    row = report.summary.iloc[0]
    assert not row.length_lean
    assert row.verdict == "SSS 60 (p = 0.75, 10 pairs): no significant preference at alpha = 0.005"
