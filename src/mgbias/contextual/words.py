"""The words of a sentence: one segmentation shared by every contextual probe.

Basta et al. (2020) probe ELMo, whose tokens are words. Here a sentence's words are
the matches of :data:`WORD_PATTERN` in it: runs of letters and digits (with inner
apostrophes and hyphens, "o'clock", "ex-wife") and single punctuation marks, so
"doctor," is the word "doctor" followed by ",". A French elided clitic is a word of its
own: "l'avocat" is "l'" and "avocat" (also c', d', j', m', n', s', t', qu', jusqu',
lorsqu', puisqu'), so that a profession after an article is found; "aujourd'hui" stays
one word. A word is addressed by its index in
that list; hidden states pool the sub-word pieces overlapping its character span, and
the gender swap replaces spans, so the rest of the sentence keeps its bytes.
"""

from __future__ import annotations

import re

__all__ = ["WORD_PATTERN", "word_spans", "words"]

#: A word: an elided clitic before a letter; letters/digits with inner ' ’ or - joining
#: them; or one other non-space character.
WORD_PATTERN = re.compile(
    r"(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)['’](?=[^\W\d_])|[^\W_]+(?:['’-][^\W_]+)*|[^\w\s]|_+",
    re.IGNORECASE,
)


def word_spans(sentence: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the words of ``sentence``, in order."""
    return [match.span() for match in WORD_PATTERN.finditer(sentence)]


def words(sentence: str) -> list[str]:
    """The words of ``sentence`` (:data:`WORD_PATTERN`), in order."""
    return WORD_PATTERN.findall(sentence)
