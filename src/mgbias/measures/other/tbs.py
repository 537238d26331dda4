"""TBS's record (Kurita et al. 2019, §3): a template measure, computed by
:mod:`mgbias.measures.tbs` (rule ``kaneko2023_probe``)."""

from __future__ import annotations

from mgbias.measures.measure import Measure

MEASURE = Measure(
    name="tbs",
    title="TBS, template-based score",
    paper="Kurita et al. 2019",
    equation="§3, mean over targets of log(p_tgt/p_prior) for he minus the same for she, "
    "with '[MASK] is a(n) [TARGET].'",
    module="mgbias.measures.tbs",
    function="tbs_bias",
    cache="none (one masked pass over the templates)",
    rule="kaneko2023_probe",
    output="results/kaneko2023/probe/{model}/{lang}/summary.json (`tbs`)",
    units="mean log-probability ratio (nats)",
    direction="> 0: targets more associated with the male word; 0: none",
    published="Kaneko et al. 2023, Table 1 (correlation with r: 0.09–0.25)",
    kind="template",
    table_rank=0,
    neutral=0.0,
    above="the male word for the targets",
    below="the female word for the targets",
)
