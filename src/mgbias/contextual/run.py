"""Experiments 1–9 of Basta et al. (2020) on cached vectors and a probe plan, per layer.

:func:`run_probes` reads a :class:`~mgbias.contextual.vectors.WordVectors` (never a model)
and a :class:`~mgbias.contextual.plan.ProbePlan` and returns :class:`ProbeResults`: one
long table, one row per (layer, experiment, measure) with ``mean, min, max, range,
n_items, n_runs`` (Tables 2–5 and Figs. 2–5 are pivots of it), the full result objects
as JSON, and the per-corpus counts of Table 1.

Lists (§5.2.1, after Gonen and Goldberg 2019): the biased list (Exp. 3) and the extended
biased list (Exp. 4) are :class:`~mgbias.contextual.biased_words.BiasedWords`, derived from static
vectors; without them, the professions split by the sign of their bias stand in for both
(the demo's planted associations). Exp. 5 takes the ``n_knn`` most female- and most
male-biased professions by ``profession_bias`` (default: the lists' scores).

Exp. 6–9 (:mod:`.grammatical_gender`) run where the plan holds nouns of grammatical
gender (Spanish, French or German with a token analyser): the directions ``d_pca``,
``d_g`` and ``d_s`` (experiment ``directions``), the direct bias of feminine, masculine
and all profession forms on ``d_s`` and ``d_g`` (``direct_bias_forms``, Table 6), and
k-means and the SVM on the semantic and the grammar list (``clustering_lists``,
``classification_lists``, Table 7). Without static vectors the semantic list is the
professions by their bias and the grammar list the professions' masculine and feminine
forms. Their results are each layer's ``grammatical_gender`` entry of the summary (older
summaries: ``spanish``), with each noun's and profession's mean ``cos`` with ``d_s`` and
``d_g`` (Figs. 8–9); the summary's ``grammatical_gender_lists`` says where the lists came
from.
The summary also holds the count of every profession in the corpus (Fig. 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mgbias.contextual.biased_words import BiasedWords
from mgbias.contextual.classification import classification_experiment
from mgbias.contextual.clustering import clustering_experiment
from mgbias.contextual.columns import (
    COLUMNS,
    EXPERIMENTS,
    GRAMMATICAL_GENDER_EXPERIMENTS,
    GRAMMATICAL_GENDER_KEY,
)
from mgbias.contextual.direct_bias import contextual_direct_bias
from mgbias.contextual.direction import swap_pca
from mgbias.contextual.grammatical_gender import (
    direction_projections,
    form_direct_bias,
    form_genders,
    grammar_list,
    grammatical_gender_directions,
    semantic_list,
)
from mgbias.contextual.lists import ProbeLists
from mgbias.contextual.plan import ProbePlan
from mgbias.contextual.settings import ProbeSettings
from mgbias.contextual.vectors import WordVectors
from mgbias.contextual.words import words as split_words
from mgbias.errors import InputError

__all__ = [
    "COLUMNS",
    "EXPERIMENTS",
    "ProbeResults",
    "ProbeSettings",
    "run_probes",
    "stand_in_lists",
]


@dataclass(frozen=True)
class ProbeResults:
    """Rows of the long table, the JSON summary, and Table 1's counts."""

    rows: list
    summary: dict
    table1: dict

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=list(COLUMNS))


def stand_in_lists(bias: Mapping[str, float]) -> BiasedWords:
    """Professions by the sign of their bias, as biased lists when no static vectors are given."""
    male = tuple(sorted(w for w, b in bias.items() if b > 0))
    female = tuple(sorted(w for w, b in bias.items() if b < 0))
    return BiasedWords(male, female, {w: float(bias[w]) for w in male + female})


def _row(layer, experiment, measure, repeated=None, value=None, n_items=0) -> dict:
    if repeated is not None:
        return {
            "layer": layer, "experiment": experiment, "measure": measure,
            "mean": repeated.mean, "min": repeated.min, "max": repeated.max,
            "range": repeated.range, "n_items": repeated.n_items, "n_runs": len(repeated.values),
        }  # fmt: skip
    return {
        "layer": layer, "experiment": experiment, "measure": measure, "mean": value,
        "min": value, "max": value, "range": 0.0, "n_items": n_items, "n_runs": 1,
    }  # fmt: skip


def _select(plan: ProbePlan, vectors: WordVectors, indices: np.ndarray, wanted) -> tuple:
    indices = np.asarray([k for k in indices if vectors.found[k] and plan.words[k] in wanted])
    return indices.astype(np.int64), [plan.words[k] for k in indices]


def run_probes(
    vectors: WordVectors,
    plan: ProbePlan,
    lists: ProbeLists,
    settings: ProbeSettings,
    *,
    layers: Iterable[str] | None = None,
    biased: BiasedWords | None = None,
    extended: BiasedWords | None = None,
    profession_bias: Mapping[str, float] | None = None,
    semantic: BiasedWords | None = None,
    grammar: BiasedWords | None = None,
) -> ProbeResults:
    """Run the chosen experiments in every layer (default: all the vectors hold).

    Exp. 6–9 are skipped for a plan without gendered nouns (English); their semantic and
    grammar lists are ``semantic`` and ``grammar`` (from static vectors) when given.
    """
    if len(vectors) != len(plan.targets) or not np.array_equal(
        np.c_[vectors.sentence_index, vectors.word_index], plan.targets
    ):
        raise ValueError("the vectors were not extracted for this plan's targets")
    layers = list(layers) if layers is not None else vectors.layer_names
    chosen = _selection(vectors, plan, lists, settings.n_knn, biased, extended, profession_bias)
    _check_both_labels(chosen, settings.experiments)
    noun_data = _noun_data(vectors, plan, lists, chosen.bias, semantic, grammar)
    rows: list = []
    summary: dict = {"layers": {}}
    for layer in layers:
        summary["layers"][layer] = _probe_layer(
            layer, vectors.layer(layer), plan, chosen, noun_data, settings, rows
        )
    table1 = _table1(plan, chosen, lists, gendered_nouns=bool(noun_data))
    summary["table1"] = table1
    summary["profession_counts"] = profession_counts(
        plan.sentences[: plan.n_corpus], set(chosen.bias) | {w.lower() for w in lists.professions}
    )
    summary["lists"] = "professions (stand-in)" if chosen.stand_in else "static vectors"
    if noun_data:
        summary[f"{GRAMMATICAL_GENDER_KEY}_lists"] = (
            "static vectors" if semantic or grammar else "professions"
        )
    return ProbeResults(rows, summary, table1)


@dataclass(frozen=True)
class _Selection:
    """What Exp. 2-5 read of a plan's vectors: each experiment's rows of the vectors
    (``*_idx``) with their words, and the lists they are labelled by."""

    bias: dict[str, float]
    biased: BiasedWords
    extended: BiasedWords
    stand_in: bool
    knn_bias: dict[str, float]
    direct_idx: np.ndarray
    direct_words: list[str]
    cluster_idx: np.ndarray
    cluster_words: list[str]
    classify_idx: np.ndarray
    classify_words: list[str]
    knn_idx: np.ndarray
    knn_words: list[str]


def _selection(
    vectors: WordVectors,
    plan: ProbePlan,
    lists: ProbeLists,
    n_knn: int,
    biased: BiasedWords | None,
    extended: BiasedWords | None,
    profession_bias: Mapping[str, float] | None,
) -> _Selection:
    """The professions' bias (``profession_bias``, else the lists'), the biased and
    extended lists (else the professions by the sign of their bias), Exp. 5's ``n_knn``
    most female- and most male-biased professions, and each experiment's occurrences."""
    bias = dict(profession_bias if profession_bias is not None else lists.professions)
    bias = {w.lower(): float(b) for w, b in bias.items() if b != 0}
    stand_in = not biased  # no static lists given
    biased = biased or stand_in_lists(bias)
    extended = extended or biased
    ranked = sorted(bias, key=lambda w: (bias[w], w))
    knn_bias = {w: bias[w] for w in set(ranked[:n_knn]) | set(ranked[-n_knn:])}
    direct = _select(plan, vectors, plan.direct, set(bias) | set(lists.professions))
    cluster = _select(plan, vectors, plan.occurrences, biased.labels())
    classify = _select(plan, vectors, plan.occurrences, extended.labels())
    knn = _select(plan, vectors, plan.occurrences, knn_bias)
    return _Selection(
        bias, biased, extended, stand_in, knn_bias, *direct, *cluster, *classify, *knn
    )


class TooFewProfessionsError(InputError):
    """The corpus holds professions of one label only (or none) for Exp. 3 or 4."""


def _check_both_labels(chosen: _Selection, experiments: Iterable[int]) -> None:
    """Exp. 3 (clustering) and 4 (classification) split professions of two labels: refuse,
    before any of them runs, a corpus that holds those of one label only, with the counts."""
    needs = {
        3: ("clustering", chosen.cluster_words, chosen.biased),
        4: ("classification", chosen.classify_words, chosen.extended),
    }
    for number in sorted(set(experiments) & set(needs)):
        name, words, listed = needs[number]
        labels = listed.labels()
        found = set(words)
        n_male = sum(labels[word] for word in found)
        n_female = len(found) - n_male
        if n_male and n_female:
            continue
        raise TooFewProfessionsError(
            f"Exp. {number} ({name}) needs professions of both labels in the corpus; it "
            f"holds {n_male} of the {len(listed.male)} male-biased and {n_female} of the "
            f"{len(listed.female)} female-biased ones: give a corpus in which both occur, "
            f"or leave Exp. {number} out (--experiments)"
        )


def _noun_data(
    vectors: WordVectors,
    plan: ProbePlan,
    lists: ProbeLists,
    bias: Mapping[str, float],
    semantic: BiasedWords | None,
    grammar: BiasedWords | None,
) -> dict:
    """What Exp. 6-9 read: the plan's gendered nouns found in the vectors, and the semantic
    and grammar lists with their occurrences (empty for a plan without such nouns)."""
    if len(plan.nouns) == 0:
        return {}
    keep = np.asarray(vectors.found, dtype=bool)[plan.nouns]
    noun_data: dict = {
        "nouns": (
            plan.nouns[keep],
            [plan.words[k] for k in plan.nouns[keep]],
            plan.noun_masculine[keep],
        ),
        "lists": {},
    }
    for name, labels in (
        ("semantic", semantic.labels() if semantic else semantic_list(bias)),
        ("grammar", grammar.labels() if grammar else grammar_list(lists.profession_pairs)),
    ):
        found = _select(plan, vectors, plan.occurrences, labels)
        noun_data["lists"][name] = (labels, *found)
    return noun_data


def _probe_layer(
    layer: str,
    matrix: np.ndarray,
    plan: ProbePlan,
    chosen: _Selection,
    noun_data: dict,
    settings: ProbeSettings,
    rows: list,
) -> dict:
    """The experiments of ``settings`` in one layer: their rows appended to ``rows``, their
    result objects returned (the layer's entry of the summary)."""
    experiments = settings.experiments
    runs, seed, svm_gamma = settings.runs, settings.seed, settings.svm_gamma
    done: dict = {}
    g = None
    if 1 in experiments or 2 in experiments:
        if len(plan.pca_female) < 2:
            raise ValueError(
                f"Exp. 1 needs >= 2 swapped pairs; the plan has {len(plan.pca_female)}"
            )
        direction = swap_pca(matrix[plan.pca_female], matrix[plan.pca_male], settings.n_components)
        g = direction.direction
        done["pca"] = direction.to_dict() | {"direction": None}
        if 1 in experiments:
            for k, ratio in enumerate(direction.explained_variance_ratio, start=1):
                rows.append(
                    _row(layer, "pca", f"pc{k}", value=float(ratio), n_items=direction.n_pairs)
                )
    if 2 in experiments and len(chosen.direct_idx):
        result = contextual_direct_bias(
            matrix[chosen.direct_idx],
            chosen.direct_words,
            g,
            stereotype=chosen.bias,
            n_bootstrap=settings.n_bootstrap,
            seed=seed,
        )
        done["direct_bias"] = result.to_dict()
        rows.append(_row(layer, "direct_bias", "direct_bias", value=result.value, n_items=result.n))
        rows.append(
            _row(layer, "direct_bias", "signed_gap", value=result.signed_gap, n_items=result.n)
        )
    if 3 in experiments:
        result = clustering_experiment(
            matrix[chosen.cluster_idx],
            chosen.cluster_words,
            chosen.biased.labels(),
            runs=runs,
            seed=seed,
        )
        done["clustering"] = result.to_dict()
        rows.append(_row(layer, "clustering", "accuracy", result))
    if 4 in experiments:
        result = classification_experiment(
            matrix[chosen.classify_idx], chosen.classify_words, chosen.extended.labels(),
            n_train=_svm_train_size(settings.n_train, chosen.classify_words),
            runs=runs, seed=seed, gamma=svm_gamma,
        )  # fmt: skip
        done["classification"] = result.to_dict()
        rows.append(_row(layer, "classification", "accuracy", result))
    if 5 in experiments:
        from mgbias.contextual.knn import knn_experiment

        result = knn_experiment(
            matrix[chosen.knn_idx], chosen.knn_words, chosen.knn_bias, k=settings.knn_k,
            runs=runs, seed=seed, n_permutations=settings.n_permutations,
        )  # fmt: skip
        done["knn"] = result.to_dict()
        rows.append(_row(layer, "knn", "pearson_r", result))
        rows.append(
            _row(layer, "knn", "null_mean", value=result.extra["null_mean"], n_items=result.n_items)
        )
    if noun_data and set(GRAMMATICAL_GENDER_EXPERIMENTS) & set(experiments):
        done[GRAMMATICAL_GENDER_KEY] = _grammatical_gender_probes(
            layer, matrix, plan, rows, chosen, noun_data, settings
        )
    return done


def _table1(plan: ProbePlan, chosen: _Selection, lists: ProbeLists, gendered_nouns: bool) -> dict:
    """Table 1's counts of the corpus and the lists (and of the gendered nouns' forms)."""

    def share_female(words, labels):
        distinct = set(words)
        return float(np.mean([not labels[w] for w in distinct])) if distinct else float("nan")

    knn_present = set(chosen.knn_words)
    table1 = {
        "lines": plan.n_corpus,
        "lines_direct_bias": plan.n_direct_lines,
        "professions_knn": len(knn_present),
        "female_share_knn": float(np.mean([chosen.knn_bias[w] < 0 for w in knn_present]))
        if knn_present
        else float("nan"),
        "biased_words_cluster": len(set(chosen.cluster_words)),
        "female_share_cluster": share_female(chosen.cluster_words, chosen.biased.labels()),
        "biased_words_classify": len(set(chosen.classify_words)),
        "female_share_classify": share_female(chosen.classify_words, chosen.extended.labels()),
        "pca_pairs": len(plan.pca_female),
        **{f"swap_{k}": v for k, v in plan.swap_counts.items() if k != "refused"},
    }
    if gendered_nouns:
        noun_words = [plan.words[k] for k in plan.nouns]
        for label, flag in (("feminine", False), ("masculine", True)):
            chosen_nouns = {
                w for w, m in zip(noun_words, plan.noun_masculine, strict=True) if m == flag
            }
            table1[f"nouns_{label}"] = len(chosen_nouns)
        genders = form_genders(lists.profession_pairs)
        for kind in ("female", "male"):
            table1[f"lines_direct_bias_{kind}_forms"] = len(
                {int(plan.targets[k][0])
                 for k, w in zip(chosen.direct_idx, chosen.direct_words, strict=True)
                 if genders.get(w) == kind}
            )  # fmt: skip
    return table1


def profession_counts(sentences: Iterable[str], professions: set[str]) -> dict[str, int]:
    """Occurrences of each profession word in the corpus (Fig. 1), most frequent first."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        for word in split_words(sentence):
            word = word.lower()
            if word in professions:
                counts[word] = counts.get(word, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _svm_train_size(n_train: int, words: Sequence[str]) -> int:
    """Training words of an SVM run (Exp. 4, 9): ``n_train``, or half the distinct words
    where ``n_train`` would leave fewer than two to test."""
    n_words = len(set(words))
    return n_train if n_train <= n_words - 2 else n_words // 2


def _grammatical_gender_probes(
    layer: str,
    matrix: np.ndarray,
    plan: ProbePlan,
    rows: list,
    chosen: _Selection,
    data: Mapping,
    settings: ProbeSettings,
) -> dict:
    """Exp. 6–9 in one layer; appends their rows, returns their summary."""
    experiments, runs, seed = settings.experiments, settings.runs, settings.seed
    direct_idx, direct_words = chosen.direct_idx, chosen.direct_words
    done: dict = {}
    if 6 in experiments or 7 in experiments:
        noun_idx, noun_words, noun_male = data["nouns"]
        directions = grammatical_gender_directions(
            matrix[plan.pca_female], matrix[plan.pca_male], matrix[noun_idx], noun_words,
            noun_male, n_components=settings.n_components, n_train=settings.n_lda_train,
            runs=runs, seed=seed,
        )  # fmt: skip
        done["directions"] = directions.to_dict()
        n_pairs = len(plan.pca_female)
        rows.append(_row(layer, "directions", "lda_held_out", directions.grammatical.held_out))
        rows.append(_row(layer, "directions", "lda_train", directions.grammatical.train))
        for measure, value, n in (
            ("dot_pca_grammatical", directions.dot, n_pairs),
            ("variance_pca", directions.variance_pca, n_pairs),
            ("variance_semantic", directions.variance_semantic, n_pairs),
        ):
            rows.append(_row(layer, "directions", measure, value=value, n_items=n))
        projections = {
            "nouns": direction_projections(matrix[noun_idx], noun_words, directions.directions),
            "professions": {},
        }
        gender = dict(zip(noun_words, noun_male.tolist(), strict=True))
        for word, entry in projections["nouns"].items():
            entry["masculine"] = bool(gender[word])
        genders = {w: ("male" if m else "female") for w, m in data["lists"]["grammar"][0].items()}
        if 7 in experiments and len(direct_idx):
            table6 = form_direct_bias(
                matrix[direct_idx], direct_words, genders, directions.directions
            )
            done["direct_bias_forms"] = table6
            for entry in table6:
                rows.append(
                    _row(
                        layer, "direct_bias_forms", f"{entry['direction']}_{entry['forms']}",
                        value=entry["value"], n_items=entry["n"],
                    )
                )  # fmt: skip
            projections["professions"] = direction_projections(
                matrix[direct_idx], direct_words, directions.directions
            )
            for word, entry in projections["professions"].items():
                entry["form"] = genders.get(word, "")
        done["projections"] = projections
    for name in ("semantic", "grammar"):
        labels, idx, words = data["lists"][name]
        if len({labels[w] for w in words}) < 2:
            continue
        if 8 in experiments:
            result = clustering_experiment(matrix[idx], words, labels, runs=runs, seed=seed)
            done[f"clustering_{name}"] = result.to_dict()
            rows.append(_row(layer, "clustering_lists", name, result))
        if 9 in experiments:
            result = classification_experiment(
                matrix[idx], words, labels, n_train=_svm_train_size(settings.n_train, words),
                runs=runs, seed=seed, gamma=settings.svm_gamma,
            )  # fmt: skip
            done[f"classification_{name}"] = result.to_dict()
            rows.append(_row(layer, "classification_lists", name, result))
    return done
