"""Every template probe of one model for Kaneko, Bollegala & Okazaki (2023).

One call, :func:`probe_model`, gives what the paper reads from a model besides
the pair measures: TBS over the targets (Table 1), the probabilities of the
gender words over the neutral targets (Figure 2) and the top predictions for
the masked subject of a CrowS-Pairs sentence (Figure 3). The workflow script
``scripts/kaneko2023_probe.py`` and ``mgbias tbs`` both call it and write its
result with :func:`write_probe`, so they give the same numbers.

Files written (:func:`write_probe`):

- targets CSV: :data:`mgbias.mlm.templates.TBS_COLUMNS`, one row per target;
- summary JSON: :func:`mgbias.mlm.templates.tbs_summary` plus ``model``,
  ``targets`` (the list's name), ``sentence``, ``k``;
- top CSV: :data:`mgbias.mlm.top_predictions.TOP_COLUMNS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mgbias.files.atomic import write_json
from mgbias.finetune.probe_targets import template_targets
from mgbias.mlm.templates import tbs_summary, tbs_table, template_logprobs, template_spec
from mgbias.mlm.top_predictions import top_predictions
from mgbias.wordlists import kaneko2023_lists, load_gender_words

__all__ = ["ProbeResult", "gender_lists", "probe_model", "write_probe"]


@dataclass(frozen=True)
class ProbeResult:
    """Outcome of :func:`probe_model`: per-target table, summary and top predictions."""

    targets: pd.DataFrame
    summary: dict[str, Any]
    top: pd.DataFrame


def gender_lists(
    female: Sequence[str] | str | None, male: Sequence[str] | str | None, spec
) -> tuple[frozenset[str], frozenset[str]]:
    """Word lists that class the top predictions: by default the language's shipped lists
    of Kaneko et al. (2023) (:func:`mgbias.wordlists.kaneko2023_lists`, as the workflow's
    ``kaneko2023.wordlists``) with the template's two gender words, or those two words
    alone where none is shipped (with he and she alone, "man" and "king" read as neither)."""
    if female is None and male is None:
        shipped = kaneko2023_lists(spec.lang)
        if shipped is None:
            return frozenset({spec.female}), frozenset({spec.male})
        female_words, male_words = load_gender_words(*shipped)
        return female_words | {spec.female}, male_words | {spec.male}
    if female is None or male is None:
        raise ValueError("give both the female and the male word lists, or neither")
    return load_gender_words(female, male)


def probe_model(
    model,
    tokenizer,
    lang: str,
    *,
    targets: str | Path = "bolukbasi2016",
    templates: str | Path | None = None,
    sentence: str | None = None,
    female: Sequence[str] | str | None = None,
    male: Sequence[str] | str | None = None,
    k: int = 5,
    batch_size: int = 64,
    max_length: int | None = None,
    model_name: str | None = None,
    precision: str = "fp32",
) -> ProbeResult:
    """TBS, Figure 2's probabilities and Figure 3's top predictions of one model.

    Parameters
    ----------
    model, tokenizer
        From :func:`mgbias.mlm.load.load_mlm`.
    lang : str
        Language of the template (:func:`mgbias.mlm.templates.template_spec`).
    targets : str or Path
        A target list (:func:`mgbias.finetune.probe_targets.template_targets`).
    templates : str or Path, optional
        A templates file instead of the shipped one.
    sentence : str, optional
        Figure 3's sentence with one ``[MASK]``; default the template file's.
    female, male : word list names or paths, optional
        Lists that class the top predictions (default: the two gender words).
    k : int
        Top predictions kept.
    batch_size, max_length, precision
        Of the scoring engine (:func:`mgbias.mlm.masked.masked_logprobs_of`).
    model_name : str, optional
        Written into the summary.
    """
    spec = template_spec(lang, templates, figure3_sentence=sentence)
    target_list = template_targets(targets, lang)
    # Figure 3's top predictions first: a sentence the model cannot read stops the run
    # before the targets are scored
    female_words, male_words = gender_lists(female, male, spec)
    if not spec.figure3_sentence:
        raise ValueError(f"no Figure 3 sentence for language {lang!r}; pass one")
    top = top_predictions(
        model, tokenizer, spec.figure3_sentence, male_words, female_words, k=k,
        max_length=max_length, precision=precision,
    )  # fmt: skip
    logprobs = template_logprobs(
        model,
        tokenizer,
        spec,
        target_list["target"].tolist(),
        batch_size=batch_size,
        max_length=max_length,
        precision=precision,
    )
    table = tbs_table(logprobs, neutral=target_list["neutral"].to_numpy())
    summary = tbs_summary(table, spec)
    summary.update(
        {
            "model": model_name,
            "targets": str(targets),
            "sentence": spec.figure3_sentence,
            "k": k,
            "top_words": top["word"].tolist(),
        }
    )
    return ProbeResult(targets=table, summary=summary, top=top)


def write_probe(
    result: ProbeResult,
    *,
    targets_path: str | Path | None = None,
    summary_path: str | Path | None = None,
    top_path: str | Path | None = None,
) -> None:
    """Write the parts of ``result`` whose path is given, atomically."""
    from mgbias.files.tabular import write_csv

    if targets_path is not None:
        write_csv(result.targets, targets_path)
    if summary_path is not None:
        write_json(summary_path, result.summary)
    if top_path is not None:
        write_csv(result.top, top_path)
