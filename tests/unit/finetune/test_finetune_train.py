"""Masked-LM fine-tuning (mgbias.finetune.train) and the shared loop pieces it uses:
paper defaults, epoch order, block grouping, accumulation, the head-at-labels loss for
other architectures, a planted effect, determinism and the output directory."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import numpy as np
import pytest
import torch
from fixtures.text import gendered_lines, write_lines
from fixtures.tiny_models import TINY_MLM_WORDS, build_model, save_tiny_mlm
from safetensors.torch import load_file

from mgbias.finetune.train import (
    FineTuneConfig,
    checkpoint_dir_for,
    compile_encoder,
    finetune_mlm,
)
from mgbias.mlm.load import load_mlm
from mgbias.mlm.loop import (
    LENGTH_WINDOW_STEPS,
    EpochOrder,
    LoopState,
    Masking,
    length_grouped_order,
    masked_lm_loss,
    train_steps,
)
from mgbias.mlm.sequences import PackedSequences, encode_lines, group_blocks
from mgbias.mlm.wordpiece import SPECIAL_TOKENS, build_bert_tokenizer

FAST = FineTuneConfig(
    learning_rate=1e-2, batch_size=8, devices=1, line_by_line=True, checkpoint_every=0
)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return save_tiny_mlm(tmp_path_factory.mktemp("base") / "tiny")


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_same_weights(first, second) -> None:
    """Every tensor of two saved models is equal, bit for bit."""
    one, other = (load_file(directory / "model.safetensors") for directory in (first, second))
    assert one.keys() == other.keys()
    assert all(torch.equal(one[name], other[name]) for name in one)


def he_share(model_dir) -> float:
    model, tokenizer = load_mlm(str(model_dir))
    batch = tokenizer(["[MASK] is a doctor ."], return_tensors="pt")
    with torch.no_grad():
        probabilities = model(**batch).logits[0, 1].softmax(-1)
    he, she = (probabilities[tokenizer.convert_tokens_to_ids(w)] for w in ("he", "she"))
    return float(he / (he + she))


def test_defaults_are_the_papers_run_mlm_settings():
    cfg = FineTuneConfig()
    assert cfg.to_dict() == {
        "seed": 42,
        "learning_rate": 5e-5,
        "epochs": 3,
        "batch_size": 8,
        "devices": 4,
        "gradient_accumulation": 1,
        "micro_batch_size": None,
        "weight_decay": 0.0,
        "adam_beta1": 0.9,
        "adam_beta2": 0.999,
        "adam_epsilon": 1e-8,
        "warmup_steps": 0,
        "max_grad_norm": 1.0,
        "mlm_probability": 0.15,
        "line_by_line": False,
        "max_seq_length": None,
        "group_lines": 1000,
        "precision": "fp32",
        "eval_batch_size": 8,
        "checkpoint_every": 500,
        "log_every": None,
        "group_by_length": False,
        "deterministic": True,
        "compile": False,
    }
    assert cfg.effective_batch_size == 32
    assert replace(cfg, devices=1, gradient_accumulation=4).effective_batch_size == 32


def test_bad_settings_are_rejected(base, tmp_path):
    with pytest.raises(ValueError, match="batch_size must be a positive integer, got 0"):
        FineTuneConfig(batch_size=0)
    with pytest.raises(ValueError, match="precision must be one of"):
        FineTuneConfig(precision="fp8")
    with pytest.raises(ValueError, match=r"mlm_probability must be in \(0, 1\)"):
        FineTuneConfig(mlm_probability=0.0)
    with pytest.raises(ValueError, match="micro_batch_size must be a multiple of batch_size"):
        FineTuneConfig(batch_size=8, micro_batch_size=12)
    with pytest.raises(ValueError, match=r"at most the effective batch \(32\), got 64"):
        FineTuneConfig(batch_size=8, micro_batch_size=64)
    with pytest.raises(ValueError, match="group_by_length needs line_by_line"):
        FineTuneConfig(group_by_length=True)
    with pytest.raises(ValueError, match="deterministic must be true or false, got 'yes'"):
        FineTuneConfig(deterministic="yes")
    with pytest.raises(ValueError, match=r"^kaneko2023\.finetune: unknown fine-tuning setting"):
        FineTuneConfig.from_mapping({"lr": 1e-3}, where="kaneko2023.finetune")
    assert FineTuneConfig.from_mapping(None) == FineTuneConfig()
    assert FineTuneConfig.from_mapping({"learning_rate": 5e-4}).learning_rate == 5e-4
    text = write_lines(tmp_path / "he.txt", gendered_lines("he", 8))
    with pytest.raises(ValueError, match="fp16 needs a CUDA device"):
        finetune_mlm(base, text, tmp_path / "out", replace(FAST, precision="fp16"), device="cpu")
    with pytest.raises(ValueError, match=r"give no training example \(a block needs 16 tokens"):
        finetune_mlm(base, write_lines(tmp_path / "one.txt", ["he is a cook ."]), tmp_path / "o")
    with pytest.raises(ValueError, match=r"development lines give no example"):
        finetune_mlm(
            base, text, tmp_path / "o", replace(FAST, line_by_line=False), dev=tmp_path / "one.txt"
        )
    expected = r"max_seq_length 40 is longer than the model accepts \(16 tokens"
    with pytest.raises(ValueError, match=expected):
        finetune_mlm(base, text, tmp_path / "o", replace(FAST, max_seq_length=40))
    assert not (tmp_path / "out").exists() and not (tmp_path / "o").exists()


def test_epoch_order_visits_every_example_once_per_epoch():
    order = EpochOrder(n_examples=10, examples_per_step=4, micro_batch_size=3, seed=5)
    assert order.steps_per_epoch == 3  # 4 + 4 + 2
    steps = [order.micro_batches(step) for step in range(1, 7)]
    assert [[len(micro) for micro in batches] for batches in steps] == [
        [3, 1],
        [3, 1],
        [2],
    ] * 2
    for epoch in range(2):
        seen = np.concatenate([m for batches in steps[3 * epoch : 3 * epoch + 3] for m in batches])
        assert sorted(seen.tolist()) == list(range(10))
        assert seen.tolist() == order.permutation(epoch).tolist()
    assert order.permutation(0).tolist() != order.permutation(1).tolist()
    # The order is a function of the step alone: a fresh object agrees on step 5.
    again = EpochOrder(10, 4, 3, seed=5)
    assert [m.tolist() for m in again.micro_batches(5)] == [m.tolist() for m in steps[4]]
    with pytest.raises(ValueError, match="batch order"):
        again.load_state_dict({**again.state_dict(), "seed": 6})
    assert order.groups(1) is None  # one loss group per micro-batch


def test_length_grouped_order_sorts_windows_and_shuffles_their_steps():
    order = np.array([3, 0, 6, 1, 5, 2, 4])
    lengths = np.array([5, 9, 2, 7, 4, 8, 1])  # of examples 0..6
    seen = set()
    for seed in range(20):
        grouped = length_grouped_order(order, lengths, 2, np.random.default_rng(seed), 2)
        # window 1 (examples 3 0 6 1) sorted longest first: 1 (9), 3 (7), 0 (5), 6 (1);
        # its two steps in a random order; window 2 (5 2 4): the step 5 (8), 4 (4), then
        # the epoch's short last step, 2 (2), last
        steps = [tuple(grouped[i : i + 2].tolist()) for i in (0, 2)]
        assert sorted(steps) == [(0, 6), (1, 3)]
        assert grouped[4:].tolist() == [5, 4, 2]
        seen.add(tuple(steps))
    assert seen == {((1, 3), (0, 6)), ((0, 6), (1, 3))}


def test_epoch_order_grouped_by_length_pads_less_with_the_same_windows():
    rng = np.random.default_rng(0)
    lengths = rng.integers(2, 60, size=1000)
    plain = EpochOrder(1000, examples_per_step=8, micro_batch_size=4, seed=3)
    grouped = EpochOrder(1000, 8, 4, seed=3, lengths=lengths)
    window = LENGTH_WINDOW_STEPS * 8
    for epoch in (0, 1):
        ungrouped, reordered = plain.permutation(epoch), grouped.permutation(epoch)
        assert sorted(reordered.tolist()) == list(range(1000))
        for start in range(0, 1000, window):  # the same examples in each window
            assert set(reordered[start : start + window]) == set(ungrouped[start : start + window])

    def padding(order: EpochOrder) -> int:
        micro = [m for step in range(1, 2 * 125 + 1) for m in order.micro_batches(step)]
        return sum(int(lengths[m].max()) * len(m) - int(lengths[m].sum()) for m in micro)

    assert padding(grouped) < padding(plain) / 10
    assert grouped.state_dict()["grouped_by_length"] and not plain.state_dict()["grouped_by_length"]
    with pytest.raises(ValueError, match="999 lengths given for 1000 examples"):
        EpochOrder(1000, 8, 4, seed=3, lengths=lengths[:999])


def test_a_non_finite_loss_names_its_step_when_the_losses_are_read(base):
    model, tokenizer = load_mlm(str(base))
    model.train()
    sequences = encode_lines(gendered_lines("he", 16), tokenizer, 16).sequences
    masking = Masking(tuple(tokenizer.all_special_ids), tokenizer.mask_token_id, (0, 21), 0.5)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
    seen = []

    def poison_after_step_2(state: LoopState) -> None:
        seen.append((state.step, len(state.window)))
        if state.step == 2:
            with torch.no_grad():
                model.cls.predictions.decoder.weight.fill_(float("nan"))

    # Losses are read back at the multiples of 2 (sync_every) and of 5 (log_every):
    # step 3's NaN is found at step 4, after the step has run.
    with pytest.raises(FloatingPointError, match="the loss of step 3 is nan"):
        train_steps(
            model,
            sequences,
            EpochOrder(16, 4, 4, seed=0),
            optimizer,
            scheduler,
            masking=masking,
            mask_generator=torch.Generator().manual_seed(0),
            pad_id=0,
            steps=8,
            log_every=5,
            on_step=poison_after_step_2,
            sync_every=2,
            progress=False,
        )
    assert seen == [(1, 0), (2, 2), (3, 2)]


def test_epoch_order_groups_device_batches_within_a_micro_batch():
    # 8 examples per step, run 4 per pass, each pass holding two device batches of 2.
    order = EpochOrder(n_examples=10, examples_per_step=8, micro_batch_size=4, seed=0, group_size=2)
    assert [len(m) for m in order.micro_batches(1)] == [4, 4]
    assert [g.tolist() for g in order.groups(1)] == [[0, 0, 1, 1], [2, 2, 3, 3]]
    assert [g.tolist() for g in order.groups(2)] == [[0, 0]]  # the 2 examples left
    with pytest.raises(ValueError, match="micro_batch_size 3 is not a multiple of the group"):
        EpochOrder(10, 8, 3, seed=0, group_size=2)


def test_grouped_loss_weighs_each_group_as_if_alone(base):
    # Two device batches in one pass: sum of each group's mean = the separate losses.
    model, _ = load_mlm(str(base))
    generator = torch.Generator().manual_seed(3)
    input_ids = torch.randint(5, 21, (7, 9), generator=generator)
    attention_mask = torch.ones_like(input_ids)
    attention_mask[5:, 6:] = 0
    labels = torch.full_like(input_ids, -100)
    labels[0, 1], labels[0, 4], labels[2, 2], labels[4, 3], labels[5, 1] = 7, 8, 9, 10, 11
    groups = torch.tensor([0, 0, 0, 0, 1, 1, 2])  # group 2 has no label: it adds nothing
    first = masked_lm_loss(model, input_ids[:4], attention_mask[:4], labels[:4])
    second = masked_lm_loss(model, input_ids[4:6], attention_mask[4:6], labels[4:6])
    grouped = masked_lm_loss(model, input_ids, attention_mask, labels, groups=groups)
    torch.testing.assert_close(grouped, first + second)
    # Not the plain mean over the 5 labelled positions, which weighs group 0 by 3/5.
    plain = masked_lm_loss(model, input_ids, attention_mask, labels)
    assert abs(grouped.item() / 2 - plain.item()) > 1e-4


def test_group_blocks_concatenates_and_drops_each_groups_remainder():
    tokenizer = build_bert_tokenizer([*SPECIAL_TOKENS, *TINY_MLM_WORDS], model_max_length=64)
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    he, she, is_, a, cook = (tokenizer.convert_tokens_to_ids(w) for w in "he she is a cook".split())
    lines = ["he is a cook", "she is", "he"]  # 6 + 4 + 3 = 13 tokens with [CLS]/[SEP]
    whole = group_blocks(lines, tokenizer, block_size=4, chunk_lines=None)
    assert len(whole.sequences) == 3 and whole.n_lines == 3  # 12 of 13 tokens
    assert whole.sequences.ids.tolist() == [cls, he, is_, a, cook, sep, cls, she, is_, sep, cls, he]
    # Two lines per group (run_mlm.py groups 1000): 10 tokens -> 2 blocks, then 3 -> none.
    grouped = group_blocks(lines, tokenizer, block_size=4, chunk_lines=2)
    assert len(grouped.sequences) == 2
    assert grouped.sequences.ids.tolist() == whole.sequences.ids.tolist()[:8]
    assert grouped.text_sha256 == hashlib.sha256(b"he is a cook\nshe is\nhe\n").hexdigest()
    by_line = encode_lines(lines, tokenizer, max_length=4)
    assert [len(by_line.sequences.batch(np.array([i]), 0)[0][0]) for i in range(3)] == [4, 4, 3]


@pytest.mark.parametrize("family", ["albert", "roberta", "distilbert"])
def test_head_at_labels_equals_the_models_own_loss_beyond_bert(family):
    model = build_model(family, 40)
    generator = torch.Generator().manual_seed(0)
    input_ids = torch.randint(5, 40, (3, 9), generator=generator)
    attention_mask = torch.ones_like(input_ids)
    attention_mask[2, 6:] = 0
    labels = torch.full_like(input_ids, -100)
    labels[0, 2], labels[1, 4], labels[2, 1] = 7, 11, 13
    own = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels).loss
    torch.testing.assert_close(masked_lm_loss(model, input_ids, attention_mask, labels), own)


def test_accumulated_step_is_the_mean_of_the_micro_batch_gradients(base):
    # One SGD step with lr 1 moves every weight by minus the step's gradient, which must be
    # the gradient of (loss(micro 1) + loss(micro 2)) / 2 under the same masking draws.
    model, tokenizer = load_mlm(str(base))
    model.train()
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = 0.0
    lines = gendered_lines("he", 3) + gendered_lines("she", 3)
    sequences = encode_lines(lines, tokenizer, 16).sequences
    masking = Masking(tuple(tokenizer.all_special_ids), tokenizer.mask_token_id, (0, 21), 0.5)
    order = EpochOrder(6, examples_per_step=6, micro_batch_size=4, seed=1)
    before = [p.detach().clone() for p in model.parameters()]

    model.zero_grad()
    generator = torch.Generator().manual_seed(9)
    expected = 0.0
    for indices in order.micro_batches(1):
        ids, mask = sequences.batch(indices, 0)
        masked, labels = masking.apply(ids, mask, generator)
        loss = masked_lm_loss(model, masked, mask, labels) / 2
        loss.backward()
        expected += loss.item()
    gradients = [p.grad.clone() for p in model.parameters()]

    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
    state = train_steps(
        model,
        sequences,
        order,
        optimizer,
        scheduler,
        masking=masking,
        mask_generator=torch.Generator().manual_seed(9),
        pad_id=0,
        steps=1,
        log_every=1,
        progress=False,
    )
    assert state.step == 1 and state.history == [(1, pytest.approx(expected, rel=1e-6))]
    for old, new, gradient in zip(before, model.parameters(), gradients, strict=True):
        torch.testing.assert_close(old - new.detach(), gradient, rtol=1e-5, atol=1e-7)
    assert LoopState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_fine_tuning_moves_the_pronoun_prior_and_is_deterministic(base, tmp_path):
    male_text = write_lines(tmp_path / "he.txt", gendered_lines("he", 64))
    female_text = write_lines(tmp_path / "she.txt", gendered_lines("she", 64))
    dev = write_lines(tmp_path / "dev.txt", gendered_lines("he", 4) + gendered_lines("she", 4))
    male = finetune_mlm(base, male_text, tmp_path / "m", FAST, dev=dev, progress=False, threads=1)
    female = finetune_mlm(base, female_text, tmp_path / "f", FAST, progress=False, threads=1)
    assert he_share(male) > 0.8 > 0.2 > he_share(female)  # base: 0.45

    summary = json.loads((male / "training.json").read_text())
    assert summary["steps"] == 3 * 8 and summary["steps_per_epoch"] == 8  # 64 lines / 8
    assert summary["n_examples"] == 64 and summary["n_tokens"] == 64 * 7
    assert summary["effective_batch_size"] == 8 and summary["sequence_length"] == 16
    assert summary["config"]["learning_rate"] == 1e-2
    assert summary["loss_history"][-1]["step"] == 24
    assert summary["base_model"]["revision"] is None
    assert summary["base_model"]["weights_sha256"] == sha256(base / "model.safetensors")
    assert summary["text_sha256"] == sha256(male_text)
    assert summary["dev"]["n_examples"] == 8 and summary["dev"]["loss"] > 0
    assert summary["dev"]["loss"] < summary["loss_history"][0]["loss"]
    assert "dev" in json.loads((female / "training.json").read_text())

    again = finetune_mlm(base, male_text, tmp_path / "m2", FAST, dev=dev, progress=False, threads=1)
    assert sha256(again / "model.safetensors") == sha256(male / "model.safetensors")
    assert (again / "training.json").read_bytes() == (male / "training.json").read_bytes()
    assert_same_weights(again, male)
    # On the CPU, the non-deterministic setting picks the same kernels: the same weights.
    free = replace(FAST, deterministic=False)
    unchecked = finetune_mlm(base, male_text, tmp_path / "m4", free, progress=False, threads=1)
    assert_same_weights(unchecked, male)
    other = finetune_mlm(
        base, male_text, tmp_path / "m3", replace(FAST, seed=1), progress=False, threads=1
    )
    assert sha256(other / "model.safetensors") != sha256(male / "model.safetensors")
    assert sorted(p.name for p in male.iterdir()) == [
        "config.json",
        "model.safetensors",
        "tokenizer.json",
        "tokenizer_config.json",
        "training.json",
    ]
    # A fine-tuned model is an ordinary model directory: it loads for scoring.
    model, _ = load_mlm(str(male))
    assert not model.training


def test_device_batches_in_one_pass_train_like_separate_passes(base, tmp_path):
    text = write_lines(tmp_path / "he.txt", gendered_lines("he", 64))
    cfg = replace(FAST, batch_size=4, devices=2)
    separate = finetune_mlm(base, text, tmp_path / "separate", cfg, progress=False, threads=1)
    fused = replace(cfg, micro_batch_size=8)
    joint = finetune_mlm(base, text, tmp_path / "joint", fused, progress=False, threads=1)
    summaries = [json.loads((d / "training.json").read_text()) for d in (separate, joint)]
    assert summaries[0]["steps"] == summaries[1]["steps"] == 24
    assert he_share(joint) > 0.8 and he_share(separate) > 0.8
    # Other random draws, so not the same weights, but the same kind of loss curve.
    first, last = (summaries[1]["loss_history"][i]["loss"] for i in (0, -1))
    assert last < first


def test_grouped_blocks_bf16_and_kept_checkpoints(base, tmp_path):
    text = write_lines(tmp_path / "mixed.txt", gendered_lines("he", 20) + gendered_lines("she", 20))
    cfg = replace(FAST, line_by_line=False, max_seq_length=8, precision="bf16", checkpoint_every=4)
    out = finetune_mlm(base, text, tmp_path / "out", cfg, keep_checkpoints=True, progress=False)
    summary = json.loads((out / "training.json").read_text())
    assert summary["n_examples"] == 35 and summary["sequence_length"] == 8  # 280 tokens / 8
    assert summary["steps"] == 3 * 5
    kept = sorted(p.name for p in checkpoint_dir_for(out).iterdir())
    assert kept == ["step-000000012"]  # the newest only; none at the last step
    weights = sha256(out / "model.safetensors")
    # Run again: it resumes from step 12 (in process), ends with the same weights and
    # removes the checkpoints after success (the default).
    again = finetune_mlm(base, text, tmp_path / "out", cfg, progress=False)
    assert sha256(again / "model.safetensors") == weights
    assert not checkpoint_dir_for(again).exists()


def test_packed_sequences_from_lengths_checks_the_total():
    with pytest.raises(ValueError, match="lengths sum to 5 but there are 4 ids"):
        PackedSequences.from_lengths(np.arange(4), [2, 3])


def test_group_by_length_is_an_option_of_its_own(base, tmp_path):
    lines = gendered_lines("he", 24) + [f"{line} {line}" for line in gendered_lines("she", 24)]
    text = write_lines(tmp_path / "mixed.txt", lines)
    plain = finetune_mlm(base, text, tmp_path / "plain", FAST, progress=False, threads=1)
    cfg = replace(FAST, group_by_length=True)
    grouped = finetune_mlm(base, text, tmp_path / "grouped", cfg, progress=False, threads=1)
    again = finetune_mlm(base, text, tmp_path / "again", cfg, progress=False, threads=1)
    summary = json.loads((grouped / "training.json").read_text())
    assert summary["config"]["group_by_length"] is True
    assert summary["steps"] == json.loads((plain / "training.json").read_text())["steps"]
    assert sha256(grouped / "model.safetensors") != sha256(plain / "model.safetensors")
    assert sha256(again / "model.safetensors") == sha256(grouped / "model.safetensors")


def test_compile_encoder_compiles_in_place_and_keeps_the_weight_names(base):
    # Compilation is lazy: this checks the wiring only; a compiled fine-tuning of the
    # tiny model compiles for a minute or more on two cores (its weights repeat run to
    # run, and differ from an uncompiled run's in the last bits).
    model, _ = load_mlm(str(base))
    names = list(model.state_dict())
    compile_encoder(model)
    assert model.bert._compiled_call_impl is not None
    assert model.cls._compiled_call_impl is None  # the head runs on few positions
    assert list(model.state_dict()) == names
