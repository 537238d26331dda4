"""Loading refuses a model whose checkpoint lacks MLM head weights (random, so scores are noise).

Tiny models of each family (tests/fixtures/tiny_models.py) are saved and
loaded back: a full masked LM loads without a warning (weights tied to the
input embeddings are not missing), an encoder saved without its head is
refused, or loaded with a warning when allowed.
"""

from __future__ import annotations

import json
import logging

import pytest
import torch
from fixtures.tiny_models import (
    MODEL_FAMILIES,
    bert_config,
    bert_from_config,
    build_model,
    save_pretrained,
    tokenizer_of,
    wordpiece_tokenizer,
)
from safetensors.torch import load_file, save_file

from mgbias.mlm.load import (
    NonFiniteWeightsError,
    NotMaskedLMError,
    UntrainedHeadError,
    check_loading_info,
    entry_fields,
    initialised_weights,
    load_each,
    load_encoder,
    load_mlm,
    non_finite_weights,
)
from mgbias.workflow.runlog import per_model

BERT_HEAD = [
    "cls.predictions.bias",
    "cls.predictions.decoder.bias",
    "cls.predictions.transform.LayerNorm.bias",
    "cls.predictions.transform.LayerNorm.weight",
    "cls.predictions.transform.dense.bias",
    "cls.predictions.transform.dense.weight",
]


def warnings_in(caplog, logger: str = "") -> list[str]:
    """WARNING and above records of ``logger`` (and its children; "" = every logger)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name.startswith(logger)
    ]


def test_encoder_without_head_is_refused_naming_directory_and_weights(encoder_only_dir):
    with pytest.raises(UntrainedHeadError) as raised:
        load_mlm(str(encoder_only_dir), device="cpu")
    message = str(raised.value)
    assert message.startswith(f"{encoder_only_dir}: 6 weight(s) of BertForMaskedLM are not in")
    # every head weight but the decoder's, which is tied to the (loaded) input embeddings
    assert ", ".join(BERT_HEAD) in message
    assert "cls.predictions.decoder.weight" not in message
    assert "--allow-untrained-head" in message and "allow_untrained_head: true" in message
    assert "noise" in message


def test_allowed_untrained_head_loads_with_a_warning_naming_the_weights(encoder_only_dir, caplog):
    with caplog.at_level(logging.INFO, logger="mgbias.mlm.load"):
        model, tokenizer = load_mlm(str(encoder_only_dir), device="cpu", allow_untrained_head=True)
    assert type(model).__name__ == "BertForMaskedLM" and not model.training
    (warning,) = warnings_in(caplog, "mgbias")
    assert str(encoder_only_dir) in warning and ", ".join(BERT_HEAD) in warning
    assert "NOISE" in warning
    # transformers' own load report is left out: the warning above says it
    assert not any("LOAD REPORT" in r.getMessage() for r in caplog.records)
    # the decoder is still tied to the embeddings that were loaded
    assert model.cls.predictions.decoder.weight is model.bert.embeddings.word_embeddings.weight


def test_load_each_loads_a_jobs_models_in_order_each_with_its_own_settings(
    encoder_only_dir, tmp_path
):
    tokenizer = wordpiece_tokenizer()
    full = save_pretrained(
        build_model("bert", len(tokenizer), 32, seed=3), tokenizer, tmp_path / "m"
    )
    entries = [
        {"model_id": str(full), "revision": None, "allow_untrained_head": False},
        {"model_id": str(encoder_only_dir), "revision": None, "allow_untrained_head": True},
    ]
    loaded = [(entry, type(model).__name__) for entry, model, _ in load_each(entries, device="cpu")]
    assert loaded == [(entries[0], "BertForMaskedLM"), (entries[1], "BertForMaskedLM")]
    # the head-less model is refused without its own allow_untrained_head
    refused = [{**entries[1], "allow_untrained_head": False}]
    with pytest.raises(UntrainedHeadError, match=str(encoder_only_dir)):
        list(load_each(refused, device="cpu"))
    # the provenance of each: the revision asked for, else the model's hub commit (none
    # for a local directory)
    entry, model, _ = next(load_each([{**entries[0], "model": "m"}], device="cpu"))
    assert entry_fields(entry, model) == {"model": "m", "model_id": str(full), "revision": None}
    model.config._commit_hash = "abc123"
    assert entry_fields(entry, model)["revision"] == "abc123"
    assert entry_fields({**entry, "revision": "v1"}, model)["revision"] == "v1"
    # a one-model rule has a path per output, a grid rule a list in its models' order
    assert per_model("a.parquet") == ["a.parquet"]
    assert per_model(("a", "b")) == ["a", "b"]


@pytest.mark.parametrize("family", MODEL_FAMILIES)
def test_a_full_masked_lm_saved_and_reloaded_loads_silently(family, tmp_path, caplog):
    tokenizer = tokenizer_of(family)
    saved = build_model(family, len(tokenizer))
    save_pretrained(saved, tokenizer, tmp_path)
    with caplog.at_level(logging.INFO):
        model, _ = load_mlm(str(tmp_path), device="cpu")
    assert warnings_in(caplog) == []
    ids = torch.tensor([tokenizer("He is a doctor.")["input_ids"]])
    with torch.no_grad():
        torch.testing.assert_close(model(input_ids=ids).logits, saved(input_ids=ids).logits)


def test_a_legacy_pretraining_checkpoint_loads_and_its_unused_weights_are_info(tmp_path, caplog):
    """BERT's original checkpoint layout: next-sentence head and pooler (unused by the MLM),
    LayerNorm gamma/beta, a position_ids buffer, no decoder keys (tied), pytorch_model.bin."""
    tokenizer = wordpiece_tokenizer()
    saved = bert_from_config(bert_config(len(tokenizer)), head="pretraining", seed=0).eval()
    save_pretrained(saved, tokenizer, tmp_path)
    weights = load_file(tmp_path / "model.safetensors")
    legacy = {
        key.replace("LayerNorm.weight", "LayerNorm.gamma").replace(
            "LayerNorm.bias", "LayerNorm.beta"
        ): value
        for key, value in weights.items()
        if not key.startswith("cls.predictions.decoder.")
    }
    legacy["bert.embeddings.position_ids"] = torch.arange(64)[None]
    torch.save(legacy, tmp_path / "pytorch_model.bin")
    (tmp_path / "model.safetensors").unlink()
    with caplog.at_level(logging.INFO, logger="mgbias.mlm.load"):
        model, _ = load_mlm(str(tmp_path), device="cpu")
    assert warnings_in(caplog, "mgbias") == []
    (unused,) = [m for m in (r.getMessage() for r in caplog.records) if "weight(s) unused" in m]
    assert unused == (
        f"{tmp_path}: 4 checkpoint weight(s) unused by BertForMaskedLM (normal for a pretraining "
        "checkpoint): bert.pooler.dense.bias, bert.pooler.dense.weight, "
        "cls.seq_relationship.bias, cls.seq_relationship.weight"
    )
    ids = torch.tensor([tokenizer("He is a doctor.")["input_ids"]])
    with torch.no_grad():
        expected = saved(input_ids=ids).prediction_logits
        torch.testing.assert_close(model(input_ids=ids).logits, expected)


def test_a_head_weight_of_another_shape_is_refused_like_a_missing_one(tmp_path):
    tokenizer = wordpiece_tokenizer()
    save_pretrained(build_model("bert", len(tokenizer)), tokenizer, tmp_path)
    weights = load_file(tmp_path / "model.safetensors")
    weights["cls.predictions.transform.dense.weight"] = torch.zeros(16, 8)
    save_file(weights, tmp_path / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(UntrainedHeadError) as raised:
        load_mlm(str(tmp_path), device="cpu")
    assert (
        f"{tmp_path}: 1 weight(s) of BertForMaskedLM are not in the checkpoint (or have another "
        "shape there) and were initialised at random: cls.predictions.transform.dense.weight "
        "(checkpoint shape [16, 8], model [16, 16])."
    ) in str(raised.value)


def test_the_config_of_the_saved_head_is_what_counts(tmp_path):
    """A head-less checkpoint whose config names BertForMaskedLM is refused all the same."""
    tokenizer = wordpiece_tokenizer()
    save_pretrained(bert_from_config(bert_config(len(tokenizer)), head="none"), tokenizer, tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    config["architectures"] = ["BertForMaskedLM"]
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(UntrainedHeadError, match="cls.predictions.transform.dense.weight"):
        load_mlm(str(tmp_path), device="cpu")


def test_long_lists_of_weights_are_cut_after_ten():
    info = {
        "missing_keys": {f"layer.{i:02d}.weight" for i in range(12)},
        "unexpected_keys": set(),
        "mismatched_keys": {("head.bias", torch.Size([3]), torch.Size([4]))},
    }
    assert initialised_weights(info)[-1] == "head.bias (checkpoint shape [3], model [4])"
    with pytest.raises(UntrainedHeadError) as raised:
        check_loading_info("org/model", info, model_class="XForMaskedLM")
    assert str(raised.value).startswith(
        "org/model: 13 weight(s) of XForMaskedLM are not in the checkpoint (or have another "
        "shape there) and were initialised at random: layer.00.weight, layer.01.weight, "
    )
    assert "layer.09.weight, ... and 3 more. The model's MLM head was never trained" in str(
        raised.value
    )


def test_nothing_missing_nothing_logged(caplog):
    empty = {"missing_keys": set(), "unexpected_keys": set(), "mismatched_keys": set()}
    with caplog.at_level(logging.DEBUG, logger="mgbias.mlm.load"):
        check_loading_info("m", empty)
    assert caplog.records == []


@pytest.mark.parametrize(
    ("value", "where"),
    [
        (float("nan"), "bert.encoder.layer.0.output.dense.weight"),
        (float("inf"), "cls.predictions.bias"),
    ],
)
def test_non_finite_weights_are_refused_naming_the_tensor(tmp_path, value, where):
    tokenizer = wordpiece_tokenizer()
    save_pretrained(build_model("bert", len(tokenizer)), tokenizer, tmp_path)
    weights = load_file(tmp_path / "model.safetensors")
    assert where in weights
    weights[where][0, ...] = value
    save_file(weights, tmp_path / "model.safetensors", metadata={"format": "pt"})
    row = weights[where][0].numel()
    with pytest.raises(NonFiniteWeightsError) as raised:
        load_mlm(str(tmp_path), device="cpu")
    message = str(raised.value)
    assert message.startswith(f"{tmp_path}: 1 of ")
    assert f"{where} ({row:,} of {weights[where].numel():,} values)" in message
    if where.startswith("bert."):  # the encoder alone holds it too
        inner = where.removeprefix("bert.").replace(".", r"\.")
        with pytest.raises(NonFiniteWeightsError, match=f": {inner} \\({row} of "):
            load_encoder(str(tmp_path), device="cpu")


def test_non_finite_weights_counts_each_tensor():
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Linear(2, 2))
    with torch.no_grad():
        model[0].weight[1, 2] = float("nan")
        model[1].bias[0] = float("-inf")
        model[1].bias[1] = float("inf")
    assert non_finite_weights(model) == [("0.weight", 1, 6), ("1.bias", 2, 2)]
    assert non_finite_weights(torch.nn.Linear(2, 2)) == []
    large = torch.nn.Linear(4, 4)
    with torch.no_grad():
        large.weight.fill_(3e38)  # finite values whose float32 sum overflows
    assert not torch.isfinite(large.weight.sum())
    assert non_finite_weights(large) == []


def test_a_model_that_is_no_masked_lm_is_refused_by_its_type(tmp_path):
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=40, n_layer=1, n_head=2, n_embd=8, n_positions=16)
    config.bos_token_id = config.eos_token_id = 0
    GPT2LMHeadModel(config).save_pretrained(tmp_path)
    with pytest.raises(NotMaskedLMError) as raised:
        load_mlm(str(tmp_path), device="cpu")
    assert str(raised.value).startswith(
        f"{tmp_path}: a 'gpt2' model (GPT2LMHeadModel), not a masked language model: "
    )
    assert "\n" not in str(raised.value)
