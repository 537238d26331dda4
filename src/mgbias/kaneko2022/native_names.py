"""Native first names in place of transliterated English ones (Kaneko et al. 2022, §6).

Table 6 of the paper asks whether transliterated English names (シェリー, Майкл), rare
in the target language, distort the human translations' bias score: every such name is
replaced at random by one of the 10 most popular native names of the same gender
("シェリーはナースです" → "美咲はナースです"), Eq. 3 is computed again, and
Diff = HT_name − HT.

Here one pair is rewritten at a time, seeded by (seed, pair index), so a pair's names
do not depend on the other pairs. Within a pair, each distinct foreign name gets one
native name of its gender, the same in both sentences; two foreign names of one gender
get two different native names, and a native name the pair already holds is not drawn
while others remain. In an inflecting language (Russian) a name is
listed in every case, and the native name takes the case of the form it replaces
(Бобу → Кириллу). Nothing else in a sentence changes: the paper replaced names only,
and so does this (grammatical agreement elsewhere in the sentence stays as translated).

The shipped names are in ``mgbias/resources/native_names.yaml`` (sources there).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

import numpy as np

from mgbias.files.yaml_lines import loads_yaml
from mgbias.wordlists.genders import FEMALE, MALE

GENDERS = (MALE, FEMALE)
#: A match may not touch these: letters and digits (``word``), katakana (``katakana``).
BOUNDARIES = {
    "word": (r"(?<![^\W_])", r"(?![^\W_])"),
    "katakana": ("(?<![\u30a0-\u30ff])", "(?![\u30a0-\u30ff])"),
}


@dataclass(frozen=True)
class ForeignName:
    """A surface form of a transliterated name: its gender, name (id) and case index."""

    gender: str
    name: str
    case: int


@dataclass(frozen=True)
class NameTable:
    """What to replace in one language, and with what.

    ``native[gender]`` holds the native names, each as its forms per case (one form when
    the language's names do not inflect); ``foreign`` maps each surface form of a foreign
    name (lowercase when ``ignore_case``) to its gender, name and case.
    """

    lang: str
    cases: tuple[str, ...]
    native: Mapping[str, tuple[tuple[str, ...], ...]]
    foreign: Mapping[str, ForeignName]
    ignore_case: bool
    boundary: str

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """A regex matching every foreign form as a whole name (longest form first)."""
        before, after = BOUNDARIES[self.boundary]
        forms = sorted(self.foreign, key=lambda form: (-len(form), form))
        body = "|".join(re.escape(form) for form in forms)
        flags = re.IGNORECASE if self.ignore_case else 0
        return re.compile(f"{before}(?:{body}){after}", flags)

    def occurs(self, forms: Sequence[str], sentences: Sequence[str]) -> bool:
        """Whether any of a name's forms occurs as a whole name in the sentences."""
        before, after = BOUNDARIES[self.boundary]
        body = "|".join(re.escape(form) for form in sorted(set(forms), key=len, reverse=True))
        found = re.compile(f"{before}(?:{body}){after}", re.IGNORECASE if self.ignore_case else 0)
        return any(found.search(sentence) for sentence in sentences)

    def lookup(self, token: str) -> ForeignName:
        """The foreign name of a matched token."""
        return self.foreign[token.lower() if self.ignore_case else token]


@cache
def shipped_name_specs() -> dict[str, dict[str, Any]]:
    """The shipped per-language specs of ``native_names.yaml``."""
    text = resources.files("mgbias.resources").joinpath("native_names.yaml").read_text("utf-8")
    return loads_yaml(text, "mgbias/resources/native_names.yaml")


def _forms(entry: Any, n_cases: int, where: str) -> tuple[tuple[str, ...], ...]:
    """The forms of one name per case: a string is the same form in every case; a list
    has one entry per case, each a form or a list of forms (the first is the name's own)."""
    if isinstance(entry, str) and entry:
        return tuple((entry,) for _ in range(n_cases))
    if not isinstance(entry, list) or len(entry) != n_cases:
        raise ValueError(f"{where}: {entry!r} must be a name or a list of {n_cases} case forms")
    forms = []
    for form in entry:
        alternatives = form if isinstance(form, list) else [form]
        if not alternatives or not all(isinstance(f, str) and f for f in alternatives):
            raise ValueError(f"{where}: {entry!r} has an empty or non-string form")
        forms.append(tuple(alternatives))
    return tuple(forms)


def name_table(lang: str, spec: Mapping[str, Any]) -> NameTable:
    """Validate a language's spec and build its :class:`NameTable`.

    Raises
    ------
    ValueError
        Naming the language and key: a gender without native or foreign names, a name
        with the wrong number of case forms, an unknown boundary, or a foreign form listed
        for two names.
    """
    from mgbias.wordlists import load_wordlist

    where = f"native names of {lang!r}"
    cases = tuple(spec.get("cases") or ["form"])
    ignore_case = bool(spec.get("ignore_case", False))
    boundary = spec.get("boundary", "word")
    if boundary not in BOUNDARIES:
        raise ValueError(f"{where}: boundary {boundary!r}; expected one of {sorted(BOUNDARIES)}")
    native: dict[str, tuple[tuple[str, ...], ...]] = {}
    foreign: dict[str, ForeignName] = {}
    foreign_spec = spec.get("foreign") or {}
    wordlists = foreign_spec.get("wordlists") or {}
    for gender in GENDERS:
        names = (spec.get("native") or {}).get(gender)
        if not names:
            raise ValueError(f"{where}: native.{gender} is missing or empty")
        native[gender] = tuple(
            tuple(forms[0] for forms in _forms(name, len(cases), f"{where}: native.{gender}"))
            for name in names
        )
        entries = list(foreign_spec.get(gender) or [])
        if gender in wordlists:
            entries += sorted(load_wordlist(wordlists[gender]))
        if not entries:
            raise ValueError(f"{where}: foreign.{gender} is missing or empty")
        for entry in entries:
            forms = _forms(entry, len(cases), f"{where}: foreign.{gender}")
            name = forms[0][0]
            for case, alternatives in enumerate(forms):
                for form in alternatives:
                    key = form.lower() if ignore_case else form
                    known = foreign.get(key)
                    if known is not None and (known.gender, known.name) != (gender, name):
                        raise ValueError(
                            f"{where}: the form {form!r} is listed for {known.name!r} "
                            f"({known.gender}) and {name!r} ({gender})"
                        )
                    if known is None:
                        foreign[key] = ForeignName(gender, name, case)
    return NameTable(lang, cases, native, foreign, ignore_case, boundary)


def shipped_name_table(lang: str) -> NameTable:
    """The shipped :class:`NameTable` of ``lang``.

    Raises
    ------
    ValueError
        If ``native_names.yaml`` has no entry for the language.
    """
    specs = shipped_name_specs()
    if lang not in specs:
        raise ValueError(
            f"no native names for {lang!r} in mgbias/resources/native_names.yaml; "
            f"languages with names: {sorted(specs)}"
        )
    return name_table(lang, specs[lang])


def _styled(form: str, token: str, ignore_case: bool) -> str:
    """``form`` in the letter case of the replaced ``token`` (when matching ignores case)."""
    if ignore_case and token.islower():
        return form.lower()
    if ignore_case and token.isupper() and len(token) > 1:
        return form.upper()
    return form


def replace_pair_names(
    pair: Sequence[str], table: NameTable, rng: np.random.Generator
) -> tuple[tuple[str, ...], int]:
    """Replace the foreign names of one pair's sentences with native ones.

    Each distinct foreign name of the pair (in order of first appearance) draws a native
    name of its gender; names of one gender draw without replacement while the native
    list lasts, leaving out native names the pair already holds while enough remain.
    Returns the rewritten sentences and the number of tokens replaced.
    """
    matches = [list(table.pattern.finditer(sentence)) for sentence in pair]
    order: list[ForeignName] = []
    for sentence_matches in matches:
        for match in sentence_matches:
            name = table.lookup(match.group(0))
            if all(seen.name != name.name or seen.gender != name.gender for seen in order):
                order.append(name)
    chosen: dict[tuple[str, str], tuple[str, ...]] = {}
    for gender in GENDERS:
        names = [name for name in order if name.gender == gender]
        if not names:
            continue
        natives = table.native[gender]
        # a native name already in the pair is drawn only if the others do not suffice
        free = [i for i, forms in enumerate(natives) if not table.occurs(forms, pair)]
        pool = free if len(free) >= len(names) else list(range(len(natives)))
        draws = rng.permutation(len(pool))
        for index, name in enumerate(names):
            chosen[(gender, name.name)] = natives[pool[int(draws[index % len(pool)])]]
    rewritten = []
    for sentence, sentence_matches in zip(pair, matches, strict=True):
        parts, last = [], 0
        for match in sentence_matches:
            name = table.lookup(match.group(0))
            form = chosen[(name.gender, name.name)][name.case]
            parts += [
                sentence[last : match.start()],
                _styled(form, match.group(0), table.ignore_case),
            ]
            last = match.end()
        rewritten.append("".join(parts) + sentence[last:])
    return tuple(rewritten), sum(len(found) for found in matches)


def replace_names(
    pairs: Iterable[Sequence[str]], table: NameTable, seed: int
) -> tuple[list[tuple[str, ...]], int, int]:
    """Replace the foreign names of every pair (pair ``i`` seeded by ``(seed, i)``).

    Returns the rewritten pairs, the number of pairs changed and of tokens replaced.
    """
    out, changed, tokens = [], 0, 0
    for index, pair in enumerate(pairs):
        rng = np.random.default_rng([seed, index])
        rewritten, n = replace_pair_names(pair, table, rng)
        out.append(rewritten)
        changed += n > 0
        tokens += n
    return out, changed, tokens


def write_named_pairs(frame: Any, pairs: Sequence[Sequence[str]], path: str) -> None:
    """Write rewritten pairs as a CrowS-Pairs CSV (atomically), in ``frame``'s order, with
    its ``stereo_antistereo`` and ``bias_type``, and its ``target`` where it has one (what
    the pairs are clustered by; ``frame``: a pair table of
    :func:`mgbias.pairs.data.load_pairs`)."""
    from mgbias.datasets.crowspairs import write_crowspairs

    if len(frame) != len(pairs):
        raise ValueError(f"{path}: {len(pairs)} rewritten pairs for {len(frame)} pairs")
    write_crowspairs(
        (
            (more, less, direction, bias_type)
            for (more, less), direction, bias_type in zip(
                pairs, frame["stereo_antistereo"], frame["bias_type"], strict=True
            )
        ),
        path,
        {"target": list(frame["target"])} if "target" in frame else None,
    )
