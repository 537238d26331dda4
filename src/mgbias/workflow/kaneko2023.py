"""Planning of the bias-controlled fine-tuning of Kaneko et al. (2023) (``kaneko2023:``):
the controlled text, the fine-tunings' inputs and settings, and the meta-evaluation's
inputs and targets.

Plain functions of the validated configuration, on top of the grid and runs of
:mod:`mgbias.workflow.core` (:func:`~mgbias.workflow.core.kaneko2023_grid`,
:func:`~mgbias.workflow.core.kaneko2023_runs`,
:func:`~mgbias.workflow.core.kaneko2023_mbe_jobs`); wildcards are passed as strings.
The rules call them (``rules/mine.smk``, ``rules/models.smk``, ``rules/kaneko2023.smk``,
``rules/download.smk``): through a lambda where they take the wildcards, or an adapter of
``rules/common.smk`` that several rule files use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mgbias.finetune import TRAINER_SEED
from mgbias.workflow import layout
from mgbias.workflow.core import (
    ORIGINAL,
    canonical,
    finetuned_models,
    kaneko2023_grid,
    kaneko2023_mbe_jobs,
    kaneko2023_runs,
    model_dir,
    model_is_trained,
    per_model_outputs,
)
from mgbias.workflow.schema import filled_section

#: The meta-evaluation's table and figures (Table 1, the mined counts, Figures 2-3).
TARGETS = ["kaneko2023_table1", "kaneko2023_mined", "kaneko2023_figure2", "kaneko2023_figure3"]


def configured(config: Mapping[str, Any]) -> bool:
    """Whether the configuration has a ``kaneko2023`` section."""
    return bool(config.get("kaneko2023"))


def section(config: Mapping[str, Any]) -> dict[str, Any]:
    """The ``kaneko2023`` section over the schema's defaults of its keys (only the defaults
    without one), so that a rule's settings read the same keys either way."""
    return filled_section(config, "kaneko2023")


def sources(config: Mapping[str, Any]) -> list[str]:
    """The source corpora of the controlled text (none without the section)."""
    return list(config["kaneko2023"]["sources"]) if configured(config) else []


def controlled_url(config: Mapping[str, Any], source: str, lang: str) -> str:
    """The URL of a source corpus's text in ``lang``."""
    return section(config)["sources"][source]["url"].format(lang=lang)


def wordlists(config: Mapping[str, Any], lang: str) -> dict[str, list[str]]:
    """The gendered word lists (female, male) of ``lang``."""
    return section(config)["wordlists"][lang]


def orienting_wordlists(config: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    """Per language, the word lists that find the male side of a pair for the oriented
    pair measures: its ``orientation`` entry, else its ``wordlists`` (none without the
    section)."""
    if not configured(config):
        return {}
    kaneko = section(config)
    return {**kaneko["wordlists"], **kaneko["orientation"]}


def finetuning(config: Mapping[str, Any], model: str) -> dict[str, Any]:
    """The ``finetune`` entry of a bias-controlled model (base, source, lang, rate,
    repeat)."""
    return config["models"][model]["finetune"]


def repeat_settings(config: Mapping[str, Any], repeat: int) -> dict[str, Any]:
    """``kaneko2023.finetune`` for the fine-tunings of one repeat.

    Repeat ``k > 0`` trains with seed ``seed + k``, so repeats differ in their training
    randomness (masking, order, new weights) as well as in their D_r sample; repeat 0
    keeps the configured settings unchanged.
    """
    settings = dict(section(config)["finetune"])
    if repeat:
        settings["seed"] = (settings["seed"] if "seed" in settings else TRAINER_SEED) + repeat
    return settings


def finetune_settings(config: Mapping[str, Any], model: str) -> dict[str, Any]:
    """``kaneko2023.finetune`` for one fine-tuning (seed + repeat), canonical."""
    return canonical(repeat_settings(config, finetuning(config, model)["repeat"]))


def controlled_text(key: str, job: Mapping[str, Any]) -> str:
    """The controlled text ``key`` (a layout key) of a job's source and language."""
    return layout.path(key, source=job["source"], lang=job["lang"])


def finetune_inputs(config: Mapping[str, Any], model: str) -> dict[str, Any]:
    """D_r, the development sets, and the base model's directory when the workflow
    trains it."""
    job = finetuning(config, model)
    inputs: dict[str, Any] = {
        "text": layout.path(
            "controlled_mixture",
            source=job["source"],
            lang=job["lang"],
            rate=job["rate"],
            repeat=job["repeat"],
        ),
        "dev": [
            controlled_text("controlled_dev_female", job),
            controlled_text("controlled_dev_male", job),
        ],
    }
    if model_is_trained(config["models"][job["base"]]):
        inputs["base"] = model_dir(job["base"])
    return inputs


def base_models(config: Mapping[str, Any]) -> list[str]:
    """The base models of the fine-tunings (none without the section)."""
    return list(config["kaneko2023"]["base_models"]) if configured(config) else []


def _grid_jobs(
    grid: list[dict[str, Any]], base: str, source: str, lang: str
) -> list[dict[str, Any]]:
    """The fine-tunings of one grid (a base model, source and language) among ``grid``
    (:func:`kaneko2023_grid`), in grid order."""
    return [
        job for job in grid if (job["base"], job["source"], job["lang"]) == (base, source, lang)
    ]


def grid_tags(config: Mapping[str, Any]) -> list[str]:
    """The ``{rate}-s{repeat}`` ends of the fine-tuned models' names of one grid (a base
    model, source and language), in grid order: the same in every grid."""
    grid = kaneko2023_grid(config)
    if not grid:
        return []
    first = grid[0]
    jobs = _grid_jobs(grid, first["base"], first["source"], first["lang"])
    return [f"{job['rate']}-s{job['repeat']}" for job in jobs]


def grid_models(config: Mapping[str, Any], base: str, source: str, lang: str) -> list[str]:
    """The fine-tuned models of one grid, in grid order (that of :func:`grid_outputs`)."""
    return [job["model"] for job in _grid_jobs(kaneko2023_grid(config), base, source, lang)]


def grid_model_dirs(config: Mapping[str, Any], base: str, source: str, lang: str) -> list[str]:
    """The directories of one grid's fine-tuned models (rule ``finetune_mlm``, or
    ``kaneko2023_finetune_grid`` with ``finetune_per_grid``)."""
    return [model_dir(model) for model in grid_models(config, base, source, lang)]


def finetune_per_grid(config: Mapping[str, Any]) -> bool:
    """Whether each grid is fine-tuned in one job (``kaneko2023.finetune_per_grid``)."""
    return configured(config) and bool(section(config)["finetune_per_grid"])


def per_model_finetunings(config: Mapping[str, Any]) -> list[str]:
    """The fine-tuned models that rule ``finetune_mlm`` trains, one job each: every one,
    or with ``finetune_per_grid`` those outside the grids (none the workflow plans)."""
    grids = {job["model"] for job in kaneko2023_grid(config)} if finetune_per_grid(config) else ()
    return [model for model in finetuned_models(config) if model not in grids]


def grid_finetune_bases(config: Mapping[str, Any]) -> list[str]:
    """The base models whose grids rule ``kaneko2023_finetune_grid`` fine-tunes (none
    without ``finetune_per_grid``)."""
    return base_models(config) if finetune_per_grid(config) else []


def grid_finetune_inputs(
    config: Mapping[str, Any], base: str, source: str, lang: str
) -> dict[str, Any]:
    """:func:`finetune_inputs` of one grid's models: ``text`` a D_r per model (in grid
    order), the development sets and the base model's directory once."""
    each = [finetune_inputs(config, model) for model in grid_models(config, base, source, lang)]
    return {**each[0], "text": [entry["text"] for entry in each]}


def grid_finetune_settings(
    config: Mapping[str, Any], base: str, source: str, lang: str
) -> list[dict[str, Any]]:
    """:func:`finetune_settings` of each of one grid's models, in grid order."""
    return [finetune_settings(config, model) for model in grid_models(config, base, source, lang)]


def grid_outputs(config: Mapping[str, Any], key: str) -> list[str]:
    """The per-model output ``key`` (a layout key with a ``{model}`` wildcard) of every
    model of one grid, as templates with the wildcards ``base``, ``source`` and ``lang``
    (and the key's others), in grid order.

    A grid's fine-tuned models are scored and probed in one job each (rules
    ``kaneko2023_score_pairs`` and ``kaneko2023_probe_grid``): a job of a small model
    spends most of its time importing torch and transformers, so one job per grid
    instead of per model saves that cost for all but one of the grid's models.
    """
    return per_model_outputs(key, ["{base}-{source}-{lang}-" + tag for tag in grid_tags(config)])


def run_inputs(config: Mapping[str, Any], key: str) -> list[str]:
    """The files ``key`` (a per-run output) of every run of the meta-evaluation, in run
    order; ``pairs_per_pair``: of ``kaneko2023.pair_dataset``."""
    paths = []
    for run in kaneko2023_runs(config):
        if key == "pairs_per_pair":
            paths.append(
                layout.path(
                    key,
                    model=run["scored"],
                    dataset=section(config)["pair_dataset"],
                    variant=ORIGINAL,
                    lang=run["language"],
                )
            )
        else:
            paths.append(layout.path(key, model=run["scored"], lang=run["language"]))
    return paths


def mbe_results(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """Per run of the meta-evaluation, the MBE results it reads (none without
    ``kaneko2023.mbe``)."""
    return {
        run["run"]: [layout.path("mbe_result", **job) for job in kaneko2023_mbe_jobs(config, run)]
        for run in kaneko2023_runs(config)
    }


def targets(config: Mapping[str, Any]) -> list[str]:
    """Table 1, the mined-counts table and Figures 2 and 3, when configured."""
    if not configured(config):
        return []
    return [layout.path(key) for key in TARGETS]
