"""Every job's code input is the meaning digest of its script's import closure
(mgbias.workflow.code_inputs.code_digest), and Snakemake plans a job when, and only when, the code
it runs changes in what it does.

One dry run with ``--forceall`` lists every job's inputs: its code digest must list
exactly the closure of the rule's script (conditional modules aside), each file with
its meaning digest. Then real edits of a completed tiny run: a comment, a docstring or
a formatting edit of a module every script runs plans nothing; a changed function plans
exactly the jobs whose scripts run it and what depends on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from snakerun import checked, copy_workflow, planned_job_inputs, planned_jobs, snakemake

from mgbias.workflow.code_inputs import import_closure, meaning_digest

pytestmark = pytest.mark.workflow

DIGESTS = ".snakemake/mgbias/code/"


def digest_lines(workdir: Path, digest: str) -> dict[str, str]:
    lines = (workdir / digest).read_text(encoding="utf-8").splitlines()
    return dict(line.split(" ") for line in lines)


def checked_rules(workdir: Path, config: str, meanings: dict[str, str]) -> tuple[set, set]:
    """The rules of a dry run with ``--forceall`` of ``config`` whose jobs have a code
    digest, each checked against its script's import closure; and those with a perturbed
    variant."""
    result = checked(snakemake(workdir, "-n", "--forceall", config=config))
    src = workdir / "src"
    seen, perturbed = set(), set()
    for rule, wildcards, inputs in planned_job_inputs(result.stdout):
        assert not [p for p in inputs if p.startswith("src/mgbias/") and p.endswith(".py")], (
            f"{rule}: a library file is an input itself (its meaning digest is)"
        )
        digests = [path for path in inputs if path.startswith(DIGESTS)]
        if not digests:
            continue
        (digest,) = digests
        script, _, left_out = Path(digest).stem.partition("-without-")
        expected = {f"scripts/{script}.py"} | {
            str(path.relative_to(workdir.resolve()))
            for path in import_closure(workdir / "scripts" / f"{script}.py", src)
        }
        # pairs/perturb.py is part of the scoring jobs' code for the perturbed variant only
        if wildcards.get("variant") == "perturbed":
            assert not left_out, (rule, wildcards)
            perturbed.add(rule)
        if left_out:
            assert wildcards.get("variant") != "perturbed" and left_out == "perturb"
            expected.discard("src/mgbias/pairs/perturb.py")
        lines = digest_lines(workdir, digest)
        assert set(lines) == expected, (rule, wildcards, sorted(set(lines) ^ expected))
        for name, digest_of_file in lines.items():
            if name not in meanings:
                meanings[name] = meaning_digest((workdir / name).read_bytes())
            assert digest_of_file == meanings[name], name
        seen.add(rule)
    return seen, perturbed


def test_every_jobs_code_input_is_the_meaning_of_its_scripts_import_closure(tmp_path):
    workdir = copy_workflow(tmp_path / "run")
    meanings: dict[str, str] = {}
    # the full demo configuration plans every rule but the scoring of models together
    seen, perturbed = checked_rules(workdir, "config/demo-full.yaml", meanings)
    assert "score_pairs" in perturbed
    # every rule with a script but those a dry run of the demo cannot plan (the bios
    # checkpoint's jobs, the downloads for Zhao et al. (2020), §3, the title lexicons,
    # text files of one's own: other tests run them)
    # (the demo fine-tunes a grid in one job, kaneko2023_finetune_grid; finetune_mlm, the
    # same script, in the paper's plan)
    assert len(seen) >= 50
    assert {"train_mlm", "kaneko2023_finetune_grid", "pair_measures", "mbe"} <= seen
    # the default demo scores its two models together (scoring.together)
    together, _ = checked_rules(workdir, "config/config.yaml", meanings)
    assert {"score_unmasked_together", "score_pairs_together"} <= together


def test_a_comment_docstring_or_formatting_edit_plans_nothing(tiny_copy):
    # gc_tuning.py is run by every script; pair_measures.py is one script
    for name in ("src/mgbias/workflow/gc_tuning.py", "scripts/pair_measures.py"):
        path = tiny_copy / name
        text = path.read_text(encoding="utf-8")
        assert text.startswith('"""'), name
        edited = '"""An edited docstring.\n\n' + text[3:] + "\n\n# a comment\n"
        path.write_text(edited.replace("\n\n\n", "\n\n\n\n", 1), encoding="utf-8")
        assert meaning_digest(edited.encode()) == meaning_digest(text.encode())
    result = checked(snakemake(tiny_copy, "-n"))
    assert planned_jobs(result.stdout) == [], result.stdout[-3000:]


@pytest.mark.parametrize(
    "module",
    ["kaneko2022/sentences.py", "mlm/unmasked_cache.py", "workflow/gc_tuning.py"],
)
def test_a_code_change_plans_exactly_the_jobs_that_run_it(tiny_copy, module):
    name = f"src/mgbias/{module}"
    everything = checked(snakemake(tiny_copy, "-n", "--forceall")).stdout
    rules = sorted(
        {
            rule
            for rule, _, inputs in planned_job_inputs(everything)
            for digest in inputs
            if digest.startswith(DIGESTS) and name in digest_lines(tiny_copy, digest)
        }
    )
    assert rules
    expected = planned_jobs(checked(snakemake(tiny_copy, "-n", "--forcerun", *rules)).stdout)
    path = tiny_copy / name
    path.write_text(path.read_text(encoding="utf-8") + "\n_CHANGED = True\n", encoding="utf-8")
    result = checked(snakemake(tiny_copy, "-n"))
    assert sorted(map(repr, planned_jobs(result.stdout))) == sorted(map(repr, expected))
    assert f"mgbias: {name} changed in what it does" in result.stderr
    if module != "workflow/gc_tuning.py":
        assert "train_mlm" not in {rule for rule, _ in planned_jobs(result.stdout)}
