"""The public API (`import mgbias`) and `mgbias mbe`, on the tiny models.

Two models: the fixed-weight BERT (tests/fixtures/tiny_models.py; "he" beats
"she" by p(he) = .3 > p(she) = .2 whatever the context, so the pair measures
are known by hand: AUL, AULA, SSS 100 %, CPS 0 % (all ties)), and a seeded
random BERT saved to a directory (``tiny_mlm_dir``) whose sentence embeddings
differ, as MBE's cosine weights need.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml

import mgbias
from mgbias.cli.main import main
from mgbias.measures.registry import measures, verdict

MALE = ["he is a doctor .", "the man works here .", "he is a nurse .", "the actor works ."]
FEMALE = ["she is a doctor .", "the woman works here .", "she is a nurse ."]


@pytest.fixture(scope="module")
def tiny_mlm_dir(tmp_path_factory):
    from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer

    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer))
    return save_pretrained(model, tokenizer, tmp_path_factory.mktemp("tiny-mlm"))


@pytest.fixture(scope="module")
def tiny_mlm(tiny_mlm_dir):
    return mgbias.load_model(tiny_mlm_dir, device="cpu")


@pytest.fixture()
def sentence_files(tmp_path):
    male, female = tmp_path / "male.txt", tmp_path / "female.txt"
    male.write_text("\n".join(MALE) + "\n", encoding="utf-8")
    female.write_text("\n\n".join(FEMALE) + "\n", encoding="utf-8")  # blank lines skipped
    return male, female


@pytest.fixture()
def crows_csv(tmp_path):
    path = tmp_path / "crows.csv"
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "he is", "he is a doctor", "he works here"],
            "sent_less": ["she is a doctor", "she is", "she is", "she works here"],
            "stereo_antistereo": ["stereo", "antistereo", "stereo", "stereo"],
            "bias_type": ["gender", "gender", "race-color", "age"],
        }
    ).to_csv(path, index=False)
    return path


#: The fixed BERT knows neither "works" nor "here": 4 of crows_csv's 24 word pieces are
#: [UNK] (16.7 %, above mgbias.mlm.gate.MAX_UNK_SHARE), so its tests over every bias
#: type allow them.
ALLOW_UNK = {"allow_unk": True}


def test_import_is_cheap_and_names_are_public():
    code = (
        "import sys, mgbias; from mgbias.cli.main import build_parser; build_parser(); "
        "print('torch' in sys.modules, 'jsonschema' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    # jsonschema: only where a configuration or the benchmark list is checked
    assert result.stdout.strip() == "False False", result.stderr
    for name in mgbias.__all__:
        assert not name.startswith("_")
        assert getattr(mgbias, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        mgbias.nothing  # noqa: B018


PUBLIC_NAMES = {
    *("load_model", "load_pair_data", "read_sentences", "score_pairs", "mbe", "mine"),
    *("tbs", "probe", "align", "bli", "inbias", "debias"),
    *("finetune_mlm", "gendered_text", "mix_gendered_text", "extract_bios"),
    *("MaskedLM", "PairsReport", "MBEReport", "MinedSentences", "TBSReport", "ProbeReport"),
    *("AlignReport", "BLIReport", "InBiasReport", "DebiasReport"),
    *("FineTunedModel", "GenderedText", "MixedText", "BiosDataset"),
}

#: The API function each command calls (check-config and share are workflow tools).
COMMANDS = {
    "score": "score_pairs", "mbe": "mbe", "tbs": "tbs", "probe": "probe",
    "align": "align", "bli": "bli", "inbias": "inbias", "debias": "debias",
    "finetune": "finetune_mlm", "gendered-text": "gendered_text",
    "mix-gendered-text": "mix_gendered_text", "bios-extract": "extract_bios",
}  # fmt: skip


def test_public_names_are_not_shadowed_by_subpackages():
    """``mgbias.finetune`` is a subpackage: once imported it would hide a function of that
    name, so no public name is the name of a module of the package."""
    import importlib
    import pkgutil

    assert set(mgbias.__all__) == PUBLIC_NAMES
    modules = {info.name for info in pkgutil.iter_modules(mgbias.__path__)}
    assert not PUBLIC_NAMES & modules
    for name in ("mgbias.finetune.train", "mgbias.finetune.probe", "mgbias.bios.pipeline"):
        importlib.import_module(name)
    for name in mgbias.__all__:
        assert not inspect.ismodule(getattr(mgbias, name)), name


#: Each command's smallest call: the files are made empty, the model folder too; no
#: command reads them before it calls its function.
THIN_CALLS = {
    "score": ["--model", "m", "--data", "d.csv"],
    "mbe": ["--model", "m", "--male", "male.txt", "--female", "female.txt"],
    "tbs": ["--model", "m"],
    "probe": ["--model", "m", "--text", "t.txt"],
    "align": ["--source-vectors", "s.vec", "--target-vectors", "t.vec", "--dico-train", "d.txt",
              "--output", "o.vec"],
    "bli": ["--source-vectors", "s.vec", "--target-vectors", "t.vec", "--dico-test", "d.txt"],
    "inbias": ["--vectors", "s.vec", "--male-occupations", "male.txt", "--female-occupations",
               "female.txt", "--seeds", "d.txt"],
    "debias": ["--vectors", "s.vec", "--output", "o.vec"],
    "finetune": ["--model", "m", "--text", "t.txt", "--output", "out"],
    "gendered-text": ["--text", "t.txt", "--output", "o.txt"],
    "mix-gendered-text": ["--female", "female.txt", "--male", "male.txt", "--r", "0.5",
                          "--output", "o.txt"],
    "bios-extract": ["--wet", "w.wet.gz", "--lang", "en", "--output", "o.csv"],
}  # fmt: skip


class _Reached(BaseException):
    """Raised by a stand-in for a public function (no command catches it)."""


def test_every_command_has_one_smallest_call():
    from mgbias.cli.main import build_parser

    parser = build_parser()
    (commands,) = (a for a in parser._actions if hasattr(a, "choices") and a.choices)
    assert set(commands.choices) == {*COMMANDS, "check-config", "share"}
    assert set(THIN_CALLS) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_is_a_thin_layer_over_the_api(command, tmp_path, monkeypatch):
    """Each command parses its options and calls its public function with them (the
    function is replaced by one that records the call): parse, call, print, write."""
    import importlib

    import mgbias.api
    from mgbias.cli.main import main

    monkeypatch.chdir(tmp_path)
    for name in ("d.csv", "male.txt", "female.txt", "t.txt", "s.vec", "t.vec", "d.txt"):
        (tmp_path / name).write_text(f"{name}\n", encoding="utf-8")  # distinct bytes
    (tmp_path / "w.wet.gz").write_bytes(b"")
    (tmp_path / "m").mkdir()
    function = COMMANDS[command]
    module = importlib.import_module(mgbias.api._MODULES[function])

    def stand_in(*args, **kwargs):
        raise _Reached(args, kwargs)

    monkeypatch.setattr(module, function, stand_in)
    with pytest.raises(_Reached) as reached:
        main([command, *THIN_CALLS[command]])
    passed = repr(reached.value.args)
    first_value = THIN_CALLS[command][1]
    assert f"'{first_value}'" in passed or f"/{first_value}'" in passed, (command, passed)
    assert callable(getattr(mgbias, function))


def test_default_word_lists_are_the_workflows(repo):
    schema = yaml.safe_load((repo / "src/mgbias/resources/schema.yaml").read_text())
    lists = schema["properties"]["wordlists"]["properties"]
    from mgbias.api.mlm import DEFAULT_FEMALE_WORDS, DEFAULT_MALE_WORDS

    assert list(DEFAULT_FEMALE_WORDS) == lists["female"]["default"]
    assert list(DEFAULT_MALE_WORDS) == lists["male"]["default"]


# ----------------------------------------------------------------------------- verdicts


@pytest.mark.parametrize(
    ("name", "score", "p_value", "expected"),
    [
        (
            "aula",
            46.5,
            0.007,
            "AULA 46.5 (p = 0.007, 262 pairs): the model prefers the anti-stereotypical sentence",
        ),
        (
            "cps",
            61.25,
            0.0004,
            "CPS 61.25 (p = 0.0004, 262 pairs): the model prefers the stereotypical sentence",
        ),
        # S_JSD: negative = the stereotypical sentence is closer to the model
        (
            "sjsd",
            -0.0061,
            0.001,
            "S_JSD -0.0061 (p = 0.001, 262 pairs): the model prefers the stereotypical sentence",
        ),
        (
            "sjsd",
            0.0061,
            0.001,
            "S_JSD 0.0061 (p = 0.001, 262 pairs): the model prefers the anti-stereotypical "
            "sentence",
        ),
        (
            "aul",
            58.0,
            0.05,
            "AUL 58 (p = 0.05, 262 pairs): no significant preference at alpha = 0.05",
        ),
        (
            "aul",
            58.0,
            float("nan"),
            "AUL 58 (p = nan, 262 pairs): no significant preference at alpha = 0.05",
        ),
    ],
)
def test_verdict_direction_comes_from_the_registry(name, score, p_value, expected):
    assert verdict(name, score, p_value, alpha=0.05, sample="262 pairs") == expected


def test_verdict_of_mbe_and_measures_without_a_direction():
    text = verdict("mbe", 38.0, 0.001, sample="400 male and 400 female sentences")
    assert text.endswith("the model prefers the female sentences")
    assert verdict("mbe", 61.2, 0.003).endswith("the model prefers the male sentences")
    with pytest.raises(ValueError, match="'inbias' has no direction"):
        verdict("inbias", 0.08, 0.01)
    with pytest.raises(ValueError, match="unknown measure 'xyz'"):
        verdict("xyz", 50, 0.5)
    # every pair measure has a direction; the share measures are neutral at 50
    for measure in measures():
        if measure.kind == "pair":
            assert measure.neutral == (0.0 if measure.name == "sjsd" else 50.0)
            assert {measure.above, measure.below} == {
                "the stereotypical sentence",
                "the anti-stereotypical sentence",
            }


# ----------------------------------------------------------------------------- pairs


def test_score_pairs_per_bias_type_sums_to_the_overall_row(fixed_bert_dir, crows_csv):
    report = mgbias.score_pairs(
        fixed_bert_dir, crows_csv, bias_type="all", device="cpu", **ALLOW_UNK
    )
    summary = report.summary
    assert list(dict.fromkeys(summary.bias_type)) == ["gender", "race-color", "age", "all"]
    for measure, rows in summary.groupby("measure"):
        by_type = rows.set_index("bias_type")
        assert by_type.loc["all", "n"] == by_type.drop("all").n.sum(), measure
    # by hand: 4 pairs, he beats she on AUL/AULA/SSS; CPS ties throughout
    overall = summary[summary.bias_type == "all"].set_index("measure")
    assert overall.loc["aula", "n"] == 4
    assert overall.loc["aula", "score"] == pytest.approx(100.0)
    assert overall.loc["cps", "score"] == pytest.approx(0.0)
    assert report.per_pair.bias_type.tolist() == ["gender", "gender", "race-color", "age"]
    assert report.verdicts[0].startswith(
        "gender: AUL 100 (p = 0.5, 2 pairs): 2 untied pairs cannot give p below alpha"
    )
    assert "bias_type" in report.table()


def test_a_bias_type_row_equals_scoring_that_bias_type_alone(fixed_bert_dir, crows_csv):
    model = mgbias.load_model(fixed_bert_dir, device="cpu")
    every = mgbias.score_pairs(model, crows_csv, bias_type="all", seed=3, **ALLOW_UNK).summary
    alone = mgbias.score_pairs(model, crows_csv, bias_type="gender", seed=3)
    gender = every[every.bias_type == "gender"].reset_index(drop=True)
    pd.testing.assert_frame_equal(gender, alone.summary)
    assert "bias_type" not in alone.table()


def test_score_pairs_takes_a_dataframe(fixed_bert_dir, crows_csv):
    model = mgbias.load_model(fixed_bert_dir, device="cpu")
    frame = pd.read_csv(crows_csv)
    from_frame = mgbias.score_pairs(model, frame, measures="aul,sss")
    from_file = mgbias.score_pairs(model, crows_csv, measures=["aul", "sss"])
    pd.testing.assert_frame_equal(from_frame.summary, from_file.summary)
    with pytest.raises(ValueError, match="no column 'sent_less'"):
        mgbias.score_pairs(model, frame.drop(columns="sent_less"))
    with pytest.raises(ValueError, match="unknown bias type 'religion'"):
        mgbias.score_pairs(model, frame, bias_type="religion")
    # printed, a report reads as the command line prints it: the table, then the verdicts
    lines = str(from_file).splitlines()
    assert lines[0].split("|")[1].strip() == "measure" and lines[2].startswith("| aul ")
    assert lines[-2:] == list(from_file.summary["verdict"])


def test_score_pairs_checks_options_before_loading(crows_csv):
    missing_model = "no/such-model-directory"
    with pytest.raises(ValueError, match="batch_size must be a positive integer, got 0"):
        mgbias.score_pairs(missing_model, crows_csv, batch_size=0)
    with pytest.raises(ValueError, match="unknown measure"):
        mgbias.score_pairs(missing_model, crows_csv, measures=["nope"])
    with pytest.raises(FileNotFoundError, match="nothing.csv"):
        mgbias.score_pairs(missing_model, "nothing.csv")
    with pytest.raises(ValueError, match="language 'xx' is not an ISO 639-1 code"):
        mgbias.score_pairs(missing_model, crows_csv, lang="xx")


def test_cli_score_refuses_an_unknown_language_before_loading(crows_csv, capsys):
    args = ["score", "--model", "no/such-model", "--data", str(crows_csv), "--lang", "english"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "mgbias: language 'english' is not an ISO 639-1 code (two letters, e.g. en, de, fr); "
        "give the language of the pairs' sentences"
    ]


def test_cli_score_all_prints_rows_and_verdicts(fixed_bert_dir, crows_csv, tmp_path, capsys):
    out, per_pair = tmp_path / "out.csv", tmp_path / "pairs.csv"
    args = ["score", "--model", str(fixed_bert_dir), "--data", str(crows_csv)]
    args += ["--bias-type", "all", "--output", str(out), "--per-pair", str(per_pair)]
    assert main([*args, "--device", "cpu"]) == 2  # 4 of 24 pieces [UNK] (ALLOW_UNK)
    assert "4 of 24 tokens (16.7%) are the tokenizer's unknown token" in capsys.readouterr().err
    assert main([*args, "--device", "cpu", "--allow-unk"]) == 0
    printed = capsys.readouterr().out
    assert "race-color: CPS: 1 of 1 pair tied: the measure could not decide" in printed
    table = pd.read_csv(out)
    assert table.columns[0] == "bias_type" and table.columns[-1] == "verdict"
    assert len(table) == 4 * 6
    assert pd.read_csv(per_pair).bias_type.tolist() == ["gender", "gender", "race-color", "age"]


def test_cli_score_refuses_an_output_directory_before_loading(crows_csv, tmp_path, capsys):
    args = ["score", "--model", "no/such-model", "--data", str(crows_csv)]
    assert main([*args, "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"argument --output: '{tmp_path}' is a directory; expected a file name" in err


# ----------------------------------------------------------------------------- MBE


def test_mbe_batched_equals_unbatched(tiny_mlm):
    batched = mgbias.mbe(tiny_mlm, MALE, FEMALE, batch_size=64, progress=False)
    one_by_one = mgbias.mbe(tiny_mlm, MALE, FEMALE, batch_size=1, progress=False)
    np.testing.assert_allclose(
        batched.per_sentence.aula, one_by_one.per_sentence.aula, rtol=1e-5, atol=1e-6
    )
    assert batched.score == pytest.approx(one_by_one.score, abs=1e-6)
    assert batched.p_value == one_by_one.p_value
    assert batched.shf == pytest.approx(one_by_one.shf, abs=1e-6)
    assert (batched.n_male, batched.n_female) == (4, 3)
    assert batched.per_sentence.gender.tolist() == ["female"] * 3 + ["male"] * 4


def test_mbe_of_swapped_sets_is_100_minus_mbe(tiny_mlm):
    result = mgbias.mbe(tiny_mlm, MALE, FEMALE, progress=False)
    swapped = mgbias.mbe(tiny_mlm, FEMALE, MALE, progress=False)
    # no AULA ties among these sentences, so I(A(f) > A(m)) = 1 - I(A(m) > A(f))
    assert len(set(result.per_sentence.aula)) == len(MALE) + len(FEMALE)
    assert swapped.score == pytest.approx(100.0 - result.score, abs=1e-6)
    # not significant for this model, so no group is preferred
    assert not result.significant and not swapped.significant
    assert result.preferred == swapped.preferred == "none"
    verdict_line, shf_line = str(result).splitlines()
    assert verdict_line == result.verdict and verdict_line.startswith(
        f"MBE {result.score:.4g} (p = "
    )
    assert shf_line.startswith(f"Shf {result.shf:.4g} (p = ")


def test_mbe_says_when_its_sentences_are_too_few_for_the_test(tiny_mlm):
    # 3 + 3 sentences: 20 labellings, each as extreme as its complement, so p >= 0.1
    few = mgbias.mbe(tiny_mlm, MALE[:3], FEMALE, progress=False)
    assert few.verdict.endswith(
        f"(p = {few.p_value:.2g}, 3 male and 3 female sentences): 3 male and 3 female "
        "sentences cannot give p below alpha = 0.05 (at best p = 0.1): the test, not the "
        "model, decides"
    )
    # 4 + 3: 35 labellings, one as extreme (p >= 0.029): the usual verdict
    assert mgbias.mbe(tiny_mlm, MALE, FEMALE, progress=False).verdict.endswith(
        "no significant preference at alpha = 0.05"
    )


def test_mbe_equals_eq2_on_its_own_per_sentence_scores(tiny_mlm):
    """Eq. 2 by a naive double loop over the AULA scores and the model's embeddings."""
    from mgbias.mlm.unmasked import score_unmasked

    result = mgbias.mbe(tiny_mlm, MALE, FEMALE, progress=False)
    passes = score_unmasked(tiny_mlm.model, tiny_mlm.tokenizer, FEMALE + MALE, progress=False)
    unit = passes.embeddings / np.linalg.norm(passes.embeddings, axis=1, keepdims=True)
    aula = result.per_sentence.aula.to_numpy()
    female, male = range(3), range(3, 7)
    numerator = sum(unit[m] @ unit[f] * (aula[m] > aula[f]) for m in male for f in female)
    denominator = sum(unit[m] @ unit[f] for m in male for f in female)
    assert result.score == pytest.approx(100 * numerator / denominator, rel=1e-6)


def test_mbe_from_files_equals_mbe_from_lists(tiny_mlm, sentence_files):
    male, female = sentence_files
    from_files = mgbias.mbe(tiny_mlm, male, female, progress=False)
    from_lists = mgbias.mbe(tiny_mlm, MALE, FEMALE, progress=False)
    assert from_files.to_dict() == from_lists.to_dict()


def test_cli_mbe_prints_and_writes_the_api_result(tiny_mlm_dir, sentence_files, tmp_path, capsys):
    male, female = sentence_files
    out, per_sentence = tmp_path / "mbe.csv", tmp_path / "sentences.csv"
    args = ["mbe", "--model", str(tiny_mlm_dir), "--male", str(male), "--female", str(female)]
    args += ["--seed", "7", "--permutations", "99", "--device", "cpu", "--output", str(out)]
    assert main([*args, "--per-sentence", str(per_sentence)]) == 0
    printed = capsys.readouterr().out
    expected = mgbias.mbe(tiny_mlm_dir, MALE, FEMALE, seed=7, permutations=99, device="cpu")
    assert printed.splitlines()[0] == expected.verdict
    assert printed.splitlines()[0].startswith(f"MBE {expected.score:.4g} (p = ")
    assert f"Shf {expected.shf:.4g}" in printed
    table = pd.read_csv(out)
    assert table.mbe[0] == pytest.approx(expected.score, rel=1e-5)
    assert table.p_value[0] == pytest.approx(expected.p_value)
    assert table.shf[0] == pytest.approx(expected.shf, rel=1e-5)
    assert (table.n_male[0], table.n_female[0], table.seed[0]) == (4, 3, 7)
    # not significant (35 labellings): `preferred` names no group, whatever the score
    assert expected.score != 50 and not expected.significant
    assert table.preferred[0] == expected.preferred == "none"
    rows = pd.read_csv(per_sentence)
    assert rows.columns.tolist() == ["gender", "sentence", "aula", "tokens"]
    # --output carries the sets' lengths: the mean tokens of each gender's rows
    male_rows = rows[rows.gender == "male"]
    assert table.length_male[0] == pytest.approx(male_rows.tokens.mean())
    assert table.length_lean[0] == expected.lengths.leans(expected.score, expected.alpha)
    assert rows.sentence.tolist() == FEMALE + MALE
    # the tokens AULA averages: the sentence's word pieces, without [CLS] and [SEP]
    from transformers import AutoTokenizer

    pieces = AutoTokenizer.from_pretrained(tiny_mlm_dir)
    assert rows.tokens.tolist() == [
        len(pieces(s, add_special_tokens=False)["input_ids"]) for s in FEMALE + MALE
    ]
    # every file written has its provenance sidecar, --per-sentence too
    sidecar = json.loads((tmp_path / "sentences.csv.provenance.json").read_text())
    assert sidecar["output"]["path"] == str(per_sentence) and sidecar["seed"] == 7
    assert set(sidecar["inputs"]) == {"male", "female"}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"--male": "missing.txt"}, "mgbias: --male {tmp}/missing.txt: no such file"),
        (
            {"--male": "empty.txt"},
            "mgbias: {tmp}/empty.txt: no sentences (expected a UTF-8 text file",
        ),
        ({"--female": "blank.txt"}, "mgbias: {tmp}/blank.txt: no sentences"),
        ({"--female": "."}, "mgbias: {tmp}: a directory (expected a UTF-8 text file"),
        (
            {"--female": "latin1.txt"},
            "mgbias: {tmp}/latin1.txt, line 2, column 8: byte 0xdf is not UTF-8",
        ),
        ({"--output": "."}, "argument --output: '{tmp}' is a directory; expected a file name"),
        (
            {"--per-sentence": "."},
            "argument --per-sentence: '{tmp}' is a directory; expected a file name",
        ),
        ({"--permutations": "9"}, "mgbias: n_permutations=9 can never give p < alpha=0.05"),
        ({"--alpha": "0"}, "argument --alpha: "),
    ],
)
def test_cli_mbe_bad_input_is_named_before_the_model_loads(
    sentence_files, tmp_path, capsys, monkeypatch, change, expected
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "blank.txt").write_text("\n  \n\n")
    (tmp_path / "latin1.txt").write_bytes("er ist Arzt\nsie hei\xdft Müller\n".encode("latin-1"))
    male, female = sentence_files
    options = {"--male": str(male), "--female": str(female), **change}
    options = {key: str(tmp_path / value) if value in (".",) or value.endswith(".txt") else value
               for key, value in options.items()}  # fmt: skip
    args = ["mbe", "--model", "no/such-model-directory"]
    for key, value in options.items():
        args += [key, value]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert expected.format(tmp=tmp_path) in err, err
    assert "Traceback" not in err and "such-model" not in err


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_cli_mbe_refuses_permutations_that_are_not_positive(sentence_files, capsys, value):
    male, female = sentence_files
    args = ["mbe", "--model", "m", "--male", str(male), "--female", str(female)]
    assert main([*args, "--permutations", value]) == 2
    err = capsys.readouterr().err
    assert "argument --permutations: " in err
    assert ("must be at least 1" if value != "many" else "expected an integer") in err


@pytest.mark.parametrize(
    "args",
    [
        ["--male", "m.txt"],
        ["--source", "en.txt", "--target", "de.txt"],
        ["--male", "m.txt", "--female", "f.txt", "--source", "en.txt"],
        [],
    ],
)
def test_cli_mbe_needs_one_kind_of_input(args, capsys):
    assert main(["mbe", "--model", "m", *args]) == 2
    assert "mgbias: " in capsys.readouterr().err


# ----------------------------------------------------------------------------- mining


@pytest.fixture()
def parallel(tmp_path):
    english = [
        "He is a doctor.",
        "She is a nurse.",
        "He and she work.",
        "The table is red.",
        "His brother works here.",
        "Her mother is a teacher.",
        "shepherds sleep",
    ]
    german = [
        "Er ist Arzt.",
        "Sie ist Krankenschwester.",
        "Er und sie arbeiten.",
        "Der Tisch ist rot.",
        "Sein Bruder arbeitet hier.",
        "Ihre Mutter ist Lehrerin.",
        "Hirten schlafen",
    ]
    source, target = tmp_path / "en.txt", tmp_path / "de.txt"
    source.write_text("\n".join(english) + "\n", encoding="utf-8")
    target.write_text("\n".join(german) + "\n", encoding="utf-8")
    return source, target


def test_mine_keeps_the_target_side_of_one_gender_sentences(parallel):
    mined = mgbias.mine(*parallel, "de")
    assert mined.male == ["Er ist Arzt.", "Sein Bruder arbeitet hier."]
    assert mined.female == ["Sie ist Krankenschwester.", "Ihre Mutter ist Lehrerin."]
    # "He is a doctor.", "His brother works here."; "She is a nurse.", "Her mother ..."
    assert mined.male_words == ["he", "brother|his"]
    assert mined.female_words == ["she", "her|mother"]
    counts = mined.counts
    assert (counts.n_pairs, counts.n_both, counts.n_neutral) == (7, 1, 2)
    assert counts.n_kept_per_gender == 2


def test_mine_downsamples_to_equal_sizes_and_checks_alignment(parallel, tmp_path):
    source, target = parallel
    source.write_text(source.read_text() + "He sleeps.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="de.txt: ended after 7 lines but .*en.txt has line 8"):
        mgbias.mine(source, target, "de")
    target.write_text(target.read_text() + "Er schläft.\n", encoding="utf-8")
    mined = mgbias.mine(source, target, "de", seed=1)
    assert len(mined.male) == len(mined.female) == 2
    words_of = {"Er ist Arzt.": "he", "Sein Bruder arbeitet hier.": "brother|his"}
    words_of["Er schläft."] = "he"
    assert mined.male_words == [words_of[sentence] for sentence in mined.male]
    assert set(mined.male) < {"Er ist Arzt.", "Sein Bruder arbeitet hier.", "Er schläft."}
    with pytest.raises(FileNotFoundError, match="nope.txt: no such file"):
        mgbias.mine(tmp_path / "nope.txt", target, "de")


def test_cli_mbe_mines_a_parallel_corpus_first(tiny_mlm_dir, parallel, tmp_path, capsys):
    source, target = parallel
    out = tmp_path / "mbe.csv"
    args = ["mbe", "--model", str(tiny_mlm_dir), "--source", str(source), "--target"]
    args += [str(target), "--lang", "de", "--device", "cpu", "--output", str(out)]
    args += ["--allow-unk"]  # German sentences, the tiny model's English vocabulary
    # 2 sentences a gender, each its own gender words: 4 groups, 6 labellings, never p < 0.05
    assert main(args) == 2
    captured = capsys.readouterr()
    assert "mined 7 lines" in captured.err and "kept 2 per gender" in captured.err
    assert "2 male and 2 female clusters allow only 6 distinct labellings" in captured.err
    assert "--units sentences" in captured.err and "Traceback" not in captured.err
    assert main([*args, "--units", "sentences"]) == 0
    assert "relabellings of sentences" in capsys.readouterr().out
    mined = mgbias.mine(source, target, "de")
    expected = mgbias.mbe(tiny_mlm_dir, mined.male, mined.female, device="cpu", allow_unk=True)
    assert pd.read_csv(out).mbe[0] == pytest.approx(expected.score, rel=1e-5)


def test_cli_mbe_reads_mined_sentences_with_or_without_their_gender_words(
    tiny_mlm_dir, tmp_path, capsys
):
    rows = [("male", "he is a doctor", "he"), ("male", "his brother works", "brother|his")]
    rows += [("female", "she is a doctor", "she"), ("female", "her sister works", "her|sister")]
    rows += [("male", "he reads", "he"), ("female", "she reads", "she")]
    plain, worded = tmp_path / "plain.tsv", tmp_path / "worded.tsv"
    plain.write_text("gender\tsentence\n" + "".join(f"{g}\t{s}\n" for g, s, _ in rows))
    worded.write_text(
        "gender\tsentence\tgender_words\n" + "".join(f"{g}\t{s}\t{w}\n" for g, s, w in rows)
    )
    base = ["mbe", "--model", str(tiny_mlm_dir), "--device", "cpu", "--allow-unk"]
    # the default units are the gender words, which a table without them cannot give
    assert main([*base, "--sentences", str(plain)]) == 2
    assert "plain.tsv: no gender_words column" in capsys.readouterr().err
    assert main([*base, "--sentences", str(plain), "--units", "sentences"]) == 0
    assert "relabellings of sentences" in capsys.readouterr().out
    # with them, the units are the groups of sentences that share gender words: he, his
    # brother / she, her sister: too few for a test at 0.05, which the command says
    assert main([*base, "--sentences", str(worded)]) == 2
    assert "2 male and 2 female clusters allow only" in capsys.readouterr().err
    out = tmp_path / "mbe.csv"
    assert (
        main([*base, "--sentences", str(worded), "--units", "sentences", "--output", str(out)]) == 0
    )
    expected = mgbias.mbe(
        tiny_mlm_dir,
        ["he is a doctor", "his brother works", "he reads"],
        ["she is a doctor", "her sister works", "she reads"],
        device="cpu",
        allow_unk=True,
    )
    assert pd.read_csv(out).mbe[0] == pytest.approx(expected.score, rel=1e-6)


def test_cli_mbe_checks_options_before_mining(tmp_path, capsys):
    args = ["mbe", "--model", "no/such-model", "--source", str(tmp_path / "en.txt")]
    args += ["--target", str(tmp_path / "de.txt"), "--lang", "de"]
    for side in ("en", "de"):
        (tmp_path / f"{side}.txt").write_text("no gender word here\n")
    assert main([*args, "--permutations", "9"]) == 2
    assert "n_permutations=9 can never give p < alpha=0.05" in capsys.readouterr().err
    (tmp_path / "en.txt").unlink()
    assert main(args) == 2
    assert capsys.readouterr().err == f"mgbias: --source {tmp_path / 'en.txt'}: no such file\n"


def test_mine_names_the_missing_gender(parallel):
    source, target = parallel
    lines = [
        line.replace("She", "He").replace("Her ", "His ") for line in source.read_text().split("\n")
    ]
    source.write_text("\n".join(lines))
    with pytest.raises(ValueError, match=r"en.txt: no English sentence with only female words "):
        mgbias.mine(source, target, "de")


def test_the_lazy_names_are_their_modules_public_names():
    """``mgbias/api/__init__.py`` names each public function's module without importing it;
    the table must not drift from the modules: every name is in its module's ``__all__``,
    the three other modules export nothing the package does not, and ``mgbias`` gives
    the same names."""
    import importlib
    from collections import defaultdict

    import mgbias.api

    by_module = defaultdict(set)
    for name, module in mgbias.api._MODULES.items():
        by_module[module].add(name)
    assert set(by_module) == {f"mgbias.api.{m}" for m in ("mlm", "probes", "embeddings", "data")}
    for module, names in by_module.items():
        exported = set(importlib.import_module(module).__all__)
        assert names <= exported, (module, names - exported)
        if module != "mgbias.api.mlm":  # it also exports its column lists and word-list defaults
            assert exported == names, (module, exported - names)
    assert sorted(mgbias.__all__) == sorted(mgbias.api.__all__) == sorted(mgbias.api._MODULES)
    for name in mgbias.__all__:
        assert getattr(mgbias, name) is getattr(mgbias.api, name)


def test_a_probe_report_names_what_it_could_not_score_and_why():
    from mgbias.api.probes import ProbeReport
    from mgbias.contextual.run import ProbeResults

    nan = float("nan")
    rows = [
        (2, "pca", "pc1", 0.86, 0.86, 0.86, 0.0, 330, 1),
        (2, "knn", "pearson_r", nan, nan, nan, nan, 13, 2),
        (2, "clustering", "accuracy", nan, nan, nan, nan, 0, 2),
        (0, "pca", "pc1", 0.5, 0.5, 0.5, 0.0, 330, 1),
    ]
    summary = {"layers": {"2": {"knn": {"k": 100, "degenerate": True}}}}
    report = ProbeReport(results=ProbeResults(rows, summary, {}), cache_hit=False)
    table = report.table().splitlines()
    # every measure computed is a row, in the order computed, a missing value as nan
    assert [line.split("|")[1].strip() for line in table[2:]] == [
        "('pca', 'pc1')",
        "('knn', 'pearson_r')",
        "('clustering', 'accuracy')",
    ]
    assert "nan" in table[3]
    assert report.unscored() == [
        "knn (layer 2): not scored: k = 100 neighbours of 13 professions are all the others, "
        "so the score says nothing about the vectors; pass --knn-k (knn_k) below 12",
        "clustering (layer 2): not scored: no value from 0 items",
    ]
    assert str(report).endswith(report.unscored()[-1])
