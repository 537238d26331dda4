"""The DVC pipeline (``dvc.yaml``), derived from the workflow's output paths.

Snakemake owns the DAG; DVC records and shares what it wrote. Each DVC stage runs
Snakemake up to a group of rules and owns some top folders of :mod:`mgbias.workflow.layout`:

- ``data``: every dataset (the demo world, the downloads, the mined sentences and
  datasets);
- ``models``: the MLMs the workflow trains and fine-tunes, the word vectors and their
  debiased and aligned spaces;
- ``scores``: the score caches and the encoders' word vectors (the GPU passes);
- ``tables``: the rest of the DAG, each remaining top folder of ``results/``.

A stage runs the DAG without the rules of the stages after it (``--omit-from``, which
drops their jobs and every job downstream of them), so each rule joins a stage by the
folder it writes to (:data:`mgbias.workflow.layout.OUTPUTS`) and nothing lists rules by hand. The
last stage runs the whole DAG. A new top folder under ``data/`` or beside it is an error
here until a stage owns it; a new ``results/`` folder goes to the last stage.

(``--until`` would name a stage's own rules instead, but it cannot name a rule that is
upstream of another it names, as a stage's rules are: ``download_corpus`` before
``mine_gendered``, ``download_pairs`` both before and after ``native_name_pairs``, whose
mined pair file is downloaded again; and it does not pass a checkpoint.)

``python -m mgbias.workflow.dvc_pipeline > dvc.yaml`` writes the file; a test keeps it current.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath

from mgbias.workflow import layout

#: The checkout's code, every stage's dependency.
CODE = ("Snakefile", "rules", "scripts", "src", "envs")
#: The folder of the run's outputs, the configuration's ``workdir`` (``params.yaml``
#: holds it: DVC takes variables from that file only; :mod:`mgbias.workflow.share` keeps it
#: the configuration's own).
WORKDIR = layout.WORKDIR_VARIABLE


@dataclass(frozen=True)
class Stage:
    """One DVC stage.

    Attributes
    ----------
    name : str
        The stage's name in ``dvc.yaml``.
    comment : str
        What it holds, written above it.
    owns : tuple of str
        Its top folders (``outs``); ``()`` for the last stage: every folder the earlier
        stages do not own.
    """

    name: str
    comment: str
    owns: tuple[str, ...]


STAGES = (
    Stage(
        "data",
        "downloads (and the demo world they are fetched from), mined sentences, pair\n"
        "benchmarks, the probe corpora (Basta et al. 2020) and the bios datasets with\n"
        "their splits (Zhao et al. 2020): every dataset, under data/",
        ("data/demo", "data/raw", "data/mined"),
    ),
    Stage(
        "models",
        "MLMs the workflow trains (the demo models, the bias-controlled fine-tunings),\n"
        "the demo's word vectors and their debiased and aligned spaces (Zhao et al.\n"
        "2020); hub models are not copied",
        ("models",),
    ),
    Stage(
        "scores",
        "score caches: the passes of each model over each sentence set and pair\n"
        "benchmark; the encoders' word vectors of the probe corpora (Basta et al. 2020)",
        ("results/score", "results/basta2020/vectors"),
    ),
    Stage("tables", "measures, tables and figures: the rest of the DAG", ()),
)

HEADER = """\
# DVC stages over the Snakemake workflow; the recipe is in docs/sharing.md.
# Generated from the workflow's output paths: python -m mgbias.workflow.dvc_pipeline > dvc.yaml
# (src/mgbias/workflow/dvc_pipeline.py says how; a test keeps this file current).
#
# Snakemake owns the DAG: each stage runs it without the rules of the later
# stages (--omit-from, which also drops what is downstream of them), with the
# configuration file that params.yaml names, and Snakemake decides which jobs
# are due. DVC records what the stages hold and shares it through a remote.
# Every out is `persist: true`, so DVC never deletes results before a stage
# runs (Snakemake would then redo every job) nor restores old ones from its
# run cache behind Snakemake's back.
#
# A configuration that does not produce an out (config/paper.yaml has no demo
# world) records it empty (`mkdir -p`), so one pipeline serves every configuration.
# The outs are below the configuration's `workdir` (params.yaml holds a copy:
# `make push CONFIG=FILE` writes it).
vars:
  - params.yaml

stages:
"""


def _under(path: str, folder: str) -> bool:
    return PurePosixPath(path).is_relative_to(folder)


def _stage_folder(template: str, claimed: Iterable[str]) -> str:
    """The top folder of ``template`` (:func:`mgbias.workflow.layout.top_folder`), one level
    deeper where an earlier stage owns a folder inside it (``results/basta2020``)."""
    folder = layout.top_folder(template)
    if any(_under(owned, folder) and owned != folder for owned in claimed):
        parts = PurePosixPath(template).parts
        folder = "/".join(parts[: len(PurePosixPath(folder).parts) + 1])
    return folder


def stage_layout() -> list[tuple[Stage, tuple[str, ...], tuple[str, ...]]]:
    """``(stage, outs, rules)`` of each stage, in order: its folders and the rules that
    write under them.

    Raises
    ------
    ValueError
        An output path lies under no stage's folders and not under ``results/`` (a new
        folder under ``data/``, or a new top folder), naming the path and its rule.
    """
    claimed = [folder for stage in STAGES for folder in stage.owns]
    rules: dict[str, set[str]] = {stage.name: set() for stage in STAGES}
    last_outs: list[str] = []
    for output in layout.OUTPUTS.values():
        owner = next((s for s in STAGES if any(_under(output.template, f) for f in s.owns)), None)
        if owner is None:
            folder = _stage_folder(output.template, claimed)
            if not folder.startswith("results/"):
                raise ValueError(
                    f"{output.template} (rule {output.rule}): no DVC stage owns {folder}; "
                    f"add it to a stage's folders in {__name__}.STAGES"
                )
            owner = STAGES[-1]
            if folder not in last_outs:
                last_outs.append(folder)
        rules[owner.name].update((output.rule, *output.also))
    return [
        (stage, stage.owns or tuple(last_outs), tuple(sorted(rules[stage.name])))
        for stage in STAGES
    ]


def dvc_yaml() -> str:
    """The text of ``dvc.yaml``."""
    stages = stage_layout()
    text = [HEADER]
    earlier: list[str] = []
    for index, (stage, outs, _) in enumerate(stages):
        later = sorted(rule for _, _, rules in stages[index + 1 :] for rule in rules)
        words = ["snakemake", "--configfile", "${configfile}"]
        if later:
            words += ["--omit-from", *later]
        words += ["&&", "mkdir", "-p", *(f"{WORKDIR}/{out}" for out in outs)]
        text.extend(f"  # {line}\n" for line in stage.comment.split("\n"))
        text.append(f"  {stage.name}:\n    cmd: >-\n")
        command = textwrap.wrap(
            " ".join(words),
            88,
            initial_indent="      ",
            subsequent_indent="      ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        text.extend(line + "\n" for line in command)
        text.append("    deps:\n")
        text.extend(f"      - {dep}\n" for dep in (*CODE, *(f"{WORKDIR}/{e}" for e in earlier)))
        text.append("    params:\n      - configfile\n      - ${configfile}:\n    outs:\n")
        for out in outs:
            text.append(
                f"      - {WORKDIR}/{out}:\n          persist: true\n          cache: true\n"
            )
        text.append("\n")
        earlier.extend(outs)
    return "".join(text).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Print dvc.yaml, derived from mgbias.workflow.layout."
    )
    parser.parse_args(argv)
    print(dvc_yaml(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
