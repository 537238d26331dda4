"""The public API of the template and contextual-embedding probes: ``mgbias.tbs`` and
``mgbias.probe``.

- :func:`tbs`: TBS (Kurita et al. 2019), P(he)/P(she) over neutral occupations and the
  top predictions of a masked sentence (Kaneko et al. 2023, Figures 2 and 3) of one
  masked LM (:class:`TBSReport`); ``mgbias tbs`` prints it;
- :func:`probe`: Basta et al. (2020)'s probes of one encoder's contextual word vectors
  on one corpus, per layer (:class:`ProbeReport`); ``mgbias probe`` prints it.

Both run the library code of the workflow's scripts (``scripts/kaneko2023_probe.py``,
``scripts/basta2020_vectors.py`` and ``scripts/basta2020_probes.py``), so the numbers
are the workflow's for the same inputs and seed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mgbias.workflow.schema import key_default as _setting

if TYPE_CHECKING:
    import pandas as pd

    from mgbias.api.mlm import MaskedLM
    from mgbias.contextual.run import ProbeResults
    from mgbias.finetune.probe import ProbeResult

__all__ = ["ProbeReport", "TBSReport", "probe", "tbs"]

_Path = str | os.PathLike


# ----------------------------------------------------------------------------- TBS


@dataclass(frozen=True, eq=False)
class TBSReport:
    """Template probes of one masked LM (:func:`tbs`).

    Attributes
    ----------
    result : ProbeResult
        ``targets`` (one row per target: log-probabilities, associations, bias),
        ``summary`` (``tbs``, ``n_targets``, ``p_male``, ``p_female``, ``n_neutral``,
        the gender words, the sentence, ...) and ``top`` (the top predictions)
        (:class:`mgbias.finetune.probe.ProbeResult`).
    top_k : int
        Top predictions listed.
    """

    result: ProbeResult
    top_k: int

    @property
    def score(self) -> float:
        """TBS: > 0, the targets are more associated with the male word."""
        return self.result.summary["tbs"]

    @property
    def summary(self) -> dict[str, Any]:
        """The JSON of ``mgbias tbs --summary``."""
        return self.result.summary

    @property
    def targets(self) -> pd.DataFrame:
        """One row per target: the CSV of ``mgbias tbs --output``."""
        return self.result.targets

    @property
    def top(self) -> pd.DataFrame:
        """The top predictions: the CSV of ``mgbias tbs --top``."""
        return self.result.top

    def __str__(self) -> str:
        """TBS, P(he)/P(she) and the top predictions, as ``mgbias tbs`` prints them."""
        summary = self.result.summary
        male, female = summary["male_word"], summary["female_word"]
        return "\n".join(
            [
                f"TBS {summary['tbs']:.6g} ± {summary['tbs_se']:.2g} over "
                f"{summary['n_targets']} targets (> 0: targets more associated with "
                f"{male!r} than {female!r}; ± its standard error over the targets)",
                f"  = log P({male})/P({female}) with a target, "
                f"{summary['log_ratio_target']:.4g} on average, less the same with the "
                f"target masked too, {summary['log_ratio_prior']:.4g}: one prior sentence "
                "sets TBS's zero point",
                f"P({male}) {summary['p_male']:.4g} ± {summary['p_male_se']:.2g}, "
                f"P({female}) {summary['p_female']:.4g} ± {summary['p_female_se']:.2g} over "
                f"{summary['n_neutral']} neutral targets",
                f"top {self.top_k} for {summary['sentence']!r}:",
                self.result.top.to_markdown(index=False, floatfmt=".4g"),
            ]
        )


def tbs(
    model: MaskedLM | _Path,
    lang: str = "en",
    *,
    targets: _Path = "bolukbasi2016",
    templates: _Path | None = None,
    sentence: str | None = None,
    female_words: Sequence[_Path] | None = None,
    male_words: Sequence[_Path] | None = None,
    top_k: int = 5,
    batch_size: int = 64,
    max_length: int | None = None,
    revision: str | None = None,
    device: str = "auto",
    allow_untrained_head: bool = False,
    precision: str = "fp32",
    tokenizer: _Path | None = None,
    allow_unk: bool = False,
) -> TBSReport:
    """TBS, P(he)/P(she) and the top predictions of a masked LM (Kaneko et al. 2023,
    Figures 2 and 3).

    TBS (Kurita et al. 2019, §3-4) is the mean over the targets of
    ``log(p_tgt(he) / p_prior(he)) - log(p_tgt(she) / p_prior(she))`` in the language's
    template ("[MASK] is a [TARGET]."; ``templates.yaml``), ``p_prior`` read with the
    target masked too: above 0 the targets are more associated with the male word
    (:mod:`mgbias.measures.tbs`). P(he) and P(she) are the two words' mean
    probabilities over the gender-neutral targets (Figure 2); the top predictions of
    ``sentence`` (Figure 3) are classed female, male or neither by the word lists. The
    workflow's ``scripts/kaneko2023_probe.py`` computes the same numbers
    (:func:`mgbias.finetune.probe.probe_model`).

    Parameters
    ----------
    model : MaskedLM, str or path
        A :func:`mgbias.load_model` handle, or a directory or hub id to load (after
        the template and targets are checked).
    lang : str
        Language of the template (``templates.yaml``: de, en, es, fr).
    targets : str or path
        ``bolukbasi2016`` (English professions of Bolukbasi et al. 2016),
        ``bolukbasi2016_neutral``, ``demo``, or a file, one target a line.
    templates : path, optional
        Another ``templates.yaml``.
    sentence : str, optional
        A sentence with one ``[MASK]`` (default: the language's Figure 3 sentence).
    female_words, male_words : sequence of names or paths, optional
        Word lists that class the top predictions (both or neither; default: the
        language's shipped lists of Kaneko et al. 2023 with the template's two gender
        words, as the workflow's ``kaneko2023.wordlists``; the two words alone where no
        list is shipped).
    top_k, batch_size, max_length
        Top predictions listed; sentences per forward pass; token limit.
    revision, device, allow_untrained_head
        For loading ``model`` by name (:func:`mgbias.load_model`).
    precision : {"fp32", "bf16", "fp16"}
        The forward passes' precision, as for :func:`mgbias.score_pairs` (default fp32).
    tokenizer : str or path, optional
        For loading ``model`` by name (:func:`mgbias.load_model`).
    allow_unk : bool
        Score targets of which more than :data:`mgbias.mlm.gate.MAX_UNK_SHARE` of the
        word pieces are the tokenizer's unknown token (refused by default).

    Returns
    -------
    TBSReport

    Raises
    ------
    ValueError, FileNotFoundError
        An unknown language or target list, a bad target file, one word list without
        the other, an unknown precision or fp16 off CUDA; before the model loads.
    """
    from mgbias.finetune.probe_targets import template_targets
    from mgbias.mlm.templates import template_spec

    template_spec(lang, templates, figure3_sentence=sentence)
    target_list = template_targets(targets, lang)
    if (female_words is None) != (male_words is None):
        raise ValueError("give both the female and the male word lists, or neither")
    # torch: imported once the inputs are checked
    from mgbias.api.mlm import _as_model, _check_precision, _check_unknown
    from mgbias.finetune.probe import probe_model

    _check_precision(precision, model, device)
    handle = _as_model(
        model,
        revision=revision,
        device=device,
        allow_untrained_head=allow_untrained_head,
        tokenizer=tokenizer,
    )
    _check_unknown(handle, target_list["target"].tolist(), allow_unk, f"the targets {targets}")
    result = probe_model(
        handle.model,
        handle.tokenizer,
        lang,
        targets=targets,
        templates=templates,
        sentence=sentence,
        female=female_words,
        male=male_words,
        k=top_k,
        batch_size=batch_size,
        max_length=max_length,
        model_name=handle.name,
        precision=precision,
    )
    return TBSReport(result=result, top_k=top_k)


# ----------------------------------------------------------------------------- probes


@dataclass(frozen=True, eq=False)
class ProbeReport:
    """Basta et al. (2020)'s probes of one encoder on one corpus (:func:`probe`).

    Attributes
    ----------
    results : ProbeResults
        ``rows`` of the long table, the JSON ``summary`` and Table 1's counts
        (:class:`mgbias.contextual.run.ProbeResults`).
    cache_hit : bool
        Whether the word vectors came from the cache.
    """

    results: ProbeResults
    cache_hit: bool

    @property
    def frame(self) -> pd.DataFrame:
        """One row per layer, experiment and measure (``mean``, ``min``, ``max``,
        ``range``, ``n_items``, ``n_runs``): the CSV of ``mgbias probe --output``."""
        return self.results.frame()

    @property
    def summary(self) -> dict[str, Any]:
        """Every result: the JSON of ``mgbias probe --summary``."""
        return self.results.summary

    @property
    def table1(self) -> dict[str, Any]:
        """The corpus counts of the paper's Table 1."""
        return self.results.table1

    def table(self) -> str:
        """The means, one row per experiment and measure, one column per layer (Markdown);
        a measure without a value is a row of ``nan`` (:meth:`unscored` says why)."""
        import pandas as pd

        frame = self.frame
        keys = ["experiment", "measure"]
        pivot = frame.groupby([*keys, "layer"], sort=False)["mean"].mean().unstack("layer")
        rows = pd.MultiIndex.from_frame(frame[keys].drop_duplicates())  # as computed
        return pivot.reindex(rows).to_markdown(floatfmt=".4g")

    def unscored(self) -> list[str]:
        """A line for each experiment and layer that has no value, with why where the
        experiment says (Exp. 5's ``k`` neighbours among too few professions)."""
        lines = []
        missing = self.frame[self.frame["mean"].isna()]
        for (layer, experiment), rows in missing.groupby(["layer", "experiment"], sort=False):
            result = self.summary.get("layers", {}).get(str(layer), {}).get(experiment, {})
            n = int(rows["n_items"].max())
            if result.get("degenerate"):
                why = (
                    f"k = {result['k']} neighbours of {n} professions are all the others, "
                    "so the score says nothing about the vectors; pass --knn-k (knn_k) "
                    f"below {n - 1}"
                )
            else:
                why = f"no value from {n} items"
            lines.append(f"{experiment} (layer {layer}): not scored: {why}")
        return lines

    def __str__(self) -> str:
        """The table ``mgbias probe`` prints, then what was not scored and why."""
        return "\n".join([self.table(), *self.unscored()])


def probe(
    model: _Path,
    corpus: _Path,
    *,
    lang: str = "en",
    experiments: Sequence[int] | str = tuple(_setting("basta2020.probes.experiments")),
    layers: str = _setting("basta2020.vectors.layers"),
    vectors: _Path | None = None,
    n_biased: int = _setting("basta2020.static.n_biased"),
    n_extended: int = _setting("basta2020.static.n_extended"),
    top_n: int = _setting("basta2020.static.top_n"),
    spacy: str | None = None,
    cache: _Path | None = None,
    runs: int = _setting("basta2020.probes.runs"),
    seed: int = 0,
    n_train: int = _setting("basta2020.probes.n_train"),
    knn_k: int = _setting("basta2020.probes.knn_k"),
    n_knn: int = _setting("basta2020.probes.n_knn"),
    n_bootstrap: int = _setting("basta2020.probes.n_bootstrap"),
    n_pca_sentences: int = _setting("basta2020.vectors.n_pca_sentences"),
    max_per_word: int = _setting("basta2020.vectors.max_per_word"),
    max_sentences: int = 0,
    pooling: str = _setting("basta2020.vectors.pooling"),
    dtype: str = _setting("basta2020.vectors.dtype"),
    batch_size: int = _setting("basta2020.vectors.batch_size"),
    max_length: int | None = None,
    revision: str | None = None,
    device: str = _setting("basta2020.vectors.device"),
    precision: str = _setting("basta2020.vectors.precision"),
) -> ProbeReport:
    """Contextual-embedding probes of one encoder on one corpus (Basta et al. 2020, §5),
    per layer.

    Exp. 1: the gender direction, the PCA of the words' differences in gender-swapped
    sentences (§5.2.2); Exp. 2: direct bias of the professions' occurrences on it
    (Eq. 1); Exp. 3: k-means clustering of the biased words; Exp. 4: an RBF-kernel SVM
    on them; Exp. 5: nearest neighbours of the biased professions (all §5.2.2);
    Exp. 6-9: the directions and Tables 6 and 7 of a language with grammatical gender
    (§5.3.2; Spanish, French, German, with ``spacy``). The workflow's
    ``scripts/basta2020_vectors.py`` and ``scripts/basta2020_probes.py`` run the same
    steps (:mod:`mgbias.contextual.steps`).

    Parameters
    ----------
    model : str or path
        The encoder: a Hugging Face hub id or a local directory.
    corpus : path
        UTF-8 text, one sentence a line.
    lang : str
        Language of the shipped word lists: en, es, fr or de.
    experiments : sequence of int, or a comma-separated str
        Experiments to run.
    layers : str
        Comma-separated indices of ``hidden_states`` (0 = embeddings), ``last``,
        ``concat`` (all joined) or ``all``.
    vectors : path, optional
        Static ``.vec``/``.bin`` for the biased lists (``n_biased`` and ``n_extended``
        words per gender among the ``top_n`` most frequent), the professions' bias and,
        with ``spacy`` in es, fr or de, the semantic and grammar lists (default: the
        professions by the sign of their score).
    spacy : str, optional
        The token analyser of the swap's agreement and the nouns: a spaCy pipeline, or
        ``"demo"`` (the demo grammar's).
    cache : path, optional
        A word-vector cache to reuse or fill (default: a temporary one).
    runs, seed, n_train, knn_k, n_knn, n_bootstrap, n_pca_sentences, max_per_word
        Repeated runs of the clustering and SVM; their seed; SVM training words; KNN
        neighbours; professions per gender (Exp. 5); bootstrap resamples; sentences of
        the direction's PCA; occurrences kept per word (0: all).
    max_sentences : int
        Sentences read from the corpus (0: all).
    pooling, dtype, batch_size, max_length, revision, device
        How a word's pieces become one vector (``mean``, ``first``); the cached vectors'
        dtype; sentences per forward pass; token limit; hub revision; device.
    precision : {"fp32", "bf16", "fp16"}
        The encoder pass's precision: ``fp32`` (default; the paper's numbers), or
        autocast to bf16 or fp16 (CUDA only), the hidden states pooled in float32
        (:mod:`mgbias.mlm.precision`); fp16 off CUDA is refused before anything runs.

    Returns
    -------
    ProbeReport
    """
    from mgbias.contextual.lists import load_probe_lists
    from mgbias.contextual.run import ProbeSettings, TooFewProfessionsError
    from mgbias.contextual.steps import (
        corpus_static_lists,
        grammatical_nouns,
        plan_corpus,
        probe_plan,
        read_corpus,
        vectors_for_plan,
    )
    from mgbias.demo.analyser import ANALYSERS
    from mgbias.mlm.precision import check_precision

    check_precision(precision, device)
    if isinstance(experiments, str):
        experiments = [int(e) for e in experiments.split(",") if e.strip()]
    settings = ProbeSettings.from_mapping(
        where="mgbias.probe",
        experiments=experiments,
        runs=runs,
        seed=seed,
        n_train=n_train,
        knn_k=knn_k,
        n_knn=n_knn,
        n_bootstrap=n_bootstrap,
    )
    lists = load_probe_lists(lang)
    sentences = read_corpus(corpus, max_sentences)
    sizes = {"n_biased": n_biased, "n_extended": n_extended, "top_n": top_n}
    nouns = static = None
    if vectors:
        nouns = grammatical_nouns(lists, sentences, spacy, ANALYSERS)
        static = corpus_static_lists(vectors, lists, nouns, seed=seed, **sizes)
    plan = plan_corpus(
        sentences,
        lists,
        static=static,
        spacy_model=spacy,
        analysers=ANALYSERS,
        nouns=nouns,
        n_pca_sentences=n_pca_sentences,
        max_per_word=max_per_word,
        seed=seed,
    )
    with tempfile.TemporaryDirectory() as scratch:
        word_vectors, hit = vectors_for_plan(
            plan,
            cache or Path(scratch) / "vectors.safetensors",
            model_id=str(model),
            revision=revision,
            layers=layers,
            pooling=pooling,
            dtype=dtype,
            batch_size=batch_size,
            max_length=max_length,
            device=device,
            precision=precision,
        )
    try:
        results = probe_plan(word_vectors, plan, lists, settings, static=static)
    except TooFewProfessionsError as error:
        raise TooFewProfessionsError(f"{corpus}: {error}") from None
    return ProbeReport(results=results, cache_hit=hit)
