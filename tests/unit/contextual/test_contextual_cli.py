"""``mgbias probe`` and the two workflow scripts on a tiny saved BERT: the same numbers."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from fixtures.tiny_models import build_model, save_pretrained

from mgbias.cli.main import main
from mgbias.config import section_defaults
from mgbias.contextual.plan import ProbePlan
from mgbias.mlm.wordpiece import build_bert_tokenizer

REPO = Path(__file__).resolve().parents[3]
PROFESSIONS = (
    "doctor carpenter surgeon mechanic plumber architect "
    "nurse secretary housekeeper receptionist librarian dancer hairdresser"
).split()
VOCAB = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "he", "she", "his", "her", "man", "woman",
    "is", "a", "the", "works", "here", "reads", "book", "calls", "brother", ".", *PROFESSIONS,
]  # fmt: skip


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("probe")
    tokenizer = build_bert_tokenizer(VOCAB, model_max_length=32)
    model = build_model("bert", len(VOCAB), 32, seed=0)
    save_pretrained(model, tokenizer, root / "model")
    lines = []
    for p in PROFESSIONS:
        lines += [
            f"the {p} works here .",
            f"the {p} reads a book .",
            f"he is a {p} .",
            f"she is a {p} .",
            f"the {p} calls {'his' if p in PROFESSIONS[:6] else 'her'} brother .",
        ]
    (root / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


# what the workflow passes each step's jobs (`params.probes`, mgbias.workflow.basta2020's
# settings): the section's defaults, then the config's, and the job's seed
VECTORS = {**section_defaults("basta2020")["vectors"], "layers": "all", "seed": 1}
PROBES = {**section_defaults("basta2020")["probes"], "runs": 3, "knn_k": 3,
          "experiments": [1, 2, 3, 4, 5], "n_bootstrap": 50, "seed": 1}  # fmt: skip


def _run_script(name, **namespace):
    runpy.run_path(
        str(REPO / "scripts" / name), init_globals={"snakemake": SimpleNamespace(**namespace)}
    )


def _params(workspace, probes: dict) -> SimpleNamespace:
    return SimpleNamespace(
        model_id=str(workspace / "model"), revision=None, lang="en", probes=probes
    )


def test_scripts_and_cli_agree_and_the_cache_is_reused(workspace, capsys):
    out = workspace / "out"
    common = {"log": [], "threads": 1}
    _run_script(
        "basta2020_vectors.py",
        input=SimpleNamespace(corpus=str(workspace / "corpus.txt")),
        output=SimpleNamespace(plan=str(out / "plan.json"), vectors=str(out / "v.safetensors")),
        params=_params(workspace, VECTORS),
        **common,
    )
    _run_script(
        "basta2020_probes.py",
        input=SimpleNamespace(plan=str(out / "plan.json"), vectors=str(out / "v.safetensors")),
        output=SimpleNamespace(table=str(out / "table.csv"), summary=str(out / "summary.json")),
        params=_params(workspace, PROBES),
        **common,
    )
    plan = ProbePlan.from_dict(json.loads((out / "plan.json").read_text()))
    assert plan.n_corpus == 65 and plan.n_direct_lines == 26
    # "he/she is a X ." and "... calls his brother ."; "her" is ambiguous without an analyser
    assert plan.swap_counts["n_swapped"] == 26 + 6
    assert plan.swap_counts["refused"] == {"ambiguous": 7}
    table = pd.read_csv(out / "table.csv")
    assert set(table["layer"].astype(str)) == {"0", "1", "2", "concat"}
    pca = table[(table.experiment == "pca") & (table.layer.astype(str) == "2")]
    assert len(pca) == 10 and pca["mean"].iloc[0] >= pca["mean"].iloc[1]
    knn = table[(table.experiment == "knn") & (table.measure == "pearson_r")]
    assert (knn["n_items"] == 13).all() and (knn["n_runs"] == 3).all()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["table1"]["professions_knn"] == 13
    assert summary["table1"]["female_share_knn"] == pytest.approx(7 / 13)

    arguments = [
        "probe", "--model", str(workspace / "model"), "--corpus", str(workspace / "corpus.txt"),
        "--runs", "3", "--knn-k", "3", "--n-bootstrap", "50", "--seed", "1",
        "--cache", str(out / "v.safetensors"), "--output", str(out / "cli.csv"),
    ]  # fmt: skip
    assert main(arguments) == 0
    captured = capsys.readouterr()
    assert '"cache_hit": true' in captured.err
    assert "direct_bias" in captured.out
    assert (out / "cli.csv").read_bytes() == (out / "table.csv").read_bytes()


def test_static_vectors_give_the_same_lists_to_the_scripts_and_the_cli(workspace):
    # static vectors: he - she along x; the first six professions lean to "he", the other
    # seven to "she"; every other word is orthogonal (neither list)
    rows = {"he": (1, 0, 0), "she": (-1, 0, 0)}
    for k, p in enumerate(PROFESSIONS):
        rows[p] = (0.5 + 0.1 * k, 1, 0) if k < 6 else (-0.5 - 0.1 * k, 1, 0)
    for word in ("works", "here", "reads", "book", "calls", "is", "a", "the"):
        rows[word] = (0, 0, 1)
    vec = workspace / "static.vec"
    lines = [f"{len(rows)} 3", *(f"{w} {' '.join(map(str, v))}" for w, v in rows.items())]
    vec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = workspace / "static"
    sizes = {"n_biased": 3, "n_extended": 3, "top_n": 100}
    common = {"log": [], "threads": 1}
    _run_script(
        "basta2020_vectors.py",
        input=SimpleNamespace(corpus=str(workspace / "corpus.txt"), static=str(vec)),
        output=SimpleNamespace(plan=str(out / "plan.json"), vectors=str(out / "v.safetensors")),
        params=_params(workspace, {**VECTORS, **sizes}),
        **common,
    )
    _run_script(
        "basta2020_probes.py",
        input=SimpleNamespace(plan=str(out / "plan.json"), vectors=str(out / "v.safetensors")),
        output=SimpleNamespace(table=str(out / "table.csv"), summary=str(out / "summary.json")),
        params=_params(workspace, PROBES),
        **common,
    )
    lists = json.loads((out / "plan.json").read_text())["static_lists"]
    # the most biased first: ranks 1-3 biased, 4-6 extended
    assert lists["biased"]["male"] == ["architect", "plumber", "mechanic"]
    assert lists["biased"]["female"] == ["hairdresser", "dancer", "librarian"]
    assert lists["extended"]["female"] == ["receptionist", "housekeeper", "secretary"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["lists"] == "static vectors"
    assert summary["table1"]["biased_words_cluster"] == 6

    arguments = [
        "probe", "--model", str(workspace / "model"), "--corpus", str(workspace / "corpus.txt"),
        "--runs", "3", "--knn-k", "3", "--n-bootstrap", "50", "--seed", "1",
        "--vectors", str(vec), "--n-biased", "3", "--n-extended", "3", "--top-n", "100",
        "--output", str(out / "cli.csv"),
    ]  # fmt: skip
    assert main(arguments) == 0
    assert (out / "cli.csv").read_bytes() == (out / "table.csv").read_bytes()


def test_probe_rejects_a_language_without_lists(workspace, capsys):
    arguments = ["probe", "--model", str(workspace / "model"), "--corpus",
                 str(workspace / "corpus.txt"), "--lang", "it"]  # fmt: skip
    assert main(arguments) == 2
    assert "no shipped contextual-probe lists for language 'it'" in capsys.readouterr().err


def test_a_corpus_of_one_label_is_refused_by_name_before_the_splits(workspace, capsys):
    # the male-biased professions alone: Exp. 3 and 4 would split words of one label
    male = ["carpenter", "mechanic"]
    corpus = workspace / "one_label.txt"
    corpus.write_text("".join(f"he is a {p} .\nthe {p} works here .\n" for p in male))
    arguments = ["probe", "--model", str(workspace / "model"), "--corpus", str(corpus),
                 "--experiments", "1,2,4", "--device", "cpu"]  # fmt: skip
    assert main(arguments) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if "mgbias:" in line]
    assert len(lines) == 1 and lines[0].startswith(
        f"mgbias: {corpus}: Exp. 4 (classification) needs professions of both labels in the "
        "corpus; it holds 2 of the "
    ), lines
    assert " male-biased and 0 of the " in lines[0]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_cli_probes_demo_text_of_a_gendered_language_with_the_demo_analyser(tmp_path, lang):
    # French and German demo text, the shipped lists and the demo grammar's analyser
    # (--spacy demo): the swap changes most sentences (it refuses a predicate the shipped
    # professions lack, "er ist ingenieur") and Exp. 6-9 run (a random tiny BERT)
    from mgbias.contextual.words import words
    from mgbias.demo.probes import probe_sentences
    from mgbias.demo.world import planted

    spec = planted(1, (lang,), occupation_subject_share=0.6, gender_free_occupation_share=0.1)
    sentences = probe_sentences(spec, lang, n_gender_free=150, n_pronoun=100, seed=1)
    (tmp_path / "corpus.txt").write_text("\n".join(sentences) + "\n", encoding="utf-8")
    vocab = sorted({w.lower() for s in sentences for w in words(s)})
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tokenizer = build_bert_tokenizer(special + vocab, model_max_length=32)
    model = build_model("bert", len(special) + len(vocab), 32, seed=0)
    save_pretrained(model, tokenizer, tmp_path / "model")
    arguments = [
        "probe", "--model", str(tmp_path / "model"), "--corpus", str(tmp_path / "corpus.txt"),
        "--lang", lang, "--spacy", "demo", "--runs", "2", "--knn-k", "3",
        "--n-bootstrap", "20", "--seed", "1", "--output", str(tmp_path / "probes.csv"),
        "--summary", str(tmp_path / "summary.json"),
    ]  # fmt: skip
    assert main(arguments) == 0
    table = pd.read_csv(tmp_path / "probes.csv")
    assert {"directions", "direct_bias_forms", "clustering_lists"} <= set(table.experiment)
    table1 = json.loads((tmp_path / "summary.json").read_text())["table1"]
    assert table1["swap_n_swapped"] >= 0.9 * table1["swap_n_sentences"]
    assert table1["nouns_feminine"] > 0 and table1["nouns_masculine"] > 0
