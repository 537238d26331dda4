"""Provenance records: hashes checked by hand, versions, models, and the sidecar of
``mgbias score`` on a saved tiny model."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mgbias import provenance
from mgbias.cli.main import main

REPO = Path(__file__).resolve().parents[2]
ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def test_file_sha256_of_a_small_file_checked_by_hand(tmp_path):
    path = tmp_path / "abc.txt"
    path.write_bytes(b"abc")
    # FIPS 180-2, appendix B.1: SHA-256("abc")
    assert provenance.file_sha256(path) == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    path.write_bytes(b"")  # new size and time: not the cached digest
    assert provenance.file_sha256(path) == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


def test_mgbias_version_is_the_source_trees_without_installed_metadata(tmp_path):
    """Run from the source tree (PYTHONPATH=src, no metadata), the version is pyproject's."""
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    expected = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    assert provenance.mgbias_version() == expected
    code = (
        "import importlib.metadata as m\n"
        "def missing(name):\n"
        "    raise m.PackageNotFoundError(name)\n"
        "m.version = missing\n"
        "from mgbias.provenance import mgbias_version\n"
        "print(mgbias_version())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.strip() == expected


def test_collect_adds_versions_and_leaves_out_none():
    record = provenance.collect(seed=3, device=None, data=Path("a/b.csv"))
    assert record["seed"] == 3 and "device" not in record
    assert record["data"] == "a/b.csv"
    assert record["mgbias"]["version"] == provenance.mgbias_version()
    git = record["mgbias"]["git"]
    assert git is None or (re.fullmatch(r"[0-9a-f]{40}", git["commit"]) and "dirty" in git)
    json.dumps(record)  # JSON as it is


def test_libraries_are_listed_only_when_imported():
    code = (
        "from mgbias.provenance import collect; import sys\n"
        "r = collect(); print(sorted(r['libraries'])); print('torch' in sys.modules)\n"
        "print(sorted(r['installed']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    listed, torch_imported, installed = result.stdout.split("\n")[:3]
    assert "torch" not in listed and "transformers" not in listed
    assert torch_imported == "False"  # the record imports no torch
    # ... but it names the installed versions, for a table whose job imported none
    assert "'torch'" in installed and "'transformers'" in installed


def test_model_fingerprint_of_a_local_directory(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"weights")
    (tmp_path / "config.json").write_text("{}")
    record = provenance.model_fingerprint(tmp_path, "main")
    assert record["id"] == str(tmp_path) and record["revision"] == "main"
    assert record["weights"] == {"model.safetensors": hashlib.sha256(b"weights").hexdigest()}


def test_model_fingerprint_hashes_the_tokenizer_files(tmp_path):
    """The same weights with another vocabulary are another model: the record says which."""
    model, other = tmp_path / "model", tmp_path / "tokenizer"
    for directory, vocab in ((model, b"[PAD]\nhe\n"), (other, b"[PAD]\nshe\n")):
        directory.mkdir()
        (directory / "vocab.txt").write_bytes(vocab)
    (model / "model.safetensors").write_bytes(b"weights")
    (model / "tokenizer_config.json").write_bytes(b"{}")
    record = provenance.model_fingerprint(model)
    assert record["tokenizer"] == {
        "vocab.txt": hashlib.sha256(b"[PAD]\nhe\n").hexdigest(),
        "tokenizer_config.json": hashlib.sha256(b"{}").hexdigest(),
    }
    apart = provenance.model_fingerprint(model, tokenizer=other)
    assert apart["tokenizer"] == {"vocab.txt": hashlib.sha256(b"[PAD]\nshe\n").hexdigest()}
    assert apart["tokenizer_path"] == str(other) and apart["weights"] == record["weights"]


def test_model_fingerprint_of_a_hub_id_takes_the_cached_snapshot(tmp_path, monkeypatch):
    """A hub model's weights are the cache's blob, named by its sha256; no download."""
    cache = tmp_path / "hub"
    repo = cache / "models--org--tiny"
    digest = hashlib.sha256(b"hub weights").hexdigest()
    commit = "a" * 40
    (repo / "blobs").mkdir(parents=True)
    (repo / "blobs" / digest).write_bytes(b"hub weights")
    (repo / "blobs" / "cfg").write_text("{}")
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (snapshot / "model.safetensors").symlink_to(repo / "blobs" / digest)
    (snapshot / "config.json").symlink_to(repo / "blobs" / "cfg")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(cache))
    record = provenance.model_fingerprint("org/tiny", None)
    assert record["commit"] == commit
    assert record["weights"] == {"model.safetensors": digest}
    missing = provenance.model_fingerprint("org/absent", None)
    assert missing["weights"] == {} and "not in the local" in missing["note"]


def test_provenance_times_the_block():
    with provenance.Provenance(seed=1) as run:
        pass
    record = run.record(alpha=0.05)
    assert ISO_UTC.fullmatch(record["started"]) and ISO_UTC.fullmatch(record["finished"])
    assert record["started"] <= record["finished"]
    assert (record["seed"], record["alpha"]) == (1, 0.05)


def test_sidecar_path_of_a_file_and_of_a_directory(tmp_path):
    assert provenance.sidecar_path(tmp_path / "s.csv") == tmp_path / "s.csv.provenance.json"
    assert provenance.sidecar_path(tmp_path) == tmp_path / "provenance.json"


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_sidecar_mode_follows_the_umask(tmp_path, mask):
    out = tmp_path / "t.csv"
    out.write_text("a\n1\n")
    previous = os.umask(mask)
    try:
        sidecar = provenance.write_sidecar(out, provenance.collect(seed=0))
    finally:
        os.umask(previous)
    assert stat.S_IMODE(sidecar.stat().st_mode) == 0o666 & ~mask
    assert json.loads(sidecar.read_text())["output"]["sha256"] == (
        hashlib.sha256(b"a\n1\n").hexdigest()
    )


@pytest.fixture()
def crows_csv(tmp_path):
    path = tmp_path / "crows.csv"
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "he is"],
            "sent_less": ["she is a doctor", "she is"],
            "stereo_antistereo": ["stereo", "antistereo"],
            "bias_type": ["gender", "gender"],
        }
    ).to_csv(path, index=False)
    return path


def test_score_output_gets_a_sidecar_with_model_data_and_settings(
    fixed_bert_dir, crows_csv, tmp_path
):
    out, per_pair = tmp_path / "scores.csv", tmp_path / "pairs.csv"
    argv = ["score", "--model", str(fixed_bert_dir), "--data", str(crows_csv),
            "--output", str(out), "--per-pair", str(per_pair), "--device", "cpu",
            "--seed", "7", "--tie-rule", "half", "--batch-size", "3"]  # fmt: skip
    previous = os.umask(0o022)
    try:
        assert main(argv) == 0
    finally:
        os.umask(previous)
    for written in (out, per_pair, tmp_path / "scores.csv.provenance.json"):
        assert stat.S_IMODE(written.stat().st_mode) == 0o644
    record = json.loads((tmp_path / "scores.csv.provenance.json").read_text())
    weights = fixed_bert_dir / "model.safetensors"
    assert record["model"]["id"] == str(fixed_bert_dir)
    assert record["model"]["weights"] == {
        "model.safetensors": hashlib.sha256(weights.read_bytes()).hexdigest()
    }
    assert record["data"]["path"] == str(crows_csv)
    assert record["data"]["sha256"] == hashlib.sha256(crows_csv.read_bytes()).hexdigest()
    assert record["output"] == {
        "path": str(out),
        "sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
    }
    assert (record["seed"], record["tie_rule"], record["batch_size"]) == (7, "half", 3)
    assert (record["alpha"], record["bias_type"], record["device"]) == (0.05, "gender", "cpu")
    assert record["measures"] == "aul,aula,cps,sss,sjsd,bsjsd"
    assert record["precision"] == "fp32"  # --precision, at its default
    # no --lang: the language used, that of a CrowS-Pairs file
    assert record["language"] == "en" and record["arguments"]["lang"] is None
    tokenizer = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in fixed_bert_dir.iterdir()
        if p.name in provenance.TOKENIZER_FILES
    }
    assert "tokenizer.json" in tokenizer and record["model"]["tokenizer"] == tokenizer
    assert record["command"] == shlex.join(["mgbias", *argv])
    assert {"torch", "transformers"} <= set(record["libraries"])
    assert record["started"] <= record["finished"]
    assert record["mgbias"]["version"] == provenance.mgbias_version()
    # the per-pair table has its own sidecar; the tables hold no time
    pair_record = json.loads((tmp_path / "pairs.csv.provenance.json").read_text())
    assert pair_record["output"]["path"] == str(per_pair)
    assert pair_record["model"] == record["model"]
    assert not ISO_UTC.search(out.read_text()) and not ISO_UTC.search(per_pair.read_text())


def test_cli_output_mode_follows_the_umask(fixed_bert_dir, crows_csv, tmp_path):
    """`mgbias score --output` run by a shell under umask 077 (022: the test above)."""
    for mask in (0o077,):
        out = tmp_path / f"scores-{mask:o}.csv"
        code = (
            f"import os, sys\nos.umask({mask})\nfrom mgbias.cli.main import main\n"
            "sys.exit(main(sys.argv[1:]))\n"
        )
        argv = ["score", "--model", str(fixed_bert_dir), "--data", str(crows_csv),
                "--output", str(out), "--device", "cpu", "--measures", "aula"]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        subprocess.run([sys.executable, "-c", code, *argv], check=True, env=env,
                       capture_output=True)  # fmt: skip
        sidecar = tmp_path / f"scores-{mask:o}.csv.provenance.json"
        assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
        assert stat.S_IMODE(sidecar.stat().st_mode) == 0o666 & ~mask


def test_directory_and_file_outputs_of_the_data_and_finetune_commands(tmp_path, capsys):
    """gendered-text writes a directory (record inside), mix-gendered-text a file
    (sidecar beside), finetune a model directory (record inside, base model hashed)."""
    from fixtures.text import gendered_lines, write_lines
    from fixtures.tiny_models import save_tiny_mlm

    lines = gendered_lines("he", 12) + gendered_lines("she", 10)
    corpus = write_lines(tmp_path / "news.txt", lines)
    data = tmp_path / "data"
    assert main(["gendered-text", "--text", str(corpus), "--output", str(data),
                 "--n-dev", "2", "--seed", "4"]) == 0  # fmt: skip
    record = json.loads((data / "provenance.json").read_text())
    assert record["inputs"]["text"] == [
        {"path": str(corpus), "sha256": hashlib.sha256(corpus.read_bytes()).hexdigest()}
    ]
    assert record["seed"] == 4 and "model" not in record
    female = (data / "female.txt").read_bytes()
    assert record["output"]["files"]["female.txt"] == hashlib.sha256(female).hexdigest()
    assert "provenance.json" not in record["output"]["files"]

    mix = tmp_path / "d_r.txt"
    assert main(["mix-gendered-text", "--female", str(data / "female.txt"), "--male",
                 str(data / "male.txt"), "--r", "0.5", "--output", str(mix)]) == 0  # fmt: skip
    mixed = json.loads((tmp_path / "d_r.txt.provenance.json").read_text())
    assert set(mixed["inputs"]) == {"female", "male"}
    assert mixed["output"]["sha256"] == hashlib.sha256(mix.read_bytes()).hexdigest()

    base = save_tiny_mlm(tmp_path / "base")
    out = tmp_path / "model"
    assert main(["finetune", "--model", str(base), "--text", str(mix), "--output", str(out),
                 "--epochs", "1", "--devices", "1", "--threads", "1"]) == 0  # fmt: skip
    tuned = json.loads((out / "provenance.json").read_text())
    base_weights = hashlib.sha256((base / "model.safetensors").read_bytes()).hexdigest()
    assert tuned["model"]["weights"] == {"model.safetensors": base_weights}
    out_weights = hashlib.sha256((out / "model.safetensors").read_bytes()).hexdigest()
    assert tuned["output"]["files"]["model.safetensors"] == out_weights
    assert {"torch", "transformers"} <= set(tuned["libraries"])
    capsys.readouterr()


def test_a_multilingual_file_records_the_language_of_its_name(tmp_path):
    """`language` is the one used: --lang, else the file's (its name), else English."""
    from mgbias.cli.main import build_parser
    from mgbias.cli.provenance import cli_record

    data = tmp_path / "multilingual_crows_pairs_de.csv"
    data.write_text("ID,A_en,B_en,A_x,B_x,stereo_antistereo,bias_type\n", encoding="utf-8")
    parser = build_parser()
    args = parser.parse_args(["score", "--model", "m", "--data", str(data)])
    assert cli_record(args, parser=parser)["language"] == "de"
    args = parser.parse_args(["score", "--model", "m", "--data", str(data), "--lang", "fr"])
    assert cli_record(args, parser=parser)["language"] == "fr"


def test_every_output_option_of_every_command_gets_a_sidecar():
    """The output options come from the parser (their type), not a list kept by hand."""
    from mgbias.cli.main import build_parser
    from mgbias.cli.provenance import output_options

    parser = build_parser()
    assert output_options(parser, "mbe") == ("output", "per_sentence")
    assert output_options(parser, "score") == ("output", "per_pair")
    assert output_options(parser, "align") == ("output", "matrix", "summary")
    assert output_options(parser, "finetune") == ("output",)
    assert output_options(parser, "check-config") == ()
