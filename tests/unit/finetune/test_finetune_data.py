"""D_f and D_m from monolingual text (Kaneko et al. 2023, §2): counts, exclusion of
both-gender sentences, downsampling to N, disjoint development sets, seeded bytes."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mgbias.finetune.gendered_text import (
    GenderedTextCounts,
    counts_frame,
    mine_gendered_text,
)
from mgbias.wordlists import load_gender_words

WORDS = load_gender_words("kaneko2023_en_female", "kaneko2023_en_male")


def corpus(tmp_path: Path) -> Path:
    """30 female, 20 male, 5 both-gender and 7 neutral sentences, gzip, with blank lines."""
    lines = (
        [f"She reads book {i} ." for i in range(30)]
        + [f"my brother buys bread {i} ." for i in range(20)]
        + [f"his wife met him {i} ." for i in range(5)]
        + [f"the shepherd sings {i} ." for i in range(7)]  # "shepherd" is not "she"
    )
    order = [(7 * i) % len(lines) for i in range(len(lines))]  # 7 is coprime with 62: a shuffle
    path = tmp_path / "news.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n\n".join(lines[i] for i in order) + "\n  \n")
    return path


def mine(tmp_path: Path, source: Path, tag: str, **kwargs) -> tuple[GenderedTextCounts, dict]:
    outputs = {
        name: tmp_path / tag / f"{name}.txt"
        for name in ("out_female", "out_male", "out_dev_female", "out_dev_male")
    }
    counts = mine_gendered_text(source, *WORDS, **outputs, progress=False, **kwargs)
    return counts, {name: path.read_text(encoding="utf-8") for name, path in outputs.items()}


def test_counts_and_sizes(tmp_path):
    counts, texts = mine(tmp_path, corpus(tmp_path), "a", n=12, n_dev=4, seed=1)
    assert counts == GenderedTextCounts(
        n_sentences=62, n_female=30, n_male=20, n_both=5, n_neutral=7, n_kept=12, n_dev=4
    )
    lines = {name: text.splitlines() for name, text in texts.items()}
    assert [len(lines[name]) for name in lines] == [12, 12, 4, 4]
    assert all(line.startswith("She reads book") for line in lines["out_female"])
    assert all(line.startswith("She reads book") for line in lines["out_dev_female"])
    assert all(line.startswith("my brother") for line in lines["out_male"] + lines["out_dev_male"])
    # Development and training sentences are disjoint; the kept lines keep corpus order.
    assert not set(lines["out_female"]) & set(lines["out_dev_female"])
    assert not set(lines["out_male"]) & set(lines["out_dev_male"])
    numbers = [int(line.split()[3]) for line in lines["out_female"]]
    positions = [(7 * i) % 62 for i in range(62)]
    assert sorted(numbers, key=positions.index) == numbers
    assert {name.name for name in (tmp_path / "a").iterdir()} == {
        "out_female.txt",
        "out_male.txt",
        "out_dev_female.txt",
        "out_dev_male.txt",
    }  # no scratch or partial files left


def test_default_n_is_the_smaller_set_after_dev(tmp_path):
    counts, texts = mine(tmp_path, corpus(tmp_path), "a", n=None, n_dev=5, seed=1)
    assert counts.n_kept == 15  # min(30, 20) - 5
    assert len(texts["out_male"].splitlines()) == 15
    assert sorted(texts["out_male"].splitlines() + texts["out_dev_male"].splitlines()) == sorted(
        f"my brother buys bread {i} ." for i in range(20)
    )


def test_same_seed_same_bytes_other_seed_other_sample(tmp_path):
    source = corpus(tmp_path)
    _, first = mine(tmp_path, source, "a", n=10, n_dev=3, seed=7)
    _, again = mine(tmp_path, source, "b", n=10, n_dev=3, seed=7)
    _, other = mine(tmp_path, source, "c", n=10, n_dev=3, seed=8)
    assert first == again
    assert first["out_female"] != other["out_female"]
    assert first["out_male"] != other["out_male"]


def test_too_few_sentences_names_the_counts(tmp_path):
    source = corpus(tmp_path)
    with pytest.raises(
        ValueError, match=r"30 female and 20 male .* male has 20, fewer than N = 18"
    ):
        mine(tmp_path, source, "a", n=18, n_dev=3, seed=0)
    assert not (tmp_path / "a" / "out_female.txt").exists()  # nothing written
    # without n, the rarer gender must hold one training sentence beside the n_dev
    with pytest.raises(
        ValueError, match=r"30 female and 20 male .* male has 20, fewer than N = 1 training "
        r"\+ 20 development sentences \(lower n_dev, or give text with more male sentences\)"
    ):  # fmt: skip
        mine(tmp_path, source, "a", n=None, n_dev=20, seed=0)
    counts, _ = mine(tmp_path, source, "a", n=None, n_dev=19, seed=0)
    assert (counts.n_kept, counts.n_dev) == (1, 19)
    with pytest.raises(ValueError, match="n_dev must be a non-negative integer"):
        mine(tmp_path, source, "a", n=5, n_dev=-1, seed=0)
    with pytest.raises(ValueError, match="seed"):
        mine(tmp_path, source, "a", n=5, n_dev=1, seed=-1)


def test_german_text_with_german_lists(tmp_path):
    source = tmp_path / "de.txt"
    source.write_text(
        "Sie liest ein Buch .\ner liest ein Buch .\nsie ruft ihren Bruder an .\n"
        "das Wetter ist gut .\nmeine Schwester kocht .\nder Junge spielt .\n",
        encoding="utf-8",
    )
    words = load_gender_words("kaneko2023_de_female", "kaneko2023_de_male")
    outputs = {name: tmp_path / f"{name}.txt" for name in ("f", "m", "df", "dm")}
    counts = mine_gendered_text(
        source,
        *words,
        out_female=outputs["f"],
        out_male=outputs["m"],
        out_dev_female=outputs["df"],
        out_dev_male=outputs["dm"],
        n=2,
        n_dev=0,
        seed=0,
        progress=False,
    )
    assert (counts.n_female, counts.n_male, counts.n_both, counts.n_neutral) == (2, 2, 1, 1)
    assert outputs["f"].read_text() == "Sie liest ein Buch .\nmeine Schwester kocht .\n"
    assert outputs["dm"].read_text() == ""


def test_counts_frame_round_trips_the_json(tmp_path):
    counts, _ = mine(tmp_path, corpus(tmp_path), "a", n=12, n_dev=4, seed=1)
    records = [
        {"corpus": "news", "lang": "fr", **counts.to_dict()},
        json.loads(json.dumps({"corpus": "news", "lang": "en", **counts.to_dict()})),
    ]
    frame = counts_frame(records, keys=["corpus", "lang"])
    assert frame["lang"].tolist() == ["en", "fr"]
    assert frame.columns.tolist()[:4] == ["corpus", "lang", "n_sentences", "n_female"]
    with pytest.raises(ValueError, match="'n_both' must be a non-negative integer"):
        counts_frame([{"corpus": "x", "lang": "en", **counts.to_dict(), "n_both": -1}], ["lang"])


def test_split_lines_rejects_overlapping_selections(tmp_path):
    import io

    import numpy as np

    from mgbias.kaneko2022.mining import split_lines

    source = tmp_path / "lines.txt"
    source.write_text("a\nb\nc", encoding="utf-8")
    first, second = io.StringIO(), io.StringIO()
    split_lines(source, [(np.array([2, 0]), first), (np.array([1]), second)])
    assert (first.getvalue(), second.getvalue()) == ("a\nc\n", "b\n")
    with pytest.raises(ValueError, match=r"lines\.txt: line 2 is selected for two outputs"):
        split_lines(source, [(np.array([1]), first), (np.array([1]), second)])
    with pytest.raises(ValueError, match="expected line 5 but the file ended"):
        split_lines(source, [(np.array([4]), first)])
