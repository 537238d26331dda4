"""Words the pair measures' records share: units, direction and output of a share of pairs."""

from __future__ import annotations

PAIR_UNITS = "% of pairs in which sent_more scores higher"
SHARE_DIRECTION = "> 50: the stereotypical sentence is preferred; 50: none"
PAIR_OUTPUT = "results/pairs/measures/…/{lang}.csv (`score`, `se`, `p_value`, `n_edge`, `n_ties`)"
STEREO = "the stereotypical sentence"
ANTI = "the anti-stereotypical sentence"
#: Direction of the shares of pairs in which sent_more (the stereotypical sentence) wins.
PAIR_SIDES = {"neutral": 50.0, "above": STEREO, "below": ANTI}
#: What the records of the shares of pairs (all pair measures but S_JSD) have in common:
#: the rule, output, units and direction.
SHARE_OF_PAIRS = {
    "rule": "pair_measures",
    "output": PAIR_OUTPUT,
    "units": PAIR_UNITS,
    "direction": SHARE_DIRECTION,
    **PAIR_SIDES,
}
#: Where AUL's and AULA's published values are.
KANEKO_BOLLEGALA_TABLE1 = "CrowS-Pairs and StereoSet per model: Kaneko & Bollegala 2022, Table 1"
