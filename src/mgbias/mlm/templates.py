"""Template probes: the pronoun probabilities behind TBS and Kaneko et al.'s (2023) Figure 2.

Kurita et al. (2019, §3) read a masked LM at the attribute slot of the
template "[MASK] is a [TARGET]." (e.g. "[MASK] is a programmer."):

- ``p_tgt(g, t) = P([MASK] = g | "[MASK] is a t.")``, the target visible;
- ``p_prior(g, t) = P([MASK] = g | "[MASK] is a [MASK].")``, the same
  sentence with the target masked as well.

:func:`template_logprobs` computes both, for the male and the female word of
a language (:class:`TemplateSpec`), for every target, in one batched run of
the scoring engine (:func:`mgbias.mlm.masked.masked_logprobs_of`; the MLM
head is applied at the attribute slot only). :func:`tbs_table` turns them into
Kurita's associations and TBS with :mod:`mgbias.measures.tbs`. Kaneko,
Bollegala & Okazaki (2023, §3.4, Figure 2) plot ``p_tgt`` itself, averaged
over neutral occupations, with the article chosen by the occupation
("[MASK] is a/an [Occupation].").

Conventions
-----------
- A target the tokenizer splits into several tokens ("nur ##se", or the
  two words of "alter ego") has *all* its tokens masked for the prior, so the
  prior of a two-token target is "[MASK] is a [MASK] [MASK]." Kurita et al.'s
  examples are one-token targets; masking every piece keeps the prior free of
  any part of the target.
- The prior keeps everything else of the target's sentence, the article
  included: "an" before a vowel-initial target gives "[MASK] is an [MASK]."
  (Kaneko et al. 2023, App. A, give no prior template; keeping the article is the
  project's choice).
- The attribute is read at the first (and only) mask of the template; each
  gender word must be one token of the vocabulary (checked), as "he"/"she"
  are for BERT and ALBERT.
- Positions of the target are found from the tokenizer's character offsets
  (a fast tokenizer is required), so any subword scheme works.

Templates, gender words and the article rule per language are data:
``mgbias/resources/templates.yaml`` (:func:`template_spec`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mgbias.files.yaml_lines import load_yaml
from mgbias.measures.tbs import tbs_association, tbs_bias, tbs_target_bias
from mgbias.resources import resource_path
from mgbias.stats import mean_standard_error

__all__ = [
    "ARTICLE",
    "MASK",
    "TARGET",
    "TBS_COLUMNS",
    "TemplateEncoding",
    "TemplateSpec",
    "article_for",
    "encode_template",
    "fill_template",
    "single_token_id",
    "tbs_summary",
    "tbs_table",
    "template_logprobs",
    "template_spec",
]

#: Placeholders of a template.
MASK, TARGET, ARTICLE = "[MASK]", "[TARGET]", "[ARTICLE]"
TEMPLATES_FILE = "templates.yaml"

#: Columns of :func:`tbs_table`, in order.
TBS_COLUMNS = [
    "target",
    "neutral",
    "text",
    "n_target_tokens",
    "logp_target_male",
    "logp_target_female",
    "logp_prior_male",
    "logp_prior_female",
    "p_target_male",
    "p_target_female",
    "assoc_male",
    "assoc_female",
    "bias",
]


@dataclass(frozen=True)
class TemplateSpec:
    """A language's template probe.

    Attributes
    ----------
    lang : str
        Language code.
    template : str
        With one ``[MASK]`` (the attribute slot), one ``[TARGET]`` and at most
        one ``[ARTICLE]``.
    male, female : str
        The gender words read at the attribute slot (e.g. ``he``, ``she``).
    articles : dict or None
        ``{"vowel": "an", "consonant": "a", "vowels": "aeiou"}``: the article
        of a target is ``vowel`` if its first letter is one of ``vowels``;
        needed if and only if the template has ``[ARTICLE]``.
    figure3_sentence : str
        A sentence with its subject masked (``[MASK]``), for the top
        predictions of Figure 3.
    """

    lang: str
    template: str
    male: str
    female: str
    articles: dict[str, str] | None = field(default=None)
    figure3_sentence: str = ""

    def __post_init__(self) -> None:
        where = f"template of {self.lang!r} ({self.template!r})"
        for placeholder in (MASK, TARGET):
            if self.template.count(placeholder) != 1:
                raise ValueError(f"{where}: needs exactly one {placeholder}")
        if self.template.count(ARTICLE) > 1:
            raise ValueError(f"{where}: has more than one {ARTICLE}")
        if (ARTICLE in self.template) != (self.articles is not None):
            raise ValueError(
                f"{where}: an {ARTICLE} placeholder and an 'articles' rule go together; "
                f"placeholder {'present' if ARTICLE in self.template else 'absent'}, rule "
                f"{'given' if self.articles is not None else 'missing'}"
            )
        if self.articles is not None:
            missing = {"vowel", "consonant", "vowels"} - set(self.articles)
            if missing:
                raise ValueError(f"{where}: articles rule lacks {sorted(missing)}")
        for name in ("male", "female"):
            word = getattr(self, name)
            if not isinstance(word, str) or len(word.split()) != 1:
                raise ValueError(f"{where}: {name} word must be one word, got {word!r}")
        if self.male == self.female:
            raise ValueError(f"{where}: male and female word are both {self.male!r}")
        if self.figure3_sentence and self.figure3_sentence.count(MASK) != 1:
            raise ValueError(
                f"figure3_sentence of {self.lang!r} needs exactly one {MASK}: "
                f"{self.figure3_sentence!r}"
            )


@cache
def _shipped_templates() -> dict[str, Any]:
    path = resource_path(TEMPLATES_FILE)
    return load_yaml(path)


def template_spec(lang: str, path: str | Path | None = None, **overrides: Any) -> TemplateSpec:
    """The template probe of ``lang`` from the shipped ``templates.yaml`` (or ``path``).

    Parameters
    ----------
    lang : str
        A language of the file (shipped: en, de, es, fr).
    path : str or Path, optional
        A YAML file of the same layout (``languages: {lang: {...}}``).
    **overrides
        Fields to replace (e.g. ``figure3_sentence="[MASK] works here ."``);
        ``None`` values are ignored.

    Raises
    ------
    ValueError
        If the language is not in the file, or the entry is malformed (the
        message names the file and language).

    Examples
    --------
    >>> spec = template_spec("en")
    >>> spec.male, spec.female, fill_template(spec, "engineer")[0]
    ('he', 'she', '[MASK] is an engineer.')
    """
    if path is None:
        data, source = _shipped_templates(), str(resource_path(TEMPLATES_FILE))
    else:
        source = str(path)
        data = load_yaml(path)
    languages = (data or {}).get("languages")
    if not isinstance(languages, dict):
        raise ValueError(f"{source}: expected a 'languages' mapping")
    if lang not in languages:
        raise ValueError(
            f"{source}: no template for language {lang!r}; languages: {sorted(languages)}"
        )
    entry = dict(languages[lang])
    entry.update({key: value for key, value in overrides.items() if value is not None})
    known = {"template", "male", "female", "articles", "figure3_sentence"}
    unknown = set(entry) - known
    if unknown:
        raise ValueError(f"{source}, language {lang!r}: unknown key(s) {sorted(unknown)}")
    try:
        return TemplateSpec(lang=lang, **entry)
    except TypeError as error:
        raise ValueError(f"{source}, language {lang!r}: {error}") from error


def article_for(target: str, articles: dict[str, str]) -> str:
    """The article of ``target`` by its first letter (English: "an" before a, e, i, o, u).

    Examples
    --------
    >>> rule = {"vowel": "an", "consonant": "a", "vowels": "aeiou"}
    >>> article_for("engineer", rule), article_for("Understudy", rule), article_for("nurse", rule)
    ('an', 'an', 'a')
    """
    first = target.strip()[:1].lower()
    if not first:
        raise ValueError("empty target: no article can be chosen")
    return articles["vowel"] if first in articles["vowels"] else articles["consonant"]


def fill_template(
    spec: TemplateSpec, target: str, mask_token: str = MASK
) -> tuple[str, tuple[int, int]]:
    """The template sentence of ``target`` and the character span of the target in it.

    ``[ARTICLE]`` takes :func:`article_for` the target; ``[MASK]`` becomes
    ``mask_token`` (the tokenizer's, e.g. ``<mask>`` for RoBERTa).

    Returns
    -------
    tuple[str, tuple[int, int]]
        The text and ``(start, end)`` of the target in it.

    Examples
    --------
    >>> fill_template(template_spec("en"), "alter ego")
    ('[MASK] is an alter ego.', (13, 22))
    >>> fill_template(template_spec("fr"), "médecin", "<mask>")
    ('<mask> est médecin.', (11, 18))
    """
    target = target.strip()
    if not target:
        raise ValueError("empty target")
    text = spec.template
    if ARTICLE in text:
        text = text.replace(ARTICLE, article_for(target, spec.articles))
    text = text.replace(MASK, mask_token)
    start = text.index(TARGET)
    return text.replace(TARGET, target), (start, start + len(target))


@dataclass(frozen=True)
class TemplateEncoding:
    """One filled template as token ids.

    Attributes
    ----------
    text : str
        The sentence (with the tokenizer's mask token).
    input_ids : np.ndarray
        int64, special tokens included; the attribute slot holds the mask id.
    attribute_position : int
        Index of the attribute slot.
    target_positions : np.ndarray
        int64 indices of every token of the target.
    """

    text: str
    input_ids: np.ndarray
    attribute_position: int
    target_positions: np.ndarray

    def prior_ids(self, mask_id: int) -> np.ndarray:
        """The prior's token ids: every target token replaced by ``mask_id``."""
        ids = self.input_ids.copy()
        ids[self.target_positions] = mask_id
        return ids


def _check_fast(tokenizer) -> None:
    if not getattr(tokenizer, "is_fast", False):
        raise ValueError(
            f"{type(tokenizer).__name__} is not a fast tokenizer; template probes need the "
            "character offsets of a fast tokenizer to find the target's tokens"
        )
    if tokenizer.mask_token is None:
        raise ValueError("the tokenizer has no mask token; template probes need one")


def encode_template(tokenizer, spec: TemplateSpec, target: str) -> TemplateEncoding:
    """Tokenize the template sentence of ``target``; locate the attribute slot and the target.

    Raises
    ------
    ValueError
        If the tokenizer is not fast or has no mask token, the sentence does
        not hold exactly one mask token, or no token covers the target.
    """
    _check_fast(tokenizer)
    text, (start, end) = fill_template(spec, target, tokenizer.mask_token)
    encoded = tokenizer(
        text,
        add_special_tokens=True,
        return_offsets_mapping=True,
        return_special_tokens_mask=True,
        return_attention_mask=False,
        return_token_type_ids=False,
    )
    ids = np.asarray(encoded["input_ids"], dtype=np.int64)
    special = np.asarray(encoded["special_tokens_mask"], dtype=bool)
    offsets = np.asarray(encoded["offset_mapping"], dtype=np.int64).reshape(-1, 2)
    masks = np.flatnonzero(ids == tokenizer.mask_token_id)
    if masks.size != 1:
        raise ValueError(
            f"target {target!r}: the sentence {text!r} holds {masks.size} mask tokens after "
            "tokenization; expected the attribute slot only"
        )
    is_mask = np.zeros(ids.size, dtype=bool)
    is_mask[masks] = True
    covers = (offsets[:, 0] < end) & (offsets[:, 1] > start) & ~special & ~is_mask
    positions = np.flatnonzero(covers)
    if positions.size == 0:
        raise ValueError(f"target {target!r}: no token of {text!r} covers the target")
    return TemplateEncoding(
        text=text,
        input_ids=ids,
        attribute_position=int(masks[0]),
        target_positions=positions.astype(np.int64),
    )


def single_token_id(tokenizer, word: str) -> int:
    """The id of ``word`` as one token of the vocabulary (as it is read at the attribute slot).

    Raises
    ------
    ValueError
        If the tokenizer splits ``word`` into several tokens or maps it to the
        unknown token (the message shows the pieces).
    """
    ids = tokenizer(word, add_special_tokens=False)["input_ids"]
    if len(ids) != 1 or ids[0] == tokenizer.unk_token_id:
        pieces = tokenizer.convert_ids_to_tokens(ids)
        raise ValueError(
            f"gender word {word!r} is not one token of the vocabulary (tokens: {pieces}); "
            "choose another word in the template configuration"
        )
    return int(ids[0])


def template_logprobs(
    model,
    tokenizer,
    spec: TemplateSpec,
    targets: Sequence[str],
    *,
    batch_size: int = 64,
    max_length: int | None = None,
    progress: bool = False,
    precision: str = "fp32",
) -> pd.DataFrame:
    """``log p_tgt`` and ``log p_prior`` of the male and the female word, per target.

    Kurita et al. (2019, §3): ``p_tgt = P([MASK] = g | template with the
    target)``, ``p_prior = P([MASK] = g | template with every target token
    masked)``. All sentences are scored in one batched pass of
    :func:`mgbias.mlm.masked.masked_logprobs_of`; priors that are the same
    token sequence (the usual case: same article and number of target
    tokens) are computed once and shared.

    Parameters
    ----------
    model, tokenizer
        A masked LM and its fast tokenizer (:func:`mgbias.mlm.load.load_mlm`).
    spec : TemplateSpec
        Template and gender words (:func:`template_spec`).
    targets : sequence of str
        Occupations, unique.
    batch_size, max_length, progress, precision
        As for :func:`~mgbias.mlm.masked.masked_logprobs_of`.

    Returns
    -------
    pandas.DataFrame
        One row per target, in order: ``target``, ``text`` (the sentence),
        ``n_target_tokens``, ``logp_target_male``, ``logp_target_female``,
        ``logp_prior_male``, ``logp_prior_female`` (natural-log probabilities,
        float64 from the engine's float32).

    Raises
    ------
    ValueError
        On an empty or repeated target, a gender word that is not one token,
        or a sentence the tokenizer cannot place (see :func:`encode_template`).
    """
    from mgbias.mlm.masked import masked_logprobs_of

    targets = [str(target) for target in targets]
    if not targets:
        raise ValueError("template_logprobs: no targets")
    repeated = sorted({t for t in targets if targets.count(t) > 1})
    if repeated:
        raise ValueError(f"template_logprobs: target(s) listed twice: {repeated}")
    candidates = [single_token_id(tokenizer, spec.male), single_token_id(tokenizer, spec.female)]
    encodings = [encode_template(tokenizer, spec, target) for target in targets]
    mask_id = int(tokenizer.mask_token_id)
    sequences = [encoding.input_ids for encoding in encodings]
    queries = [encoding.attribute_position for encoding in encodings]
    prior_index: dict[tuple[int, tuple[int, ...]], int] = {}
    prior_of_target = []
    for encoding in encodings:
        prior = encoding.prior_ids(mask_id)
        key = (encoding.attribute_position, tuple(prior.tolist()))
        if key not in prior_index:
            prior_index[key] = len(sequences)
            sequences.append(prior)
            queries.append(encoding.attribute_position)
        prior_of_target.append(prior_index[key])
    logprobs = masked_logprobs_of(
        model,
        tokenizer,
        sequences,
        [[] for _ in sequences],
        queries,
        candidates,
        batch_size=batch_size,
        max_length=max_length,
        progress=progress,
        precision=precision,
    ).astype(np.float64)
    n = len(targets)
    prior = logprobs[prior_of_target]
    return pd.DataFrame(
        {
            "target": targets,
            "text": [encoding.text for encoding in encodings],
            "n_target_tokens": [len(encoding.target_positions) for encoding in encodings],
            "logp_target_male": logprobs[:n, 0],
            "logp_target_female": logprobs[:n, 1],
            "logp_prior_male": prior[:, 0],
            "logp_prior_female": prior[:, 1],
        }
    )


def tbs_table(logprobs: pd.DataFrame, neutral: Sequence[bool] | None = None) -> pd.DataFrame:
    """Per-target probabilities, Kurita associations and bias (:data:`TBS_COLUMNS`).

    ``assoc_g = log p_tgt(g) - log p_prior(g)`` (:func:`~mgbias.measures.tbs.tbs_association`),
    ``bias = assoc_male - assoc_female`` (:func:`~mgbias.measures.tbs.tbs_target_bias`;
    positive = the target leans male); ``p_target_*`` = ``exp(logp_target_*)``,
    the probabilities of Kaneko et al.'s (2023) Figure 2.

    Parameters
    ----------
    logprobs : pandas.DataFrame
        :func:`template_logprobs`' output.
    neutral : sequence of bool, optional
        Per target, whether it is gender-neutral (Figure 2 averages over
        these); default all True.
    """
    table = logprobs.copy()
    table.insert(1, "neutral", True if neutral is None else np.asarray(neutral, dtype=bool))
    table["p_target_male"] = np.exp(table["logp_target_male"])
    table["p_target_female"] = np.exp(table["logp_target_female"])
    table["assoc_male"] = tbs_association(table["logp_target_male"], table["logp_prior_male"])
    table["assoc_female"] = tbs_association(table["logp_target_female"], table["logp_prior_female"])
    table["bias"] = tbs_target_bias(table["assoc_male"], table["assoc_female"])
    return table[TBS_COLUMNS]


def tbs_summary(table: pd.DataFrame, spec: TemplateSpec) -> dict[str, Any]:
    """TBS and the Figure 2 averages of one model, as a JSON-ready dict.

    Returns
    -------
    dict
        ``tbs`` (:func:`~mgbias.measures.tbs.tbs_bias` over all targets;
        positive = male) and ``tbs_se`` (its standard error over the targets,
        :func:`scipy.stats.sem`; NaN for one target), ``n_targets``; ``p_male`` and
        ``p_female`` (mean ``p_target`` over the neutral targets, NaN if none) with
        ``p_male_se`` and ``p_female_se``, ``male_share`` (``p_male / (p_male +
        p_female)``), ``n_neutral``; ``lang``, ``male_word``, ``female_word``,
        ``template``. TBS's two parts: ``log_ratio_target``, the mean over the
        targets of ``log P(male word) - log P(female word)`` with the target in the
        template, less ``log_ratio_prior``, the same with the target masked too
        (Kurita et al.'s prior), so ``tbs = log_ratio_target - log_ratio_prior``: the
        prior is one sentence (per article), and a model that prefers one word more
        without a target than with any reads as associating every target with the
        other.
    """
    neutral = table[table["neutral"].astype(bool)]
    p_male = float(neutral["p_target_male"].mean()) if len(neutral) else math.nan
    p_female = float(neutral["p_target_female"].mean()) if len(neutral) else math.nan
    return {
        "lang": spec.lang,
        "template": spec.template,
        "male_word": spec.male,
        "female_word": spec.female,
        "tbs": tbs_bias(table["assoc_male"], table["assoc_female"]),
        "tbs_se": mean_standard_error(table["bias"]),
        "log_ratio_target": float((table["logp_target_male"] - table["logp_target_female"]).mean()),
        "log_ratio_prior": float((table["logp_prior_male"] - table["logp_prior_female"]).mean()),
        "n_targets": int(len(table)),
        "p_male": p_male,
        "p_male_se": mean_standard_error(neutral["p_target_male"]),
        "p_female": p_female,
        "p_female_se": mean_standard_error(neutral["p_target_female"]),
        "male_share": p_male / (p_male + p_female) if len(neutral) else math.nan,
        "n_neutral": int(len(neutral)),
        "direction": "tbs > 0: targets more associated with the male word; p_male, p_female: "
        "mean P(word at the attribute slot) over the neutral targets",
    }
