"""The perturbation of Steinborn et al. (2022), Table 3: a change that carries no bias.

Kept apart from the measures: it changes what the model reads, so the scoring
jobs depend on it, while a measure's formula changes only its own jobs.
"""

from __future__ import annotations


def perturb_final_character(sentence: str) -> str:
    """Remove the last character of a sentence (Steinborn et al. 2022, Table 3 perturbation).

    Exactly one character (Python code point) is removed, whatever it is:

    - ``"He is a pilot."`` -> ``"He is a pilot"``: most often the final period,
      as the paper notes;
    - ``"he is a pilot ."`` (space-tokenised, like the demo data) ->
      ``"he is a pilot "``: the period goes and a trailing space remains,
      which tokenizers drop, so the period token disappears;
    - ``"He is a pilot. "`` (trailing space) -> ``"He is a pilot."``: only the
      space goes, so the tokens usually do not change;
    - a sentence ending in a combining mark (e.g. Thai vowel signs) loses the
      mark, not the whole grapheme.

    Raises
    ------
    ValueError
        If ``sentence`` is empty (nothing to remove).

    Examples
    --------
    >>> perturb_final_character("She is a nurse.")
    'She is a nurse'
    """
    if not isinstance(sentence, str):
        raise ValueError(f"sentence must be a string, got {type(sentence).__name__}")
    if not sentence:
        raise ValueError("cannot remove the final character of an empty sentence")
    return sentence[:-1]
