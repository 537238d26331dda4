"""Zhao et al. (2020) from published resources: the paper configuration's downloads.

A mirror on 127.0.0.1 serves the real layouts: fastText's ``vectors-wiki/wiki.{lang}.vec``,
MUSE's ``dictionaries/{src}-{tgt}.{0-5000,5000-6500}.txt`` and the MIBs lists of the
authors' repository at a commit (``intrinsic/{lang}_{male,female}_def_occ``, English one
word per line, the others ``english<TAB>translation``, one line with two tabs). The
workflow's own rules fetch them through ``http://`` URLs, as a paper run does.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import yaml
from httpmirror import serve_directory
from snakerun import run_snakemake

REPO = Path(__file__).resolve().parents[2]
COMMIT = "0123456789abcdef0123456789abcdef01234567"

#: (masculine, feminine) English forms and their Spanish translations; the last Spanish
#: feminine form is missing from the Spanish vectors, so the vocabulary filter keeps 3 of 4.
OCCUPATIONS = [
    ("actor", "actress", "actor", "actriz"),
    ("waiter", "waitress", "camarero", "camarera"),
    ("doctor", "doctor", "doctor", "doctora"),
    ("nurse", "nurse", "enfermero", "enfermeraxx"),
]
SEEDS = {
    "en": [["she", "he"], ["woman", "man"], ["mother", "father"]],
    "es": [["ella", "él"], ["mujer", "hombre"], ["madre", "padre"]],
}


def _vec(path: Path, words: list[str], matrix: np.ndarray) -> None:
    rows = [f"{len(words)} {matrix.shape[1]}"]
    rows += [w + " " + " ".join(f"{x:.5f}" for x in v) for w, v in zip(words, matrix, strict=True)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def mirror(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mirror")
    rng = np.random.default_rng(3)
    en = [f"word{i}" for i in range(150)]
    es = [f"palabra{i}" for i in range(150)]
    en += [w for row in OCCUPATIONS for w in row[:2]] + [w for p in SEEDS["en"] for w in p]
    es += [w for row in OCCUPATIONS[:3] for w in row[2:]] + [OCCUPATIONS[3][2]]
    es += [w for p in SEEDS["es"] for w in p]
    en = list(dict.fromkeys(en))
    concepts = rng.normal(size=(max(len(en), len(es)), 16))
    rotation = np.linalg.qr(rng.normal(size=(16, 16)))[0]
    spanish = (concepts[: len(es)] + 0.05 * rng.normal(size=(len(es), 16))) @ rotation
    _vec(root / "fasttext/vectors-wiki/wiki.en.vec", en, concepts[: len(en)])
    _vec(root / "fasttext/vectors-wiki/wiki.es.vec", es, spanish)
    dictionaries = root / "arrival/dictionaries"
    dictionaries.mkdir(parents=True)
    for src, tgt, a, b in [("en", "es", en, es), ("es", "en", es, en)]:
        train = "".join(f"{a[i]} {b[i]}\n" for i in range(100))
        test = "".join(f"{a[i]} {b[i]}\n" for i in range(100, 150))
        (dictionaries / f"{src}-{tgt}.0-5000.txt").write_text(train, encoding="utf-8")
        (dictionaries / f"{src}-{tgt}.5000-6500.txt").write_text(test, encoding="utf-8")
    intrinsic = root / f"MSR-LIT/MultilingualBias/{COMMIT}/intrinsic"
    intrinsic.mkdir(parents=True)
    (intrinsic / "en_male_def_occ").write_text("".join(r[0] + "\n" for r in OCCUPATIONS))
    (intrinsic / "en_female_def_occ").write_text("".join(r[1] + "\n" for r in OCCUPATIONS))
    male = "".join(f"{r[0]}\t{r[2]}\n" for r in OCCUPATIONS[:3]) + "nurse\t\tenfermero\n"
    (intrinsic / "es_male_def_occ").write_text(male, encoding="utf-8")
    female = "".join(f"{r[1]}\t{r[3]}\n" for r in OCCUPATIONS)
    (intrinsic / "es_female_def_occ").write_text(female, encoding="utf-8")
    for lang, pairs in SEEDS.items():
        (intrinsic / f"{lang}_gender_pairs.json").write_text(json.dumps(pairs), encoding="utf-8")
    return root


def paper_config(tmp_path: Path, base_url: str, checksums: dict[str, str]) -> Path:
    config = {
        "languages": ["es"],
        "worlds": ["real"],
        "corpora": {"TED2020": {"url": base_url + "/unused/{pair}.txt.zip"}},
        "models": {"any": {"source": "not-used", "languages": ["es"]}},
        "checksums": checksums,
        "zhao2020": {
            "languages": ["en", "es"],
            "vectors": {"url": base_url + "/fasttext/vectors-wiki/{filename}"},
            "dictionaries": {"url": base_url + "/arrival/dictionaries/{filename}"},
            "mibs": {"url": f"{base_url}/MSR-LIT/MultilingualBias/{COMMIT}/intrinsic/{{filename}}"},
            "inbias": {"variant": "pairwise", "authors_split": True, "n_strong": 2},
            "debias": False,
            "grid_worlds": ["real"],
            "rcsls": {"niter": 3, "maxneg": 150, "batchsize": 100, "knn": 5},
            "bli": {"k": 5},
        },
    }
    path = tmp_path / "paper.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def run(workdir: Path, config: Path, *targets: str) -> subprocess.CompletedProcess:
    return run_snakemake(
        [
            "-s",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--cores",
            "1",
            *targets,
            "--configfile",
            str(config),
        ],
        cwd=REPO,
        timeout=300,
    )


def test_grid_from_downloaded_vectors_dictionaries_and_mibs(tmp_path, mirror):
    mibs = f"MSR-LIT/MultilingualBias/{COMMIT}/intrinsic/es_male_def_occ"
    with serve_directory(mirror) as base_url:
        checksums = {f"{base_url}/{mibs}": hashlib.sha256((mirror / mibs).read_bytes()).hexdigest()}
        result = run(
            tmp_path,
            paper_config(tmp_path, base_url, checksums),
            "results/zhao2020/bli/real/en-es.json",
            "results/zhao2020/inbias_spaces/real/es-en.json",
        )
    assert result.returncode == 0, result.stdout + result.stderr
    raw = tmp_path / "data/raw/zhao2020"
    assert (raw / "mibs/es_male_def_occ").read_bytes() == (mirror / mibs).read_bytes()
    assert (raw / "vectors/wiki.es.vec.sha256").read_text().split()[1] == "wiki.es.vec"
    assert not (tmp_path / "models/vectors/real").exists(), "the published vectors are not trained"
    bli = json.loads((tmp_path / "results/zhao2020/bli/real/en-es.json").read_text())
    assert bli["csls"]["n_source_words"] == 50 and bli["csls"]["accuracy"] > 90
    inbias = json.loads((tmp_path / "results/zhao2020/inbias_spaces/real/es-en.json").read_text())
    # the authors' split('\t')[1] reads '' on the two-tab line, and 'enfermeraxx' is not
    # in the Spanish vectors: both filters together leave 3 of the 4 listed pairs
    assert (inbias["n"], inbias["n_listed"], inbias["variant"]) == (3, 4, "pairwise")


def test_a_download_whose_sha256_differs_from_the_pinned_one_fails_and_leaves_nothing(
    tmp_path, mirror
):
    with serve_directory(mirror) as base_url:
        url = f"{base_url}/MSR-LIT/MultilingualBias/{COMMIT}/intrinsic/en_gender_pairs.json"
        result = run(
            tmp_path,
            paper_config(tmp_path, base_url, {url: "0" * 64}),
            "data/raw/zhao2020/mibs/en_gender_pairs.json",
        )
    assert result.returncode != 0
    log = (tmp_path / "logs/download_zhao2020/mibs/en_gender_pairs.json.log").read_text()
    assert url in log and "0" * 64 in log
    assert not (tmp_path / "data/raw/zhao2020/mibs/en_gender_pairs.json").exists()
