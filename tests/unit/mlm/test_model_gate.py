"""The model gate (mgbias.mlm.gate): what a model must pass before anything is scored.

The cases of issue 39: a directory of ``config.json`` + ``model.safetensors`` only (no
tokenizer: transformers would build one of five special tokens and read every word as
[UNK]), a tokenizer that does not fit the embedding matrix, data whose words the
tokenizer does not know, and a hub id that neither the cache nor the hub can serve
(a minute of retries before). The models are the fixtures' tiny BERT over
``WORDPIECE_VOCAB`` (22 tokens), saved once per module.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import mgbias
from mgbias.cli.main import main
from mgbias.errors import InputError
from mgbias.mlm.gate import (
    MAX_UNK_SHARE,
    ModelFilesError,
    ModelLoadError,
    UnknownTokensError,
    VocabularyMismatchError,
    count_unknown_tokens,
)
from mgbias.mlm.load import load_encoder, load_mlm

REPO = Path(__file__).resolve().parents[3]

#: Pairs over the tiny vocabulary: "fixed" and "car" are not in it (one [UNK] each), so
#: the second pair's sentences are 2 unknown pieces of 5 each: 4 of 20 pieces, 20 %.
PAIRS = {
    "sent_more": ["he is a doctor .", "he fixed the car ."],
    "sent_less": ["she is a doctor .", "she fixed the car ."],
    "stereo_antistereo": ["stereo", "stereo"],
    "bias_type": ["gender", "gender"],
}
UNKNOWN_MESSAGE = "4 of 20 tokens (20.0%) are the tokenizer's unknown token '[UNK]'"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """``(full, weights_only)``: the tiny BERT saved with its tokenizer, and without."""
    from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer

    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer))
    full = save_pretrained(model, tokenizer, tmp_path_factory.mktemp("full"))
    weights_only = tmp_path_factory.mktemp("weights-only")
    model.save_pretrained(weights_only)  # config.json + model.safetensors, as in the issue
    return full, weights_only


@pytest.fixture()
def pairs_csv(tmp_path):
    path = tmp_path / "pairs.csv"
    pd.DataFrame(PAIRS).to_csv(path, index=False)
    return path


@pytest.fixture()
def known_csv(tmp_path):
    path = tmp_path / "known.csv"
    pd.DataFrame({key: values[:1] for key, values in PAIRS.items()}).to_csv(path, index=False)
    return path


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("mgbias: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ----------------------------------------------------------------------------- tokenizer files


def test_a_directory_without_tokenizer_files_is_refused_by_every_loader(saved):
    _, weights_only = saved
    expected = (
        f"{weights_only}: no tokenizer files (expected tokenizer.json, or vocab.txt with "
        "tokenizer_config.json, as BertTokenizer reads them); pass --tokenizer DIR_OR_ID"
    )
    for load in (load_mlm, load_encoder, mgbias.load_model):
        with pytest.raises(ModelFilesError) as caught:
            load(weights_only, device="cpu")
        assert str(caught.value).startswith(expected), caught.value
        assert isinstance(caught.value, InputError | FileNotFoundError)


def test_a_directory_without_tokenizer_files_ends_in_one_line_on_the_cli(
    saved, known_csv, tmp_path, capsys
):
    _, weights_only = saved
    argv = ["score", "--model", str(weights_only), "--data", str(known_csv), "--device", "cpu"]
    assert main([*argv, "--output", str(tmp_path / "out.csv")]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"mgbias: {weights_only}: no tokenizer files (expected tokenizer.json")
    assert not (tmp_path / "out.csv").exists()


def test_an_explicit_tokenizer_makes_the_same_directory_score(saved, known_csv, capsys):
    full, weights_only = saved
    argv = ["score", "--model", str(weights_only), "--data", str(known_csv), "--device", "cpu"]
    assert main([*argv, "--tokenizer", str(full), "--measures", "aul"]) == 0
    assert "| aul " in capsys.readouterr().out
    handle = mgbias.load_model(weights_only, device="cpu", tokenizer=full)
    assert len(handle.tokenizer) == 22
    with pytest.raises(ValueError, match="tokenizer= is for a model loaded by name"):
        mgbias.score_pairs(handle, known_csv, tokenizer=full, progress=False)


# ----------------------------------------------------------------------------- vocabulary


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (10, "has 22 tokens but the model's input embedding matrix has 10 rows: ids 10 to 21"),
        (100, "has 22 tokens for the model's 100 embedding rows (22.0%, below 50%)"),
    ],
)
def test_a_tokenizer_that_does_not_fit_the_embedding_matrix_is_refused(
    rows, message, tmp_path, known_csv, capsys
):
    from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer

    directory = save_pretrained(build_model("bert", rows), wordpiece_tokenizer(), tmp_path / "m")
    with pytest.raises(VocabularyMismatchError) as caught:
        load_mlm(str(directory), device="cpu")
    assert str(caught.value).startswith(f"{directory}: its tokenizer {message}")
    argv = ["score", "--model", str(directory), "--data", str(known_csv), "--device", "cpu"]
    assert main(argv) == 2
    assert message in _one_line(capsys.readouterr().err)


def test_a_handle_whose_tokenizer_does_not_fit_is_refused_before_scoring(known_csv):
    from fixtures.tiny_models import build_model, wordpiece_tokenizer

    handle = mgbias.MaskedLM(
        model=build_model("bert", 10), tokenizer=wordpiece_tokenizer(), name="m"
    )
    with pytest.raises(VocabularyMismatchError, match="m: its tokenizer has 22 tokens"):
        mgbias.score_pairs(handle, known_csv, progress=False)


# ----------------------------------------------------------------------------- unknown tokens


def test_unknown_tokens_are_counted_without_special_tokens(tiny_bert):
    _, tokenizer = tiny_bert
    count = count_unknown_tokens(tokenizer, [*PAIRS["sent_more"], *PAIRS["sent_less"]])
    assert (count.n_unknown, count.n_tokens, count.unk_token) == (4, 20, "[UNK]")
    assert count.share == pytest.approx(0.2) and count.share > MAX_UNK_SHARE


def test_data_the_tokenizer_does_not_know_stops_the_api_unless_allowed(saved, pairs_csv, caplog):
    full, _ = saved
    handle = mgbias.load_model(full, device="cpu")
    with pytest.raises(UnknownTokensError) as caught:
        mgbias.score_pairs(handle, pairs_csv, measures="aul", progress=False)
    message = str(caught.value)
    assert message.startswith(f"{pairs_csv}: {UNKNOWN_MESSAGE} (more than 5%)")
    assert "pass --allow-unk" in message
    report = mgbias.score_pairs(handle, pairs_csv, measures="aul", progress=False, allow_unk=True)
    assert report.summary["n"].tolist() == [2]
    assert UNKNOWN_MESSAGE in caplog.text  # the warning of allow_unk
    male, female = PAIRS["sent_more"], PAIRS["sent_less"]
    with pytest.raises(
        UnknownTokensError, match=re.escape(f"the male and female sentences: {UNKNOWN_MESSAGE}")
    ):
        mgbias.mbe(handle, male, female, permutations=99, progress=False)


def test_targets_the_tokenizer_does_not_know_stop_tbs(saved, tmp_path):
    full, _ = saved
    targets = tmp_path / "targets.txt"
    targets.write_text("doctor\nplumber\nengineer\n", encoding="utf-8")
    with pytest.raises(UnknownTokensError, match=r"2 of 3 tokens \(66\.7%\)"):
        mgbias.tbs(full, "en", targets=targets, device="cpu")


def test_unknown_tokens_end_in_one_line_on_the_cli_and_allow_unk_scores(saved, pairs_csv, capsys):
    full, _ = saved
    argv = ["score", "--model", str(full), "--data", str(pairs_csv), "--device", "cpu"]
    assert main([*argv, "--measures", "aul"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"mgbias: {pairs_csv}: {UNKNOWN_MESSAGE}")
    assert main([*argv, "--measures", "aul", "--allow-unk"]) == 0
    assert "| aul " in capsys.readouterr().out
    male, female = pairs_csv.parent / "male.txt", pairs_csv.parent / "female.txt"
    male.write_text("\n".join(PAIRS["sent_more"]) + "\n", encoding="utf-8")
    female.write_text("\n".join(PAIRS["sent_less"]) + "\n", encoding="utf-8")
    mbe = ["mbe", "--model", str(full), "--male", str(male), "--female", str(female)]
    assert main([*mbe, "--device", "cpu", "--permutations", "99"]) == 2
    assert UNKNOWN_MESSAGE in _one_line(capsys.readouterr().err)


# ----------------------------------------------------------------------------- the hub


def test_an_unknown_id_fails_at_once_offline_saying_both_facts(
    tmp_path, known_csv, capsys, monkeypatch
):
    """tests/conftest.py sets HF_HUB_OFFLINE: no request is made, no retry waited for."""
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    with pytest.raises(ModelLoadError) as caught:
        load_mlm("no-such-org/no-such-model", device="cpu")
    assert time.monotonic() - started < 3
    message = str(caught.value)
    assert message.startswith(
        f"'no-such-org/no-such-model' is not a local directory (no such path under {tmp_path}) "
        "and could not be reached on the Hugging Face hub (offline: HF_HUB_OFFLINE is set"
    )
    text, female = tmp_path / "text.txt", tmp_path / "female.txt"
    text.write_text("he is a doctor .\nshe is a doctor .\n", encoding="utf-8")
    female.write_text("she is a doctor .\n", encoding="utf-8")
    inputs = {
        "score": ["--data", str(known_csv)],
        "mbe": ["--male", str(text), "--female", str(female)],
        "tbs": [],
        "probe": ["--text", str(text)],
    }
    for command, arguments in inputs.items():
        argv = [command, "--model", "no-such-org/no-such-model", *arguments, "--device", "cpu"]
        assert main(argv) == 2, command
        assert _one_line(capsys.readouterr().err).startswith(f"mgbias: {message}"), command


def _refusing_endpoint() -> str:
    """``http://127.0.0.1:PORT`` with nothing listening: every connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def _resolve_online(name: str, cache: Path) -> subprocess.CompletedProcess:
    """``resolve_source(name)`` in a process with the offline variables unset and the hub
    at a port that refuses connections (a real, local stand-in for an unreachable hub)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    }
    env |= {"HF_ENDPOINT": _refusing_endpoint(), "HF_HUB_CACHE": str(cache)}
    env["PYTHONPATH"] = str(REPO / "src")
    code = (
        "import sys; from mgbias.mlm.gate import resolve_source\n"
        "try: print(resolve_source(sys.argv[1]))\n"
        "except OSError as error: print(type(error).__name__, error)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, name], capture_output=True, text=True, env=env, timeout=60
    )


def test_an_unknown_id_fails_in_seconds_online_when_the_hub_is_unreachable(tmp_path):
    started = time.monotonic()
    done = _resolve_online("no-such-org/no-such-model", tmp_path / "cache")
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "ModelLoadError 'no-such-org/no-such-model' is not a local directory (no such path under "
    ), done.stdout
    assert "could not be reached on the Hugging Face hub (unreachable: http://127.0.0.1:" in (
        done.stdout
    )
    assert "Connection refused" in done.stdout or "ConnectError" in done.stdout
    assert elapsed < 20, elapsed  # one try; the library's own retries took about a minute


def test_a_cached_id_loads_from_the_cache_when_the_hub_is_unreachable(tmp_path):
    cache = tmp_path / "cache"
    commit = "0123456789abcdef0123456789abcdef01234567"
    snapshot = cache / "models--some-org--tiny" / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text('{"model_type": "bert"}', encoding="utf-8")
    (cache / "models--some-org--tiny" / "refs").mkdir()
    (cache / "models--some-org--tiny" / "refs" / "main").write_text(commit, encoding="utf-8")
    done = _resolve_online("some-org/tiny", cache)
    assert done.returncode == 0, done.stderr
    assert "ModelSource(name='some-org/tiny'" in done.stdout and "cached_only=True" in done.stdout
    assert "the hub cannot be reached" in done.stderr  # the warning says why
