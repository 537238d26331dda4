"""Every file a planned job writes is a path of mgbias.workflow.layout, of that job's rule."""

from __future__ import annotations

import pytest
from snakerun import checked, copy_workflow, planned_job_outputs, snakemake

from mgbias.workflow.layout import OUTPUTS, matching_output

pytestmark = pytest.mark.workflow


def test_every_planned_output_is_a_layout_path_of_its_rule(tmp_path):
    workdir = copy_workflow(tmp_path / "run")
    result = checked(snakemake(workdir, "-n", "--forceall", config="config/demo-full.yaml"))
    seen = set()
    for rule, outputs in planned_job_outputs(result.stdout):
        for path in outputs:
            output = matching_output(path)
            assert output is not None, (
                f"{rule} writes {path}, which mgbias.workflow.layout does not define"
            )
            assert rule in output.rules, f"{path} is {output.key} of {output.rules}, not {rule}"
            seen.add(output.key)
    # the full demo configuration writes every kind of output the layout defines; a dry run
    # cannot plan the jobs behind the bios checkpoint (tests/integration/test_bios_workflow.py
    # runs them); the demo trains and generates what a paper run downloads for Zhao et al.
    # (2020), §3 (tests/integration/test_zhao2020_downloads.py runs that rule), and reads
    # the shipped title lexicons, not downloaded ones (the bios workflow test downloads one)
    assert seen == set(OUTPUTS) - {
        "raw_bios_shard",
        "download_bios_shard_provenance",
        "bios_shard",
        "raw_zhao2020",
        "raw_zhao2020_checksum",
        "raw_bios_titles",
        "raw_bios_titles_checksum",
    }
