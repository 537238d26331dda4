"""A frozen encoder as the occupation classifier's token features (Zhao et al. 2020,
§4.3, Tables 10 and 11): inputs, masks, batching, frozen weights, the runs."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch
from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer
from snakerun import run_script

from mgbias.bios.classifier import BiGRUAttention, TrainSettings, predict, train
from mgbias.bios.encoder import EncoderSettings, FrozenEncoder, encoder_inputs
from mgbias.bios.experiment import (
    ClassifierSettings,
    apply_split,
    run_classifier,
    run_transfer,
    split_ids,
    transfer_model,
)
from mgbias.bios.spaces import EncoderSpace, VectorSpace, load_space


def tiny_encoder(
    max_pieces: int = 8, max_len: int = 12, batch_size: int = 64, seed: int = 0, cache_mb=0
):
    """A seeded 2-layer BERT encoder (hidden 16, 64 positions) and the WordPiece tokenizer;
    features per batch unless ``cache_mb``."""
    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer), seed=seed).bert
    return FrozenEncoder(
        model,
        tokenizer,
        max_pieces=max_pieces,
        max_len=max_len,
        batch_size=batch_size,
        name="tiny",
        cache_mb=cache_mb,
    )


def test_inputs_are_truncated_pieces_between_cls_and_sep_padded_with_a_mask():
    tokenizer = wordpiece_tokenizer()
    vocab = tokenizer.get_vocab()
    ids, mask = encoder_inputs(
        ["she is a nurse .", "he works here", ""], tokenizer, max_pieces=4, max_len=8
    )
    assert ids.shape == mask.shape == (3, 8)
    # "nurse" is two pieces (nur ##se); 4 pieces kept, then [SEP]
    expected = ["[CLS]", "she", "is", "a", "nur", "[SEP]", "[PAD]", "[PAD]"]
    assert ids[0].tolist() == [vocab[t] for t in expected]
    assert mask.tolist() == [[1] * 6 + [0] * 2, [1] * 5 + [0] * 3, [1] * 2 + [0] * 6]
    assert ids[2, :2].tolist() == [vocab["[CLS]"], vocab["[SEP]"]]
    with pytest.raises(ValueError, match="4 pieces and 2 special tokens do not fit max_len 5"):
        encoder_inputs(["she is a nurse ."], tokenizer, max_pieces=4, max_len=5)


def test_features_have_the_hidden_size_and_stop_at_the_longest_sequence():
    encoder = tiny_encoder()
    ids, mask = encoder.inputs(["she is a nurse .", "he works"])
    features = encoder(torch.as_tensor(ids), torch.as_tensor(mask))
    # the longest: [CLS] she is a nur ##se . [SEP]
    assert features.shape == (2, 8, 16) and encoder.dim == 16
    assert features.requires_grad is False
    empty_ids, empty_mask = tiny_encoder(cache_mb=1).inputs([])
    assert empty_ids.shape == (0, 12)
    assert encoder(torch.as_tensor(empty_ids), torch.as_tensor(empty_mask)).shape == (0, 1, 16)


def test_batched_features_equal_each_text_alone():
    texts = ["she is a nurse .", "he works here", "the man is a doctor", "a"]
    whole = tiny_encoder(batch_size=64)
    chunked = tiny_encoder(batch_size=1)  # the same weights (seed 0), one text per pass
    ids, mask = whole.inputs(texts)
    batched = whole(torch.as_tensor(ids), torch.as_tensor(mask))
    assert torch.allclose(chunked(torch.as_tensor(ids), torch.as_tensor(mask)), batched, atol=1e-5)
    for row, text in enumerate(texts):
        one_ids, one_mask = whole.inputs([text])
        alone = whole(torch.as_tensor(one_ids), torch.as_tensor(one_mask))[0]
        n = int(one_mask.sum())
        assert alone.shape[0] == n
        assert torch.allclose(alone, batched[row, :n], atol=1e-5), text


def test_features_computed_once_when_they_fit_give_the_same_logits():
    texts, _ = labelled(10)
    per_batch, cached = tiny_encoder(max_pieces=10, max_len=14), tiny_encoder(10, 14, cache_mb=1)
    ids, mask = per_batch.inputs(texts)
    features, short_mask = cached.inputs(texts)
    assert ids.dtype == np.int32 and features.dtype == np.float32
    length = int(mask.sum(axis=1).max())
    assert features.shape == (10, length, 16) and short_mask.shape == (10, length)
    torch.manual_seed(0)
    model = BiGRUAttention(per_batch, 2, hidden=8).eval()
    with torch.no_grad():
        direct = model(torch.as_tensor(ids), torch.as_tensor(mask))
        stored = model(torch.as_tensor(features), torch.as_tensor(short_mask))
    assert torch.allclose(direct, stored, atol=1e-5)
    # a budget too small for the split: ids and masks, features per batch
    assert tiny_encoder(10, 14, cache_mb=1e-4).inputs(texts)[0].dtype == np.int32


def test_an_encoder_too_short_for_the_pieces_is_refused():
    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer), max_positions=16).bert
    with pytest.raises(ValueError, match="max_pieces 15 \\+ 2 special tokens exceed its 16"):
        FrozenEncoder(model, tokenizer, max_pieces=15, max_len=20, name="short")


def labelled(n: int, seed: int = 0) -> tuple[list[str], np.ndarray]:
    """Texts whose class is the occupation word (doctor 0, nurse 1), pronoun and filler
    at random."""
    rng = random.Random(seed)
    texts, labels = [], []
    for i in range(n):
        label = i % 2
        words = [rng.choice(["the", "man", "woman", "works", "here"]) for _ in range(3)]
        words.insert(rng.randrange(4), ["doctor", "nurse"][label])
        texts.append(f"{rng.choice(['he', 'she'])} is a {' '.join(words)} .")
        labels.append(label)
    return texts, np.array(labels, dtype=np.int64)


def test_the_classifier_trains_on_the_frozen_encoder_and_leaves_it_unchanged():
    encoder = tiny_encoder(max_pieces=10, max_len=14)
    before = {k: v.clone() for k, v in encoder.model.state_dict().items()}
    texts, labels = labelled(48)
    inputs = encoder.inputs(texts)
    torch.manual_seed(0)
    model = BiGRUAttention(encoder, 2, hidden=8)
    assert model.embedding is None and model.gru.input_size == 16
    gru = model.gru.weight_ih_l0.detach().clone()
    settings = TrainSettings(lr=0.01, batch_size=8, max_epochs=15, min_epochs=1, patience=5)
    record = train(model, (inputs, labels), (inputs, labels), settings)
    assert record["epochs"] >= 2
    assert (predict(model, inputs, 16) == labels).all()  # the occupation word is read
    assert not torch.equal(model.gru.weight_ih_l0, gru)
    # frozen: the encoder's weights as before, no gradient, still in eval mode, and not
    # part of the classifier's state (checkpoints) or parameters (the optimiser)
    after = encoder.model.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)
    assert all(p.grad is None and not p.requires_grad for p in encoder.model.parameters())
    assert not encoder.model.training
    assert not any(k.startswith(("encoder", "embedding")) for k in model.state_dict())
    assert sum(p.numel() for p in model.parameters()) < 5_000
    with pytest.raises(ValueError, match="attention mask"):
        model(torch.as_tensor(inputs[0]))


def test_settings_from_config():
    assert EncoderSettings.from_config(None) is None
    settings = EncoderSettings.from_config({"model": "mbert"})
    assert (settings.name, settings.max_pieces, settings.max_len) == ("mbert", 120, 150)
    assert settings.labels == "transfer"
    with pytest.raises(ValueError, match="encoder.labels: 'shared' is not one of"):
        EncoderSettings.from_config({"model": "mbert", "labels": "shared"})
    assert EncoderSettings.from_config({"model": "demo-balanced", "name": "m"}).name == "m"
    with pytest.raises(ValueError, match="encoder: unknown keys \\['layers'\\]"):
        EncoderSettings.from_config({"model": "mbert", "layers": 2})
    with pytest.raises(ValueError, match="max_len 100 cannot hold max_pieces 120"):
        EncoderSettings.from_config({"model": "mbert", "max_len": 100})
    with pytest.raises(ValueError, match="no 'model'"):
        EncoderSettings.from_config({"name": "mbert"})
    assert ClassifierSettings.from_mapping({"encoder": {"model": "mbert"}}).device == "auto"


def bios(n_per_group: int, seed: int, prefix: str = "") -> list[dict]:
    """Bios in the tokenizer's words: the title word in the scrubbed text."""
    rng = random.Random(seed)
    rows = []
    for title in ("doctor", "nurse"):
        for gender, pronoun in (("F", "she"), ("M", "he")):
            for i in range(n_per_group):
                words = [rng.choice(["the", "man", "woman", "works", "here"]) for _ in range(3)]
                words.insert(rng.randrange(4), title)
                body = " ".join(words)
                rows.append(
                    {
                        "id": f"{prefix}{title}-{gender}-{i}",
                        "title": title,
                        "gender": gender,
                        "raw": f"{pronoun} is a {body} .",
                        "bio": f"_ is a {body} .",
                    }
                )
    return rows


SETTINGS = ClassifierSettings(hidden=8, batch_size=8, lr=0.01, max_epochs=12, min_epochs=1)


def test_a_monolingual_run_and_a_transfer_run_on_the_encoder(tmp_path):
    encoder = tiny_encoder(max_pieces=10, max_len=14)
    en = bios(12, 1)
    parts = apply_split(en, split_ids(en, 1))
    result = run_classifier(parts, encoder, SETTINGS, text="scrubbed", balanced=False, seed=3)
    assert result.metrics["avg"] == 100.0 and result.metrics["diff"] == 0.0
    assert result.training["encoder"] == "tiny" and result.training["max_pieces"] == 10
    assert result.n == {"train": 28, "dev": 10, "test": 10}
    other = bios(12, 2, "x-")
    target = apply_split(other, split_ids(other, 2))
    kwargs = dict(labels=["doctor", "nurse"], share=0.5, text="scrubbed", balanced=False, seed=4)
    transfer = run_transfer(parts, target, encoder, encoder, SETTINGS, **kwargs)
    assert transfer.metrics["avg"] == 100.0
    assert transfer.n["train"] == 14  # half the target's training split
    # one model's weights onto the target's features: the encoder, not a matrix
    source = BiGRUAttention(encoder, 2, hidden=8)
    moved = transfer_model(source, encoder, SETTINGS)
    assert moved.encoder is encoder and torch.equal(moved.out.weight, source.out.weight)
    vec = tmp_path / "v.vec"
    vec.write_text("1 16\nthe " + " ".join(["0.1"] * 16) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="static spaces or encoders on both sides"):
        run_transfer(parts, target, vec, encoder, SETTINGS, **kwargs)


def test_a_rule_loads_the_encoder_of_its_params_or_the_vectors(tmp_path):
    tokenizer = wordpiece_tokenizer()
    directory = save_pretrained(build_model("bert", len(tokenizer)), tokenizer, tmp_path / "m")
    params = {"model": "tiny", "name": "tiny", "max_pieces": 6, "max_len": 8, "batch_size": 4}
    space = load_space({**params, "source": str(directory), "revision": None}, None, "vectors")
    assert isinstance(space, EncoderSpace) and space.dim == 16
    assert (space.encoder.max_pieces, space.encoder.batch_size) == (6, 4)
    assert not space.encoder.model.training

    class Inputs:
        vectors = "v.vec"

    static = load_space(None, Inputs(), "vectors")
    assert isinstance(static, VectorSpace) and static.path == "v.vec"


def test_the_scripts_write_tables_10_and_11_from_an_encoder_model_directory(tmp_path):
    """bios_classifier.py and bios_finetune.py load the encoder named by their params (a
    local directory here, a hub id in the paper's plan) and bios_tables.py gathers their
    runs into Tables 10 and 11 (the workflow test runs Table 10 through Snakemake)."""
    import csv
    import json
    from dataclasses import asdict

    tokenizer = wordpiece_tokenizer()
    model_dir = save_pretrained(build_model("bert", len(tokenizer)), tokenizer, tmp_path / "m")
    encoder = {"model": "tiny", "name": "tiny", "max_pieces": 10, "max_len": 12}
    encoder.update(batch_size=64, cache_mb=16, labels="transfer")
    encoder.update(source=str(model_dir), revision=None)
    settings = asdict(SETTINGS)
    files = {}
    for lang, seed in (("en", 1), ("de", 2)):
        records = bios(12, seed, f"{lang}-")
        # a third occupation, not one of the transfer labels
        records += [{**r, "id": "t" + r["id"], "title": "teacher"} for r in records[:24]]
        files[lang] = (tmp_path / f"{lang}.jsonl", tmp_path / f"{lang}.split.json")
        files[lang][0].write_text("".join(json.dumps(r) + "\n" for r in records))
        files[lang][1].write_text(json.dumps(split_ids(records, seed)))
    common = dict(settings=settings, encoder=encoder, seeds=[5, 6], world="planted")
    common.update(text="scrubbed", sampling="original")
    run_script(
        "bios_classifier.py",
        input=dict(dataset=str(files["de"][0]), split=str(files["de"][1])),
        output=dict(metrics=str(tmp_path / "mono.json"), tpr=str(tmp_path / "mono.tpr.csv")),
        params={
            **common,
            # labels: transfer, so the monolingual run keeps the transfer labels of de
            "encoder": {**encoder, "occupations": ["doctor", "nurse"]},
            "lang": "de",
            "space": "tiny",
        },
    )
    transfer = dict(share=0.5, full=["de"], labels=["doctor", "nurse", "poet"])
    transfer["labels_by_language"] = {"de": ["doctor", "nurse"]}
    run_script(
        "bios_finetune.py",
        input=dict(
            source=str(files["en"][0]),
            target=str(files["de"][0]),
            source_split=str(files["en"][1]),
            target_split=str(files["de"][1]),
        ),
        output=dict(metrics=str(tmp_path / "tr.json"), tpr=str(tmp_path / "tr.tpr.csv")),
        params=dict(
            **common, transfer=transfer, src="en", tgt="de", src_space="tiny", tgt_space="tiny"
        ),
    )
    mono = json.loads((tmp_path / "mono.json").read_text())
    assert [run["seed"] for run in mono["runs"]] == [5, 6]
    assert mono["runs"][0]["training"]["encoder"] == "tiny" and mono["metrics"]["avg"] == 100.0
    assert mono["settings"]["encoder"]["source"] == str(model_dir)
    assert sum(mono["runs"][0]["n"].values()) == 48  # the 24 teachers left out
    tpr = list(csv.DictReader(open(tmp_path / "mono.tpr.csv", encoding="utf-8")))
    assert {r["title"] for r in tpr} == {"doctor", "nurse"}
    moved = json.loads((tmp_path / "tr.json").read_text())
    # German: its whole training split (28 bios), its own labels (both languages' labels)
    assert moved["settings"]["share"] == 1.0
    assert moved["settings"]["labels"] == ["doctor", "nurse"]
    assert moved["runs"][0]["n"]["train"] == 28 and moved["metrics"]["avg"] == 100.0
    assert not list(tmp_path.glob("*.pt"))
    for part, result in (("table10", "mono.json"), ("table11", "tr.json")):
        run_script(
            "bios_tables.py",
            input=dict(results=[str(tmp_path / result)]),
            output=dict(table=str(tmp_path / f"{part}.csv"), markdown=str(tmp_path / f"{part}.md")),
            params=dict(part=part),
        )
    (row10,) = csv.DictReader(open(tmp_path / "table10.csv", encoding="utf-8"))
    assert (row10["table"], row10["lang"], row10["encoder"], row10["avg"]) == (
        "10",
        "de",
        "tiny",
        "100.0",
    )
    (row11,) = csv.DictReader(open(tmp_path / "table11.csv", encoding="utf-8"))
    assert (row11["table"], row11["src"], row11["tgt"], row11["runs"]) == ("11", "en", "de", "2")
    assert "| EN→DE | 100.00 ± 0.00 |" in (tmp_path / "table11.md").read_text()


def test_bf16_features_are_float32_and_close_to_fp32():
    texts = ["she is a nurse .", "he works here", "the man is a doctor"]
    full = tiny_encoder()
    half = tiny_encoder()
    half.precision = "bf16"
    ids, mask = (torch.as_tensor(array) for array in full.inputs(texts))
    expected, features = full(ids, mask), half(ids, mask)
    assert features.dtype == torch.float32
    assert 0 < float((features - expected).abs().max()) < 0.1
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        FrozenEncoder(full.model, full.tokenizer, max_pieces=8, max_len=12, precision="fp16")
    settings = EncoderSettings.from_config({"model": "mbert", "precision": "bf16"})
    assert settings.precision == "bf16" and EncoderSettings(model="m").precision == "fp32"
    with pytest.raises(ValueError, match="encoder.precision: 'fp8' is not one of"):
        EncoderSettings.from_config({"model": "mbert", "precision": "fp8"})
