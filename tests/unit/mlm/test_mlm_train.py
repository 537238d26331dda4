"""Demo MLM training (WordPiece + BERT from scratch) and model loading."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from mgbias.mlm.load import ModelLoadError, load_mlm, model_revision, pick_device
from mgbias.mlm.text_lines import iter_text_lines
from mgbias.mlm.train import MLMTrainingConfig, train_mlm
from mgbias.mlm.unmasked import score_unmasked
from mgbias.mlm.wordpiece import SPECIAL_TOKENS, learn_wordpiece_vocab, train_wordpiece_tokenizer

SMALL = MLMTrainingConfig(
    seed=3,
    vocab_size=120,
    hidden_size=16,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=32,
    max_length=16,
    batch_size=16,
    steps=30,
    learning_rate=1e-3,
)


def write_corpus(directory: Path, n_sentences: int = 200, seed: int = 0) -> list[Path]:
    """A gzip and a plain file of generated sentences (one per line, some blank lines)."""
    rng = random.Random(seed)
    subjects = ["the man", "the woman", "he", "she", "my brother", "my sister"]
    occupations = ["doctor", "nurse", "engineer", "teacher", "pilot", "cook", "lawyer"]
    lines = [
        f"{rng.choice(subjects)} wants to be a {rng.choice(occupations)} in the city ."
        for _ in range(n_sentences)
    ]
    half = n_sentences // 2
    gz_path = directory / "part1.txt.gz"
    with gzip.open(gz_path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines[:half]) + "\n\n")
    plain_path = directory / "part2.txt"
    plain_path.write_text("\n".join(lines[half:]) + "\n", encoding="utf-8")
    return [gz_path, plain_path]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[Path]:
    return write_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def trained(corpus, tmp_path_factory) -> Path:
    return train_mlm(corpus, tmp_path_factory.mktemp("models") / "demo", SMALL, progress=False)


def test_learn_wordpiece_vocab_hand_computed_merges():
    # aab x3 -> a ##a ##b ; ab x2 -> a ##b.  Pair counts: (a,##a)=3, (##a,##b)=3,
    # (a,##b)=2. The tie at 3 goes to the smaller strings ("##a","##b") -> "##ab";
    # then (a,##ab)=3 -> "aab"; then (a,##b)=2 -> "ab".
    vocab = learn_wordpiece_vocab({"aab": 3, "ab": 2}, vocab_size=100)
    assert vocab == [*SPECIAL_TOKENS, "##a", "##b", "a", "##ab", "aab", "ab"]
    # min_frequency stops before the pair seen twice; vocab_size caps the merges.
    assert learn_wordpiece_vocab({"aab": 3, "ab": 2}, 100, min_frequency=3)[-1] == "aab"
    assert learn_wordpiece_vocab({"aab": 3, "ab": 2}, 9) == [
        *SPECIAL_TOKENS,
        "##a",
        "##b",
        "a",
        "##ab",
    ]
    with pytest.raises(ValueError, match="vocab_size=7 is too small"):
        learn_wordpiece_vocab({"aab": 3, "ab": 2}, 7)


def test_tokenizer_training_is_deterministic_and_complete(corpus, tmp_path):
    first = train_wordpiece_tokenizer(corpus, 120, tmp_path / "tok1")
    second = train_wordpiece_tokenizer(corpus, 120, tmp_path / "tok2")
    assert first.get_vocab() == second.get_vocab()
    assert (tmp_path / "tok1" / "tokenizer.json").read_bytes() == (
        tmp_path / "tok2" / "tokenizer.json"
    ).read_bytes()
    assert [first.convert_ids_to_tokens(i) for i in range(5)] == list(SPECIAL_TOKENS)
    encoded = first("The woman wants to be a pilot .")
    assert encoded["input_ids"][0] == first.cls_token_id
    assert encoded["input_ids"][-1] == first.sep_token_id
    assert first.unk_token_id not in encoded["input_ids"]  # every corpus word is covered
    assert first.mask_token == "[MASK]" and first.pad_token_id == 0


def test_training_is_deterministic(trained, corpus, tmp_path):
    again = train_mlm(corpus, tmp_path / "again", SMALL, progress=False)
    first = load_file(trained / "model.safetensors")
    second = load_file(again / "model.safetensors")
    assert first.keys() == second.keys()
    for name in first:
        assert torch.equal(first[name], second[name]), name
    assert (trained / "training.json").read_bytes() == (again / "training.json").read_bytes()
    # A different seed gives different weights (the seed is really used).
    other = train_mlm(corpus, tmp_path / "other", replace(SMALL, seed=4), progress=False)
    other_weights = load_file(other / "model.safetensors")
    assert not torch.equal(
        first["bert.embeddings.word_embeddings.weight"],
        other_weights["bert.embeddings.word_embeddings.weight"],
    )


def test_training_output_and_summary(trained):
    summary = json.loads((trained / "training.json").read_text())
    assert summary["config"]["steps"] == 30 and summary["config"]["seed"] == 3
    assert summary["n_sentences"] == 200  # the blank line is skipped
    assert summary["text_files"] == ["part1.txt.gz", "part2.txt"]
    assert summary["loss_history"][-1]["step"] == 30
    # Loss falls from about log(vocab) at the start.
    assert summary["final_loss"] < summary["loss_history"][0]["loss"]
    assert {path.name for path in trained.parent.iterdir()} == {"demo"}  # no temp dirs left


def test_saved_model_loads_and_returns_attentions(trained):
    model, tokenizer = load_mlm(str(trained), device="cpu")
    assert not model.training
    assert model_revision(model) is None  # local directory
    assert tokenizer.model_max_length == SMALL.max_length
    batch = tokenizer(["she wants to be a doctor ."], return_tensors="pt")
    with torch.inference_mode():
        output = model(**batch, output_attentions=True)
    assert len(output.attentions) == SMALL.num_hidden_layers
    assert output.attentions[0].shape[1] == SMALL.num_attention_heads
    scores = score_unmasked(model, tokenizer, ["he wants to be a nurse ."], progress=False)
    assert len(scores.token_ids[0]) == 7


def test_load_accepts_auto_device(trained):
    # The configuration's and the command line's default, passed through unchanged.
    model, _ = load_mlm(str(trained), device="auto")
    assert next(model.parameters()).device.type == pick_device(None).type


def test_load_errors_name_the_problem(tmp_path):
    empty = tmp_path / "not_a_model"
    empty.mkdir()
    with pytest.raises(FileNotFoundError, match=r"not_a_model has no config\.json"):
        load_mlm(str(empty))
    a_file = tmp_path / "weights.bin"
    a_file.write_bytes(b"")
    with pytest.raises(FileNotFoundError, match="is a file"):
        load_mlm(str(a_file))
    # two slashes: no directory here and no hub id either, said without asking the hub
    with pytest.raises(ModelLoadError, match="not a Hugging Face hub id either"):
        load_mlm("no-such-org/no/such-model")


def test_pick_device():
    assert pick_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert pick_device().type == expected
    assert pick_device("auto").type == expected
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="CUDA is not available"):
            pick_device("cuda")


def test_to_device_keeps_a_tensor_already_there_and_copies_to_cuda_pinned():
    from mgbias.mlm.devices import to_device

    values = torch.arange(6)
    assert to_device(values, "cpu") is values
    assert to_device(values, torch.device("cpu")) is values
    if torch.cuda.is_available():
        moved = to_device(values, "cuda")
        assert moved.device.type == "cuda" and torch.equal(moved.cpu(), values)
        assert to_device(moved, moved.device) is moved


def test_launched_ahead_yields_each_item_after_the_next_is_launched():
    from mgbias.mlm.devices import launched_ahead

    events = []

    def launch(item):
        events.append(f"launch {item}")
        return item * 10

    for item, launched in launched_ahead([1, 2, 3], launch):
        events.append(f"read {item}={launched}")
    assert events == ["launch 1", "launch 2", "read 1=10", "launch 3", "read 2=20", "read 3=30"]
    assert list(launched_ahead([], launch)) == []


def test_text_lines_errors_name_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"good line\nbad \xff line\n")
    with pytest.raises(ValueError, match=r"bad\.txt, line 2, column 5: byte 0xff is not UTF-8"):
        list(iter_text_lines([path]))


def test_config_validation():
    with pytest.raises(ValueError, match="hidden_size .* divisible by num_attention_heads"):
        MLMTrainingConfig(hidden_size=10, num_attention_heads=3)
    with pytest.raises(ValueError, match="mlm_probability"):
        MLMTrainingConfig(mlm_probability=1.5)
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        MLMTrainingConfig(steps=0)
    with pytest.raises(ValueError, match=r"dropout must be in \[0, 1\), got 1.0"):
        MLMTrainingConfig(dropout=1.0)


def test_training_dropout_reaches_the_bert_config(trained):
    config = json.loads((trained / "config.json").read_text())
    assert config["hidden_dropout_prob"] == SMALL.dropout == 0.1
    assert config["attention_probs_dropout_prob"] == 0.1


def test_masked_lm_loss_equals_the_full_head_loss():
    # The head runs only at labelled positions; the loss and every gradient must
    # equal BertForMaskedLM's own loss, which applies the head everywhere.
    from fixtures.tiny_models import bert_from_config

    from mgbias.mlm.train import bert_config, masked_lm_loss

    model = bert_from_config(bert_config(replace(SMALL, dropout=0.0), vocab_size=50), seed=0)
    input_ids = torch.randint(5, 50, (6, 12))
    attention_mask = torch.ones_like(input_ids)
    attention_mask[3:, 8:] = 0
    labels = torch.full_like(input_ids, -100)
    labels[0, 1], labels[2, 5], labels[4, 7], labels[5, 2] = 7, 8, 9, 10

    full = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels).loss
    full.backward()
    full_grads = [param.grad.clone() for param in model.parameters()]
    model.zero_grad()
    ours = masked_lm_loss(model, input_ids, attention_mask, labels)
    ours.backward()

    torch.testing.assert_close(ours, full, rtol=1e-6, atol=1e-7)
    assert ours.item() > 0
    for ours_grad, full_grad in zip(
        (param.grad for param in model.parameters()), full_grads, strict=True
    ):
        torch.testing.assert_close(ours_grad, full_grad, rtol=1e-5, atol=1e-7)


def test_masking_counts_follow_the_80_10_10_rule():
    from mgbias.mlm.train import mask_tokens

    generator = torch.Generator().manual_seed(0)
    input_ids = torch.randint(5, 50, (400, 30), generator=generator)
    input_ids[:, 0], input_ids[:, -1] = 2, 3
    attention_mask = torch.ones_like(input_ids)
    attention_mask[:200, 20:] = 0
    masked, labels = mask_tokens(
        input_ids,
        attention_mask,
        special_ids=[0, 1, 2, 3, 4],
        mask_id=4,
        random_token_range=(5, 50),
        mlm_probability=0.15,
        generator=generator,
    )
    selected = labels != -100
    assert not selected[:, 0].any() and not selected[:, -1].any()
    assert not selected[:200, 20:].any()  # padding is never selected
    assert torch.equal(labels[selected], input_ids[selected])
    assert torch.equal(masked[~selected], input_ids[~selected])
    share = selected.sum().item() / (attention_mask.sum().item() - 2 * 400)
    assert 0.13 < share < 0.17
    counts = Counter(
        "mask" if new == 4 else "same" if new == old else "random"
        for new, old in zip(masked[selected].tolist(), input_ids[selected].tolist(), strict=True)
    )
    total = sum(counts.values())
    assert 0.77 < counts["mask"] / total < 0.83
    # "random" may draw the original token (1 in 45), which then counts as "same".
    assert 0.08 < counts["random"] / total < 0.12


def test_training_learns_a_subject_occupation_association(tmp_path):
    """The loop learns to condition an occupation on a subject three tokens back.

    "he/she is a OCCUPATION ." with a 3:1 male:female ratio and each gender's occupation
    from its own half with probability 0.9 (the planted demo world's knobs, one frame):
    after 500 steps the masked occupation's log-probabilities favour the subject's half
    by more than 1 nat each way. The same model does not learn it in 3000 steps from
    the demo world's text, where frames, subjects and modifiers vary
    (docs/history/2026-11-development-notes.md, "Known problems"): this test separates a
    training bug from that learning limit.
    """
    rng = random.Random(0)
    male = "engineer doctor pilot mechanic programmer farmer scientist lawyer".split()
    female = "nurse teacher secretary dancer librarian singer cashier baker".split()
    lines = []
    for _ in range(20_000):
        is_male = rng.random() < 0.75
        own, other = (male, female) if is_male else (female, male)
        occupation = rng.choice(own if rng.random() < 0.9 else other)
        lines.append(f"{'he' if is_male else 'she'} is a {occupation} .")
    text = tmp_path / "text.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cfg = MLMTrainingConfig(
        seed=1,
        vocab_size=200,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=128,
        max_length=16,
        batch_size=64,
        steps=500,
        learning_rate=2e-3,
        threads=1,
    )
    model, tokenizer = load_mlm(train_mlm([text], tmp_path / "model", cfg, progress=False))

    def male_minus_female(subject: str) -> float:
        encoded = tokenizer(f"{subject} is a {tokenizer.mask_token} .", return_tensors="pt")
        with torch.no_grad():
            logits = model(**encoded).logits[0]
        position = int((encoded.input_ids[0] == tokenizer.mask_token_id).nonzero()[0, 0])
        logprobs = logits[position].log_softmax(-1)
        ids = tokenizer.convert_tokens_to_ids
        return float(logprobs[ids(male)].mean() - logprobs[ids(female)].mean())

    assert tokenizer.unk_token_id not in tokenizer.convert_tokens_to_ids(male + female)
    assert male_minus_female("he") > 1.0
    assert male_minus_female("she") < -1.0
