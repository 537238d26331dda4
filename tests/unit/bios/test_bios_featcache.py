"""The disk cache of a frozen encoder's features (mgbias.bios.featcache; Zhao et al. 2020,
§4.3, Tables 10 and 11): float16 features within float16's rounding of the features
computed per batch, written once per key, a partial or truncated entry never trusted."""

from __future__ import annotations

import hashlib
import os
import random

import numpy as np
import pytest
import torch
from fixtures.tiny_models import build_model, save_pretrained, wordpiece_tokenizer

from mgbias.bios import featcache
from mgbias.bios.classifier import BiGRUAttention, TrainSettings, train
from mgbias.bios.encoder import EncoderSettings, FrozenEncoder
from mgbias.workflow.bios import encoder_params

#: float16's relative rounding: 10 stored bits of the significand, round to nearest.
FP16_RELATIVE = 2.0**-11


def encoder(cache_dir, *, cache_mb: float = 0, disk_cache: bool = True, batch_size: int = 4):
    """The seeded tiny BERT (hidden 16) as a frozen encoder of 10 pieces, padded to 14."""
    tokenizer = wordpiece_tokenizer()
    model = build_model("bert", len(tokenizer), seed=0).bert
    return FrozenEncoder(
        model,
        tokenizer,
        max_pieces=10,
        max_len=14,
        batch_size=batch_size,
        name="tiny",
        cache_mb=cache_mb,
        disk_cache=disk_cache,
        cache_dir=cache_dir,
    )


def texts(n: int, seed: int = 0) -> tuple[list[str], np.ndarray]:
    """Seeded texts whose class is the occupation word (doctor 0, nurse 1)."""
    rng = random.Random(seed)
    out, labels = [], []
    for i in range(n):
        words = [
            rng.choice(["the", "man", "woman", "works", "here"]) for _ in range(rng.randint(1, 5))
        ]
        words.insert(rng.randrange(len(words) + 1), ["doctor", "nurse"][i % 2])
        out.append(f"{rng.choice(['he', 'she'])} is a {' '.join(words)} .")
        labels.append(i % 2)
    return out, np.array(labels, dtype=np.int64)


def counted(frozen: FrozenEncoder) -> list[int]:
    """A list whose length counts the encoder model's forward passes (a forward hook)."""
    calls: list[int] = []
    frozen.model.register_forward_hook(lambda *_: calls.append(1))
    return calls


def entries(root) -> list:
    return sorted(p.name for p in root.glob("*.npy"))


def test_the_disk_cache_gives_the_per_batch_logits_within_float16_rounding(tmp_path):
    split, labels = texts(24)
    per_batch = encoder(tmp_path, disk_cache=False)
    ids, mask = per_batch.inputs(split)
    assert ids.dtype == np.int32  # cache_mb 0: no features in memory
    cached = encoder(tmp_path)
    features, short_mask = cached.inputs(split)
    length = int(mask.sum(axis=1).max())
    assert isinstance(features, np.memmap) and features.dtype == np.float16
    assert features.shape == (24, length, 16) and not features.flags.writeable
    assert np.array_equal(short_mask, mask[:, :length])
    # every feature within float16's rounding of the float32 one (round to nearest: at
    # most 2**-11 of its magnitude), and 1e-5 for float32's own differences between
    # the split's padding and the cache's blocks' (batched == alone: test_bios_encoder)
    exact = per_batch(torch.as_tensor(ids), torch.as_tensor(mask)).numpy()
    real = short_mask.astype(bool)
    np.testing.assert_allclose(
        features[real].astype(np.float32), exact[real], rtol=FP16_RELATIVE, atol=1e-5
    )
    scale = float(np.abs(exact[real]).max())
    assert 0.5 < scale < 10  # LayerNorm'd hidden states: the rounding is about 1e-3 at most
    # the logits: within one feature's rounding (the classifier's gain on it is below 1:
    # measured 0.13 here)
    torch.manual_seed(0)
    model = BiGRUAttention(per_batch, 2, hidden=8).eval()
    with torch.no_grad():
        direct = model(torch.as_tensor(ids), torch.as_tensor(mask)).numpy()
        stored = model(torch.as_tensor(features.astype(np.float32)), torch.as_tensor(short_mask))
    np.testing.assert_allclose(stored.numpy(), direct, rtol=0, atol=scale * FP16_RELATIVE)
    assert not np.array_equal(stored.numpy(), direct)  # float16, not the float32 features
    # training on the memory map's shuffled batches: the same dev losses within rounding
    settings = TrainSettings(lr=0.01, batch_size=8, max_epochs=3, min_epochs=1)
    history = []
    for inputs in ((ids, mask), (features, short_mask)):
        torch.manual_seed(0)
        model = BiGRUAttention(per_batch, 2, hidden=8)
        history.append(train(model, (inputs, labels), (inputs, labels), settings)["history"])
    np.testing.assert_allclose(history[1], history[0], rtol=1e-4)  # measured 1e-5


def test_a_split_that_fits_in_cache_mb_stays_in_memory_as_float32(tmp_path):
    split, _ = texts(6)
    features, _ = encoder(tmp_path, cache_mb=1).inputs(split)
    assert type(features) is np.ndarray and features.dtype == np.float32
    assert entries(tmp_path) == []


def test_the_cache_is_written_once_per_key_and_read_by_a_later_run(tmp_path):
    split, _ = texts(10)
    first = encoder(tmp_path)
    calls = counted(first)
    written, _ = first.inputs(split)
    assert len(calls) == 3  # 10 texts in blocks of 4
    (name,) = entries(tmp_path)
    path = tmp_path / name
    stamp = os.stat(path)
    # a later run (a new encoder of the same weights): no forward pass, the same bytes
    later = encoder(tmp_path)
    later_calls = counted(later)
    read, _ = later.inputs(split)
    assert later_calls == [] and np.array_equal(read, written)
    assert (os.stat(path).st_ino, os.stat(path).st_mtime_ns) == (stamp.st_ino, stamp.st_mtime_ns)
    assert read.tobytes() == written.tobytes()
    # the first run's later epochs read it too
    first.inputs(split)
    assert len(calls) == 3
    # another input, revision or precision: another key, another entry
    first.inputs(split[:-1])
    assert len(entries(tmp_path)) == 2
    for revision in ("r1", "r2"):
        hub = encoder(tmp_path)
        hub.source, hub.revision = "org/tiny", revision
        assert hub.model_identity() == {"model": "org/tiny", "revision": revision}
        hub.inputs(split)
    assert len(entries(tmp_path)) == 4
    half = encoder(tmp_path)
    half.precision = "bf16"
    half.inputs(split)
    assert len(entries(tmp_path)) == 5
    ids, mask = (np.zeros((2, 14), np.int32), np.ones((2, 14), np.int8))
    common = dict(precision="fp32", max_pieces=10, max_len=14, ids=ids, mask=mask)
    key = featcache.feature_key({"model": "m", "revision": "a"}, **common)
    assert key == featcache.feature_key({"model": "m", "revision": "a"}, **common)
    changed = [
        featcache.feature_key({"model": "m", "revision": "b"}, **common),
        featcache.feature_key({"model": "m", "revision": "a"}, **{**common, "precision": "bf16"}),
        featcache.feature_key({"model": "m", "revision": "a"}, **{**common, "max_pieces": 9}),
        featcache.feature_key({"model": "m", "revision": "a"}, **{**common, "max_len": 15}),
        featcache.feature_key({"model": "m", "revision": "a"}, **{**common, "ids": ids + 1}),
        featcache.feature_key({"model": "m", "revision": "a"}, **{**common, "mask": mask * 0}),
    ]
    assert len({key, *changed}) == 7


def test_a_local_model_is_keyed_by_the_sha256_of_its_weights_files(tmp_path):
    tokenizer = wordpiece_tokenizer()
    directory = save_pretrained(build_model("bert", len(tokenizer)), tokenizer, tmp_path / "m")
    settings = EncoderSettings(model="tiny", max_pieces=10, max_len=14, cache_mb=0, disk_cache=True)
    loaded = FrozenEncoder.load(str(directory), settings, device="cpu")
    identity = loaded.model_identity()
    assert identity["model"] == str(directory.resolve())
    assert identity["weights"] == {
        "model.safetensors": hashlib.sha256(
            (directory / "model.safetensors").read_bytes()
        ).hexdigest()
    }
    assert loaded.disk_cache and loaded.cache_dir is None
    split, _ = texts(5)
    features, _ = loaded.inputs(split)
    # the default folder: bios-features/ under the caches' root ($MGBIAS_CACHE_DIR)
    assert os.path.dirname(features.filename) == str(featcache.feature_cache_dir())


def test_a_truncated_entry_is_rebuilt_and_a_failed_write_leaves_none(tmp_path):
    split, _ = texts(10)
    first = encoder(tmp_path)
    good = np.array(first.inputs(split)[0])
    (name,) = entries(tmp_path)
    path = tmp_path / name
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 100])  # a file cut short
    again = encoder(tmp_path)
    calls = counted(again)
    rebuilt, _ = again.inputs(split)
    assert len(calls) == 3 and np.array_equal(rebuilt, good)
    assert path.read_bytes() == whole
    # a header of another shape, and a description of another key: not trusted either
    meta = path.with_name(name.replace(".npy", ".json"))
    description = meta.read_text()
    meta.write_text(description.replace('"key": "', '"key": "0'))
    assert featcache.open_entry(name.split(".")[0], good.shape, tmp_path) is None
    meta.write_text(description)
    assert featcache.open_entry(name.split(".")[0], (10, good.shape[1] + 1, 16), tmp_path) is None
    # a job killed while writing: the exception propagates, no entry at the entry's name
    for stale in tmp_path.iterdir():
        stale.unlink()
    failing = encoder(tmp_path)
    passes = counted(failing)

    def stop(*_):
        if len(passes) == 2:
            raise RuntimeError("killed")

    failing.model.register_forward_hook(stop)
    with pytest.raises(RuntimeError, match="killed"):
        failing.inputs(split)
    assert list(tmp_path.iterdir()) == []
    # a partial file left by a killed process (hidden) is not read, and is removed by
    # the next write
    key = name.split(".")[0]
    partial = tmp_path / f".{key}.v{featcache.FORMAT}.npy.partial-killed"
    partial.write_bytes(whole[:200])
    assert featcache.open_entry(key, good.shape, tmp_path) is None
    assert np.array_equal(encoder(tmp_path).inputs(split)[0], good)
    assert not partial.exists() and entries(tmp_path) == [name]


def test_the_setting_is_checked_and_left_out_of_the_params_when_off():
    assert EncoderSettings.from_config({"model": "mbert"}).disk_cache is False
    assert EncoderSettings.from_config({"model": "mbert", "disk_cache": True}).disk_cache
    with pytest.raises(ValueError, match="encoder.disk_cache: 'yes' is not true or false"):
        EncoderSettings.from_config({"model": "mbert", "disk_cache": "yes"})
    config = {
        "models": {"mbert": {"source": "bert-base-multilingual-cased"}},
        "bios": {"classifier": {"encoder": {"model": "mbert"}}},
    }
    assert "disk_cache" not in encoder_params(config, "mbert")
    config["bios"]["classifier"]["encoder"]["disk_cache"] = True
    assert encoder_params(config, "mbert")["disk_cache"] is True
