"""One classifier run (Zhao et al. 2020, §4.1): settings, split ids, vectors, balanced
train and dev with an untouched test split, resume, and the monolingual table."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from mgbias.bios.experiment import (
    ClassifierSettings,
    RunResult,
    apply_split,
    mean_metrics,
    prepare_parts,
    run_classifier,
    run_seeds,
    split_ids,
    tpr_rows,
)
from mgbias.bios.spaces import unit_rows
from mgbias.bios.tables import arrow, monolingual_markdown, monolingual_rows, paper_table
from mgbias.embeddings.vectors import read_vec


def test_settings_default_to_the_authors_and_reject_unknown_keys():
    settings = ClassifierSettings.from_mapping({"runs": 3, "monolingual": {"de": ["de"]}})
    assert (settings.min_df, settings.max_df, settings.max_len, settings.rows) == (
        20,
        0.8,
        110,
        10_000,
    )
    assert (settings.hidden, settings.dropout, settings.tanh, settings.normalize) == (
        64,
        0.25,
        False,
        False,
    )
    train = settings.train_settings(7)
    assert (train.lr, train.batch_size, train.max_epochs, train.patience, train.seed) == (
        0.005,
        512,
        50,
        5,
        7,
    )
    assert settings.skip == ("accountant", "dentist")
    with pytest.raises(ValueError, match="bios.classifier: unknown keys \\['epochs'\\]"):
        ClassifierSettings.from_mapping({"epochs": 3})


def bios(counts: dict[tuple[str, str], int], seed: int = 0) -> list[dict]:
    """Bios whose text tells the title by a word and the gender by a pronoun (raw only)."""
    rng = random.Random(seed)
    filler = ["city", "years", "work", "team", "family", "school", "award"]
    rows = []
    for (title, gender), n in counts.items():
        for i in range(n):
            words = [rng.choice(filler) for _ in range(5)] + [
                {"nurse": "patients", "poet": "poems", "chef": "meals"}[title]
            ]
            rng.shuffle(words)
            body = " ".join(words)
            pronoun = {"F": "she", "M": "he"}[gender]
            rows.append(
                {
                    "id": f"{title}-{gender}-{i}",
                    "title": title,
                    "gender": gender,
                    "raw": f"{pronoun} {body}",
                    "bio": f"_ {body}",
                }
            )
    return rows


def test_split_ids_and_apply_split_round_trip_and_name_the_file_on_a_bad_id():
    data = bios({("nurse", "F"): 8, ("nurse", "M"): 2, ("poet", "F"): 3, ("poet", "M"): 7})
    split = split_ids(data, 42)
    assert [len(split[p]) for p in ("train", "dev", "test")] == [12, 4, 4]
    parts = apply_split(data, split)
    assert [r["id"] for r in parts["test"]] == split["test"]
    with pytest.raises(ValueError, match="s.json: 1 dev ids not in the dataset, e.g. 'gone'"):
        apply_split(data, {**split, "dev": ["gone"]}, "s.json")


def test_balancing_changes_train_and_dev_only():
    data = bios({("nurse", "F"): 15, ("nurse", "M"): 5, ("poet", "F"): 5, ("poet", "M"): 15})
    parts = apply_split(data, split_ids(data, 3))
    before = [dict(r) for r in parts["test"]]
    balanced, dropped = prepare_parts(parts, balanced=True, seed=5)
    assert dropped == []
    assert balanced["test"] == before
    for name in ("train", "dev"):
        counts = Counter((r["title"], r["gender"]) for r in balanced[name])
        assert counts[("nurse", "F")] == counts[("nurse", "M")] > 0
        assert counts[("poet", "F")] == counts[("poet", "M")] > 0
    same, none = prepare_parts(parts, balanced=False, seed=5)
    assert same == parts and none == []


def test_vectors_are_read_for_the_wanted_words_and_scaled_on_request(tmp_path):
    path = tmp_path / "v.vec"
    path.write_text("3 2\nnurse 3 4\npoet 1 0\nnurse 9 9\n", encoding="utf-8")
    read = read_vec(path, duplicates="first", words=["nurse", "absent"])
    found = dict(zip(read.words, read.matrix, strict=True))
    assert list(found) == ["nurse"] and found["nurse"].tolist() == [3.0, 4.0]
    assert unit_rows(found)["nurse"].tolist() == pytest.approx([0.6, 0.8])
    (tmp_path / "bad.vec").write_text("1 3\nnurse 1 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.vec, line 2: word 'nurse' has 2 "):
        read_vec(tmp_path / "bad.vec", words=["nurse"])


SETTINGS = ClassifierSettings(
    min_df=2, rows=40, hidden=8, batch_size=16, max_epochs=10, min_epochs=1, patience=3
)


def test_a_run_learns_the_title_words_and_resumes_from_its_checkpoint(tmp_path):
    data = bios({("nurse", "F"): 30, ("nurse", "M"): 30, ("poet", "F"): 30, ("poet", "M"): 30})
    parts = apply_split(data, split_ids(data, 1))
    vec = tmp_path / "v.vec"
    rng = np.random.default_rng(0)
    words = ["patients", "poems", "city", "years", "she", "he"]
    vec.write_text(
        f"{len(words)} 4\n"
        + "".join(f"{w} {' '.join(map(str, rng.normal(size=4)))}\n" for w in words),
        encoding="utf-8",
    )
    result = run_classifier(parts, vec, SETTINGS, text="scrubbed", balanced=False, seed=11)
    assert result.metrics["avg"] == 100.0 and result.metrics["diff"] == 0.0
    assert result.n == {"train": 72, "dev": 24, "test": 24}
    # the vocabulary is fit on the raw bios (the pronouns too), as the authors did
    assert result.training["with_vector"] == 6
    rows = tpr_rows(result, 0)
    assert [
        (r["title"], r["tpr_female"], r["tpr_male"], r["n_female"] + r["n_male"], r["in_diff"])
        for r in rows
    ] == [("nurse", "100.0000", "100.0000", 12, True), ("poet", "100.0000", "100.0000", 12, True)]
    # a run killed after its first four epochs resumes from the checkpoint to the same end
    checkpoint = tmp_path / "run.pt"
    short = ClassifierSettings(**{**SETTINGS.__dict__, "max_epochs": 4})
    run_classifier(
        parts, vec, short, text="scrubbed", balanced=False, seed=11, checkpoint=checkpoint
    )
    resumed = run_classifier(
        parts, vec, SETTINGS, text="scrubbed", balanced=False, seed=11, checkpoint=checkpoint
    )
    assert resumed.training["history"] == pytest.approx(result.training["history"], abs=1e-6)
    with pytest.raises(ValueError, match="text must be one of"):
        run_classifier(parts, vec, SETTINGS, text="bio", balanced=False, seed=1)


def test_mean_metrics():
    runs = [
        {"avg": 80, "female": 70, "male": 90, "diff": 20},
        {"avg": 60, "female": 50, "male": 70, "diff": float("nan")},
    ]
    mean = mean_metrics(runs)
    assert (mean["avg"], mean["female"], mean["male"]) == (70, 60, 80) and math.isnan(mean["diff"])
    with pytest.raises(ValueError, match="no runs"):
        mean_metrics([])


def fake_result(seed: int) -> RunResult:
    """A run's result whose metrics and TPRs tell its seed."""
    tpr = {"nurse": {"F": float(seed), "M": 50.0, "n_F": 2, "n_M": 1}}
    return RunResult(
        metrics={"avg": float(seed), "female": 1.0, "male": 2.0, "diff": float(seed) / 2},
        tpr=tpr,
        occupations=("nurse",),
        training={"epochs": seed},
        dropped=[],
        n={"train": seed},
    )


def test_run_seeds_runs_each_seed_with_its_checkpoints_and_collects_the_runs(tmp_path, caplog):
    stem = tmp_path / "metrics.json"
    calls = []

    def run(seed, checkpoint):
        calls.append((seed, checkpoint))
        for path in [checkpoint] if isinstance(checkpoint, str) else checkpoint:
            (tmp_path / path).write_text("state")
        return fake_result(seed)

    with caplog.at_level("INFO", logger="mgbias.bios.experiment"):
        runs = run_seeds(["7", 9], run, stem)
    assert calls == [(7, f"{stem}.0.pt"), (9, f"{stem}.1.pt")]
    assert "run 1 (seed 9): {'avg': 9.0" in caplog.text
    assert [run["seed"] for run in runs.runs] == [7, 9]
    assert list(runs.runs[0]) == ["seed", "metrics", "occupations", "dropped", "n", "training"]
    assert runs.runs[1]["occupations"] == ["nurse"] and runs.runs[1]["n"] == {"train": 9}
    assert runs.metrics == {"avg": 8.0, "female": 1.0, "male": 2.0, "diff": 4.0}
    assert [(row["run"], row["tpr_female"]) for row in runs.tpr] == [(0, "7.0000"), (1, "9.0000")]
    assert runs.checkpoints == [f"{stem}.0.pt", f"{stem}.1.pt"]
    runs.remove_checkpoints()
    assert list(tmp_path.iterdir()) == []
    runs.remove_checkpoints()  # gone already: nothing to do

    calls.clear()
    staged = run_seeds([3], run, "m.json", stages=("source", "fine_tune"))
    assert calls == [(3, ("m.json.0.source.pt", "m.json.0.fine_tune.pt"))]
    assert staged.checkpoints == ["m.json.0.source.pt", "m.json.0.fine_tune.pt"]
    with pytest.raises(ValueError, match="no runs"):
        _ = run_seeds([], run, stem).metrics


def result(space, diff, text="scrubbed", sampling="original", lang="es"):
    return {
        "world": "real",
        "lang": lang,
        "space": space,
        "text": text,
        "sampling": sampling,
        "runs": 1,
        "avg": 80.0,
        "female": 79.0,
        "male": 81.0,
        "diff": diff,
    }


def test_monolingual_table_arrows_compare_with_the_languages_own_space():
    rows = monolingual_rows(
        [
            result("es", 10.0),
            result("es-en", 12.5),
            result("es-endeb", 7.25),
            result("es", 4.0, sampling="balanced"),
            result("de-en", 1.0, lang="de"),
        ]
    )
    assert [(r["table"], r["space"], r["diff"], r["arrow"]) for r in rows] == [
        ("6", "es", 10.0, ""),
        ("6", "es-en", 12.5, "up"),
        ("6", "es-endeb", 7.25, "down"),
        ("", "es", 4.0, ""),
        ("14", "de-en", 1.0, ""),  # no de row: no arrow
    ]
    markdown = monolingual_markdown(rows)
    assert "| 6 | es-en | scrubbed | original | 80.00 | 79.00 | 81.00 | 12.50 ↑ |" in markdown
    assert "**DE (real)**" in markdown
    assert (
        paper_table("fr", "scrubbed", "original") == "14"
        and paper_table("en", "raw", "original") == ""
    )
    assert arrow(1.0, 1.0) == ""


def test_the_tables_carry_the_standard_errors_over_the_runs():
    from mgbias.bios.experiment import metric_standard_errors

    runs = [
        {"avg": 80.0, "female": 79.0, "male": 81.0, "diff": 2.0},
        {"avg": 82.0, "female": 78.0, "male": 86.0, "diff": 8.0},
    ]
    # two runs: sd (n - 1) / sqrt(n) = |a - b| / 2, by hand
    errors = metric_standard_errors(runs)
    assert errors == pytest.approx(
        {"avg_se": 1.0, "female_se": 0.5, "male_se": 2.5, "diff_se": 3.0}
    )
    assert all(math.isnan(v) for v in metric_standard_errors(runs[:1]).values())
    rows = monolingual_rows([{**result("es", 5.0), **errors}, result("es-en", 12.5)])
    assert (rows[0]["diff"], rows[0]["diff_se"]) == (5.0, 3.0)
    assert math.isnan(rows[1]["diff_se"])  # one run: no standard error
    markdown = monolingual_markdown(rows)
    assert "| 80.00 ± 1.00 | 79.00 ± 0.50 | 81.00 ± 2.50 | 5.00 ± 3.00 |" in markdown
    assert "| 80.00 | 79.00 | 81.00 | 12.50 ↑ |" in markdown


def write_vec(path, words, seed):
    rng = np.random.default_rng(seed)
    path.write_text(
        f"{len(words)} 4\n"
        + "".join(f"{w} {' '.join(map(str, rng.normal(size=4)))}\n" for w in words),
        encoding="utf-8",
    )
    return path


def spanish(rows: list[dict]) -> list[dict]:
    words = {"patients": "pacientes", "poems": "poemas", "city": "ciudad", "years": "años"}
    out = []
    for row in rows:
        out.append(
            {
                **row,
                "id": "es-" + row["id"],
                **{k: " ".join(words.get(w, w) for w in row[k].split()) for k in ("raw", "bio")},
            }
        )
    return out


def test_transfer_fine_tunes_with_the_target_embedding_and_resumes(tmp_path):
    from mgbias.bios.experiment import fine_tune_share, run_transfer

    counts = {("nurse", "F"): 20, ("nurse", "M"): 20, ("poet", "F"): 20, ("poet", "M"): 20}
    en = bios(counts, seed=1) + bios({("chef", "F"): 10, ("chef", "M"): 10}, seed=2)
    es = spanish(bios(counts, seed=3))
    en_parts = apply_split(en, split_ids(en, 1))
    es_parts = apply_split(es, split_ids(es, 2))
    en_vec = write_vec(tmp_path / "en.vec", ["patients", "poems", "city", "she", "he"], 0)
    es_vec = write_vec(tmp_path / "es.vec", ["pacientes", "poemas", "ciudad", "she", "he"], 1)
    checkpoints = (tmp_path / "src.pt", tmp_path / "tune.pt")
    kwargs = dict(labels=["poet", "nurse"], share=0.5, text="scrubbed", balanced=False, seed=4)
    result = run_transfer(en_parts, es_parts, en_vec, es_vec, SETTINGS, **kwargs)
    # chef is not a transfer label; half the 48 target training bios fine-tune
    assert result.n == {"train": 24, "dev": 16, "test": 16}
    assert result.metrics["avg"] >= 75.0
    assert set(result.training) == {"source", "fine_tune"}
    again = run_transfer(
        en_parts, es_parts, en_vec, es_vec, SETTINGS, checkpoints=checkpoints, **kwargs
    )
    assert again.metrics == result.metrics  # checkpoints change nothing
    resumed = run_transfer(
        en_parts, es_parts, en_vec, es_vec, SETTINGS, checkpoints=checkpoints, **kwargs
    )
    assert resumed.training["fine_tune"]["history"] == again.training["fine_tune"]["history"]
    assert fine_tune_share(list(range(10)), 1.0, 1) == list(range(10))
    assert fine_tune_share(list(range(10)), 0.2, 1) == fine_tune_share(list(range(10)), 0.2, 1)
    assert len(fine_tune_share(list(range(10)), 0.2, 1)) == 2
    with pytest.raises(ValueError, match="differ in dimension"):
        (tmp_path / "bad.vec").write_text("1 3\nhe 1 2 3\n", encoding="utf-8")
        run_transfer(en_parts, es_parts, en_vec, tmp_path / "bad.vec", SETTINGS, **kwargs)


def test_transferred_model_keeps_the_target_matrix_and_the_source_weights():
    import torch

    from mgbias.bios.classifier import BiGRUAttention
    from mgbias.bios.experiment import transfer_model

    source = BiGRUAttention(np.ones((6, 4), dtype=np.float32), 3, hidden=8)
    target_matrix = np.full((6, 4), 2.0, dtype=np.float32)
    model = transfer_model(source, target_matrix, SETTINGS)
    assert torch.equal(model.embedding.weight, torch.full((6, 4), 2.0))
    assert torch.equal(model.gru.weight_ih_l0, source.gru.weight_ih_l0)
    assert torch.equal(model.out.weight, source.out.weight)


def test_transfer_labels_are_those_of_both_languages_seven_with_french():
    from mgbias.bios.experiment import (
        FRENCH_TRANSFER_LABELS,
        TRANSFER_LABELS,
        transfer_labels,
    )

    by_language = {"fr": list(FRENCH_TRANSFER_LABELS)}
    assert len(TRANSFER_LABELS) == 8 and len(FRENCH_TRANSFER_LABELS) == 7
    assert set(TRANSFER_LABELS) - set(FRENCH_TRANSFER_LABELS) == {"professor"}
    assert transfer_labels("en", "es", TRANSFER_LABELS, by_language) == sorted(TRANSFER_LABELS)
    # French as the target or the source: the seven
    for src, tgt in (("en", "fr"), ("fr", "en")):
        labels = transfer_labels(src, tgt, TRANSFER_LABELS, by_language)
        assert labels == sorted(FRENCH_TRANSFER_LABELS) and "professor" not in labels
    assert transfer_labels("de", "fr", ["a", "b"], {"fr": ["b", "c"], "de": ["b"]}) == ["b"]
    with pytest.raises(ValueError, match="en->fr: no occupation in both"):
        transfer_labels("en", "fr", ["a"], {"fr": ["b"]})


def test_tables_10_and_11_in_the_papers_row_order():
    from mgbias.bios.tables import (
        encoder_markdown,
        encoder_rows,
        encoder_transfer_markdown,
        encoder_transfer_rows,
    )

    def result(**keys):
        metrics = {"avg": 80.123, "female": 79.0, "male": 81.0, "diff": 12.345}
        return {"world": "real", "text": "scrubbed", "runs": 1, **metrics, **keys}

    rows = encoder_rows(
        [
            result(lang=lang, space="mbert", sampling=sampling)
            for lang in ("fr", "de", "en", "es")
            for sampling in ("balanced", "original")
        ]
    )
    assert [(r["table"], r["lang"], r["sampling"]) for r in rows] == [
        ("10", "en", "original"),
        ("10", "es", "original"),
        ("10", "de", "original"),
        ("10", "fr", "original"),
        ("", "en", "balanced"),
        ("", "es", "balanced"),
        ("", "de", "balanced"),
        ("", "fr", "balanced"),
    ]
    assert rows[0]["encoder"] == "mbert" and rows[0]["avg"] == 80.12 and rows[0]["diff"] == 12.35
    markdown = encoder_markdown(rows)
    assert "**Table 10: mbert (real; scrubbed, original)**" in markdown
    assert "**mbert (real; scrubbed, balanced)**" in markdown
    assert "| EN | 80.12 | 79.00 | 81.00 | 12.35 |" in markdown
    transfer = encoder_transfer_rows(
        [
            result(src="en", tgt=tgt, src_space="mbert", tgt_space="mbert", sampling="original")
            for tgt in ("fr", "es", "de")
        ]
    )
    assert [(r["table"], r["src"], r["tgt"]) for r in transfer] == [
        ("11", "en", "es"),
        ("11", "en", "de"),
        ("11", "en", "fr"),
    ]
    assert "| EN→FR | 80.12 |" in encoder_transfer_markdown(transfer)
