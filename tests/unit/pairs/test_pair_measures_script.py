"""The workflow's pair_measures job writes each measure's length structure, and the pair
tables carry it: scripts/pair_measures.py run as Snakemake runs it, on caches of the
fixed BERT's passes (tests/fixtures/tiny_models.py) over pairs whose SSS the shorter
side decides (see tests/unit/cli/test_cli_score_length.py for the numbers by hand)."""

from __future__ import annotations

import runpy
from types import SimpleNamespace

import pandas as pd
import pytest
from snakerun import REPO

from mgbias.measures.measure import PAIR_SCORE_COLUMNS
from mgbias.mlm.masked_cache import pairs_sha256, write_pair_cache
from mgbias.mlm.unmasked_cache import write_score_cache
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.pairs.passes import score_pair_passes
from mgbias.report.pair_tables import (
    measures_by_model_markdown,
    pair_scores_markdown,
    read_pair_scores,
)

TAILS = ["is a doctor", "is doctor", "is a", "a doctor"]


class _Wildcards(dict):
    """A job's wildcards as the scripts read them: by attribute, and as ``items()``."""

    __getattr__ = dict.__getitem__


def run_script(name: str, wildcards: dict, **sections) -> None:
    """A workflow script as Snakemake runs it, in this process, without a log file."""
    snakemake = SimpleNamespace(
        log=[None],
        threads=1,
        wildcards=_Wildcards(wildcards),
        **{key: SimpleNamespace(**value) for key, value in sections.items()},
    )
    runpy.run_path(str(REPO / "scripts" / name), init_globals={"snakemake": snakemake})


def test_the_job_and_the_tables_carry_the_length_structure(fixed_bert_model, tmp_path):
    data = tmp_path / "pairs.csv"
    pd.DataFrame(
        {
            "sent_more": [f"he he {t}" for t in TAILS] + [f"he {t}" for t in TAILS] + ["he is"],
            "sent_less": [f"she {t}" for t in TAILS] + [f"she she {t}" for t in TAILS] + ["she is"],
            "stereo_antistereo": ["stereo"] * 9,
            "bias_type": ["gender"] * 9,
        }
    ).to_csv(data, index=False)
    frame = load_pairs(data, lang="en", bias_type="gender")
    pairs = pair_sentences(frame)
    model, tokenizer = fixed_bert_model
    unmasked, masked = score_pair_passes(
        model, tokenizer, pairs, progress=False, pair_ids=frame.pair_id.tolist()
    )
    metadata = {"model_id": "fixed", "revision": None, "input_sha256": pairs_sha256(pairs)}
    write_score_cache(unmasked, tmp_path / "unmasked.parquet", metadata)
    write_pair_cache(masked, tmp_path / "masked.parquet", metadata)
    measures = tmp_path / "measures.csv"
    run_script(
        "pair_measures.py",
        input={
            "data": str(data),
            "unmasked": str(tmp_path / "unmasked.parquet"),
            "masked": str(tmp_path / "masked.parquet"),
        },
        output={"measures": str(measures), "per_pair": str(tmp_path / "per_pair.csv")},
        params={
            "measures": ["aul", "sss"],
            "tie_rule": "neutral",
            "alpha": 0.05,
            "bias_type": "gender",
            "cluster": None,
            "seed": 3,
        },
        wildcards={"model": "fixed", "dataset": "toy", "variant": "original", "lang": "en"},
    )
    job = pd.read_csv(measures)
    assert list(job.columns) == [
        "model",
        "dataset",
        "variant",
        "lang",
        *PAIR_SCORE_COLUMNS,
        "model_id",
    ]
    sss = job.set_index("measure").loc["sss"]
    assert (sss.score, sss.matched_score, sss.matched_n) == (pytest.approx(500 / 9), 100.0, 1)
    assert (sss.n_unequal, sss.length_share, bool(sss.length_lean)) == (8, 100.0, True)
    scores = read_pair_scores([measures])
    long = pair_scores_markdown(scores, 0.05)
    (row,) = [
        line for line in long.splitlines() if line.startswith("| fixed ") and "| sss " in line
    ]
    assert "| 100 (p = 1, 1) " in row and "| 100.0 (p = 0.0078, 8) §" in row
    assert "100 (p = 1, 1); 100.0 (p = 0.0078, 8) §" in measures_by_model_markdown(scores)
