"""The most probable fillers of one masked slot (Kaneko, Bollegala & Okazaki 2023, Figure 3).

Figure 3 shows, for the original model and each bias-controlled model, the
five tokens with the highest probability at the masked subject of a
CrowS-Pairs sentence ("[MASK] doesn't have time for family due to work
obligations"), coloured masculine or feminine by the word lists.
:func:`top_predictions` computes that table for one model: the full
distribution at the slot comes from the scoring engine
(:func:`mgbias.mlm.masked.masked_logprobs_of` with every vocabulary id as a
candidate), special tokens ([CLS], [SEP], [PAD], [MASK], ...) are left out of
the ranking (they are no word of the sentence), and each token is classed by
:func:`gender_class`.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

__all__ = ["GENDER_CLASSES", "TOP_COLUMNS", "gender_class", "top_predictions"]

#: The classes of Figure 3's colours.
GENDER_CLASSES = ("male", "female", "neither")

#: Columns of :func:`top_predictions`.
TOP_COLUMNS = ["rank", "token_id", "token", "word", "prob", "gender_class"]

MASK = "[MASK]"


def gender_class(word: str, male: Collection[str], female: Collection[str]) -> str:
    """``"male"`` if ``word`` (lowercased) is in the male list, ``"female"`` if in the female
    list, else ``"neither"``; a word in both lists is an error.

    Examples
    --------
    >>> gender_class("He", {"he", "man"}, {"she"}), gender_class("it", {"he"}, {"she"})
    ('male', 'neither')
    """
    key = word.strip().lower()
    is_male, is_female = key in male, key in female
    if is_male and is_female:
        raise ValueError(f"{word!r} is in both the male and the female word list")
    return "male" if is_male else "female" if is_female else "neither"


def _encode(tokenizer, sentence: str) -> tuple[np.ndarray, int]:
    if sentence.count(MASK) != 1:
        raise ValueError(f"the sentence needs exactly one {MASK}: {sentence!r}")
    if tokenizer.mask_token is None:
        raise ValueError("the tokenizer has no mask token")
    text = sentence.replace(MASK, tokenizer.mask_token)
    ids = np.asarray(tokenizer(text, add_special_tokens=True)["input_ids"], dtype=np.int64)
    positions = np.flatnonzero(ids == tokenizer.mask_token_id)
    if positions.size != 1:
        raise ValueError(f"{text!r} holds {positions.size} mask tokens after tokenization")
    return ids, int(positions[0])


def top_predictions(
    model,
    tokenizer,
    sentence: str,
    male: Collection[str],
    female: Collection[str],
    *,
    k: int = 5,
    max_length: int | None = None,
    precision: str = "fp32",
) -> pd.DataFrame:
    """The ``k`` most probable tokens at the ``[MASK]`` of ``sentence``, classed by gender list.

    Parameters
    ----------
    model, tokenizer
        A masked LM and its tokenizer.
    sentence : str
        Text with exactly one ``[MASK]`` (replaced by the tokenizer's mask token).
    male, female : collections of str
        Lowercased word lists (e.g. :func:`mgbias.wordlists.load_gender_words`).
    k : int
        How many tokens (default 5, as in Figure 3).
    max_length, precision
        As for :func:`~mgbias.mlm.masked.masked_logprobs_of`; a sentence longer than
        ``max_length`` (default: the model's limit) is refused, naming it.

    Returns
    -------
    pandas.DataFrame
        :data:`TOP_COLUMNS`: ``rank`` 1..k, ``token_id``, ``token`` (the
        vocabulary entry, e.g. ``▁he``), ``word`` (the token as text, e.g.
        ``he``), ``prob`` (softmax over the whole vocabulary, specials
        included, so the probabilities are the model's), ``gender_class``
        (:func:`gender_class` of ``word``). Ties in probability are broken by
        the lower token id.
    """
    from mgbias.mlm.masked import masked_logprobs_of, masked_max_length

    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    ids, position = _encode(tokenizer, sentence)
    limit = max_length or masked_max_length(model, tokenizer)
    if ids.size > limit:
        raise ValueError(
            f"the sentence {sentence!r} is {ids.size} tokens long with the special tokens, "
            f"more than the {limit} the model reads; give a shorter one with one {MASK} "
            "(mgbias tbs --sentence; kaneko2023.sentences in the workflow)"
        )
    vocabulary = np.arange(int(model.config.vocab_size), dtype=np.int64)
    logprobs = masked_logprobs_of(
        model,
        tokenizer,
        [ids],
        [[]],
        [position],
        vocabulary,
        batch_size=1,
        max_length=max_length,
        progress=False,
        precision=precision,
    )[0].astype(np.float64)
    special = [i for i in tokenizer.all_special_ids if 0 <= i < vocabulary.size]
    logprobs[special] = -np.inf
    order = np.lexsort((vocabulary, -logprobs))[:k]
    tokens = tokenizer.convert_ids_to_tokens(order.tolist())
    words = [tokenizer.convert_tokens_to_string([token]).strip() for token in tokens]
    return pd.DataFrame(
        {
            "rank": np.arange(1, len(order) + 1),
            "token_id": order,
            "token": tokens,
            "word": words,
            "prob": np.exp(logprobs[order]),
            "gender_class": [gender_class(word, male, female) for word in words],
        }
    )[TOP_COLUMNS]
