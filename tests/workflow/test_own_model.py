"""The own-model recipe (config/examples/own-model.yaml) run to the end on local files.

The example names a hub model and OPUS; here a variant of it points at a tiny
BERT saved to a local directory, a parallel corpus of plain-text files of
one's own (``corpora.<name>.files``) and CrowS-Pairs and multilingual
CrowS-Pairs CSVs in their published layouts, given as local paths. The recipe's
steps run as a user runs them: check-config, the plan, the run, the report.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from fixtures.tiny_models import build_model, save_pretrained
from snakerun import REPO, checked, copy_workflow, planned_jobs, snakemake

pytestmark = pytest.mark.workflow

CONFIG = "config/own-model-local.yaml"
#: Where the example's run writes (its `workdir`): apart from the demo's results
OUT = yaml.safe_load((REPO / "config/examples/own-model.yaml").read_text("utf-8"))["workdir"]
MGBIAS = str(Path(sys.executable).with_name("mgbias"))
LANGUAGES = ("de", "fi")

# A small grammar in English, German and Finnish: sentence i of each language
# translates sentence i of the others.
# Five gender words a gender: MBE's test takes the gender words as its units, and
# it needs more than a few of them to reach p < 0.05 at all.
SUBJECTS = {
    "female": [
        ("she", "sie", "hän"),
        ("the woman", "die frau", "nainen"),
        ("my mother", "meine mutter", "äitini"),
        ("my sister", "meine schwester", "siskoni"),
        ("the queen", "die königin", "kuningatar"),
    ],
    "male": [
        ("he", "er", "hän"),
        ("the man", "der mann", "mies"),
        ("my father", "mein vater", "isäni"),
        ("my brother", "mein bruder", "veljeni"),
        ("the king", "der könig", "kuningas"),
    ],
}
VERBS = [("reads", "liest", "lukee"), ("writes", "schreibt", "kirjoittaa")]
OBJECTS = [
    ("a book", "ein buch", "kirjaa"),
    ("a letter", "einen brief", "kirjettä"),
    ("the news", "die nachrichten", "uutisia"),
]
PLACES = [
    ("here", "hier", "täällä"),
    ("at home", "zu hause", "kotona"),
    ("today", "heute", "tänään"),
]
NEUTRAL = [
    ("it rains", "es regnet", "sataa"),
    ("the sun shines", "die sonne scheint", "aurinko paistaa"),
]
COLUMN = {"en": 0, "de": 1, "fi": 2}


def sentences(lang: str) -> list[str]:
    """The corpus side of ``lang``: every gendered sentence, then neutral ones (396 lines)."""
    i = COLUMN[lang]
    lines = [
        f"{subject[i]} {verb[i]} {obj[i]} {place[i]} ."
        for gender in ("female", "male")
        for subject in SUBJECTS[gender]
        for verb in VERBS
        for obj in OBJECTS
        for place in PLACES
    ]
    lines *= 2
    lines += [f"{text[i]} {place[i]} ." for text in NEUTRAL for place in PLACES] * 6
    return lines


def vocabulary() -> list[str]:
    words = {word for lang in COLUMN for line in sentences(lang) for word in line.split()}
    words |= {"doctor", "nurse", "arzt", "ärztin", "lääkäri", "is", "ist", "on", "a", "ein"}
    return ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]


def pair_rows(lang: str) -> list[tuple[str, str, str, str, str]]:
    """(id, more_en, less_en, more_x, less_x) of 60 gender pairs."""
    i = COLUMN[lang]
    rows = []
    for n, (verb, obj, place) in enumerate(
        (v, o, p) for v in VERBS for o in OBJECTS for p in PLACES[:2]
    ):
        for k, (male, female) in enumerate(zip(SUBJECTS["male"], SUBJECTS["female"], strict=True)):
            more = f"{male[0]} {verb[0]} {obj[0]} {place[0]} ."
            less = f"{female[0]} {verb[0]} {obj[0]} {place[0]} ."
            more_x = f"{male[i]} {verb[i]} {obj[i]} {place[i]} ."
            less_x = f"{female[i]} {verb[i]} {obj[i]} {place[i]} ."
            rows.append((str(len(SUBJECTS["male"]) * n + k), more, less, more_x, less_x))
    return rows


def write_data(workdir: Path) -> None:
    corpus = workdir / "data" / "my_corpus"
    corpus.mkdir(parents=True)
    for lang, pair in (("de", "de-en"), ("fi", "en-fi")):
        for side in ("en", lang):
            text = "\n".join(sentences(side)) + "\n"
            (corpus / f"{pair}.{side}").write_text(text, encoding="utf-8")
    pairs = workdir / "data" / "pairs"
    pairs.mkdir()
    # CrowS-Pairs as published: an unnamed index column, then its columns
    with open(pairs / "crows_pairs_anonymized.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["", "sent_more", "sent_less", "stereo_antistereo", "bias_type", "annotations"]
        )
        for index, (_, more, less, _, _) in enumerate(pair_rows("en")):
            label = "stereo" if index % 3 else "antistereo"
            writer.writerow([index, more, less, label, "gender", "[['gender']]"])
        writer.writerow(
            [99, "old people are slow .", "young people are slow .", "stereo", "age", ""]
        )
    # the multilingual CrowS-Pairs (Steinborn et al. 2022), one file per language
    for lang in ("en", *LANGUAGES):
        name = pairs / f"cps_translated_{lang}_formatted.csv"
        with open(name, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["ID", "A_en", "B_en", "A_x", "B_x", "stereo_antistereo"])
            for pair_id, more, less, more_x, less_x in pair_rows(lang):
                writer.writerow([pair_id, more, less, more_x, less_x, "stereo"])


def write_config(workdir: Path) -> None:
    """own-model.yaml with the local model, corpus files and pair files in place."""
    config = yaml.safe_load((REPO / "config/examples/own-model.yaml").read_text("utf-8"))
    assert "worlds" not in config and "demo" not in config
    config["models"]["my-model"]["source"] = "models/tiny-bert"
    config["corpora"] = {"my_corpus": {"files": "data/my_corpus/{pair}.{lang}"}}
    config["pair_datasets"]["crows_pairs"] = {"url": "data/pairs/crows_pairs_anonymized.csv"}
    config["pair_datasets"]["crows_pairs"]["languages"] = ["en"]
    config["pair_datasets"]["multilingual_crows_pairs"] = {
        "url": "file://data/pairs/cps_translated_{lang}_formatted.csv",
        "languages": ["en", *LANGUAGES],
    }
    config["mbe"]["permutations"] = 99
    config["scoring"] = {"batch_size": 32, "device": "cpu"}
    (workdir / CONFIG).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


@pytest.fixture(scope="module")
def own_run(tmp_path_factory) -> Path:
    from mgbias.mlm.wordpiece import build_bert_tokenizer

    workdir = copy_workflow(tmp_path_factory.mktemp("own-model") / "run")
    tokenizer = build_bert_tokenizer(vocabulary(), model_max_length=64)
    save_pretrained(
        build_model("bert", len(tokenizer), seed=3), tokenizer, workdir / "models/tiny-bert"
    )
    write_data(workdir)
    write_config(workdir)
    checked(snakemake(workdir, config=CONFIG, timeout=900))
    return workdir


def mgbias(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(workdir / "src")}
    return subprocess.run(
        [MGBIAS, *args], cwd=workdir, capture_output=True, text=True, timeout=120, env=env
    )


def test_the_example_checks_and_plans_offline(tmp_path):
    workdir = copy_workflow(tmp_path / "run")
    checked_config = mgbias(workdir, "check-config", "--strict", "config/examples/own-model.yaml")
    assert checked_config.returncode == 0, checked_config.stderr
    assert "warning" not in checked_config.stderr
    plan = checked(snakemake(workdir, "-n", config="config/examples/own-model.yaml"))
    jobs = planned_jobs(plan.stdout)
    scored = sorted((w["dataset"], w["lang"]) for rule, w in jobs if rule == "score_pairs")
    assert scored == [
        ("crows_pairs", "en"),
        ("multilingual_crows_pairs", "de"),
        ("multilingual_crows_pairs", "en"),
        ("multilingual_crows_pairs", "fi"),
    ]
    mbe = sorted((w["world"], w["corpus"], w["lang"]) for rule, w in jobs if rule == "mbe")
    assert mbe == [("real", "TED2020", "de"), ("real", "TED2020", "fi")]
    assert not any(rule.startswith("demo_") for rule, _ in jobs)


def test_the_local_variant_checks_without_warnings(own_run):
    result = mgbias(own_run, "check-config", "--strict", CONFIG)
    assert result.returncode == 0, result.stderr
    assert "1 models, 2 pair datasets" in result.stdout


def test_own_model_gets_mbe_and_pair_tables(own_run):
    mbe = pd.read_csv(own_run / OUT / "results/tables/mbe_scores.csv")
    assert sorted(zip(mbe["model"], mbe["world"], mbe["corpus"], mbe["lang"], strict=True)) == [
        ("my-model", "real", "my_corpus", "de"),
        ("my-model", "real", "my_corpus", "fi"),
    ]
    # the model's directory as the jobs load it, from the workdir
    assert mbe["mbe"].between(0, 100).all()
    assert (mbe["model_id"] == "../../models/tiny-bert").all()
    # each side: 90 female and 90 male English sentences, each twice, and 36 neutral ones
    assert (mbe["n_female"] == 180).all() and (mbe["n_male"] == 180).all()
    assert (mbe["n_clusters"] == 10).all()  # the gender words are the test's units
    counts = pd.read_csv(own_run / OUT / "results/tables/mine_counts.csv")
    assert sorted(counts["lang"]) == list(LANGUAGES)
    assert (counts["n_pairs"] == 396).all() and (counts["n_neutral"] == 36).all()

    pairs = pd.read_csv(own_run / OUT / "results/tables/pairs_scores.csv")
    assert set(pairs["model"]) == {"my-model"}
    assert sorted(set(zip(pairs["dataset"], pairs["lang"], strict=True))) == [
        ("crows_pairs", "en"),
        ("multilingual_crows_pairs", "de"),
        ("multilingual_crows_pairs", "en"),
        ("multilingual_crows_pairs", "fi"),
    ]
    assert set(pairs["measure"]) == {"aul", "aula", "cps", "sss", "sjsd", "bsjsd"}
    # the age pair of the CrowS-Pairs file is not a gender pair
    assert set(pairs["n"]) == {60}
    # the same 60 English pairs read from both layouts score the same
    english = pairs[pairs["lang"] == "en"].pivot(index="measure", columns="dataset", values="score")
    assert english["crows_pairs"].tolist() == english["multilingual_crows_pairs"].tolist()
    assert (own_run / OUT / "results/tables/pairs_steinborn_table2.csv").is_file()


def test_corpus_files_are_packed_as_a_moses_zip(own_run):
    from mgbias.corpora.opus import iter_moses_zip

    archive = own_run / OUT / "data/raw/real/my_corpus/de-en.txt.zip"
    pairs = list(iter_moses_zip(archive, "my_corpus", "en", "de"))
    assert pairs[0] == ("she reads a book here .", "sie liest ein buch hier .")
    assert len(pairs) == len(sentences("de"))


def test_report_of_the_own_run_names_the_model(own_run):
    # as `make report` asks for it: an absolute path (a relative one is in the workdir)
    checked(snakemake(own_run, "--report", str(own_run / "report.html"), config=CONFIG))
    html = (own_run / "report.html").read_text(encoding="utf-8")
    assert "Models scored: <strong>my-model</strong> (../../models/tiny-bert)." in html
    assert "demo world" not in html  # the demo's caveat is for the demo's report
    assert "mbe_scores.csv" in html and "pairs_scores.csv" in html
