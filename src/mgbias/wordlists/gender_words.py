"""Which gender words a sentence holds: the word matcher of MBE's Step 1 (Kaneko et
al. 2022, §3: a sentence with a word of :math:`\\mathcal{V}_f` and none of
:math:`\\mathcal{V}_m` is female, and conversely; one with both is excluded), also used
for :math:`\\mathcal{D}_f` and :math:`\\mathcal{D}_m` (Kaneko et al. 2023, §2) and for
the modified words of an oriented pair (:mod:`mgbias.measures.orientation`).

Word matching
-------------
English sentences are split into lowercase word tokens by :func:`english_tokens`:
a token is a maximal run of letters and digits, so every other character —
spaces, punctuation, hyphens, underscores and apostrophes — separates tokens
("she's" -> ``she``, ``s``; "ex-wife" -> ``ex``, ``wife``). A word-list entry
matches when its tokens occur as consecutive tokens of the sentence; most entries
are one token ("she"), an entry such as "ex_wife" or "ex-wife" matches the two
tokens ``ex wife``. Matching is therefore whole-word and case-insensitive:
"shepherd" does not contain "she". Letters are Unicode letters, so the same
tokens serve German, Spanish and French text ("l'homme" -> ``l``, ``homme``;
"él" and "el" stay distinct), as :mod:`mgbias.finetune.gendered_text` uses them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from mgbias.wordlists.genders import FEMALE, MALE

__all__ = ["BOTH", "check_word_lists", "english_tokens", "gender_of", "gender_words_of"]

#: The class of a sentence holding words of both lists (excluded by the papers).
BOTH = "both"

_WORD = re.compile(r"[^\W_]+")


def english_tokens(sentence: str) -> list[str]:
    """Split an English sentence into lowercase word tokens.

    A token is a maximal run of letters and digits; every other character separates
    tokens, apostrophes and hyphens included.

    >>> english_tokens("She's an ex-wife, isn't she?")
    ['she', 's', 'an', 'ex', 'wife', 'isn', 't', 'she']
    """
    return _WORD.findall(sentence.lower())


@dataclass(frozen=True)
class _CompiledWords:
    """A word list as token tuples, grouped for fast lookup."""

    unigrams: frozenset[str]
    ngrams: frozenset[tuple[str, ...]]
    max_len: int

    def matches(self, tokens: list[str]) -> Iterator[tuple[str, ...]]:
        """Yield the entries occurring in ``tokens`` as token tuples, unigrams first.

        An entry occurring several times is yielded each time it occurs as an n-gram
        (once as a unigram). :meth:`occurs_in` is the same scan returning at the first
        match, kept apart for speed.
        """
        for unigram in self.unigrams.intersection(tokens):
            yield (unigram,)
        for n in range(2, self.max_len + 1):
            for start in range(len(tokens) - n + 1):
                gram = tuple(tokens[start : start + n])
                if gram in self.ngrams:
                    yield gram

    def occurs_in(self, tokens: list[str]) -> bool:
        """Whether :meth:`matches` yields an entry (the same scan, stopping at the first)."""
        if not self.unigrams.isdisjoint(tokens):
            return True
        for n in range(2, self.max_len + 1):
            for start in range(len(tokens) - n + 1):
                if tuple(tokens[start : start + n]) in self.ngrams:
                    return True
        return False

    def entries_in(self, tokens: list[str]) -> tuple[str, ...]:
        """The entries occurring in ``tokens``, tokens joined by a space, sorted, unique."""
        return tuple(sorted({" ".join(gram) for gram in self.matches(tokens)}))


def _compile_words(words: frozenset[str], label: str) -> _CompiledWords:
    unigrams: set[str] = set()
    ngrams: set[tuple[str, ...]] = set()
    for word in words:
        tokens = english_tokens(word)
        if not tokens:
            raise ValueError(f"{label} word list entry {word!r} contains no letters or digits")
        if len(tokens) == 1:
            unigrams.add(tokens[0])
        else:
            ngrams.add(tuple(tokens))
    max_len = max((len(gram) for gram in ngrams), default=1)
    return _CompiledWords(frozenset(unigrams), frozenset(ngrams), max_len)


@functools.lru_cache(maxsize=16)
def _compile_lexicon(
    female: frozenset[str], male: frozenset[str]
) -> tuple[_CompiledWords, _CompiledWords]:
    female_words = _compile_words(female, FEMALE)
    male_words = _compile_words(male, MALE)
    overlap = (female_words.unigrams & male_words.unigrams) | (
        female_words.ngrams & male_words.ngrams
    )
    if overlap:
        shown = sorted(" ".join(g) if isinstance(g, tuple) else g for g in overlap)
        raise ValueError(
            f"the female and male word lists share {len(overlap)} entries "
            f"(after lowercasing and tokenising): {', '.join(shown[:20])}"
        )
    return female_words, male_words


def check_word_lists(female: frozenset[str], male: frozenset[str]) -> None:
    """Check two word lists as :func:`gender_of` reads them, before any sentence is.

    Raises
    ------
    ValueError
        If the two word lists share an entry or an entry has no word characters.
    """
    _compile_lexicon(frozenset(female), frozenset(male))


def _gender(is_female: bool, is_male: bool) -> str | None:
    """The class of a sentence that holds female and/or male words (see :func:`gender_of`)."""
    if is_female and is_male:
        return BOTH
    if is_female:
        return FEMALE
    if is_male:
        return MALE
    return None


def gender_of(sentence: str, female: frozenset[str], male: frozenset[str]) -> str | None:
    """Classify an English sentence by the gendered words it contains.

    Parameters
    ----------
    sentence
        A sentence; English in MBE, any language written with spaces between words
        in :mod:`mgbias.finetune.gendered_text`.
    female, male
        The word lists :math:`\\mathcal{V}_f` and :math:`\\mathcal{V}_m` (case and
        punctuation inside entries do not matter; see the module docstring).

    Returns
    -------
    str or None
        ``"female"`` if the sentence contains a female word and no male word,
        ``"male"`` for the converse, ``"both"`` if it contains words of both lists
        (the paper excludes these), ``None`` if it contains neither.

    Raises
    ------
    ValueError
        If the two word lists share an entry or an entry has no word characters.
    """
    female_words, male_words = _compile_lexicon(frozenset(female), frozenset(male))
    tokens = english_tokens(sentence)
    return _gender(female_words.occurs_in(tokens), male_words.occurs_in(tokens))


def gender_words_of(
    sentence: str, female: frozenset[str], male: frozenset[str]
) -> tuple[str | None, tuple[str, ...]]:
    """Classify a sentence as :func:`gender_of` does and name the entries that matched.

    Parameters
    ----------
    sentence, female, male
        As for :func:`gender_of`.

    Returns
    -------
    gender : str or None
        What :func:`gender_of` returns.
    words : tuple of str
        The word-list entries found in the sentence, each as its lowercase tokens
        joined by one space ("ex-wife" and "ex_wife" give ``"ex wife"``), sorted and
        unique: the entries of ``gender``'s list, of both lists for ``"both"``, none
        for ``None``.

    Raises
    ------
    ValueError
        As :func:`gender_of`.

    Examples
    --------
    >>> gender_words_of("She met her ex-wife.", frozenset({"she", "her", "ex-wife"}),
    ...                 frozenset({"he"}))
    ('female', ('ex wife', 'her', 'she'))
    """
    female_words, male_words = _compile_lexicon(frozenset(female), frozenset(male))
    tokens = english_tokens(sentence)
    is_female = female_words.occurs_in(tokens)
    is_male = male_words.occurs_in(tokens)
    found = (female_words.entries_in(tokens) if is_female else ()) + (
        male_words.entries_in(tokens) if is_male else ()
    )
    return _gender(is_female, is_male), tuple(sorted(found))
