"""The command line as one tool: help text and a shown default for every option, one name
per concept (old spellings parse the same, hidden from --help), the device choices written
once, values and output paths checked before a model loads, and --version / --help from a
source tree without installed metadata."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from mgbias.cli.main import build_parser, main
from mgbias.cli.options import DEVICE_CHOICES, HIDDEN_ALIASES, HelpFormatter

REPO = Path(__file__).resolve().parents[3]


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _options(command: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in command._actions if not isinstance(a, argparse._HelpAction)]


def test_every_option_has_help_and_a_shown_default():
    formatter = HelpFormatter("mgbias")
    missing, no_default = [], []
    for name, command in _commands().items():
        for action in _options(command):
            label = f"{name} {'/'.join(action.option_strings) or action.dest}"
            if not (action.help or "").strip():
                missing.append(label)
                continue
            shown = formatter._get_help_string(action)
            flag = action.nargs == 0
            if not (action.required or flag or not action.option_strings or "default" in shown):
                no_default.append(label)
    assert not missing, f"options without help text: {missing}"
    assert not no_default, f"options whose default is not shown: {no_default}"


def test_help_shows_defaults_and_no_markup(capsys):
    for name in ["", *_commands()]:
        with pytest.raises(SystemExit) as done:
            build_parser().parse_args([name, "--help"] if name else ["--help"])
        assert done.value.code == 0
        text = capsys.readouterr().out
        assert "``" not in text and ":func:" not in text and ":mod:" not in text, name
    assert "``" not in build_parser().description
    with pytest.raises(SystemExit):
        build_parser().parse_args(["score", "--help"])
    score = capsys.readouterr().out
    assert re.search(r"--batch-size BATCH_SIZE\s+sentences per forward pass \(default: 64\)",
                     score), score  # fmt: skip
    flat = " ".join(score.split())  # help lines wrap at the terminal's width
    assert "(default: gender)" in flat and "(default: auto)" in flat


def test_device_choices_are_written_once():
    commands = _commands()
    devices = {
        name: tuple(action.choices)
        for name, command in commands.items()
        for action in command._actions
        if "--device" in action.option_strings
    }
    assert set(devices) >= {"score", "tbs", "probe", "finetune", "align", "bli"}
    assert set(devices.values()) == {DEVICE_CHOICES}


# (command, new spelling, old spelling, value); the rest of each command line is shared
ALIASES = [
    ("align", "--source-vectors", "--src-emb", "a.vec"),
    ("align", "--target-vectors", "--tgt-emb", "b.vec"),
    ("align", "--batch-size", "--batchsize", "100"),
    ("bli", "--source-vectors", "--src-emb", "a.vec"),
    ("bli", "--target-vectors", "--tgt-emb", "b.vec"),
    ("debias", "--vectors", "--emb", "a.vec"),
    ("inbias", "--vectors", "--emb", "a.vec"),
    ("probe", "--text", "--corpus", "text.txt"),
    ("tbs", "--female-words", "--female", "en_female"),
    ("tbs", "--male-words", "--male", "en_male"),
    ("gendered-text", "--female-words", "--female", "en_female"),
    ("gendered-text", "--male-words", "--male", "en_male"),
]

BASE = {
    "align": ["--source-vectors", "s.vec", "--target-vectors", "t.vec", "--dico-train",
              "train.dico", "--output", "out.vec"],
    "bli": ["--source-vectors", "s.vec", "--target-vectors", "t.vec", "--dico-test",
            "test.dico"],
    "debias": ["--vectors", "s.vec", "--output", "out.vec"],
    "inbias": ["--vectors", "s.vec", "--male-occupations", "m", "--female-occupations", "f",
               "--seeds", "seeds.json"],
    "probe": ["--model", "tiny-mlm", "--text", "t.txt"],
    "tbs": ["--model", "tiny-mlm", "--female-words", "f", "--male-words", "m"],
    "gendered-text": ["--text", "t.txt", "--output", "out"],
}  # fmt: skip


@pytest.mark.parametrize(("command", "new", "old", "value"), ALIASES)
def test_old_spellings_parse_to_the_same_namespace(command, new, old, value, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    new_args = parser.parse_args([command, *BASE[command], new, value])
    old_args = parser.parse_args([command, *BASE[command], old, value])
    assert vars(new_args) == vars(old_args)
    dest = parser._subparsers._group_actions[0].choices[command]._option_string_actions[new].dest
    value_of = {value, Path(value), int(value) if value.isdigit() else value}
    got = getattr(new_args, dest)
    assert (got[0] if isinstance(got, list) else got) in value_of


def test_old_spellings_are_hidden_from_help(capsys):
    build_parser()  # the parser's commands register their old spellings as they are added
    assert {old for aliases in HIDDEN_ALIASES.values() for old in aliases} >= {
        old for _, _, old, _ in ALIASES
    }
    for command, new, old, _ in ALIASES:
        with pytest.raises(SystemExit):
            build_parser().parse_args([command, "--help"])
        text = capsys.readouterr().out
        assert new in text
        assert not re.search(rf"{re.escape(old)}(?![\w-])", text), (command, old)


def test_female_and_male_are_files_in_mix_gendered_text(tmp_path):
    args = build_parser().parse_args(
        ["mix-gendered-text", "--female", "f.txt", "--male", "m.txt", "--r", "0.5", "--output",
         str(tmp_path / "mix.txt")]
    )  # fmt: skip
    assert args.female == Path("f.txt") and args.male == Path("m.txt")


SCORE = ["score", "--model", "no-such-model-dir", "--data", "pairs.csv"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--batch-size", "0"], "argument --batch-size: must be at least 1, got 0"),
        (["--batch-size", "x"], "argument --batch-size: expected an integer, got 'x'"),
        (["--max-length", "-3"], "argument --max-length: must be at least 1, got -3"),
        (["--alpha", "0"], "argument --alpha: must lie strictly between 0 and 1, got 0"),
        (["--alpha", "1"], "argument --alpha: must lie strictly between 0 and 1, got 1"),
        (["--alpha", "nan"], "argument --alpha: expected a finite number, got 'nan'"),
        (["--output", "."], "argument --output: '.' is a directory; expected a file name"),
        (["--output", "out/"], "argument --output: 'out/' is a directory"),
        (["--per-pair", "blocker/sub/pairs.csv"],
         "blocker is a file, so the directory blocker/sub cannot be created"),
    ],
)  # fmt: skip
def test_bad_values_are_refused_before_the_model_loads(
    extra, message, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    Path("blocker").write_text("a file\n", encoding="utf-8")
    Path("pairs.csv").write_text("sent_more,sent_less\n", encoding="utf-8")
    assert main([*SCORE, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "no-such-model-dir" not in err  # the model was never looked at


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_directory_is_refused(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        code = main([*SCORE, "--output", str(locked / "new" / "scores.csv")])
    finally:
        locked.chmod(0o700)
    assert code == 2
    assert f"the directory above it, {locked} is not writable" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["finetune", "--model", "m", "--text", "t.txt", "--output", "blocker"],
         "argument --output: blocker is a file; expected a directory"),
        (["finetune", "--model", "m", "--text", "t.txt", "--output", "o", "--epochs", "0"],
         "argument --epochs: must be at least 1, got 0"),
        (["finetune", "--model", "m", "--text", "t.txt", "--output", "o", "--lr", "-1"],
         "argument --lr: must be greater than 0, got -1"),
        (["gendered-text", "--text", "t.txt", "--output", "o", "--n-dev", "-1"],
         "argument --n-dev: must not be negative, got -1"),
        (["mix-gendered-text", "--female", "f", "--male", "m", "--r", "1.5", "--output", "x"],
         "argument --r: must lie between 0 and 1, got 1.5"),
        (["probe", "--model", "m", "--text", "t.txt", "--runs", "0"],
         "argument --runs: must be at least 1, got 0"),
        (["align", *BASE["align"][:-1], "."], "argument --output: '.' is a directory"),
        (["bli", *BASE["bli"], "--knn", "0"], "argument --knn: must be at least 1, got 0"),
        (["tbs", "--model", "m", "--top-k", "0"], "argument --top-k: must be at least 1, got 0"),
        (["tbs", "--model", "m", "--female-words", "en_female"],
         "give both --female-words and --male-words, or neither"),
    ],
)  # fmt: skip
def test_every_command_checks_before_it_loads(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("blocker").write_text("a file\n", encoding="utf-8")
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_score_refuses_a_file_of_another_language(tmp_path, capsys):
    data = tmp_path / "cps_translated_de_formatted.csv"
    data.write_text(
        "ID,A_en,B_en,A_x,B_x,stereo_antistereo,bias_type\n"
        "1,He is here.,She is here.,Er ist hier.,Sie ist hier.,stereo,gender\n",
        encoding="utf-8",
    )
    argv = ["score", "--model", "no-such-model-dir", "--data", str(data), "--lang", "fr"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"mgbias: {data}: the file name says language 'de'" in err
    assert "--force-lang" in err and "no-such-model-dir" not in err
    # --force-lang gets past the check: what fails now is the model directory
    assert main([*argv, "--force-lang"]) == 2
    assert "no-such-model-dir" in capsys.readouterr().err


def _site_without_mgbias(tmp_path: Path) -> Path:
    """The environment's site-packages as links, less mgbias's installed metadata."""
    site = tmp_path / "site"
    site.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if "mgbias" not in entry.name.lower():
            (site / entry.name).symlink_to(entry)
    return site


def test_version_and_help_from_a_source_tree(tmp_path):
    tree = tmp_path / "checkout"
    # without the metadata an editable install leaves in the checkout (src/mgbias.egg-info)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.dist-info")
    shutil.copytree(REPO / "src", tree / "src", ignore=ignore)
    shutil.copy(REPO / "pyproject.toml", tree / "pyproject.toml")
    site = _site_without_mgbias(tmp_path)
    prelude = f"import sys; sys.path[:0] = [{str(tree / 'src')!r}, {str(site)!r}]; "
    probe = prelude + (
        "import importlib.metadata as m, mgbias\n"
        "try: m.version('mgbias')\nexcept m.PackageNotFoundError: print('no metadata')\n"
        "print(mgbias.__file__)"
    )
    # -I: no user site, no PYTHONPATH; -S: no site-packages (the editable install's finder)
    run = [sys.executable, "-I", "-S", "-c"]
    done = subprocess.run([*run, probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["no metadata", str(tree / "src/mgbias/__init__.py")]
    cli = prelude + "from mgbias.cli.main import main; raise SystemExit(main(sys.argv[1:]))"
    version = subprocess.run([*run, cli, "--version"], capture_output=True, text=True)
    assert version.returncode == 0, version.stderr
    expected = re.search(r'^version = "(.+)"$', (REPO / "pyproject.toml").read_text(), re.M)
    assert version.stdout.strip() == f"mgbias {expected.group(1)}"
    helped = subprocess.run([*run, cli, "score", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0, helped.stderr
    assert "--batch-size" in helped.stdout and "Traceback" not in helped.stderr


def test_python_dash_m_runs_the_command(tmp_path):
    """``python -m mgbias`` is the ``mgbias`` command: its exit statuses and its name."""
    run = [sys.executable, "-m", "mgbias"]
    version = subprocess.run([*run, "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("mgbias "), version.stderr
    wrong = subprocess.run([*run, "nope"], capture_output=True, text=True, cwd=tmp_path)
    assert wrong.returncode == 2 and "mgbias: error: argument COMMAND" in wrong.stderr
    assert "Traceback" not in wrong.stderr


class _InterruptedImport:
    """A meta path finder: Ctrl-C arrives while ``mgbias.cli.main`` loads."""

    def find_spec(self, name, path, target=None):
        if name == "mgbias.cli.main":
            raise KeyboardInterrupt
        return None


def test_ctrl_c_while_the_command_line_loads_is_one_line(monkeypatch, capsys):
    from mgbias.cli.launch import main as launch

    monkeypatch.delitem(sys.modules, "mgbias.cli.main", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_InterruptedImport(), *sys.meta_path])
    assert launch() == 130
    assert capsys.readouterr().err == "mgbias: interrupted: nothing was written\n"


def test_the_entry_point_runs_the_command(monkeypatch, capsys):
    from mgbias.cli.launch import main as launch

    monkeypatch.setattr(sys, "argv", ["mgbias", "--version"])
    assert launch() == 0
    assert capsys.readouterr().out.startswith("mgbias ")


def test_version_without_pyproject_is_unknown(tmp_path):
    from mgbias._version import version

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9"\n')
    assert version(tmp_path / "missing.toml") in ("unknown", _installed())
    assert version(tmp_path / "pyproject.toml") in ("unknown", _installed())


def _installed() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("mgbias")
    except PackageNotFoundError:
        return "not installed"


def _documented_commands() -> list[list[str]]:
    """The ``mgbias ...`` command lines of docs/cli.md's bash blocks, continuation lines joined."""
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            if line.startswith("mgbias "):
                lines.append(shlex.split(line)[1:])
    return lines


def test_every_command_is_documented_with_an_example():
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    examples = {argv[0] for argv in _documented_commands()}
    for name in _commands():
        assert f"\n## {name}\n" in text, f"docs/cli.md has no section for {name}"
        assert name in examples, f"docs/cli.md has no example of mgbias {name}"


def test_documented_examples_parse(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = _commands()
    parsed = 0
    for argv in _documented_commands():
        if argv[0] in commands:  # a command added elsewhere is checked where it is defined
            build_parser().parse_args(argv)
            parsed += 1
    assert parsed >= len(commands)


def test_missing_inputs_and_overwritten_inputs_are_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("src.vec").write_text("1 2\nhe 0 1\n", encoding="utf-8")
    argv = ["align", "--source-vectors", "src.vec", "--target-vectors", "tgt.vec",
            "--dico-train", "train.dico", "--output", "aligned.vec"]  # fmt: skip
    assert main(argv) == 2
    assert "mgbias: --target-vectors tgt.vec: no such file" in capsys.readouterr().err
    assert main(["debias", "--vectors", "src.vec", "--output", "src.vec"]) == 2
    err = capsys.readouterr().err
    assert "src.vec is both --vectors and --output: it would be overwritten" in err
    assert Path("src.vec").read_text(encoding="utf-8") == "1 2\nhe 0 1\n"
    text = ["finetune", "--model", "m", "--text", "a.txt", "missing.txt", "--output", "o"]
    Path("a.txt").write_text("a line\n", encoding="utf-8")
    assert main(text) == 2
    assert "mgbias: --text missing.txt: no such file" in capsys.readouterr().err
