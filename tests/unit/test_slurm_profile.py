"""profiles/slurm gives every GPU rule (``gpu=1`` in its resources) a GPU entry: one GPU,
the GPU partition when one is set, memory and runtime that grow with the attempt."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def gpu_rules() -> set[str]:
    """The rules (and checkpoints) of rules/*.smk whose resources hold ``gpu=1``."""
    found = set()
    for path in sorted((REPO / "rules").glob("*.smk")):
        for block in re.split(r"^(?=(?:rule|checkpoint) )", path.read_text(), flags=re.M):
            name = re.match(r"(?:rule|checkpoint) (\w+):", block)
            if name and re.search(r"^\s+gpu=1,$", block, re.M):
                found.add(name[1])
    return found


def test_every_gpu_rule_has_a_gpu_entry_in_the_slurm_profile():
    profile = yaml.safe_load((REPO / "profiles/slurm/config.yaml").read_text())
    entries = profile["set-resources"]
    rules = gpu_rules()
    # the occupation classifier of Zhao et al. (2020): static vectors and the frozen M-BERT
    assert {"bios_classifier", "bios_finetune", "train_mlm", "zhao2020_align"} <= rules
    assert rules == {rule for rule, entry in entries.items() if entry.get("gpu") == 1}
    for rule in rules:
        entry = entries[rule]
        assert entry["?if gpu_partition"] == {"slurm_partition": "?repr(gpu_partition)"}, rule
        assert entry["mem_mb"].endswith("* attempt") and entry["runtime"].endswith("* attempt")
