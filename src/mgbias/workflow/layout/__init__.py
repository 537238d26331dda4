"""Where the workflow writes things: every path template, defined once.

The convention a newcomer can follow is that the first directories of a path
name the rule file that writes it:

============================================  =====================
path prefix                                   rule file
============================================  =====================
``data/demo/**``                              ``rules/demo.smk``
``data/raw/**``                               ``rules/download.smk``
``data/mined/bios/**``                        ``rules/bios.smk``
``data/mined/basta2020/**``                   ``rules/basta2020.smk``
``data/mined/**``                             ``rules/mine.smk``
``models/**``                                 ``rules/models.smk``
``results/<family>/**``                       ``rules/<family>.smk``
``results/tables/<family>_*``                 ``rules/<family>.smk``
``results/figures/<family>_*``                ``rules/<family>.smk``
============================================  =====================

and a table's or figure's file name is the name of the rule that writes it
(``results/tables/mbe_scores.csv`` by rule ``mbe_scores``). Logs follow the
rule: ``logs/<rule>/...``. Datasets a paper's rules mine from downloads (the
Common Crawl bios and their splits, the probe corpora) are under
``data/mined/<family>/``, beside the sentences of ``rules/mine.smk``: ``data/``
holds every dataset, which the DVC data stage owns (``dvc.yaml``), and
``results/`` only what is computed on them.

Rule outputs take their templates from :data:`OUTPUTS` (``layout.template``),
and input functions format the same templates (``layout.path``), so a path is
spelled in one place. ``docs/outputs.md`` is generated from this module
(``python -m mgbias.workflow.layout > docs/outputs.md``) and a test keeps it current;
``make clean-results`` removes the top folders of these paths
(``python -m mgbias.workflow.layout --clean-targets``, :func:`clean_targets`).

The outputs are listed per rule file's family, in the module of the same name
(:mod:`~mgbias.workflow.layout.shared` for the steps several papers share: the demo,
the downloads, the mining, the models and the scoring caches;
:mod:`~mgbias.workflow.layout.mbe`, :mod:`~mgbias.workflow.layout.pairs`,
:mod:`~mgbias.workflow.layout.kaneko2023`, :mod:`~mgbias.workflow.layout.zhao2020`,
:mod:`~mgbias.workflow.layout.basta2020` and :mod:`~mgbias.workflow.layout.bios` for the
papers' own); this module joins them and adds the provenance records.

This package is imported by the rule files, so it imports nothing heavy; the
column lists of the tables are named as ``module:CONSTANT`` and resolved only
when the documentation is generated.
"""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import PurePosixPath

from mgbias.workflow.layout import basta2020, bios, kaneko2023, mbe, pairs, shared, zhao2020
from mgbias.workflow.layout.output import Output

#: The run's folder (the configuration's ``workdir``) in dvc.yaml, as a DVC variable of
#: params.yaml: every output path there starts with it (:mod:`mgbias.workflow.dvc_pipeline`).
WORKDIR_VARIABLE = "${workdir}"

_OUTPUTS = [
    *shared.OUTPUTS,
    *mbe.OUTPUTS,
    *pairs.OUTPUTS,
    *kaneko2023.OUTPUTS,
    *zhao2020.OUTPUTS,
    *basta2020.OUTPUTS,
    *bios.OUTPUTS,
]


#: Where each table's provenance record goes: one per rule writing under results/tables.
PROVENANCE_TABLES = "results/provenance/tables"


def _provenance_outputs(outputs: list[Output]) -> list[Output]:
    """The provenance record of every rule that writes a table (``results/tables/``)."""
    rules = dict.fromkeys(
        output.rule for output in outputs if output.template.startswith("results/tables/")
    )
    return [
        Output(
            f"{rule}_provenance",
            f"{PROVENANCE_TABLES}/{rule}.json",
            rule,
            f"the provenance of `{rule}`'s table (mgbias.provenance): mgbias version and git "
            "commit, the models' weights sha256, the pair data's sha256, every input's "
            "sha256, the settings, the outputs' sha256, start and end time",
            "JSON",
        )
        for rule in rules
    ]


_OUTPUTS += _provenance_outputs(_OUTPUTS)

#: The jobs that draw random numbers from a seed of their own (``params.seed``, or
#: ``params.seeds`` for a job of several seeded runs, derived from the configuration's
#: ``seed`` per job, :mod:`mgbias.seeds`; the fine-tunings' and the probes' seed sits in
#: their settings) and write files: each writes a record beside its first output that
#: holds the seed it used (``seed``). With it, ``mgbias score --seed`` or ``mgbias mbe
#: --seed`` gives a pair-measure or MBE job's numbers, standard errors included.
SEEDED_JOB_RULES = (
    "demo_world",
    "demo_pairs",
    "demo_mt_pairs",
    "demo_embedding_lists",
    "pair_measures",
    "mbe",
    "mbe_pairs",
    "mbe_translated",
    "mine_gendered",
    "mine_controlled",
    "mix_controlled",
    "native_name_pairs",
    "train_mlm",
    "finetune_mlm",
    "kaneko2023_finetune_grid",
    "bios_plan",
    "download_bios_shard",
    "bios_dataset",
    "bios_split",
    "bios_classifier",
    "bios_finetune",
    "train_vectors",
    "zhao2020_align",
    "basta2020_vectors",
    "basta2020_probes",
    "basta2020_clusters",
)
#: The suffix of a seeded job's record (the command line's sidecars have the same).
JOB_RECORD_SUFFIX = ".provenance.json"
#: The records of seeded rules without wildcards whose first output has some (the demo's
#: pair files, one per language, are written by one job): beside the rule's data.
_JOB_RECORD_AT = {"demo_pairs": f"data/demo/demo_pairs{JOB_RECORD_SUFFIX}"}


def _job_provenance_outputs(outputs: list[Output], rules: tuple[str, ...]) -> list[Output]:
    """The record of each job of ``rules``: ``<its first output>.provenance.json``, keyed
    ``<rule>_provenance``; rules sharing their first output (``models/{model}``: trained
    or fine-tuned) share one record kind, keyed ``<that output's key>_provenance``."""
    first: dict[str, Output] = {}
    for output in outputs:
        for rule in output.rules:
            first.setdefault(rule, output)
    sharing: dict[str, list[str]] = {}
    for rule in rules:
        sharing.setdefault(first[rule].key, []).append(rule)
    records = []
    for key, owners in sharing.items():
        rule = owners[0]
        records.append(
            Output(
                f"{rule if len(owners) == 1 else key}_provenance",
                _JOB_RECORD_AT.get(rule, first[rule].template + JOB_RECORD_SUFFIX),
                rule,
                f"the provenance of one `{'`/`'.join(owners)}` job (mgbias.provenance), as "
                "a table's record is, with the `seed` (or, for a job of several runs, the "
                "list of seeds) the job drew its random numbers from",
                "JSON",
                also=tuple(owners[1:]),
            )
        )
    return records


_JOB_RECORDS = _job_provenance_outputs(_OUTPUTS, SEEDED_JOB_RULES)
_OUTPUTS += _JOB_RECORDS
#: The record kind of each seeded rule's jobs.
JOB_RECORDS: dict[str, Output] = {rule: output for output in _JOB_RECORDS for rule in output.rules}
_OUTPUTS.append(
    Output(
        "provenance_summary",
        "results/provenance/summary.csv",
        "provenance_summary",
        "one row per table of the run: its rule, mgbias version and commit, the models "
        "with their weights sha256, the pair data's sha256, seed, device and the times "
        "(the report's Provenance page)",
        "mgbias.provenance:SUMMARY_COLUMNS",
    )
)

#: Every output, by key.
OUTPUTS: dict[str, Output] = {output.key: output for output in _OUTPUTS}


def provenance_record(table: str) -> str | None:
    """The provenance record of a concrete table path, or None if it is no table."""
    output = matching_output(table)
    if output is None or not output.template.startswith("results/tables/"):
        return None
    key = f"{output.rule}_provenance"
    return OUTPUTS[key].template if key in OUTPUTS else None


_RULE_FILE_OF_DATA = {"demo": "demo.smk", "raw": "download.smk", "mined": "mine.smk"}
#: The families whose own rule file mines a dataset under ``data/mined/<family>/``.
_RULE_FILE_OF_MINED = {"bios": "bios.smk", "basta2020": "basta2020.smk"}


def template(key: str) -> str:
    """The path template of ``key``, wildcards unformatted (for rule outputs)."""
    try:
        return OUTPUTS[key].template
    except KeyError:
        raise KeyError(
            f"no output {key!r} in mgbias.workflow.layout; known: {sorted(OUTPUTS)}"
        ) from None


def path(key: str, **wildcards: object) -> str:
    """The path of ``key`` with its wildcards filled in (for input functions).

    Every wildcard of the template must be given, and no other.
    """
    pattern = template(key)
    needed = set(wildcard_names(pattern))
    if set(wildcards) != needed:
        raise ValueError(
            f"layout.path({key!r}): expected wildcards {sorted(needed)}, got {sorted(wildcards)}"
        )
    return pattern.format(**wildcards)


def wildcard_names(pattern: str) -> list[str]:
    """The wildcard names of a template, in order, each once."""
    names = re.findall(r"{(\w+)(?:,[^}]*)?}", pattern)
    return list(dict.fromkeys(names))


def rule_file(pattern: str) -> str:
    """The rule file that, by the convention, writes paths starting like ``pattern``."""
    parts = PurePosixPath(pattern).parts
    if parts[:2] == ("data", "mined") and len(parts) > 3 and parts[2] in _RULE_FILE_OF_MINED:
        return _RULE_FILE_OF_MINED[parts[2]]
    if parts[0] == "data" and len(parts) > 1 and parts[1] in _RULE_FILE_OF_DATA:
        return _RULE_FILE_OF_DATA[parts[1]]
    if parts[0] == "models":
        return "models.smk"
    if parts[0] == "results" and len(parts) > 3 and parts[1:3] == ("provenance", "tables"):
        return parts[3].split("_", 1)[0].split(".", 1)[0] + ".smk"
    if parts[0] == "results" and len(parts) > 2:
        if parts[1] in ("tables", "figures"):
            return parts[2].split("_", 1)[0].split(".", 1)[0] + ".smk"
        return parts[1] + ".smk"
    raise ValueError(f"{pattern!r} follows no layout convention (see mgbias.workflow.layout)")


def matching_output(concrete: str) -> Output | None:
    """The output whose template matches the concrete path ``concrete``, if any.

    When several match (``{filename}`` and ``{filename}.sha256``), the most
    specific one wins: the template with the most literal characters.
    """
    matches = [
        (literal, output) for regex, literal, output in _matchers() if regex.fullmatch(concrete)
    ]
    return max(matches, key=lambda match: match[0], default=(0, None))[1]


@functools.cache
def _matchers() -> list[tuple[re.Pattern, int, Output]]:
    """Each output's template as a regex (a wildcard matches one path part) and its
    number of literal characters, in the order of the outputs; compiled once (the
    workflow asks for the record of every table it plans)."""
    return [
        (
            re.compile(re.sub(r"\\{\w+\\}", "[^/]+", re.escape(output.template))),
            len(re.sub(r"{\w+}", "", output.template)),
            output,
        )
        for output in _OUTPUTS
    ]


#: The fields of a provenance record and a sidecar (docs/outputs.md): name, where, what.
PROVENANCE_FIELDS = [
    (
        "`mgbias.version`",
        "both",
        "the mgbias version (installed metadata, else the source tree's `pyproject.toml`)",
    ),
    (
        "`mgbias.git`",
        "both",
        "`commit` and `dirty` (tracked files changed) of the source tree, or null "
        "outside a git checkout",
    ),
    (
        "`python`, `libraries`",
        "both",
        "the Python version; the versions of torch, transformers, numpy, pandas, "
        "scipy, ... that the process had imported (none is imported for the record)",
    ),
    (
        "`installed`",
        "both",
        "the installed versions of the same libraries (package metadata): for a table "
        "whose job imported no torch, the versions the model jobs ran with",
    ),
    (
        "`started`, `finished`",
        "both",
        "when the job or command started and ended, ISO 8601 in UTC (`2026-01-31T12:00:00Z`)",
    ),
    (
        "`output`",
        "sidecar",
        "the output's path and, for a file, its sha256",
    ),
    (
        "`command`, `subcommand`, `arguments`, `config`",
        "sidecar",
        "the command line, every option's value and the `--config` file",
    ),
    (
        "`model`",
        "sidecar",
        "`id`, `revision`, `dtype` (as `config.json` names it), `weights` (file name "
        "to sha256 of `model.safetensors`, `pytorch_model.bin` or their shards) and "
        "`tokenizer` (file name to sha256 of `tokenizer.json`, `vocab.txt`, "
        "`tokenizer_config.json`, ... as found; `tokenizer_path` when read from another "
        "directory); a hub id also `commit`, the cached snapshot (never downloaded for "
        "the record)",
    ),
    (
        "`data`",
        "sidecar (`score`)",
        "the dataset as given (`name`), the file read (`path`) and its `sha256`",
    ),
    (
        "`inputs`",
        "both",
        "per option (sidecar) or named rule input (record), each input file's sha256;"
        " the record leaves out the library code, which `mgbias.git` names",
    ),
    (
        "`bias_type`, `language`, `measures`, `seed`, `tie_rule`, `alpha`, "
        "`batch_size`, `device`, `precision`, `revision`",
        "sidecar",
        "the settings, where the command has them; `device` is the one used (`auto` "
        "resolved); `precision` the `--precision` given (`fp32` by default), without "
        "such an option the weights' stored `dtype`",
    ),
    (
        "`rule`, `wildcards`, `params`",
        "record",
        "the job",
    ),
    (
        "`seed`",
        "record",
        "the seed a seeded job used (also in `params`), derived from the configuration's "
        "`seed` per job: `mgbias score --seed` or `mgbias mbe --seed` with it gives the "
        "job's numbers, standard errors and p-values included",
    ),
    (
        "`settings`",
        "record",
        "the configuration's `seed`, `languages`, `pair_measures`, `pair_tie_rule`, "
        "`pair_alpha`, `scoring` (batch size, device, precision) and `mbe` sections",
    ),
    (
        "`config_sha256`, `config_files`",
        "record",
        "the sha256 of the whole configuration (canonical JSON); the configuration files "
        "of the run (`--configfile`) with their sha256",
    ),
    (
        "`models`",
        "record",
        "per configured model behind the table's inputs: its fingerprint, as `model` "
        "above (a workflow-trained model: `models/<name>`)",
    ),
    (
        "`data`",
        "record",
        "the sha256 of each downloaded pair benchmark and parallel corpus behind the "
        "table's inputs",
    ),
    (
        "`outputs`",
        "record",
        "the sha256 of each file the job wrote (the table and its Markdown copy)",
    ),
]


#: The end of docs/outputs.md: the provenance records' fields and the files' modes.
PROVENANCE_AND_MODES = """
## Provenance

Every table of the workflow has a record, `results/provenance/tables/<rule>.json`,
written by the table's own job (a declared output of its rule: a failed or killed job
leaves no record, a rerun rewrites it); so has every job that draws random numbers from
a seed of its own and writes files (the pair measures, MBE, mining, bios dataset and
split, vector training and alignment jobs: `<first output>.provenance.json`), with the
`seed` it used.
`results/provenance/summary.csv` gathers the tables' records, one row per table, and is
the Provenance page of `make report`. Every output of the `mgbias` command line (every
option of the output types of `mgbias.cli.options`) has a sidecar beside it,
`<output>.provenance.json` (for a directory output such as a fine-tuned model:
`<directory>/provenance.json`). Both are JSON with sorted keys (`mgbias.provenance`):

{fields}

The times are the only fields that differ between two runs of the same configuration;
they live only in these records, never in the tables, and no rule reads a record but
the summary, so they never make Snakemake rerun a job.

## File modes

Every file written through `mgbias.files.atomic` (every table, figure, cache, model and
record) gets the mode `open()` would give it: `0o666` less the umask, and every
directory `0o777` less the umask. Under umask `022` files are `0644` and directories
`0755`, readable by colleagues on a shared file system; under umask `077` they are
`0600` and `0700`.
"""


def _columns(spec: str) -> str:
    if re.fullmatch(r"[\w.]+:[A-Z_]+", spec):
        module, name = spec.split(":")
        return ", ".join(f"`{c}`" for c in getattr(importlib.import_module(module), name))
    return spec


def outputs_markdown() -> str:
    """docs/outputs.md: path, rule, rule file, what it holds and its columns."""
    lines = [
        "# Outputs",
        "",
        "Generated from `src/mgbias/workflow/layout/`",
        "(`python -m mgbias.workflow.layout > docs/outputs.md`); a test keeps it current.",
        "The first directories of a path name the rule file that writes it, and a table's",
        "or figure's file name is the rule's name. Logs are under `logs/<rule>/`.",
        "",
        "| path | rule | rule file | holds | columns |",
        "|---|---|---|---|---|",
    ]
    records_listed = False
    for output in _OUTPUTS:
        if output.template.startswith(f"{PROVENANCE_TABLES}/"):
            if records_listed:
                continue
            records_listed = True  # one row for the records of every table rule
            output = Output(
                output.key,
                f"{PROVENANCE_TABLES}/{{rule}}.json",
                "{rule}",
                "the provenance record of a table, one per rule writing under "
                "`results/tables/` (mgbias.provenance; see the fields below)",
                "JSON",
            )
            cells = [
                f"`{output.template}`",
                "every table's rule",
                "the table's rule file",
                output.holds,
                output.columns,
            ]
            lines.append("| " + " | ".join(cells) + " |")
            continue
        cells = [
            f"`{output.template}`",
            ", ".join(f"`{rule}`" for rule in output.rules),
            f"`rules/{rule_file(output.template)}`",
            output.holds,
            _columns(output.columns).replace("|", "\\|"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    fields = ["| field | in | holds |", "|---|---|---|"]
    fields += [f"| {name} | {where} | {holds} |" for name, where, holds in PROVENANCE_FIELDS]
    return "\n".join(lines) + "\n" + PROVENANCE_AND_MODES.replace("{fields}", "\n".join(fields))


#: What ``make clean-results`` removes besides the layout's folders: the job logs.
CLEAN_EXTRA = ("logs",)


def top_folder(pattern: str) -> str:
    """The folder ``make clean-results`` removes to remove the files of ``pattern``.

    Its first two directories (``results/tables``, ``data/raw``), or only the
    first where the second is a wildcard (``models/{model}`` -> ``models``).
    ``data`` and ``results`` are never removed whole: they hold tracked files
    (``.gitkeep``) and, in ``data/``, one's own corpora.
    """
    parts = PurePosixPath(pattern).parts[:2]
    if "{" in parts[-1]:
        parts = parts[:-1]
    folder = "/".join(parts)
    if folder in ("data", "results"):
        raise ValueError(
            f"{pattern!r}: a wildcard right below {folder}/ (see mgbias.workflow.layout)"
        )
    return folder


def clean_targets() -> list[str]:
    """What ``make clean-results`` removes: every output's :func:`top_folder`, and logs.

    Sorted, each once, none inside another (``models`` covers ``models/vectors``).
    """
    folders = sorted({top_folder(output.template) for output in _OUTPUTS} | set(CLEAN_EXTRA))
    return [
        folder
        for folder in folders
        if not any(folder.startswith(other + "/") for other in folders if other != folder)
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m mgbias.workflow.layout``: docs/outputs.md, or ``--clean-targets``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mgbias.workflow.layout",
        description="Print docs/outputs.md, generated from the layout.",
    )
    parser.add_argument(
        "--clean-targets",
        action="store_true",
        help="print instead the folders make clean-results removes, one per line",
    )
    args = parser.parse_args(argv)
    if args.clean_targets:
        print("\n".join(clean_targets()))
    else:
        print(outputs_markdown(), end="")
    return 0
