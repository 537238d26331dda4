"""docs/api.md's Python examples run as written, on a tiny BERT and small files.

Sybil parses the page's ``python`` blocks; they run in order in one namespace,
in a directory holding what the page says it assumes: ``tiny-mlm/`` (a seeded
tiny BERT whose vocabulary is the files' words), ``crows_pairs_anonymized.csv``
(CrowS-Pairs' columns, two bias types), ``male.txt``, ``female.txt`` and a
German-English parallel corpus ``TED2020.de-en.{en,de}``; and the command examples'
inputs (:mod:`fixtures.api_sandbox`: word vectors, dictionaries, MIBs-style lists, an
English corpus, a WET file and its names).
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
PAGE = REPO / "docs/api.md"

# five gender words a gender: enough groups for the test with gender words as units
SUBJECTS = {
    "male": [
        ("he", "er"),
        ("my father", "mein Vater"),
        ("the man", "der Mann"),
        ("my brother", "mein Bruder"),
        ("the king", "der König"),
    ],
    "female": [
        ("she", "sie"),
        ("my mother", "meine Mutter"),
        ("the woman", "die Frau"),
        ("my sister", "meine Schwester"),
        ("the queen", "die Königin"),
    ],
}
PREDICATES = [("works here", "arbeitet hier"), ("reads a book", "liest ein Buch")]
CROWS_HEADER = ",sent_more,sent_less,stereo_antistereo,bias_type,annotations,anon_writer,"
CROWS_HEADER += "anon_annotators"


def sandbox_files() -> dict[str, str]:
    files = {}
    english, german = [], []
    for gender, subjects in SUBJECTS.items():
        lines = []
        for subject, subject_de in subjects:
            for predicate, predicate_de in PREDICATES:
                english.append(f"{subject} {predicate} .")
                german.append(f"{subject_de} {predicate_de} .")
                lines.append(f"{subject} {predicate} .")
        files[f"{gender}.txt"] = "\n".join(lines) + "\n"
    english.append("the weather is good .")
    german.append("das Wetter ist gut .")
    files["TED2020.de-en.en"] = "\n".join(english) + "\n"
    files["TED2020.de-en.de"] = "\n".join(german) + "\n"
    rows = [CROWS_HEADER]
    occupations = ["nurse", "pilot", "doctor", "teacher"]
    for index, occupation in enumerate(occupations):
        more, less = ("she", "he") if index % 2 == 0 else ("he", "she")
        rows.append(
            f"{index},{more} is a {occupation} .,{less} is a {occupation} .,stereo,gender,"
            "\"[['gender']]\",a0,\"['a1']\""
        )
    rows.append(
        f"{len(occupations)},the old man reads a book .,the young man reads a book .,stereo,"
        "age,\"[['age']]\",a0,\"['a1']\""
    )
    files["crows_pairs_anonymized.csv"] = "\n".join(rows) + "\n"
    return files


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    from fixtures.api_sandbox import corpus_text, target_words, write_api_files
    from fixtures.tiny_models import build_model, save_pretrained

    from mgbias.mlm.wordpiece import build_bert_tokenizer

    root = tmp_path_factory.mktemp("api-docs")
    files = sandbox_files()
    write_api_files(root)  # the command examples' vectors, WET file, ...
    files["corpus.txt"] = corpus_text()  # its words in the tiny model's vocabulary
    files["targets.txt"] = target_words()  # tbs(targets="demo")'s words too
    words = set()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
        words.update(text.replace(",", " ").lower().split())
    vocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]
    tokenizer = build_bert_tokenizer(vocabulary, model_max_length=64)
    model = build_model("bert", len(tokenizer), attn_implementation="eager")
    save_pretrained(model, tokenizer, root / "tiny-mlm")
    return root


def test_the_api_page_runs(sandbox, monkeypatch, capsys):
    sybil = pytest.importorskip("sybil")
    from sybil.parsers.markdown import PythonCodeBlockParser

    monkeypatch.chdir(sandbox)
    document = sybil.Document.parse(str(PAGE), PythonCodeBlockParser())
    examples = list(document)
    assert len(examples) >= 6
    for example in examples:
        example.evaluate()
    printed = capsys.readouterr().out
    assert "the model prefers" in printed or "no significant preference" in printed
    assert "MBE " in printed and "Shf " in printed
    namespace = document.namespace
    assert namespace["mined"].counts.n_pairs == 21
    assert len(namespace["mined"].male) == len(namespace["mined"].female) == 10
    # the gender words as the test's units: 5 words a gender, each one group
    assert namespace["by_words"].result.n_clusters == 10
    assert "in 10 gender-word groups" in namespace["by_words"].verdict
