"""inBias's record (Zhao et al. 2020, Eq. 1): a measure of static word vectors, computed
by :mod:`mgbias.measures.inbias` (rules ``zhao2020_inbias``, ``zhao2020_inbias_space``)."""

from __future__ import annotations

from mgbias.measures.measure import Measure

MEASURE = Measure(
    name="inbias",
    title="inBias, intrinsic bias of static word vectors",
    paper="Zhao et al. 2020",
    equation="Eq. 1, inBias = (1/N) Σ_i |dis(O_Mi, S_M) − dis(O_Fi, S_F)| with "
    "dis(O, S) = (1/|S|) Σ_{s∈S} (1 − cos(O, s)), over N occupation (masculine, "
    "feminine) pairs and the male and female gender seeds",
    module="mgbias.measures.inbias",
    function="inbias",
    cache="none (word vectors, .vec)",
    rule="zhao2020_inbias",
    output="results/zhao2020/inbias/{world}/{lang}.json (`inbias`, `strong`, `weak`, "
    "`n`) and .csv (`score` = b_i per pair); aligned spaces: `zhao2020_inbias_space` "
    "(`p_value`: t-test against the original space)",
    units="mean gap of cosine distances to the seeds (the paper prints 4 decimals)",
    direction="≥ 0; higher: each occupation form further from its gender's seeds "
    "than the other form from the other's (away from parity); 0: none",
    published="Zhao et al. 2020, Table 1 (EN .0830, ES .0803, DE .1079, FR .0940 "
    "before alignment), Table 3 (ENDEB .0501), Tables 12-13 (strong/weak)",
    kind="static-embedding",
    variants=(
        (
            "averaged",
            "the default: Eq. 1 as printed, |·| of the difference of the seed-averaged distances",
        ),
        (
            "pairwise",
            "the authors' code (inBias.ipynb, cal_bias_paired): (1/N) Σ_i (1/|P|) "
            "Σ_j |(1 − cos(O_Mi, m_j)) − (1 − cos(O_Fi, f_j))|, |·| per seed pair "
            "(m_j, f_j) then averaged; never below `averaged`; reproduces the "
            "published numbers (config/paper.yaml selects it)",
        ),
    ),
)
