"""`mgbias align | bli | debias | inbias` and the workflow scripts give the library's numbers."""

from __future__ import annotations

import json
import math
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from snakemake.iocontainers import Namedlist

from mgbias.cli.main import main
from mgbias.config import section_defaults
from mgbias.embeddings.bli import bli_accuracy
from mgbias.embeddings.dictionaries import read_dictionary, write_dictionary
from mgbias.embeddings.mibs import (
    read_occupation_pairs,
    read_seed_pairs,
    write_occupation_pairs,
    write_seed_pairs,
)
from mgbias.embeddings.rcsls import RCSLSConfig
from mgbias.embeddings.steps import align_files, debias_file
from mgbias.embeddings.vectors import Vectors, read_vec, unit_rows, write_vec
from mgbias.measures.inbias import inbias, inbias_ttest

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
OCCUPATIONS = [("actor", "actress"), ("doctor", "doctor"), ("nurse", "nurse"), ("absent", "x")]
SEEDS = [("he", "she"), ("man", "woman"), ("his", "her")]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Source = random words incl. gendered ones; target = a linear map of it plus noise."""
    root = tmp_path_factory.mktemp("static")
    rng = np.random.default_rng(0)
    words = ["he", "she", "man", "woman", "his", "her", "actor", "actress", "doctor", "nurse"]
    words += [f"w{i}" for i in range(290)]
    X = unit_rows(rng.standard_normal((len(words), 12)))
    W = np.linalg.qr(rng.standard_normal((12, 12)))[0] @ np.diag(np.linspace(0.5, 1.5, 12))
    Y = unit_rows(X @ W.T + 0.05 * rng.standard_normal(X.shape))
    write_vec(root / "src.vec", Vectors(words, X), precision=9)
    write_vec(root / "tgt.vec", Vectors([f"t_{w}" for w in words], Y), precision=9)
    pairs = [(w, f"t_{w}") for w in words]
    write_dictionary(root / "train.txt", pairs[:200])
    # 60 test words, 10 of them beyond maxload (250), and one in neither space
    write_dictionary(root / "test.txt", [*pairs[200:260], ("oov", "t_oov")])
    write_occupation_pairs(root / "en_male_def_occ", root / "en_female_def_occ", OCCUPATIONS)
    write_seed_pairs(root / "en_gender_pairs.json", SEEDS)
    (root / "defs.json").write_text(json.dumps([["she", "he"], ["woman", "man"], ["her", "his"]]))
    (root / "specific.json").write_text(json.dumps(["he", "she", "man", "woman", "his", "her"]))
    (root / "equalize.json").write_text(json.dumps([["actor", "actress"]]))
    return root


CONFIG = RCSLSConfig(niter=3, batchsize=100, maxload=250, seed=4, device="cpu")


def _align_args(world, out):
    return [
        "align", "--src-emb", str(world / "src.vec"), "--tgt-emb", str(world / "tgt.vec"),
        "--dico-train", str(world / "train.txt"), "--dico-test", str(world / "test.txt"),
        "--output", str(out), "--niter", "3", "--batchsize", "100", "--maxload", "250",
        "--seed", "4", "--device", "cpu",
    ]  # fmt: skip


def test_align_matches_the_library(world, tmp_path, capsys):
    assert main(_align_args(world, tmp_path / "cli.vec")) == 0
    printed = capsys.readouterr().out
    result = align_files(
        world / "src.vec", world / "tgt.vec", world / "train.txt", tmp_path / "lib.vec", CONFIG
    )
    assert (tmp_path / "cli.vec").read_bytes() == (tmp_path / "lib.vec").read_bytes()
    np.testing.assert_array_equal(np.load(tmp_path / "cli.vec-mat.npy"), result.R)
    mapped = read_vec(tmp_path / "lib.vec")
    assert len(mapped) == 300  # the full source vocabulary, not the 250 of maxload
    expected = bli_accuracy(
        mapped, read_vec(world / "tgt.vec"), read_dictionary(world / "test.txt"),
        k=10, maxload=250, device="cpu",
    )  # fmt: skip
    assert f"CSLS accuracy on {world / 'test.txt'}: {expected.accuracy:.2f}%" in printed
    low, high = expected.interval
    assert f"(95% CI {low:.1f}-{high:.1f}; {expected.n_correct} of 61 source words" in printed
    assert expected.n_source_words == 61  # 60 test words + 1 OOV
    assert expected.n_covered == 50
    # the Wilson interval of the correct of 61 (z = 1.96), by hand
    p, z, n = expected.n_correct / 61, 1.959964, 61
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (low, high) == pytest.approx(
        (100 * (centre - half) / (1 + z * z / n), 100 * (centre + half) / (1 + z * z / n))
    )


def test_bli_retrievals_match_the_library(world, tmp_path, capsys):
    main(_align_args(world, tmp_path / "a.vec"))
    capsys.readouterr()
    mapped, tgt = read_vec(tmp_path / "a.vec"), read_vec(world / "tgt.vec")
    test = read_dictionary(world / "test.txt")
    for retrieval in ("csls", "nn"):
        argv = ["bli", "--src-emb", str(tmp_path / "a.vec"), "--tgt-emb", str(world / "tgt.vec"),
                "--dico-test", str(world / "test.txt"), "--retrieval", retrieval,
                "--device", "cpu", "--output", str(tmp_path / f"{retrieval}.json")]  # fmt: skip
        assert main(argv) == 0
        expected = bli_accuracy(mapped, tgt, test, retrieval=retrieval, device="cpu")
        assert f"{expected.accuracy:.2f}%" in capsys.readouterr().out
        saved = json.loads((tmp_path / f"{retrieval}.json").read_text())[retrieval]
        assert saved["accuracy"] == pytest.approx(expected.accuracy)


def test_debias_matches_the_library(world, tmp_path, capsys):
    lists = {
        "definitional": world / "defs.json",
        "gender_specific": world / "specific.json",
        "equalize": world / "equalize.json",
    }
    argv = ["debias", "--emb", str(world / "src.vec"), "--output", str(tmp_path / "cli.vec"),
            "--definitional", str(lists["definitional"]), "--gender-specific",
            str(lists["gender_specific"]), "--equalize", str(lists["equalize"])]  # fmt: skip
    assert main(argv) == 0
    result = debias_file(world / "src.vec", tmp_path / "lib.vec", **lists)
    assert (tmp_path / "cli.vec").read_bytes() == (tmp_path / "lib.vec").read_bytes()
    printed = capsys.readouterr().out
    assert f"{result.n_neutralized} words neutralised, 1 pairs equalised" in printed


def test_inbias_matches_the_library(world, tmp_path, capsys):
    base = ["inbias", "--male-occupations", str(world / "en_male_def_occ"),
            "--female-occupations", str(world / "en_female_def_occ"),
            "--seeds", str(world / "en_gender_pairs.json"), "--n-strong", "1"]  # fmt: skip
    argv = [*base, "--emb", str(world / "src.vec"), "--scores", str(tmp_path / "orig.csv")]
    assert main([*argv, "--variant", "pairwise"]) == 0
    space = read_vec(world / "src.vec")
    pairs = read_occupation_pairs(world / "en_male_def_occ", world / "en_female_def_occ")
    expected = inbias(space, pairs, read_seed_pairs(world / "en_gender_pairs.json"), "pairwise")
    printed = capsys.readouterr().out
    assert f"{expected.value:.4f} (SE {expected.se:.4f}) on N = 3 of 4 pairs" in printed
    assert expected.se == pytest.approx(np.std(expected.scores, ddof=1) / np.sqrt(3))
    assert f"strong {expected.scores[0]:.4f}" in printed
    # an aligned space, tested against the original's per-occupation scores
    main(_align_args(world, tmp_path / "a.vec"))
    capsys.readouterr()
    argv = [*base, "--emb", str(tmp_path / "a.vec"), "--original", str(world / "src.vec"),
            "--variant", "pairwise", "--reference", str(tmp_path / "orig.csv"),
            "--output", str(tmp_path / "a.json")]  # fmt: skip
    assert main(argv) == 0
    aligned = inbias(read_vec(tmp_path / "a.vec"), pairs, SEEDS, "pairwise", keep=[0, 1, 2])
    _, p = inbias_ttest(expected.scores, aligned.scores)
    assert f"p = {p:.4g}" in capsys.readouterr().out
    summary = json.loads((tmp_path / "a.json").read_text())
    assert summary["inbias"] == pytest.approx(aligned.value)
    assert summary["n"] == 3 and summary["n_listed"] == 4
    # the original space against its own scores: refused, not "p = 1"
    argv = [*base, "--emb", str(world / "src.vec"), "--variant", "pairwise",
            "--reference", str(tmp_path / "orig.csv")]  # fmt: skip
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(
        f"mgbias: {tmp_path / 'orig.csv'} holds the very scores of {world / 'src.vec'}: "
        "the t-test would compare a space with itself"
    )


def test_inbias_says_which_side_of_a_seed_pair_is_male_and_refuses_a_reversed_one(
    world, tmp_path, capsys
):
    """[female, male] as in MIBs: the output names the sides used; ["he", "she"] is refused."""
    import mgbias

    base = ["inbias", "--emb", str(world / "src.vec"), "--n-strong", "1",
            "--male-occupations", str(world / "en_male_def_occ"),
            "--female-occupations", str(world / "en_female_def_occ")]  # fmt: skip
    assert main([*base, "--seeds", str(world / "en_gender_pairs.json")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1] == "seeds (male, female): (he, she), (man, woman), (his, her)"
    reversed_ = tmp_path / "reversed.json"
    reversed_.write_text('[["woman", "man"], ["he", "she"]]', encoding="utf-8")
    expected = (
        f'{reversed_}: item 1 ["he", "she"] looks reversed: \'he\' is a male word and '
        "'she' a female one; each seed pair is [female, male], as in MIBs' "
        '{lang}_gender_pairs.json: write ["she", "he"]'
    )
    assert main([*base, "--seeds", str(reversed_)]) == 2
    assert capsys.readouterr().err == f"mgbias: {expected}\n"
    with pytest.raises(ValueError) as raised:
        mgbias.inbias(
            world / "src.vec", world / "en_male_def_occ", world / "en_female_def_occ", reversed_
        )
    assert str(raised.value) == expected
    # words on no list (another language, invented words) are taken as given
    unknown = tmp_path / "unknown.json"
    unknown.write_text('[["wa", "wb"]]', encoding="utf-8")
    assert read_seed_pairs(unknown) == [("wb", "wa")]


def test_duplicates_first_reads_a_vec_with_a_repeated_word_on_every_command(
    world, tmp_path, capsys
):
    """--duplicates first (the API's duplicates='first') keeps a repeated word's first row
    in align, bli, debias and inbias; without it the file is refused, naming both lines."""
    import mgbias

    rows = (world / "src.vec").read_text(encoding="utf-8").splitlines()
    n, d = rows[0].split()
    repeated = tmp_path / "repeated.vec"  # "he" again, with another row, at the end
    other = " ".join(["0.5"] * int(d))
    repeated.write_text("\n".join([f"{int(n) + 1} {d}", *rows[1:], f"he {other}"]) + "\n")
    lists = ["--male-occupations", str(world / "en_male_def_occ"), "--female-occupations",
             str(world / "en_female_def_occ"), "--seeds", str(world / "en_gender_pairs.json"),
             "--n-strong", "1"]  # fmt: skip
    refused = (
        f"mgbias: {repeated}, line {int(n) + 2}: duplicate word 'he' (first at line 2); "
        "expected distinct words (or read with duplicates='first', on the command line "
        "--duplicates first)\n"
    )
    inbias = ["inbias", "--emb", str(repeated), *lists]
    assert main(inbias) == 2
    assert capsys.readouterr().err == refused
    assert main([*inbias, "--duplicates", "first"]) == 0
    first = capsys.readouterr().out
    assert main(["inbias", "--emb", str(world / "src.vec"), *lists]) == 0
    assert capsys.readouterr().out.replace(str(world / "src.vec"), str(repeated)) == first
    api = mgbias.inbias(
        repeated,
        world / "en_male_def_occ",
        world / "en_female_def_occ",
        world / "en_gender_pairs.json",
        n_strong=1,
        duplicates="first",
    )
    assert f"{api.value:.4f}" in first
    with pytest.raises(ValueError, match="duplicate word 'he'"):
        mgbias.debias(repeated, tmp_path / "d.vec")
    # the world's own lists: it holds 3 of debiaswe's 10 definitional pairs
    own = {"definitional": world / "defs.json", "gender_specific": world / "specific.json"}
    debiased = mgbias.debias(repeated, tmp_path / "d.vec", duplicates="first", **own)
    assert len(debiased.result.vectors) == int(n)
    commands = [
        ["debias", "--emb", str(repeated), "--output", str(tmp_path / "c.vec"),
         "--definitional", str(own["definitional"])],
        ["bli", "--src-emb", str(repeated), "--tgt-emb", str(world / "tgt.vec"),
         "--dico-test", str(world / "test.txt"), "--device", "cpu"],
        [*_align_args(world, tmp_path / "a.vec")[:2], str(repeated),
         *_align_args(world, tmp_path / "a.vec")[3:]],
    ]  # fmt: skip
    for argv in commands:
        assert main(argv) == 2, argv[0]
        assert capsys.readouterr().err == refused, argv[0]
        assert main([*argv, "--duplicates", "first"]) == 0, argv[0]
    capsys.readouterr()


def test_errors_are_reported_not_raised(world, tmp_path, capsys):
    bad = tmp_path / "bad.vec"
    bad.write_text("2 3\na 1 2 3\nb 1 2\n")
    argv = ["bli", "--src-emb", str(bad), "--tgt-emb", str(world / "tgt.vec"),
            "--dico-test", str(world / "test.txt"), "--device", "cpu"]  # fmt: skip
    assert main(argv) == 2
    assert f"{bad}, line 3" in capsys.readouterr().err


def test_commands_read_the_vectors_through_the_cache(world, tmp_path, monkeypatch, capsys):
    """After one run, align, bli, debias and inbias read every .vec from the cache (the
    text parser is switched off) and print and write what they do without the cache."""
    from mgbias.embeddings import vectors as vectors_module

    lists = ["--definitional", str(world / "defs.json"), "--gender-specific",
             str(world / "specific.json"), "--equalize", str(world / "equalize.json")]  # fmt: skip
    inbias = ["inbias", "--male-occupations", str(world / "en_male_def_occ"),
              "--female-occupations", str(world / "en_female_def_occ"),
              "--seeds", str(world / "en_gender_pairs.json"), "--n-strong", "1",
              "--variant", "pairwise"]  # fmt: skip

    def run_all(out: Path) -> list[str]:
        out.mkdir()
        printed = []
        commands = [
            _align_args(world, out / "a.vec"),
            ["bli", "--src-emb", str(out / "a.vec"), "--tgt-emb", str(world / "tgt.vec"),
             "--dico-test", str(world / "test.txt"), "--device", "cpu"],
            ["debias", "--emb", str(world / "src.vec"), "--output", str(out / "d.vec"), *lists],
            [*inbias, "--emb", str(out / "a.vec"), "--original", str(world / "src.vec")],
        ]  # fmt: skip
        for argv in commands:
            assert main(argv) == 0
            printed.append(capsys.readouterr().out.replace(str(out), "OUT"))
        return printed

    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MGBIAS_VEC_CACHE", "0")
    text = run_all(tmp_path / "text")
    assert not (tmp_path / "cache").exists()
    monkeypatch.delenv("MGBIAS_VEC_CACHE")
    first = run_all(tmp_path / "first")
    assert len(list((tmp_path / "cache" / "vec").glob("*.npy"))) == 3  # src, tgt, a.vec

    def refuse(*args):
        raise AssertionError("a .vec file was parsed")

    monkeypatch.setattr(vectors_module, "_read_rows", refuse)
    later = run_all(tmp_path / "later")
    assert text == first == later
    for name in ("a.vec", "a.vec-mat.npy", "d.vec"):
        content = (tmp_path / "text" / name).read_bytes()
        assert (tmp_path / "first" / name).read_bytes() == content
        assert (tmp_path / "later" / name).read_bytes() == content


def _run_script(name, tmp_path, *, input, output, params=None, threads=1):  # noqa: A002
    smk = type("Snakemake", (), {})()
    smk.input = Namedlist(fromdict=input)
    smk.output = Namedlist(fromdict=output)
    smk.params = Namedlist(fromdict=params or {})
    smk.log = Namedlist([str(tmp_path / f"{name}.log")])
    smk.threads = threads
    smk.wildcards = Namedlist()
    runpy.run_path(str(SCRIPTS / name), init_globals={"snakemake": smk})


def test_scripts_write_what_the_cli_writes(world, tmp_path, capsys):
    main(_align_args(world, tmp_path / "cli.vec"))
    _run_script(
        "zhao2020_align.py",
        tmp_path,
        input={"src": str(world / "src.vec"), "tgt": str(world / "tgt.vec"),
               "dico_train": str(world / "train.txt")},
        output={"vec": str(tmp_path / "s.vec"), "matrix": str(tmp_path / "s.npy"),
                "summary": str(tmp_path / "s.json")},
        params={"rcsls": {k: v for k, v in CONFIG.to_dict().items() if k != "seed"}, "seed": 4},
    )  # fmt: skip
    assert (tmp_path / "s.vec").read_bytes() == (tmp_path / "cli.vec").read_bytes()
    assert len(json.loads((tmp_path / "s.json").read_text())["losses"]) == 4
    _run_script(
        "zhao2020_bli.py",
        tmp_path,
        input={"src": str(tmp_path / "s.vec"), "tgt": str(world / "tgt.vec"),
               "dico_test": str(world / "test.txt")},
        output={"json": str(tmp_path / "bli.json")},
        # the section as the workflow passes it: the schema's defaults, then the config's
        params={"bli": {**section_defaults("zhao2020")["bli"], "maxload": 250, "device": "cpu"}},
    )  # fmt: skip
    saved = json.loads((tmp_path / "bli.json").read_text())
    assert f"{saved['csls']['accuracy']:.2f}%" in capsys.readouterr().out
    _run_script(
        "inbias.py",
        tmp_path,
        input={"vec": str(world / "src.vec"), "male_occupations": str(world / "en_male_def_occ"),
               "female_occupations": str(world / "en_female_def_occ"),
               "seeds": str(world / "en_gender_pairs.json")},
        output={"json": str(tmp_path / "ib.json"), "scores": str(tmp_path / "ib.csv")},
        params={"inbias": {**section_defaults("zhao2020")["inbias"], "variant": "pairwise",
                           "n_strong": 1}},
    )  # fmt: skip
    scores = pd.read_csv(tmp_path / "ib.csv")
    assert scores["masculine"].tolist() == ["actor", "doctor", "nurse"]
    expected = inbias(read_vec(world / "src.vec"), OCCUPATIONS, SEEDS, "pairwise")
    np.testing.assert_allclose(scores["score"], expected.scores, rtol=1e-15)
    _run_script(
        "zhao2020_debias.py",
        tmp_path,
        input={"vec": str(world / "src.vec"), "definitional": str(world / "defs.json"),
               "gender_specific": str(world / "specific.json"),
               "equalize": str(world / "equalize.json")},
        output={"vec": str(tmp_path / "deb.vec"), "summary": str(tmp_path / "deb.json")},
    )  # fmt: skip
    assert json.loads((tmp_path / "deb.json").read_text())["equalized"] == [["actor", "actress"]]


def test_demo_list_script(tmp_path):
    _run_script(
        "demo_embedding_lists.py",
        tmp_path,
        input={},
        output={"dictionaries": str(tmp_path / "dicts"), "mibs": str(tmp_path / "mibs")},
        params={"languages": ["en", "de"], "seed": 3},
    )
    assert sorted(p.name for p in (tmp_path / "dicts").iterdir()) == [
        "de-en.0-5000.txt", "de-en.5000-6500.txt", "en-de.0-5000.txt", "en-de.5000-6500.txt",
    ]  # fmt: skip
    assert (tmp_path / "mibs" / "de_male_def_occ").read_text().startswith("king\tkönig\n")


def test_the_align_steps_import_neither_pandas_nor_scipy_stats():
    # `mgbias align` on a GPU node: pandas and scipy.stats took 2.9 s and 2.2 s to import
    # there, and aligning needs neither (inBias's table and t-test import them)
    code = (
        "import sys; import mgbias.cli.main, mgbias.cli.provenance, mgbias.embeddings.steps, "
        "mgbias.embeddings.rcsls, mgbias.embeddings.vectors; "
        "print('pandas' in sys.modules, 'scipy.stats' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False False", result.stderr


def test_align_refuses_a_test_dictionary_that_does_not_fit_before_writing(world, tmp_path, capsys):
    # the test dictionary read the wrong way round: refused before training, nothing written
    swapped = tmp_path / "swapped.txt"
    write_dictionary(swapped, [(t, s) for s, t in read_dictionary(world / "test.txt")])
    argv = _align_args(world, tmp_path / "out.vec")
    argv[argv.index("--dico-test") + 1] = str(swapped)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{swapped} on {world / 'src.vec'} -> {world / 'tgt.vec'}: 0 of 61 source words" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["swapped.txt"]
