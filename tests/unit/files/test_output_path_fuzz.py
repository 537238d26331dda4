"""Output-path collisions, drawn by hypothesis, end in the project's one-line error and
leave every input as it was (:mod:`mgbias.files.output_paths`).

Each example takes one command that writes, gives every option its own file, then makes
one output the same file as an input or as another output, spelled another way: the same
name, ``./``, an absolute path, a ``..`` detour, a symbolic link, a hard link, or a path
through a linked directory. The command must exit 2 with one line naming both options,
before it reads or loads anything (its model does not exist), and every file must be
as it was. The guard runs before any model loads, so no model is needed.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mgbias.cli.main import main

MODEL = "no-such-model-dir"
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,  # the same cases every run: a failure is reproducible
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: command -> (fixed arguments, input options, output options)
COMMANDS: dict[str, tuple[list[str], list[str], list[str]]] = {
    "score": (["--model", MODEL], ["--data"], ["--output", "--per-pair"]),
    "mbe": (["--model", MODEL], ["--male", "--female"], ["--output", "--per-sentence"]),
    "tbs": (["--model", MODEL], ["--targets", "--templates"], ["--output", "--summary", "--top"]),
    "probe": (["--model", MODEL], ["--text", "--vectors"], ["--output", "--summary", "--cache"]),
    "align": (
        [],
        ["--source-vectors", "--target-vectors", "--dico-train", "--dico-test"],
        ["--output", "--matrix", "--summary"],
    ),
    "bli": ([], ["--source-vectors", "--target-vectors", "--dico-test"], ["--output"]),
    "debias": ([], ["--vectors", "--definitional", "--equalize"], ["--output", "--summary"]),
    "inbias": (
        [],
        ["--vectors", "--male-occupations", "--female-occupations", "--seeds", "--reference"],
        ["--output", "--scores"],
    ),
    "mix-gendered-text": (["--r", "0.5"], ["--female", "--male"], ["--output"]),
    "bios-extract": (["--lang", "en"], ["--wet", "--names"], ["--output"]),
}
SPELLINGS = ["same", "dot", "absolute", "detour", "symlink", "hardlink", "linked-dir"]


def _spell(name: str, how: str) -> str:
    """Another name of file ``name`` in the current directory, made as ``how`` says."""
    if how == "same":
        return name
    if how == "dot":
        return f"./{name}"
    if how == "absolute":
        return str(Path(name).resolve())
    if how == "detour":
        Path("sub").mkdir(exist_ok=True)
        return f"sub/../{name}"
    if how == "symlink":
        os.symlink(name, f"link-{name}")
        return f"link-{name}"
    if how == "hardlink":
        os.link(name, f"hard-{name}")
        return f"hard-{name}"
    os.symlink(".", "here")  # linked-dir: through a link to this directory
    return f"here/{name}"


@st.composite
def collisions(draw):
    command = draw(st.sampled_from(sorted(COMMANDS)))
    _, inputs, outputs = COMMANDS[command]
    output = draw(st.sampled_from(outputs))
    others = [o for o in outputs if o != output]
    clash = draw(st.sampled_from(inputs + others))
    return command, output, clash, draw(st.sampled_from(SPELLINGS)), draw(st.booleans())


@SETTINGS
@given(case=collisions())
def test_an_output_never_overwrites_an_input_or_another_output(case, capsys):
    command, output, clash, how, existing = case
    fixed, inputs, outputs = COMMANDS[command]
    with tempfile.TemporaryDirectory() as root, contextlib.chdir(root):
        paths = {flag: f"{flag.strip('-')}.in" for flag in inputs}
        paths |= {flag: f"{flag.strip('-')}.out" for flag in outputs}
        for flag in inputs:
            Path(paths[flag]).write_text(f"the contents of {flag}\n", encoding="utf-8")
        if clash in outputs and (existing or how == "hardlink"):  # a previous run's output
            Path(paths[clash]).write_text("a previous result\n", encoding="utf-8")
        paths[output] = _spell(paths[clash], how)
        before = {p.name: p.read_bytes() for p in Path().iterdir() if p.is_file()}
        argv = [command, *fixed]
        for flag, path in paths.items():
            argv += [flag, path]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mgbias: "), err
        named = sorted((clash, output), key=err.index)
        assert f"is both {named[0]} and {named[1]}" in err, err
        assert ": it would be overwritten" in err or ": one would overwrite the other" in err
        assert MODEL not in err
        after = {p.name: p.read_bytes() for p in Path().iterdir() if p.is_file()}
        assert after == before
