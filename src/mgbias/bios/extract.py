"""The per-line candidate extractor (Zhao et al. 2020, §4.1; the authors' extraction scripts).

A candidate is a line that passes every textual rule; the name check by NER
(:mod:`mgbias.bios.ner`) comes after. Steps, for a line of a page in the language:

1. ``len(line) >= 150``; the "is a" pattern starts within the first
   ``len(pattern) + 40`` characters (the earliest of the language's patterns wins);
2. a title from the lexicon right after the pattern, or after one skipped word not
   ending in ``,`` ("is an American architect");
3. gender: no first/second-person word; male markers only -> M, female only -> F;
4. the title not followed by ``,`` or by the conjunction;
5. the line cut at the first tab after the title, then ``len <= 1000``;
6. the body, from the first sentence end after the title, at least 150 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from mgbias.bios.rules import MAX_LINE_LEN, MAX_PRECEDE, MIN_LENGTH, LanguageRules
from mgbias.bios.wet import Page

_SKIP_WORD = re.compile(r"(\S+) ")


@dataclass(frozen=True)
class Candidate:
    """A line that passed the textual rules.

    ``raw`` is the (tab-truncated) line, ``prefix`` the text before the pattern (where
    the name must be), ``start_pos`` where the body starts in ``raw``.
    """

    raw: str
    prefix: str
    raw_title: str
    title: str
    gender: str
    start_pos: int
    uri: str = ""
    path: str = ""

    @property
    def body(self) -> str:
        """The unscrubbed bio: ``raw[start_pos:]`` stripped (the title sentence removed)."""
        return self.raw[self.start_pos :].strip()


def page_in_language(page: Page, rules: LanguageRules) -> bool:
    """The page's language test.

    With a ``WARC-Identified-Content-Language`` header, the page is in the language iff
    the language's ISO 639-3 code is among the identified codes. Without one (crawls
    before 2018, or a record without it), the authors' marker test: the marker string
    (EN ``the``, ES `` es ``, DE `` ist ``, FR `` est ``) occurs in the text.
    """
    if page.languages is not None:
        return rules.iso639_3 in page.languages
    return rules.page_marker in page.text


def infer_gender(line: str, rules: LanguageRules) -> str | None:
    """``"M"``/``"F"`` when only male/only female markers occur; None otherwise.

    None also when any first- or second-person word occurs.
    """
    if any(pattern.search(line) for pattern in rules.person):
        return None
    male = rules.male.search(line) is not None
    female = rules.female.search(line) is not None
    if male and not female:
        return "M"
    if female and not male:
        return "F"
    return None


def _find_pattern(line: str, rules: LanguageRules) -> tuple[int, str] | None:
    found = []
    for isa in rules.isa:
        index = line.find(isa, 0, len(isa) + MAX_PRECEDE)
        if index >= 0:
            found.append((index, isa))
    return min(found) if found else None


def _match_title(rest: str, rules: LanguageRules) -> re.Match[str] | None:
    match = rules.title_re.match(rest)
    if match:
        return match
    skip = _SKIP_WORD.match(rest)
    if skip is None or skip.group(1).endswith(","):
        return None
    return rules.title_re.match(rest, skip.end())


def extract_line(
    line: str, rules: LanguageRules, *, uri: str = "", path: str = ""
) -> Candidate | None:
    """The candidate of one line, or None if any rule rejects it (steps 1-6 above)."""
    if len(line) < MIN_LENGTH:
        return None
    found = _find_pattern(line, rules)
    if found is None:
        return None
    index, isa = found
    after = index + len(isa)
    match = _match_title(line[after:], rules)
    if match is None:
        return None
    title_end = after + match.end()
    raw_title = match.group(0)
    gender = infer_gender(line, rules)
    if gender is None:
        return None
    tail = line[title_end:]
    if tail.startswith(",") or tail.startswith(rules.conjunction):
        return None
    tab = line.find("\t", title_end)
    if tab >= 0:
        line = line[:tab]
    if len(line) > MAX_LINE_LEN:
        return None
    end = rules.sentence_end.search(line, title_end)
    if end is None:
        return None
    start_pos = end.start() + 1
    if len(line[start_pos:].strip()) < MIN_LENGTH:
        return None
    return Candidate(
        raw=line,
        prefix=line[:index],
        raw_title=raw_title,
        title=rules.title_of(raw_title),
        gender=gender,
        start_pos=start_pos,
        uri=uri,
        path=path,
    )


def extract_page(page: Page, rules: LanguageRules, *, path: str = "") -> Iterator[Candidate]:
    """The candidates of a page in the language, line by line (none if it is not)."""
    if not page_in_language(page, rules):
        return
    if not any(isa in page.text for isa in rules.isa):  # most pages: no line can match
        return
    for line in page.text.split("\n"):
        candidate = extract_line(line, rules, uri=page.uri, path=path)
        if candidate is not None:
            yield candidate
