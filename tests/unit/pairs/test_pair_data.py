"""The units of the pair tests (mgbias.pairs.data.cluster_column)."""

from __future__ import annotations

import pandas as pd
import pytest

from mgbias.pairs.data import AUTO_CLUSTER, cluster_column
from mgbias.workflow.schema import key_default


def pairs(targets) -> pd.DataFrame:
    n = len(targets)
    return pd.DataFrame({"sent_more": ["a"] * n, "sent_less": ["b"] * n, "target": targets})


@pytest.mark.parametrize(
    ("targets", "expected"),
    [
        (["nurse", "nurse", "doctor"], "target"),  # a target word holds two pairs
        (["nurse", "doctor", "pilot"], None),  # one pair each: the pairs are the units
        (["nurse", "", "nurse"], None),  # a pair without a target word: no clusters
        (["nurse", None, "nurse"], None),
        ([], None),
    ],
)
def test_auto_takes_the_target_words_where_they_repeat(targets, expected):
    assert cluster_column(pairs(targets), AUTO_CLUSTER) == expected


def test_a_column_or_none_is_taken_as_given():
    frame = pairs(["nurse", "nurse"])
    assert cluster_column(frame, None) is None
    assert cluster_column(frame, "bias_type") == "bias_type"
    assert cluster_column(frame.drop(columns="target"), AUTO_CLUSTER) is None


def test_auto_is_the_default_of_a_pair_dataset():
    assert key_default("pair_datasets.*.cluster") == AUTO_CLUSTER
    with pytest.raises(KeyError, match="states no default for 'pair_datasets.\\*.url'"):
        key_default("pair_datasets.*.url")
