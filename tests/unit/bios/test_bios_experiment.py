"""One classifier run (Zhao et al. 2020, §5): settings, split ids, vectors, balanced
train and dev with an untouched test split, resume, and the monolingual table."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from mgbias.bios.experiment import (
    ClassifierSettings,
    apply_split,
    mean_metrics,
    prepare_parts,
    read_vectors_for,
    run_classifier,
    split_ids,
    tpr_rows,
    unit_rows,
)
from mgbias.bios.tables import arrow, monolingual_markdown, monolingual_rows, paper_table


def test_settings_default_to_the_authors_and_reject_unknown_keys():
    settings = ClassifierSettings.from_config({"runs": 3, "monolingual": {"de": ["de"]}})
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
        ClassifierSettings.from_config({"epochs": 3})


def bios(counts: dict[tuple[str, str], int], seed: int = 0) -> list[dict]:
    """Bios whose text tells the title by a word and the gender by a pronoun (raw only)."""
    rng = random.Random(seed)
    filler = ["city", "years", "work", "team", "family", "school", "award"]
    rows = []
    for (title, gender), n in counts.items():
        for i in range(n):
            words = [rng.choice(filler) for _ in range(5)] + [
                {"nurse": "patients", "poet": "poems"}[title]
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
    found = read_vectors_for(path, ["nurse", "absent"])
    assert list(found) == ["nurse"] and found["nurse"].tolist() == [3.0, 4.0]
    assert unit_rows(found)["nurse"].tolist() == pytest.approx([0.6, 0.8])
    (tmp_path / "bad.vec").write_text("1 3\nnurse 1 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.vec, line 2: 2 values, header says 3"):
        read_vectors_for(tmp_path / "bad.vec", ["nurse"])


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
