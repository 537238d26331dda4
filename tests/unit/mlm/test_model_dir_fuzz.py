"""Damaged model directories end in the project's own error, naming the directory or file.

A tiny BERT saved with its tokenizer (``config.json``, ``model.safetensors``,
``tokenizer.json``, ``tokenizer_config.json``) has one of its files removed, emptied,
replaced by random bytes or truncated by hypothesis, then loaded as every command loads
a model (:func:`mgbias.mlm.load.load_mlm`). Each load must succeed or raise
:class:`mgbias.errors.InputError` (a ``ValueError``) whose message names the directory;
any other exception (a bare ``SafetensorError``, ``JSONDecodeError``, transformers'
``OSError``) fails the test. On the command line each missing file ends in exit 2 and
one line.
"""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mgbias.cli.main import main
from mgbias.errors import InputError
from mgbias.mlm.load import load_mlm

pytestmark = pytest.mark.properties

FILES = ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json")
DAMAGE = ("missing", "empty", "random", "truncated")
SETTINGS = settings(
    max_examples=24,
    deadline=None,
    derandomize=True,  # the same directories every run: a failure is reproducible
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: How the loads ended, by error class ("loaded" for none).
OUTCOMES: Counter[str] = Counter()


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer

    tokenizer = wordpiece_tokenizer()
    directory = tmp_path_factory.mktemp("tiny") / "model"
    save_pretrained(build_model("bert", len(tokenizer)), tokenizer, directory)
    assert sorted(path.name for path in directory.iterdir()) == sorted(FILES)
    return directory


@st.composite
def damage(draw) -> tuple[str, str, bytes | float | None]:
    """``(file, how, value)``: the new bytes, the share of the original kept, or None."""
    name = draw(st.sampled_from(FILES))
    how = draw(st.sampled_from(DAMAGE))
    if how == "random":
        return name, how, draw(st.binary(min_size=1, max_size=256))
    if how == "truncated":
        return name, how, draw(st.floats(0.01, 0.99))
    return name, how, b"" if how == "empty" else None


def _damaged_copy(model_dir, target, name: str, how: str, value: bytes | float | None):
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(model_dir, target)
    path = target / name
    if how == "missing":
        path.unlink()
    elif how == "truncated":
        original = path.read_bytes()
        path.write_bytes(original[: int(len(original) * value)])
    else:
        path.write_bytes(value)
    return target


#: Every file and damage once, besides hypothesis' draws: fixed random bytes, half kept.
FIXED = {"missing": None, "empty": b"", "random": bytes(range(7, 250, 3)), "truncated": 0.5}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("how", DAMAGE)
def test_every_file_and_damage_once(model_dir, tmp_path, name, how):
    _load_or_named(model_dir, tmp_path, (name, how, FIXED[how]))


@SETTINGS
@given(case=damage())
def test_a_damaged_model_directory_loads_or_names_itself(model_dir, tmp_path, case):
    _load_or_named(model_dir, tmp_path, case)


def _load_or_named(model_dir, tmp_path, case) -> None:
    name, how, value = case
    target = _damaged_copy(model_dir, tmp_path / "model", name, how, value)
    try:
        load_mlm(str(target), device="cpu")
    except InputError as error:
        assert str(target) in str(error), f"{name} {how}: the message does not name it: {error}"
        assert "\n" not in str(error).strip(), f"{name} {how}: more than one line: {error}"
        OUTCOMES[type(error).__name__] += 1
    else:
        # only a missing tokenizer_config.json leaves what the model needs
        assert (name, how) == ("tokenizer_config.json", "missing"), f"{name} {how} loaded"
        OUTCOMES["loaded"] += 1


@pytest.mark.parametrize(("name", "how"), [(name, "missing") for name in FILES[:3]])
def test_a_damaged_model_directory_ends_in_one_line_on_the_cli(
    model_dir, tmp_path, capsys, name, how
):
    target = _damaged_copy(model_dir, tmp_path / "model", name, how, None)
    data = tmp_path / "pairs.csv"
    data.write_text(
        "sent_more,sent_less,stereo_antistereo,bias_type\nhe is a doctor,she is a doctor,"
        "stereo,gender\n",
        encoding="utf-8",
    )
    argv = ["score", "--model", str(target), "--data", str(data), "--device", "cpu"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("mgbias: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert str(target) in lines[0]


def test_zz_report_outcomes():
    """Print how the damaged loads ended (pytest -s shows it)."""
    print(f"\nfuzzed {sum(OUTCOMES.values())} damaged model directories: {dict(OUTCOMES)}")
