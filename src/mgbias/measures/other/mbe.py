"""MBE's record (Kaneko et al. 2022, Eq. 2): a measure of sentence sets, computed by
:mod:`mgbias.measures.mbe` (rules ``mbe``, ``mbe_pairs``)."""

from __future__ import annotations

from mgbias.measures.measure import Measure

MEASURE = Measure(
    name="mbe",
    title="MBE, multilingual bias evaluation",
    paper="Kaneko et al. 2022",
    equation="Eq. 2, AULA of male vs female sentences over all pairs, cosine-weighted",
    module="mgbias.measures.mbe",
    function="mbe_score",
    cache="unmasked (sentence scores and embeddings)",
    rule="mbe",
    output="results/mbe/…/{lang}.json (`score`, `p_value`, `shf`)",
    units="% of weighted male x female pairs in which the male sentence scores higher",
    direction="> 50: male sentences preferred (by the formula; the paper's prose says the reverse)",
    published="Kaneko et al. 2022, Table 2 (8 languages × TED2020 / News Commentary)",
    kind="sentence-set",
    table_rank=5,
    neutral=50.0,
    above="the male sentences",
    below="the female sentences",
)
