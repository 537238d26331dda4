"""File-level steps of the contextual probes, shared by the scripts and ``mgbias probe``.

1. :func:`plan_corpus`: corpus file + language → :class:`~.plan.ProbePlan` (lists, swap,
   biased lists from optional static vectors);
2. :func:`vectors_for_plan`: the plan's word vectors from the cache, or from one pass of
   the encoder written to the cache (model id, revision, input hash);
3. :func:`probe_plan`: experiments on the cached vectors → :class:`~.run.ProbeResults`.

Static vectors (``.vec``/``.bin``), when given, provide what Gonen & Goldberg took from
word2vec GoogleNews: the biased list (``n_biased`` per gender), the extended list (the
next ``n_extended``) and the professions' original bias, all on ``he − she``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mgbias.contextual.biased_words import (
    BiasedWords,
    biased_words,
    he_she_direction,
    projection_bias,
)
from mgbias.contextual.cache import cache_key, cached_word_vectors
from mgbias.contextual.lists import ProbeLists
from mgbias.contextual.plan import CorpusNouns, ProbePlan, corpus_nouns, plan_probes
from mgbias.contextual.run import ProbeResults, ProbeSettings, run_probes
from mgbias.contextual.swap import Analyser, Swapper
from mgbias.contextual.vectors import WordVectors, parse_layers
from mgbias.errors import InputError
from mgbias.files.textio import read_text
from mgbias.workflow.schema import key_default as _setting

__all__ = [
    "AnalyserFactories",
    "StaticLists",
    "corpus_static_lists",
    "grammatical_nouns",
    "load_analyser",
    "plan_corpus",
    "probe_plan",
    "read_corpus",
    "static_lists",
    "vectors_for_plan",
]

log = logging.getLogger(__name__)

#: Token analysers by name besides the installed spaCy pipelines, each a function of the
#: language: ``{"demo": demo_analyser}`` (:data:`mgbias.demo.analyser.ANALYSERS`, the demo
#: grammar's). The demo world builds on this package, so the caller passes them.
AnalyserFactories = Mapping[str, Callable[[str], Analyser]]


def read_corpus(path: str | Path, max_sentences: int = 0) -> list[str]:
    """Non-empty lines of a UTF-8 text file, stripped (the first ``max_sentences`` if > 0)."""
    lines = [line.strip() for line in read_text(path).splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise InputError(f"{path}: no sentence (expected one sentence per line)")
    return lines[:max_sentences] if max_sentences > 0 else lines


@dataclass(frozen=True)
class StaticLists:
    """Lists derived from static vectors: biased, extended, professions' original bias,
    and in a language that marks gender on professions the semantic and grammar lists of
    Exp. 8-9 (:func:`mgbias.contextual.grammatical_gender.static_grammatical_gender_lists`)."""

    biased: BiasedWords
    extended: BiasedWords
    profession_bias: dict
    semantic: BiasedWords | None = None
    grammar: BiasedWords | None = None

    def to_dict(self) -> dict:
        """JSON-ready: each list as ``{"male", "female", "bias"}``."""

        def words(biased: BiasedWords | None):
            if biased is None:
                return None
            return {"male": list(biased.male), "female": list(biased.female), "bias": biased.bias}

        return {
            "biased": words(self.biased),
            "extended": words(self.extended),
            "profession_bias": dict(self.profession_bias),
            "semantic": words(self.semantic),
            "grammar": words(self.grammar),
        }

    @classmethod
    def from_dict(cls, data: dict) -> StaticLists:
        def words(entry):
            if entry is None:
                return None
            return BiasedWords(tuple(entry["male"]), tuple(entry["female"]), dict(entry["bias"]))

        return cls(
            biased=words(data["biased"]),
            extended=words(data["extended"]),
            profession_bias=dict(data["profession_bias"]),
            semantic=words(data.get("semantic")),
            grammar=words(data.get("grammar")),
        )

    def words(self) -> set[str]:
        """Every word of every list (the probe words whose occurrences the plan needs)."""
        out = set(self.biased.labels()) | set(self.extended.labels())
        for extra in (self.semantic, self.grammar):
            if extra is not None:
                out |= set(extra.labels())
        return out


def static_lists(
    path: str | Path,
    lists: ProbeLists,
    *,
    n_biased: int = _setting("basta2020.static.n_biased"),
    n_extended: int = _setting("basta2020.static.n_extended"),
    top_n: int = _setting("basta2020.static.top_n"),
    male: str | None = None,
    female: str | None = None,
    noun_genders: dict[str, bool] | None = None,
    seed: int = 0,
) -> StaticLists:
    """Gonen & Goldberg's lists and the professions' bias from the static vectors at ``path``.

    The direction is ``male − female``: by default the subject pronouns of the
    language's template (:func:`mgbias.mlm.templates.template_spec`: he/she, er/sie,
    él/ella, il/elle). Raises ValueError naming the file if either word is not in its
    first ``top_n`` words. With ``noun_genders`` (``{noun: True if masculine}``) in a
    language that marks gender on professions, also the semantic and grammar lists of
    Exp. 8-9, ``n_biased`` per side, on ``d_s`` and ``d_g`` of the static vectors
    (§5.3.2).
    """
    from mgbias.embeddings.debias import load_debias_lists
    from mgbias.embeddings.vectors import read_vectors
    from mgbias.mlm.templates import template_spec

    if male is None or female is None:
        spec = template_spec(lists.lang)
        male = spec.male if male is None else male
        female = spec.female if female is None else female
    vectors = read_vectors(path, maxload=top_n)
    missing = [word for word in (male, female) if word not in vectors]
    if missing:
        raise ValueError(
            f"{path}: no vector for {', '.join(map(repr, missing))} in the first {top_n} "
            f"words; the {lists.lang!r} gender direction is {male!r} - {female!r}"
        )
    exclude = set(lists.gendered_words)
    if lists.lang == "en":
        exclude |= {w.lower() for w in load_debias_lists().gender_specific}
    g = he_she_direction(vectors, male, female)
    ranked = biased_words(vectors, n_biased + n_extended, direction=g, top_n=top_n, exclude=exclude)
    semantic = grammar = None
    if noun_genders is not None and lists.profession_pairs:
        from mgbias.contextual.grammatical_gender import static_grammatical_gender_lists

        semantic, grammar = static_grammatical_gender_lists(
            vectors,
            lists.definitional,
            noun_genders,
            n=n_biased,
            top_n=top_n,
            exclude=exclude,
            seed=seed,
        )
    return StaticLists(
        biased=ranked.slice(0, n_biased),
        extended=ranked.slice(n_biased, n_biased + n_extended),
        profession_bias=projection_bias(vectors, lists.professions, g),
        semantic=semantic,
        grammar=grammar,
    )


def grammatical_nouns(
    lists: ProbeLists,
    sentences: list[str],
    spacy_model: str | None,
    analysers: AnalyserFactories | None = None,
) -> CorpusNouns | None:
    """The corpus's nouns of known gender by the spaCy pipeline's morphology
    (:func:`~.plan.corpus_nouns`), in a language that marks gender on professions; None
    in one that does not. Tagged once, they serve the static grammatical-gender lists
    (Exp. 8–9) and Exp. 6 (``plan_corpus(nouns=...)``). ``spacy_model``: a spaCy pipeline
    or a name of ``analysers`` (:func:`load_analyser`).

    Raises
    ------
    ValueError
        For a language that marks gender on professions without ``spacy_model``.
    """
    if not lists.profession_pairs:
        return None
    if not spacy_model:
        raise ValueError(f"the {lists.lang!r} nouns of known gender need {_NEEDS}")
    return corpus_nouns(sentences, load_analyser(lists.lang, spacy_model, analysers))


def corpus_static_lists(
    path: str | Path, lists: ProbeLists, nouns: CorpusNouns | None, **sizes
) -> StaticLists:
    """:func:`static_lists` for a corpus: in a language that marks gender on professions,
    the nouns of known gender are the corpus's (:func:`grammatical_nouns`), as Exp. 6
    finds them. ``sizes``: ``n_biased``, ``n_extended``, ``top_n``, ``seed``."""
    if lists.profession_pairs and nouns is None:
        raise ValueError(
            f"the {lists.lang!r} static lists need the corpus's nouns of known gender "
            "(grammatical_nouns, with a spaCy pipeline)"
        )
    genders = nouns.genders() if nouns is not None else None
    return static_lists(path, lists, noun_genders=genders, **sizes)


_NEEDS = (
    "a token analyser: a spaCy pipeline (es_core_news_sm, fr_core_news_sm, de_core_news_sm) "
    "or `demo` for the demo's text"
)


def load_analyser(lang: str, name: str, analysers: AnalyserFactories | None = None):
    """The token analyser ``name`` of ``lang``: one of ``analysers``
    (:data:`AnalyserFactories`; ``demo``, the demo grammar's from its lexicon, with
    :data:`mgbias.demo.analyser.ANALYSERS`) or an installed spaCy pipeline."""
    if analysers and name in analysers:
        return analysers[name](lang)
    if name == "demo":
        raise ValueError(
            "the token analyser 'demo' is the demo grammar's: pass "
            "analysers=mgbias.demo.analyser.ANALYSERS"
        )
    from mgbias.contextual.spacy_analysis import load_spacy_analyser

    return load_spacy_analyser(name)


def _swapper(
    lists: ProbeLists, spacy_model: str | None, analysers: AnalyserFactories | None
) -> Swapper:
    analyser = None
    if spacy_model:
        analyser = load_analyser(lists.lang, spacy_model, analysers)
    elif lists.profession_pairs:
        raise ValueError(f"swapping {lists.lang!r} needs grammatical agreement: give {_NEEDS}")
    return Swapper(lists.equivalent + lists.profession_pairs, lang=lists.lang, analyser=analyser)


def plan_corpus(
    sentences: list[str],
    lists: ProbeLists,
    *,
    static: StaticLists | None = None,
    spacy_model: str | None = None,
    nouns: CorpusNouns | None = None,
    n_pca_sentences: int = _setting("basta2020.vectors.n_pca_sentences"),
    max_per_word: int = _setting("basta2020.vectors.max_per_word"),
    seed: int = 0,
    analysers: AnalyserFactories | None = None,
) -> ProbePlan:
    """:func:`~.plan.plan_probes` with the language's swapper and every probe word; in a
    language that marks gender on professions, the nouns of Exp. 6 are ``nouns`` when
    already tagged (:func:`grammatical_nouns`), else the swapper's analyser tags them.
    ``spacy_model``: a spaCy pipeline or a name of ``analysers`` (:func:`load_analyser`)."""
    probe_words = set(lists.professions)
    if static is not None:
        probe_words |= static.words()
    swapper = _swapper(lists, spacy_model, analysers)
    return plan_probes(
        sentences,
        lists,
        swapper,
        noun_analyser=swapper.analyser if lists.profession_pairs else None,
        nouns=nouns,
        probe_words=probe_words,
        n_pca_sentences=n_pca_sentences,
        max_per_word=max_per_word,
        seed=seed,
    )


def vectors_for_plan(
    plan: ProbePlan,
    cache: str | Path,
    *,
    model_id: str,
    revision: str | None = None,
    layers: str = _setting("basta2020.vectors.layers"),
    pooling: str = _setting("basta2020.vectors.pooling"),
    dtype: str = _setting("basta2020.vectors.dtype"),
    batch_size: int = _setting("basta2020.vectors.batch_size"),
    max_length: int | None = None,
    device: str | None = None,
    n_hidden_states: int | None = None,
    precision: str = _setting("basta2020.vectors.precision"),
) -> tuple[WordVectors, bool]:
    """The plan's vectors from ``cache`` if its key matches, else from one encoder pass.

    ``n_hidden_states`` resolves ``layers`` names without loading the model; default: read
    from the model's config (``AutoConfig``, no weights). ``precision`` is the encoder
    pass's (:mod:`mgbias.mlm.precision`; part of the cache key where it is not fp32);
    fp16 off CUDA is refused before anything loads. The model library is imported only
    here: the probing jobs, which read the vectors, never load it.
    """
    from mgbias.contextual.hidden import extract_word_vectors
    from mgbias.mlm.load import load_encoder
    from mgbias.mlm.precision import check_precision

    check_precision(precision, device)
    if n_hidden_states is None:
        from transformers import AutoConfig

        from mgbias.mlm.gate import resolve_source

        source = resolve_source(model_id, revision)  # a name no one can serve: in seconds
        config = AutoConfig.from_pretrained(source.target, **source.options)
        n_hidden_states = int(config.num_hidden_layers) + 1
    names = parse_layers(layers, n_hidden_states)
    key = cache_key(
        model_id=model_id,
        revision=revision,
        sentences=plan.sentences,
        targets=plan.targets,
        layers=names,
        pooling=pooling,
        dtype=dtype,
        max_length=max_length,
        precision=precision,
    )

    def compute() -> WordVectors:
        model, tokenizer, _ = load_encoder(model_id, revision=revision, device=device)
        return extract_word_vectors(
            model,
            tokenizer,
            plan.sentences,
            plan.targets,
            layers=names,
            pooling=pooling,
            batch_size=batch_size,
            max_length=max_length,
            dtype=dtype,
            precision=precision,
        )

    return cached_word_vectors(cache, key, compute)


def probe_plan(
    vectors: WordVectors,
    plan: ProbePlan,
    lists: ProbeLists,
    settings: ProbeSettings,
    *,
    static: StaticLists | None = None,
) -> ProbeResults:
    """:func:`~.run.run_probes` with the static lists when given."""
    return run_probes(
        vectors,
        plan,
        lists,
        settings,
        biased=static.biased if static else None,
        extended=static.extended if static else None,
        profession_bias=static.profession_bias if static else None,
        semantic=static.semantic if static else None,
        grammar=static.grammar if static else None,
    )
