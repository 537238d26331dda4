"""No command or API function writes over its own input or over another of its outputs
(:mod:`mgbias.files.output_paths`): refused before any work, in one line naming both options,
with every input left as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import mgbias
from mgbias.cli.main import main
from mgbias.errors import InputError
from mgbias.files.output_paths import OutputPathError, check_output_paths

PAIRS = (
    "sent_more,sent_less,stereo_antistereo,bias_type\n"
    '"He is a doctor.","She is a doctor.",stereo,gender\n'
)
#: No such model: a command that got as far as loading it would say so.
MODEL = "no-such-model-dir"


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A working directory with one input of every kind, its bytes returned."""
    monkeypatch.chdir(tmp_path)
    contents = {
        "d.csv": PAIRS,
        "male.txt": "he is here .\n",
        "female.txt": "she is here .\n",
        "src.vec": "1 2\nhe 0 1\n",
        "tgt.vec": "1 2\nil 0 1\n",
        "dico.txt": "he il\n",
        "seeds.json": '[["she", "he"]]\n',
        "occ_m": "actor\n",
        "occ_f": "actress\n",
    }
    for name, text in contents.items():
        Path(name).write_text(text, encoding="utf-8")
    Path("model").mkdir()
    Path("model", "config.json").write_text("{}\n", encoding="utf-8")
    contents["model/config.json"] = "{}\n"
    return contents


def _refused(argv: list[str], message: str, files: dict[str, str], capsys) -> None:
    """``argv`` exits 2 with ``message`` as its only line, and changes no input."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"mgbias: {message}\n"
    assert MODEL not in err  # refused before the model was looked at
    for name, text in files.items():
        assert Path(name).read_text(encoding="utf-8") == text, name


SCORE = ["score", "--model", MODEL, "--data", "d.csv"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--output", "d.csv"], "d.csv is both --data and --output: it would be overwritten"),
        (["--per-pair", "./d.csv"], "d.csv is both --data and --per-pair: it would be overwritten"),
        (["--output", "sub/../d.csv"],
         "d.csv is both --data and --output (as sub/../d.csv): it would be overwritten"),
        (["--output", "x.csv", "--per-pair", "x.csv"],
         "x.csv is both --output and --per-pair: one would overwrite the other"),
        (["--output", "x.csv", "--per-pair", "./sub/../x.csv"],
         "x.csv is both --output and --per-pair (as sub/../x.csv): one would overwrite the other"),
    ],
)  # fmt: skip
def test_score_refuses_to_overwrite(extra, message, files, capsys):
    Path("sub").mkdir()
    _refused([*SCORE, *extra], message, files, capsys)
    assert not Path("x.csv").exists()


def test_an_absolute_path_a_symlink_and_a_hard_link_are_the_same_file(files, capsys):
    absolute = str(Path("d.csv").resolve())
    _refused([*SCORE, "--output", absolute], f"d.csv is both --data and --output (as "
             f"{absolute}): it would be overwritten", files, capsys)  # fmt: skip
    os.symlink("d.csv", "link.csv")
    _refused([*SCORE, "--per-pair", "link.csv"], "d.csv is both --data and --per-pair (as "
             "link.csv): it would be overwritten", files, capsys)  # fmt: skip
    os.link("d.csv", "hard.csv")
    _refused([*SCORE, "--output", "hard.csv"], "d.csv is both --data and --output (as "
             "hard.csv): it would be overwritten", files, capsys)  # fmt: skip
    # the input given through a link, the output by the target's own name
    _refused(["score", "--model", MODEL, "--data", "link.csv", "--output", "d.csv"],
             "link.csv is both --data and --output (as d.csv): it would be overwritten",
             files, capsys)  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["mbe", "--model", MODEL, "--male", "male.txt", "--female", "female.txt",
          "--per-sentence", "./female.txt"],
         "female.txt is both --female and --per-sentence: it would be overwritten"),
        (["mbe", "--model", MODEL, "--male", "male.txt", "--female", "female.txt",
          "--output", "m.csv", "--per-sentence", "m.csv"],
         "m.csv is both --output and --per-sentence: one would overwrite the other"),
        (["tbs", "--model", MODEL, "--targets", "male.txt", "--top", "male.txt"],
         "male.txt is both --targets and --top: it would be overwritten"),
        (["tbs", "--model", MODEL, "--output", "t.csv", "--summary", "t.csv"],
         "t.csv is both --output and --summary: one would overwrite the other"),
        (["probe", "--model", MODEL, "--text", "male.txt", "--cache", "male.txt"],
         "male.txt is both --text and --cache: it would be overwritten"),
        (["probe", "--model", MODEL, "--text", "male.txt", "--output", "p", "--summary", "p"],
         "p is both --output and --summary: one would overwrite the other"),
        (["score", "--model", "model", "--data", "d.csv", "--output", "model/config.json"],
         "model/config.json is --output and already inside --model model: it would be "
         "overwritten"),
        (["align", "--source-vectors", "src.vec", "--target-vectors", "tgt.vec",
          "--dico-train", "dico.txt", "--output", "a.vec", "--summary", "a.vec-mat.npy"],
         "a.vec-mat.npy is both --summary and the default --matrix: one would overwrite "
         "the other"),
        (["align", "--source-vectors", "src.vec", "--target-vectors", "tgt.vec",
          "--dico-train", "dico.txt", "--output", "a.vec", "--matrix", "./dico.txt"],
         "dico.txt is both --dico-train and --matrix: it would be overwritten"),
        (["bli", "--source-vectors", "src.vec", "--target-vectors", "tgt.vec",
          "--dico-test", "dico.txt", "--output", "./tgt.vec"],
         "tgt.vec is both --target-vectors and --output: it would be overwritten"),
        (["debias", "--vectors", "src.vec", "--output", "o.vec", "--summary", "o.vec"],
         "o.vec is both --output and --summary: one would overwrite the other"),
        (["inbias", "--vectors", "src.vec", "--male-occupations", "occ_m",
          "--female-occupations", "occ_f", "--seeds", "seeds.json", "--scores", "./occ_f"],
         "occ_f is both --female-occupations and --scores: it would be overwritten"),
        (["mix-gendered-text", "--female", "female.txt", "--male", "male.txt", "--r", "0.5",
          "--output", "./male.txt"],
         "male.txt is both --male and --output: it would be overwritten"),
        (["gendered-text", "--text", "out/female.txt", "--output", "out"],
         "out/female.txt is both --text and --output: it would be overwritten"),
        (["finetune", "--model", MODEL, "--text", "out/female.txt", "--output", "out"],
         "out/female.txt is --text and inside --output out, which is written as a whole: "
         "it would be deleted"),
        (["finetune", "--model", "model", "--text", "male.txt", "--output", "./model"],
         "model is both --model and --output: it would be overwritten"),
        (["bios-extract", "--wet", "male.txt", "--lang", "en", "--output", "male.txt"],
         "male.txt is both --wet and --output: it would be overwritten"),
    ],
)  # fmt: skip
def test_every_writing_command_refuses_to_overwrite(argv, message, files, capsys):
    Path("out").mkdir()
    Path("out", "female.txt").write_text("she is here .\n", encoding="utf-8")
    files["out/female.txt"] = "she is here .\n"
    _refused(argv, message, files, capsys)


def test_distinct_outputs_and_a_new_file_beside_an_input_pass(files):
    check_output_paths(
        {"--data": "d.csv", "--model": "model", "--lang": None, "--name": "a-hub-id"},
        {"--output": "model/scores.csv", "--per-pair": Path("p.csv"), "--top": None},
    )
    # an output directory beside its inputs, and one inside an input directory
    check_output_paths({"--text": ["male.txt", "female.txt"]}, {}, replaced={"--output": "out"})
    check_output_paths({"--model": "model"}, {}, replaced={"--output": "model/finetuned"})


def test_the_error_is_the_projects_input_error():
    assert issubclass(OutputPathError, InputError) and issubclass(OutputPathError, ValueError)


# ----------------------------------------------------------------------------- the API


def test_api_writers_refuse_to_overwrite(files):
    cases = [
        (lambda: mgbias.debias("src.vec", "./src.vec"),
         "src.vec is both vectors and output: it would be overwritten"),
        (lambda: mgbias.align("src.vec", "tgt.vec", "dico.txt", "a.vec", matrix="m.npy",
                              summary="m.npy"),
         "m.npy is both matrix and summary: one would overwrite the other"),
        (lambda: mgbias.bli("src.vec", "tgt.vec", "dico.txt", output=Path("dico.txt").resolve()),
         f"dico.txt is both dico_test and output (as {Path('dico.txt').resolve()}): it would "
         "be overwritten"),
        (lambda: mgbias.inbias("src.vec", "occ_m", "occ_f", "seeds.json", output="j",
                               scores="j"),
         "j is both output and scores: one would overwrite the other"),
        (lambda: mgbias.mix_gendered_text("female.txt", "male.txt", 0.5, "female.txt"),
         "female.txt is both female and output: it would be overwritten"),
        (lambda: mgbias.gendered_text(["male.txt", "out/male.txt"], "out"),
         "out/male.txt is both text and output: it would be overwritten"),
        (lambda: mgbias.finetune_mlm(MODEL, "out/male.txt", "out"),
         "out/male.txt is text and inside output out, which is written as a whole: it would "
         "be deleted"),
        (lambda: mgbias.extract_bios(["male.txt"], "en", "male.txt"),
         "male.txt is both wet and output: it would be overwritten"),
    ]  # fmt: skip
    Path("out").mkdir()
    Path("out", "male.txt").write_text("he is here .\n", encoding="utf-8")
    files["out/male.txt"] = "he is here .\n"
    for call, message in cases:
        with pytest.raises(OutputPathError) as caught:
            call()
        assert str(caught.value) == message
        for name, text in files.items():
            assert Path(name).read_text(encoding="utf-8") == text, name
    assert not Path("m.npy").exists() and not Path("j").exists()


def test_an_option_that_names_no_file_is_no_input(files, capsys):
    """``--lang en`` beside a directory ``en`` holding the last run's output: the guard
    lets it pass (the next check, of --precision, is what stops this command)."""
    Path("en").mkdir()
    Path("en", "t.csv").write_text("a previous result\n", encoding="utf-8")
    argv = ["tbs", "--model", MODEL, "--lang", "en", "--output", "en/t.csv",
            "--precision", "fp16", "--device", "cpu"]  # fmt: skip
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("mgbias: --precision fp16 needs a CUDA device")


SAME_SIDES = "the two sides of the comparison would be the same sentences"


@pytest.mark.parametrize(
    ("command", "female", "message"),
    [
        (["mbe", "--model", MODEL], "male.txt",
         f"male.txt is both --female and --male: {SAME_SIDES}"),
        (["mbe", "--model", MODEL], "sub/../male.txt",
         f"sub/../male.txt is both --female and --male (as male.txt): {SAME_SIDES}"),
        (["mix-gendered-text", "--r", "0.5", "--output", "d_r.txt"], "copy.txt",
         f"copy.txt (--female) and male.txt (--male) hold the same bytes: {SAME_SIDES}"),
    ],
)  # fmt: skip
def test_the_female_and_male_sentences_are_not_one_file(command, female, message, files, capsys):
    Path("sub").mkdir()
    Path("copy.txt").write_text(files["male.txt"], encoding="utf-8")
    _refused([*command, "--female", female, "--male", "male.txt"], message, files, capsys)
    with pytest.raises(InputError, match="hold the same bytes"):
        mgbias.mbe(MODEL, "male.txt", "copy.txt")
    with pytest.raises(InputError, match="is both female and male"):
        mgbias.mix_gendered_text("male.txt", "male.txt", 0.5, "d_r.txt")
    assert not Path("d_r.txt").exists()
