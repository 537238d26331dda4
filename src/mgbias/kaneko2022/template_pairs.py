"""Template sentence pairs ("Tmp") of Kaneko et al. (2022), §5.2, Tables 4 and 5.

Templates such as "[Gender]は[Occupation]です。" are filled with each gender pair
(彼/彼女, 男/女, ...) and each occupation, giving pairs of sentences that differ only in
the gender slot. The pairs are written in the CrowS-Pairs CSV layout (``sent_more`` =
the male sentence, S_s of Eq. 3; ``sent_less`` = the female one; ``stereo_antistereo``
= ``stereo``; ``bias_type`` = ``gender``), so every pair measure scores them; Eq. 3 on
them is then the share of pairs in which the model prefers the male sentence. The
shipped templates, pairs and occupations are in
``mgbias/resources/kaneko2022_templates.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from mgbias.datasets.crowspairs import write_crowspairs
from mgbias.files.yaml_lines import loads_yaml

GENDER_SLOT = "[Gender]"
OCCUPATION_SLOT = "[Occupation]"


@cache
def shipped_templates() -> dict[str, dict[str, Any]]:
    """The paper's templates and gender pairs, and substitute occupation lists, per language."""
    text = (
        resources.files("mgbias.resources")
        .joinpath("kaneko2022_templates.yaml")
        .read_text(encoding="utf-8")
    )
    return loads_yaml(text, "mgbias/resources/kaneko2022_templates.yaml")


def check_spec(lang: str, spec: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the key unless ``spec`` has templates with both slots once,
    two-word gender pairs and occupations, all non-empty strings."""
    for key in ("templates", "pairs", "occupations"):
        if not spec.get(key):
            raise ValueError(f"templates of {lang!r}: key {key!r} is missing or empty")
    for template in spec["templates"]:
        if template.count(GENDER_SLOT) != 1 or template.count(OCCUPATION_SLOT) != 1:
            raise ValueError(
                f"templates of {lang!r}: {template!r} must hold {GENDER_SLOT} and "
                f"{OCCUPATION_SLOT} once each"
            )
    for pair in spec["pairs"]:
        if len(pair) != 2 or not all(isinstance(word, str) and word for word in pair):
            raise ValueError(f"templates of {lang!r}: gender pair {pair!r} must be [male, female]")
    if not all(isinstance(word, str) and word for word in spec["occupations"]):
        raise ValueError(f"templates of {lang!r}: occupations must be non-empty strings")


def template_pairs(spec: Mapping[str, Any], lang: str = "") -> list[tuple[str, str]]:
    """(male sentence, female sentence) for every template x gender pair x occupation,
    in that nesting order."""
    check_spec(lang, spec)
    pairs = []
    for template in spec["templates"]:
        for male, female in spec["pairs"]:
            for occupation in spec["occupations"]:
                filled = template.replace(OCCUPATION_SLOT, occupation)
                pairs.append(
                    (filled.replace(GENDER_SLOT, male), filled.replace(GENDER_SLOT, female))
                )
    return pairs


def template_labels(spec: Mapping[str, Any], lang: str = "") -> dict[str, list[str]]:
    """What each pair of :func:`template_pairs` shares with others, in the same order:
    ``target``, its occupation, and ``gender_pair``, its gender words ("彼/彼女"). The
    gender words are what the pairs' preferences hang on (a model's own taste for one
    word decides every pair holding it), so ``cluster: gender_pair`` tests with them
    as the units; with the paper's five pairs no test can then reach p < 0.0625."""
    check_spec(lang, spec)
    cells = [
        (occupation, f"{male}/{female}")
        for _template in spec["templates"]
        for male, female in spec["pairs"]
        for occupation in spec["occupations"]
    ]
    return {
        "target": [occupation for occupation, _ in cells],
        "gender_pair": [words for _, words in cells],
    }


def write_template_pairs(
    pairs: Sequence[tuple[str, str]],
    path: str | Path,
    labels: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Write the ``(male, female)`` pairs as a CrowS-Pairs CSV (atomically), each pair
    ``stereo`` and ``gender``; ``labels`` (:func:`template_labels`) are added as columns,
    to cluster the pairs by."""
    write_crowspairs(((male, female, "stereo", "gender") for male, female in pairs), path, labels)
