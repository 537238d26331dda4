"""profiles/slurm gives every GPU rule (``gpu=1`` in its resources) a GPU entry: one GPU,
the GPU partition when one is set, memory and runtime that grow with the attempt."""

from __future__ import annotations

from pathlib import Path

import yaml
from fixtures.workflow_rules import resource, workflow_rules

REPO = Path(__file__).resolve().parents[3]


def gpu_rules() -> set[str]:
    """The rules whose resources hold ``gpu=1``, as Snakemake reads them."""
    return {name for name, rule in workflow_rules().items() if resource(rule, "gpu") == 1}


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


def test_the_cluster_page_holds_the_table_generated_from_the_profile():
    from mgbias.workflow.slurm import resource_table

    table = resource_table(REPO / "profiles/slurm/config.yaml")
    page = (REPO / "profiles/slurm/README.md").read_text()
    assert table in page, (
        "regenerate it: python -m mgbias.workflow.slurm profiles/slurm/config.yaml"
    )
    # every rule with set-resources is in it, the GPU rules with their GPU
    for rule in gpu_rules():
        row = next(line for line in table.splitlines() if f"`{rule}`" in line)
        assert "| 1 (`--gpus=1`) |" in row, rule
    for rule in ("score_pairs", "finetune_mlm", "zhao2020_align", "bios_extract"):
        assert f"`{rule}`" in table


def test_resource_table_groups_rules_and_keeps_defaults(tmp_path):
    from mgbias.workflow.slurm import resource_table

    profile = tmp_path / "config.yaml"
    profile.write_text(
        "default-resources: {mem_mb: 1000 * attempt, runtime: 10 * attempt}\n"
        "set-resources:\n"
        "  a: {gpu: 1, mem_mb: 500 * attempt, runtime: 5}\n"
        "  b: {runtime: 99 * attempt}\n"
        "  c: {gpu: 1, mem_mb: 500 * attempt, runtime: 5}\n"
    )
    assert resource_table(profile).splitlines()[2:] == [
        "| every rule (default) | – | 1000 MB × attempt | 10 min × attempt |",
        "| `a`, `c` | 1 (`--gpus=1`) | 500 MB × attempt | 5 min |",
        "| `b` | – | 1000 MB × attempt | 99 min × attempt |",
    ]


def test_resource_table_names_the_file_of_a_malformed_profile(tmp_path):
    import pytest

    from mgbias.workflow.slurm import main, resource_table

    profile = tmp_path / "config.yaml"
    profile.write_text("set-resources: [train_mlm]\n")
    with pytest.raises(ValueError, match=r"config\.yaml: set-resources must be a mapping"):
        resource_table(profile)
    assert main([str(profile)]) == 2
