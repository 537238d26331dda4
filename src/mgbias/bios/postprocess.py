"""Post-processing of extracted bios (Zhao et al. 2020, §4.1; the authors' preprocessing).

- :func:`drop_excluded`: the authors' five excluded titles;
- :func:`dedup_exact`: the first bio of each exact raw line;
- :func:`dedup_name_title`: one bio per (name, title), the longest raw line (ties: the
  smaller raw, then the smaller path);
- :func:`dedup_middle`: drop a bio whose middle name is a proper prefix of another
  middle name with the same (title, first, last) -- "John Smith" beside "John Q. Smith";
- :func:`scrub`: the gendered words of the language and every name token replaced by
  ``_`` (first letter in either case, whole words);
- :func:`cap_occupations`: the optional per-occupation cap (the paper's A.3 "similar
  distribution of each occupation"; off by default, as in the authors' code), seeded.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from mgbias.bios.rules import EXCLUDED_TITLES
from mgbias.seeds import check_seed, derive_seed


@dataclass(frozen=True)
class Bio:
    """A candidate that passed the name check."""

    raw: str
    name: tuple[str, ...]
    raw_title: str
    title: str
    gender: str
    start_pos: int
    uri: str
    path: str

    @property
    def first(self) -> str:
        return self.name[0]

    @property
    def middle(self) -> str:
        return " ".join(self.name[1:-1])

    @property
    def last(self) -> str:
        return self.name[-1]


def drop_excluded(bios: Iterable[Bio], excluded: Iterable[str] = EXCLUDED_TITLES) -> list[Bio]:
    """The bios whose title is not in ``excluded``."""
    excluded = frozenset(excluded)
    return [bio for bio in bios if bio.title not in excluded]


def dedup_exact(bios: Iterable[Bio]) -> list[Bio]:
    """The first bio of each distinct ``raw``, in input order."""
    seen: set[str] = set()
    kept = []
    for bio in bios:
        if bio.raw not in seen:
            seen.add(bio.raw)
            kept.append(bio)
    return kept


def dedup_name_title(bios: Iterable[Bio]) -> list[Bio]:
    """One bio per (name, title): the longest raw; ties by raw, then path. Input order kept."""
    best: dict[tuple, Bio] = {}
    order: list[tuple] = []
    for bio in bios:
        key = (bio.name, bio.title)
        if key not in best:
            order.append(key)
            best[key] = bio
            continue
        current = best[key]
        if (-len(bio.raw), bio.raw, bio.path) < (-len(current.raw), current.raw, current.path):
            best[key] = bio
    return [best[key] for key in order]


def dedup_middle(bios: Iterable[Bio]) -> list[Bio]:
    """Drop bios whose middle name properly prefixes another of the same (title, first, last)."""
    bios = list(bios)
    middles: dict[tuple, set[str]] = defaultdict(set)
    for bio in bios:
        middles[(bio.title, bio.first, bio.last)].add(bio.middle)
    return [
        bio
        for bio in bios
        if not any(
            other != bio.middle and other.startswith(bio.middle)
            for other in middles[(bio.title, bio.first, bio.last)]
        )
    ]


def _either_case(word: str) -> str:
    head, rest = word[0], word[1:]
    first = (
        f"[{re.escape(head.lower())}{re.escape(head.upper())}]"
        if head.isalpha()
        else re.escape(head)
    )
    return first + re.escape(rest)


def scrub(text: str, gendered_words: Iterable[str], name: Iterable[str]) -> str:
    """``text`` with each gendered word and name token replaced by ``_`` (whole words)."""
    words = {w for w in gendered_words if w} | {t for t in name if t}
    if not words:
        return text
    alternation = "|".join(_either_case(w) for w in sorted(words, key=len, reverse=True))
    return re.sub(rf"(?<!\w)(?:{alternation})(?!\w)", "_", text)


def cap_occupations(bios: Iterable[Bio], cap: int | None, seed: int) -> list[Bio]:
    """At most ``cap`` bios per title (a seeded sample; input order kept); None: all."""
    bios = list(bios)
    if cap is None:
        return bios
    check_seed(seed)
    if cap < 0:
        raise ValueError(f"cap must be >= 0 or None, got {cap}")
    by_title: dict[str, list[int]] = defaultdict(list)
    for index, bio in enumerate(bios):
        by_title[bio.title].append(index)
    keep: set[int] = set()
    for title in sorted(by_title):
        indices = by_title[title]
        if len(indices) <= cap:
            keep.update(indices)
        else:
            rng = random.Random(derive_seed(seed, "bios-occupation-cap", title))
            keep.update(rng.sample(indices, cap))
    return [bio for index, bio in enumerate(bios) if index in keep]


def postprocess(
    bios: Iterable[Bio],
    *,
    excluded: Iterable[str] = EXCLUDED_TITLES,
    occupation_cap: int | None = None,
    seed: int = 0,
) -> list[Bio]:
    """Exclusions, the three deduplications, then the optional occupation cap."""
    kept = dedup_middle(dedup_name_title(dedup_exact(drop_excluded(bios, excluded))))
    return cap_occupations(kept, occupation_cap, seed)
