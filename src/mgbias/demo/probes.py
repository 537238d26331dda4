"""The demo's lists and probe corpora for the contextual probes (Basta et al. 2020).

In the demo, the professions are the lexicon's 16 occupations and their "original bias"
is the planted association, known exactly: +1 for the stereotypically male half, -1 for
the female half (in Spanish, both forms of an occupation carry its bias). Definitional
and equivalent pairs are the shipped lists of the language (he/she, his/her, man/woman,
...), which the demo grammar uses.

:func:`probe_sentences` draws the sentences the probes read from a world with the
occupation-subject knobs on: gender-free occupation sentences ("the doctor reads a book
."), whose occupation token carries gender only if the encoder learnt the association,
and pronoun-subject sentences for the swap of Exp. 1 ("he is tall .").
"""

from __future__ import annotations

import dataclasses

import numpy as np

from mgbias.contextual.lists import ProbeLists, load_probe_lists
from mgbias.demo.lexicon import (
    CATEGORY_NEUTRAL,
    OCCUPATIONS,
    SUBJECT_OCCUPATION,
    SUBJECT_PRONOUN,
    render,
)
from mgbias.demo.world import TEMPLATE_MIXES, WorldSpec, sample_meanings
from mgbias.wordlists.genders import MALE

__all__ = ["demo_probe_lists", "demo_profession_bias", "probe_sentences"]


def demo_profession_bias(lang: str) -> dict[str, float]:
    """Every form of the demo occupations in ``lang``: +1 male-, -1 female-stereotyped."""
    bias: dict[str, float] = {}
    for occupation in OCCUPATIONS:
        sign = 1.0 if occupation.stereotype == MALE else -1.0
        forms = (occupation.en,) if lang == "en" else getattr(occupation, lang)
        for form in forms:
            bias[form] = sign
    return bias


def demo_probe_lists(lang: str) -> ProbeLists:
    """The shipped lists of ``lang`` with the demo occupations as the professions.

    Profession pairs (German, Spanish, French) are the occupations' (female, male) forms;
    a pair of one form (piloto/piloto, médecin/médecin) swaps its determiners only.
    """
    lists = load_probe_lists(lang)
    pairs: tuple[tuple[str, str], ...] = ()
    if lang != "en":
        pairs = tuple((getattr(o, lang)[1], getattr(o, lang)[0]) for o in OCCUPATIONS)
    return dataclasses.replace(
        lists, professions=demo_profession_bias(lang), profession_pairs=pairs
    )


def probe_sentences(
    spec: WorldSpec,
    lang: str,
    *,
    n_gender_free: int,
    n_pronoun: int,
    seed: int,
    source: str = "news-crawl",
) -> list[str]:
    """Fresh sentences of ``spec`` for the probes: gender-free occupation sentences, then
    pronoun-subject sentences (seeded, independent of the world's files).

    Raises
    ------
    ValueError
        If the world has no gender-free occupation sentences (the knob is off).
    """
    if spec.gender_free_occupation_share <= 0:
        raise ValueError(
            "probe_sentences needs gender_free_occupation_share > 0 (the occupation tokens "
            "must occur without a gender word)"
        )
    rng = np.random.default_rng([seed, 14])
    free: list[str] = []
    pronoun: list[str] = []
    while len(free) < n_gender_free or len(pronoun) < n_pronoun:
        for meaning in sample_meanings(spec, TEMPLATE_MIXES[source], 2000, rng):
            if meaning.subject_kind == SUBJECT_OCCUPATION:
                if meaning.category == CATEGORY_NEUTRAL and len(free) < n_gender_free:
                    free.append(render(meaning, lang))
            elif meaning.subject_kind == SUBJECT_PRONOUN and len(pronoun) < n_pronoun:
                pronoun.append(render(meaning, lang))
    return free + pronoun
