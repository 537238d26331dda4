"""Bad input files end in the project's own error, naming the file: a file that is not
UTF-8 (line, byte offset and the encoding to convert from), a corrupt or truncated
weights file, a multilingual CrowS-Pairs file of another language than asked for."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mgbias.errors import EncodingError, InputError, WeightsError
from mgbias.pairs.data import load_pairs

REPO = Path(__file__).resolve().parents[2]

CROWS = (
    "sent_more,sent_less,stereo_antistereo,bias_type\n"
    '"He is a doctor.","She is a doctor.",stereo,gender\n'
    '"Der Müller ist groß.","Die Müllerin ist groß.",stereo,gender\n'
)


def test_latin1_csv_names_line_offset_and_encoding(tmp_path):
    path = tmp_path / "crows.csv"
    path.write_bytes(CROWS.encode("latin-1"))
    with pytest.raises(EncodingError) as caught:
        load_pairs(str(path))
    message = str(caught.value)
    # "ü" of "Müller" on line 3: the byte after 'D', 'e', 'r', ' ', 'M'
    offset = CROWS.encode("latin-1").index(b"\xfc")
    assert f"{path}, line 3, column 7 (byte offset {offset})" in message
    assert "0xfc" in message
    assert "iconv -f cp1252 -t utf-8" in message


def test_shift_jis_json_names_line_and_encoding(tmp_path):
    path = tmp_path / "ja.json"
    items = [{"stereotype": "彼は医者です。", "anti-stereotype": "彼女は医者です。"}]
    path.write_bytes(json.dumps(items, ensure_ascii=False, indent=1).encode("shift_jis"))
    with pytest.raises(EncodingError) as caught:
        load_pairs(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}, line 3, column")
    assert "shift_jis" in message or "cp932" in message


def test_utf16_vec_is_recognised(tmp_path):
    from mgbias.embeddings.vectors import read_vec

    path = tmp_path / "src.vec"
    path.write_bytes("2 2\nhe 1 0\nshe 0 1\n".encode("utf-16"))
    with pytest.raises(EncodingError, match=r"line 1, column 1 \(byte offset 0\).*utf-16"):
        read_vec(path)


def test_encoding_error_is_a_value_error():
    assert issubclass(EncodingError, ValueError) and issubclass(InputError, ValueError)


def test_file_named_for_another_language_is_refused(tmp_path):
    path = tmp_path / "cps_translated_de_formatted.csv"
    path.write_text(
        "ID,A_en,B_en,A_x,B_x,stereo_antistereo,bias_type\n"
        "1,He is here.,She is here.,Er ist hier.,Sie ist hier.,stereo,gender\n",
        encoding="utf-8",
    )
    with pytest.raises(
        InputError, match=r"says language 'de'.*asked for is 'fr'.*--lang de.*--force-lang"
    ):
        load_pairs(str(path), lang="fr")
    assert load_pairs(str(path), lang="de")["sent_more"].tolist() == ["Er ist hier."]
    forced = load_pairs(str(path), lang="fr", force_lang=True)
    assert forced["sent_less"].tolist() == ["Sie ist hier."]


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("crows.csv", ",sent_more,sent_less,stereo_antistereo,bias_type,annotations\n"),
        ("multilingual_crows_pairs_de.csv", "ID,A_en,B_en,A_x,B_x,stereo_antistereo,bias_type\n"),
    ],
)
def test_a_header_only_file_says_it_has_no_pairs(tmp_path, capsys, name, header):
    """Not "unknown bias type 'gender' ... available bias types: []"."""
    import mgbias
    from mgbias.cli.main import main

    path = tmp_path / name
    path.write_text(header, encoding="utf-8")
    expected = f"{path}: no pairs (only a header)"
    with pytest.raises(InputError) as raised:
        mgbias.load_pair_data(path)
    assert str(raised.value) == expected
    # the command line says so before it loads any model
    assert main(["score", "--model", str(tmp_path / "no-model"), "--data", str(path)]) == 2
    assert capsys.readouterr().err == f"mgbias: {expected}\n"


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    sys.path.insert(0, str(REPO / "tests"))
    from fixtures.tiny_models import save_tiny_mlm

    return save_tiny_mlm(tmp_path_factory.mktemp("tiny") / "model")


def _damaged(tiny_dir, tmp_path, how):
    import torch

    copy = tmp_path / "model"
    shutil.copytree(tiny_dir, copy)
    weights = copy / "model.safetensors"
    if how == "bin":  # the older format, truncated
        from safetensors.torch import load_file

        torch.save(load_file(weights), copy / "pytorch_model.bin")
        weights.unlink()
        weights = copy / "pytorch_model.bin"
    data = bytearray(weights.read_bytes())
    if how == "flipped":
        data[3] ^= 0xFF  # the header length's fourth byte: a header larger than the file
    else:
        data = data[: len(data) // 2]
    weights.write_bytes(bytes(data))
    return copy, weights


@pytest.mark.parametrize("how", ["truncated", "flipped", "bin"])
def test_corrupt_weights_name_the_file(tiny_dir, tmp_path, how):
    from mgbias.mlm.load import load_encoder, load_mlm

    model, weights = _damaged(tiny_dir, tmp_path, how)
    for load in (load_mlm, load_encoder):
        with pytest.raises(WeightsError) as caught:
            load(str(model), device="cpu")
        assert str(caught.value).startswith(f"{weights}: cannot read the weights")
        assert "corrupt or truncated" in str(caught.value)


def test_corrupt_weights_through_the_cli(tiny_dir, tmp_path):
    model, weights = _damaged(tiny_dir, tmp_path, "truncated")
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(CROWS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mgbias.cli.main", "score", "--model", str(model), "--data",
         str(pairs), "--device", "cpu"],
        capture_output=True, text=True, env={"PYTHONPATH": str(REPO / "src"), "PATH": ""},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"mgbias: {weights}: cannot read the weights" in done.stderr


def test_truncated_fasttext_bin_names_the_file(tmp_path):
    from mgbias.embeddings.train import SkipgramConfig, train_skipgram
    from mgbias.embeddings.vectors import read_vectors

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat sat on the mat .\nthe dog sat on the log .\n" * 50)
    config = SkipgramConfig(dim=8, epoch=1, minCount=1, bucket=1000, seed=3)
    whole = tmp_path / "whole.bin"
    trained = train_skipgram([corpus], config, model_path=whole)
    assert read_vectors(whole).words == trained.words
    truncated = tmp_path / "truncated.bin"
    truncated.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    # words (8 and </s>), buckets and output rows of 8 float32s: (9 + 1000 + 9) * 32 bytes
    with pytest.raises(WeightsError, match=r"truncated\.bin: a truncated fastText model: \d+ "
                       r"bytes, but its header describes 32576 bytes"):  # fmt: skip
        read_vectors(truncated)


def test_truncated_checkpoint_names_the_file(tmp_path):
    import torch

    from mgbias.finetune.checkpoint import Checkpoint

    torch.save({"step": torch.tensor(3), "weights": torch.ones(64)}, tmp_path / "state.pt")
    checkpoint = Checkpoint(path=tmp_path, step=3, meta={})
    assert checkpoint.load_state()["step"].item() == 3
    data = (tmp_path / "state.pt").read_bytes()
    (tmp_path / "state.pt").write_bytes(data[: len(data) // 2])
    with pytest.raises(WeightsError, match=rf"{tmp_path}/state\.pt: cannot read the checkpoint"):
        checkpoint.load_state()
